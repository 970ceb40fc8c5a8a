// `touchline daemon` as a user runs it: a real process, a real socket, a recording played in
// real time as its input. Waits are bounded polls (connect until the socket listens, read until
// the line arrives), each with a time limit, so a broken daemon fails the test, not hangs it.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A client of the daemon's socket, made with socket(2)/connect(2).
final class DaemonClient {
    let fd: Int32
    var pending: [UInt8] = []

    /// Connects to `path` once: the daemon was started with `CleanProcess(daemon:)`, which
    /// returns only once it said READY=1, so its socket listens.
    init(path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 {
            let reason = String(cString: strerror(errno))
            close(fd)
            try #require(rc == 0, "the daemon does not listen on \(path): \(reason)")
        }
        self.fd = fd
    }
    deinit { close(fd) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        try #require(n == bytes.count)
    }

    /// The next line, waiting up to `timeout` s for it; nil when the connection closed first.
    func line(timeout: Double = 10) throws -> String? {
        let limit = Date().addingTimeInterval(timeout)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let left = limit.timeIntervalSinceNow
            try #require(left > 0, "no line within \(timeout) s; have \(String(decoding: pending, as: UTF8.self))")
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, Int32(left * 1000) + 1)
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 { return nil }
            if n > 0 { pending.append(contentsOf: buffer[0..<n]) }
        }
    }
}

@Suite struct DaemonTests {
    /// The sources the daemon knows, and options that belong to another source, are checked
    /// before anything opens (the libinput source itself runs in the VM: scripts/vm/e2e.sh).
    @Test func sourceOptionsAreChecked() throws {
        try expectErrors([
            (["daemon", "--source", "usb", "--socket", "/nonexistent/s.sock"], 64),
            (["daemon", "--seat", "seat1", "--socket", "/nonexistent/s.sock"], 64),
            // Measuring pass-through into a file (issue 31) needs a device passed through:
            // without one, nothing would be written, and a measurement would read an empty pipe.
            (["daemon", "--source", "trace:" + Paths.recordings.appendingPathComponent("tap.yml").path, "--passthrough-to", "/nonexistent/p",
              "--socket", "/nonexistent/s.sock"], 64),
        ], "daemon-source-options.stderr.txt")
    }

    /// The events a subscriber receives for a recording are the lines `touchline replay` prints
    /// for it; SIGTERM then ends the daemon with status 0 and removes its socket.
    @Test func subscriberGetsWhatReplayPrints() throws {
        let recording = Paths.recordings.appendingPathComponent("pinch.yml").path
        let expected = try touchline("replay", recording)
        #expect(expected.status == 0)
        let replayLines = expected.lines.map(String.init)
        try #require(replayLines.last?.contains("\"phase\":\"ended\"") == true, "pinch.yml should end with the pinch's ended")

        // sun_path holds 108 bytes: a short directory under /tmp, not $TMPDIR.
        let dir = "/tmp/touchline-daemon-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--source", "trace:" + recording, "--speed", "100", "--start-delay", "0.5", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }

        let client = try DaemonClient(path: socketPath)
        try client.send("{\"subscribe\": []}\n")
        #expect(try client.line() == "{\"ok\":{\"subscribe\":{\"gestures\":[],\"targets\":[],\"devices\":[]}}}")
        var received: [String] = []
        while received.count < replayLines.count, let line = try client.line() {
            received.append(line)
            if line.contains("\"phase\":\"ended\"") && line.contains("\"gesture\":\"pinch\"") { break }
        }
        #expect(received == replayLines)

        kill(daemon.pid, SIGTERM)
        let end = daemon.wait()
        ended = true
        #expect(end?.status == 0, "daemon: \(daemon.output)")
        #expect(!FileManager.default.fileExists(atPath: socketPath), "the socket file is still there")
        // The daemon closed the connection on its way out.
        #expect(try client.line() == nil)
    }
}
