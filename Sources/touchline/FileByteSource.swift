#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TouchlineTrace

/// A trace file read in chunks through read(2), for the pure trace readers. The descriptor
/// closes when the last copy of the source goes away.
struct FileByteSource: ByteSource {
    /// A failed open or read: the path, the errno and its text.
    struct Error: Swift.Error, CustomStringConvertible {
        var path: String
        var operation: String
        var errno: Int32
        var description: String { "\(path): cannot \(operation): \(String(cString: strerror(errno)))" }
    }

    private final class Descriptor {
        let fd: Int32
        init(_ fd: Int32) { self.fd = fd }
        deinit { close(fd) }
    }

    let path: String
    private let descriptor: Descriptor

    init(path: String) throws(Error) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Error(path: path, operation: "open", errno: errno) }
        self.path = path
        self.descriptor = Descriptor(fd)
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(descriptor.fd, base, buffer.count)
            #else
            let n = Darwin.read(descriptor.fd, base, buffer.count)
            #endif
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw Error(path: path, operation: "read", errno: errno)
        }
    }

    /// Whether a regular file exists at `path` (for finding a `.desc` beside an `.events`).
    static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }
}

/// A file written through write(2), for the trace writers (`convert -o`). Created or
/// truncated with mode 0644; "-" is stdout. The descriptor closes when the last copy goes away.
struct FileByteSink: ByteSink {
    private final class Descriptor {
        let fd: Int32
        let owned: Bool
        init(_ fd: Int32, owned: Bool) { self.fd = fd; self.owned = owned }
        deinit { if owned { close(fd) } }
    }

    let path: String
    private let descriptor: Descriptor

    init(path: String) throws(FileByteSource.Error) {
        self.path = path
        if path == "-" {
            descriptor = Descriptor(1, owned: false)
            return
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileByteSource.Error(path: path, operation: "create", errno: errno) }
        descriptor = Descriptor(fd, owned: true)
    }

    mutating func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let n = Glibc.write(descriptor.fd, raw.baseAddress! + offset, raw.count - offset)
                #else
                let n = Darwin.write(descriptor.fd, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileByteSource.Error(path: path, operation: "write", errno: errno)
                }
                offset += n
            }
        }
    }
}
