// touchline-view's two pipes to its parent (ViewHost.swift): blocking reads of standard input
// and whole writes to standard output. The only unsafe code of TouchlineView: a buffer's
// pointer for read(2) and write(2).
import Glibc

public enum StandardStreams {
    /// What standard input has now, up to 64 KiB, waiting for some; empty at its end (or on an
    /// error: the same to the host, whose parent is then gone).
    public static func read() -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            // In bounds: read(2) writes at most chunk.count bytes into chunk's own storage.
            let n = chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return [] }
            return Array(chunk[0..<n])
        }
    }

    /// Writes `bytes` whole to `fd` (1: the parent's pipe; 2: the user's messages); false when
    /// it cannot (the reader gone).
    @discardableResult
    public static func write(_ bytes: [UInt8], to fd: Int32 = 1) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // `offset < raw.count`, so the pointer and length stay inside the array.
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    /// Ends the process with `status`.
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// SIGPIPE ignored: a parent gone is a failed write, not a kill in the middle of one.
    public static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }
}
