// `touchline record` of several devices: libinput record lists each device's events after its
// own header, so devices 1… cannot stream to the file while device 0 does. They used to wait in
// memory until the end (a long recording of a second touchscreen grew without bound); now each
// keeps at most `capacity` events in memory and spills the rest, in order, to an unlinked
// temporary file that is read back, a chunk at a time, when the recording is written out.
import Glibc
import TouchlineCore

public final class EventSpill {
    /// Events kept in memory before they are written out (16 bytes each).
    public let capacity: Int
    /// The events not yet spilled, encoded.
    var pending: [UInt8] = []
    /// The temporary file, made at the first spill (most recordings have one device, or a
    /// second that sends little); -1 until then.
    var fd: Int32 = -1
    /// Events appended in all.
    public private(set) var count = 0
    /// The most bytes `pending` ever held: the memory bound, for tests.
    public private(set) var peakBufferedBytes = 0
    let directory: String

    static let eventSize = 16

    /// `directory`: where the temporary file goes ($TMPDIR, else /tmp, by default).
    public init(capacity: Int = 4096, directory: String? = nil) {
        self.capacity = max(1, capacity)
        self.directory = directory ?? (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp")
        pending.reserveCapacity(self.capacity * Self.eventSize)
    }

    deinit { if fd >= 0 { close(fd) } }

    public func append(_ event: InputEvent) throws(SystemError) {
        if pending.count >= capacity * Self.eventSize { try spill() }
        withUnsafeBytes(of: event.time.microseconds.littleEndian) { pending.append(contentsOf: $0) }
        withUnsafeBytes(of: event.type.littleEndian) { pending.append(contentsOf: $0) }
        withUnsafeBytes(of: event.code.littleEndian) { pending.append(contentsOf: $0) }
        withUnsafeBytes(of: event.value.littleEndian) { pending.append(contentsOf: $0) }
        count += 1
        peakBufferedBytes = max(peakBufferedBytes, pending.count)
    }

    /// Every event appended, in order: the spilled ones read back `capacity` at a time, then
    /// those still in memory. Can be called once the recording is over (it leaves the file
    /// read to its end).
    public func forEach(_ body: (InputEvent) throws -> Void) throws {
        if fd >= 0 {
            try spill()
            guard lseek(fd, 0, SEEK_SET) == 0 else { throw SystemError.last("lseek", path: directory) }
            var chunk = [UInt8](repeating: 0, count: capacity * Self.eventSize)
            var filled = 0
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SystemError.last("read", path: directory)
                }
                filled += n
                let whole = filled / Self.eventSize * Self.eventSize
                try decode(chunk[0..<whole], body)
                // A read may end inside an event: its first bytes move to the front.
                for i in 0..<(filled - whole) { chunk[i] = chunk[whole + i] }
                filled -= whole
                if n == 0 { break }
            }
        } else {
            try decode(pending[...], body)
        }
    }

    func decode(_ bytes: ArraySlice<UInt8>, _ body: (InputEvent) throws -> Void) throws {
        var i = bytes.startIndex
        func load<T: FixedWidthInteger>(_: T.Type) -> T {
            var v: T = 0
            for k in 0..<MemoryLayout<T>.size { v |= T(truncatingIfNeeded: bytes[i + k]) << (8 * k) }
            i += MemoryLayout<T>.size
            return v
        }
        while i + Self.eventSize <= bytes.endIndex {
            let time = load(Int64.self)
            let type = load(UInt16.self)
            let code = load(UInt16.self)
            let value = load(Int32.self)
            try body(InputEvent(time: Timestamp(microseconds: time), type: type, code: code, value: value))
        }
    }

    /// Writes the pending events to the file (made now, unlinked at once, if it is the first).
    func spill() throws(SystemError) {
        if fd < 0 {
            var template = Array((directory + "/touchline-record-XXXXXX").utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard made >= 0 else { throw SystemError.last("create a temporary file", path: directory) }
            // Not inherited by the actions or anything else the process starts.
            _ = fcntl(made, F_SETFD, FD_CLOEXEC)
            // Unlinked: nothing is left behind, whatever ends the recording.
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            fd = made
        }
        var offset = 0
        while offset < pending.count {
            let n = pending.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError.last("write", path: directory)
            }
            offset += n
        }
        pending.removeAll(keepingCapacity: true)
    }
}
