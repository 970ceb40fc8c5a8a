// Files for the pure trace and configuration readers, read through read(2).
import Glibc
import TouchlineTrace

/// A trace file read in chunks through read(2), for the pure trace readers. The descriptor
/// closes when the last copy of the source goes away (standard input's never does).
public struct FileByteSource: ByteSource {
    /// A failed open or read: the path, the errno and its text.
    public struct Error: ByteSourceError, CustomStringConvertible {
        public var path: String
        public var operation: String
        public var errno: Int32
        public var reason: String { String(cString: strerror(errno)) }
        public var description: String { "\(path): cannot \(operation): \(reason)" }
    }

    private final class Descriptor {
        let fd: Int32
        /// False for standard input: each `-` gets its own wrapper of fd 0, and closing it would
        /// let the next read fail (EBADF) or the next open(2) or mkstemp(3) take fd 0.
        let ownsDescriptor: Bool
        init(_ fd: Int32, ownsDescriptor: Bool = true) {
            self.fd = fd
            self.ownsDescriptor = ownsDescriptor
        }
        deinit { if ownsDescriptor { close(fd) } }
    }

    public let path: String
    private let descriptor: Descriptor

    public init(path: String) throws(Error) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Error(path: path, operation: "open", errno: errno) }
        // open(2) accepts a directory for reading; read(2) would then fail as if the disk had.
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw Error(path: path, operation: "open", errno: EISDIR)
        }
        self.path = path
        self.descriptor = Descriptor(fd)
    }

    private init(path: String, descriptor: Descriptor) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Standard input (the trace path `-`, or `--desc -`), read as any file but never closed.
    public static func standardInput() -> FileByteSource {
        FileByteSource(path: "<stdin>", descriptor: Descriptor(0, ownsDescriptor: false))
    }

    public mutating func read(into buffer: inout OutputSpan<UInt8>) throws {
        guard buffer.freeCapacity > 0 else { return }
        let fd = descriptor.fd
        let failure: Int32? = buffer.withUnsafeMutableBufferPointer { memory, initialized in
            // read(2) writes at most freeCapacity bytes, into the free part after `initialized`.
            let free = UnsafeMutableBufferPointer(rebasing: memory[initialized...])
            while true {
                let n = Glibc.read(fd, free.baseAddress, free.count)
                if n >= 0 {
                    initialized += min(n, free.count)
                    return nil
                }
                if errno != EINTR { return errno }
            }
        }
        if let failure { throw Error(path: path, operation: "read", errno: failure) }
    }

    /// A regular file can be opened again and seeked (a libinput record file with several
    /// devices is then read in place); a pipe, FIFO or terminal cannot. Nor can standard input,
    /// even redirected from a file: "opening `-` again" gives the same descriptor and offset
    /// to every reader, so it is held in memory as a pipe is.
    public var isRereadable: Bool {
        guard descriptor.ownsDescriptor else { return false }
        var st = stat()
        return fstat(descriptor.fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    public mutating func seek(to offset: Int) throws {
        guard lseek(descriptor.fd, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw Error(path: path, operation: "seek", errno: errno)
        }
    }

    /// A file that must be a regular file (a configuration). O_NONBLOCK makes open(2) of a FIFO
    /// return at once instead of waiting for a writer (which hung SIGHUP, and with it the
    /// daemon); fstat then refuses anything but a regular file, on which O_NONBLOCK changes
    /// nothing, so reads stay plain reads.
    /// `what`: what the file is, for the message that refuses another kind ("a guided plan"; a
    /// folder is then refused by the same sentence).
    public static func regularFile(path: String, what: String = "a configuration") throws -> FileByteSource {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw Error(path: path, operation: "open", errno: errno) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let failure = errno
            close(fd)
            throw Error(path: path, operation: "open", errno: failure)
        }
        let type = st.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(fd)
            if type == S_IFDIR && what == "a configuration" { throw Error(path: path, operation: "open", errno: EISDIR) }
            throw CLIError.noInput("\(path): not a regular file (\(type == S_IFDIR ? "a directory" : fileTypeName(type))); \(what) is read from a regular file")
        }
        return FileByteSource(path: path, descriptor: Descriptor(fd))
    }

    /// Whether anything (a file, a folder, a FIFO…) is at `path`.
    public static func isPresent(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// Whether a regular file exists at `path` (for finding a `.desc` beside an `.events`).
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }
}

/// A small file (a configuration) read whole, as raw bytes, up to `limit` bytes: the TOML
/// reader checks the UTF-8 itself and names the bad byte, and refuses a file past its own cap
/// with the line where the cap falls, so its caller asks for one byte more than that cap and
/// nothing larger is ever held. Traces are streamed instead.
public func readSmallFile(_ path: String, limit: Int, what: String = "a configuration") throws -> [UInt8] {
    var source = try FileByteSource.regularFile(path: path, what: what)
    var bytes: [UInt8] = []
    while bytes.count < limit {
        let before = bytes.count
        try bytes.append(addingCapacity: min(64 * 1024, limit - bytes.count)) { (free: inout OutputSpan<UInt8>) throws in try source.read(into: &free) }
        if bytes.count == before { break }
    }
    return bytes
}

/// What a non-regular file is, for the message that refuses it.
private func fileTypeName(_ type: mode_t) -> String {
    switch type {
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    default: "of an unknown type"
    }
}
