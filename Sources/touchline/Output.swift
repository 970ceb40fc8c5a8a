#if canImport(Glibc)
import Glibc
#endif

/// Buffered writes to a file descriptor. JSON Lines go out in 64 KiB chunks: one write(2) per
/// line would cost more than recognizing the line.
struct OutputStream {
    let fd: Int32
    var buffer: [UInt8] = []
    let limit = 64 * 1024

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(limit + 4096)
    }

    mutating func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flush() }
    }

    mutating func flush() {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                // The reader went away (EPIPE from `| head`): stop quietly, as Unix tools do.
                exit(errno == EPIPE ? 0 : 74)
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A message for the user on stderr, prefixed with the program name.
func warn(_ message: String) {
    var err = OutputStream(fd: 2)
    err.write("touchline: " + message + "\n")
    err.flush()
}
