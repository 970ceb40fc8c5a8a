// Unbuffered output and real-time pacing for the live commands. Each JSON line leaves in one
// write(2) as soon as it is complete: a live consumer (and the latency measurement) must not
// wait for a buffer to fill.
import CLibevdev
import Glibc
import TouchlineCore

/// Where a live sink writes its lines: a descriptor written at once (`FileOutput`), or
/// `daemon --stdout`'s output that never waits for its reader (`NonBlockingOutput`).
public protocol LineOutput {
    /// Writes `bytes`, one or more whole lines.
    func write(_ bytes: [UInt8]) throws(SystemError)
}

public struct FileOutput: Sendable, LineOutput {
    public let fd: Int32
    public static let standardOutput = FileOutput(fd: 1)
    public static let standardError = FileOutput(fd: 2)

    public init(fd: Int32) { self.fd = fd }

    /// Opens (creates, truncates) a file for writing.
    public init(creating path: String) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError.last("open for writing", path: path) }
        self.fd = fd
    }

    public func close() { _ = Glibc.close(fd) }

    public func write(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset) }
            if n < 0 {
                if touchline_errno() == EINTR { continue }
                throw SystemError.last("write")
            }
            offset += n
        }
    }

    public func write(_ string: String) throws(SystemError) { try write(Array(string.utf8)) }
}

/// Waits for instants on CLOCK_MONOTONIC, for playing a trace in real time.
public enum RealTime {
    public static func now() -> Timestamp { EventLoop.now() }

    /// Sleeps until `instant` (absolute, so delays do not accumulate over a long trace).
    public static func wait(until instant: Timestamp) {
        var ts = timespec(tv_sec: Int(instant.microseconds / 1_000_000), tv_nsec: Int(instant.microseconds % 1_000_000) * 1000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}

/// Reads a text file whole (traces are read by the CLI through this in live commands).
public func readWholeFile(_ path: String) throws(SystemError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError.last("open", path: path) }
    defer { _ = close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if touchline_errno() == EINTR { continue }
            throw SystemError.last("read", path: path)
        }
        if n == 0 { break }
        result.append(contentsOf: chunk[0..<n])
    }
    return result
}

/// Whether a file exists (for sibling `.desc` lookup).
public func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }
