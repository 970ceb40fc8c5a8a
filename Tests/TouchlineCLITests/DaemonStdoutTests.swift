// `touchline daemon --stdout` as one more subscriber (issue 24, item 3), on the real process with
// a real pipe as its standard output: a reader that never reads holds up neither the socket's
// clients nor SIGTERM, and loses exactly the events reported on stderr; an action's own output
// goes to stderr, never into the event stream. Waits are on descriptors (the socket, a FIFO).
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A pipe made for a daemon's standard output: the test keeps the reading end.
struct OutputPipe {
    let read: Int32
    let write: Int32

    /// `size`: the pipe's capacity in bytes (F_SETPIPE_SZ; the kernel's default is 64 KiB).
    init(size: Int32? = nil) throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        read = fds[0]
        write = fds[1]
        // Close-on-exec: the daemon gets the writing end as its fd 1 only (dup2 clears the flag).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // F_SETPIPE_SZ (1031): Glibc's header defines it for _GNU_SOURCE only.
        if let size { try #require(fcntl(write, 1031, size) >= size) }
    }

    /// Everything in the pipe once its writers are gone.
    func drain() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A FIFO in `dir` the test reads without blocking: `line()` waits for what an action writes.
struct ActionFIFO {
    let path: String
    let fd: Int32
    var pending: [UInt8] = []

    init(in dir: String, name: String = "action.fifo") throws {
        path = dir + "/" + name
        try #require(mkfifo(path, 0o600) == 0)
        // Opened before any writer: O_NONBLOCK lets the open return; poll waits for the first one.
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(fd >= 0)
    }

    /// The next line a writer sends, waiting up to `timeout` s; nil once every writer is gone.
    mutating func line(timeout: Double = 10) throws -> String? {
        let limit = Date().addingTimeInterval(timeout)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                defer { pending.removeSubrange(...newline) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            let left = limit.timeIntervalSinceNow
            try #require(left > 0, "nothing from the action within \(timeout) s")
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, Int32(left * 1000) + 1)
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 { pending += buffer[0..<n] } else if n == 0 && ready.revents & Int16(POLLHUP) != 0 { return nil }
        }
    }

    /// Whether every writer closed it within `timeout` s (a process holding it ended).
    mutating func closed(within timeout: Double) throws -> Bool {
        let limit = Date().addingTimeInterval(timeout)
        while true {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = max(0, limit.timeIntervalSinceNow)
            guard poll(&ready, 1, Int32(left * 1000)) == 1 else { return false }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return true }
            if n > 0 { pending += buffer[0..<n] }
        }
    }

    func close() {
        _ = Glibc.close(fd)
        unlink(path)
    }
}

extension CleanProcess {
    /// The daemon on pinch.yml at `speed` times its speed (100 unless given), with one
    /// `[[action]]` for the pinch (its other keys in `keys`), in `dir`; with `--stdout` to
    /// `standardOutput` when given. It stays after the trace (--stay): SIGTERM, not the end,
    /// ends it and its actions.
    init(pinchAction keys: String, in dir: ScratchDirectory, standardOutput: Int32? = nil, speed: String = "100") throws {
        let config = try dir.write("daemon.toml", "[[action]]\ngesture = \"pinch\"\n" + keys + "\n")
        let recording = Paths.recordings.appendingPathComponent("pinch.yml").path
        try self.init(
            daemon: ["--config", config, "--source", "trace:" + recording, "--speed", speed, "--stay", "--socket", dir.path + "/touchline.sock"]
                + (standardOutput == nil ? [] : ["--stdout"]),
            outputIn: URL(fileURLWithPath: dir.path), standardOutput: standardOutput)
    }
}

@Suite struct DaemonStdoutTests {
    let recording = Paths.recordings.appendingPathComponent("pinch.yml").path

    func replayLines() throws -> [String] {
        let replay = try touchline("replay", recording)
        #expect(replay.status == 0)
        return replay.lines.map(String.init)
    }

    /// The daemon's stdout is a 4 KiB pipe nobody reads while 20 copies of pinch.yml (1,781
    /// events, 390 KB) play: a subscriber still gets every event, one connecting half way
    /// still gets its reply, SIGTERM ends the daemon at once with 0, and the lines in the pipe
    /// (all whole) plus the drops stderr reports are every event.
    @Test func aStdoutNobodyReadsHoldsUpNothing() throws {
        let copies = 20
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let socketPath = dir.path + "/touchline.sock"
        let output = try OutputPipe(size: 4096)
        defer { close(output.read) }
        let daemon = try CleanProcess(
            daemon: ["--source", "trace:" + recording, "--speed", "50", "--loop", String(copies), "--start-delay", "0.5",
                     "--socket", socketPath, "--stdout"],
            outputIn: URL(fileURLWithPath: dir.path), standardOutput: output.write)
        close(output.write)
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }

        let client = try DaemonClient(path: socketPath)
        try client.send("{\"subscribe\": []}\n")
        #expect(try client.line() == "{\"ok\":{\"subscribe\":{\"gestures\":[],\"targets\":[],\"devices\":[]}}}")
        // Each copy's last event is an `ended` (the pinch's, then a pan's); `seq` counts from 0.
        var received = 0
        var endings = 0
        while endings < copies {
            let line = try #require(try client.line(timeout: 5), "the connection closed after \(received) events")
            try #require(line.hasPrefix("{\"v\":1,\"seq\":\(received),"), "not event \(received): \(line)")
            received += 1
            if line.contains("\"phase\":\"ended\"") { endings += 1 }
            if endings == copies / 2 && line.contains("\"phase\":\"ended\"") {
                // By now the pipe has long been full: a new client is answered all the same.
                let late = try DaemonClient(path: socketPath)
                try late.send("{\"subscribe\": [\"tap\"]}\n")
                #expect(try late.line(timeout: 5)?.hasPrefix("{\"ok\":{\"subscribe\":{\"gestures\":[\"tap\"]") == true)
            }
        }

        let start = Date()
        kill(daemon.pid, SIGTERM)
        let end = daemon.wait()
        ended = true
        #expect(end?.status == 0, "daemon: \(daemon.output)")
        #expect(Date().timeIntervalSince(start) < 3, "SIGTERM took \(Date().timeIntervalSince(start)) s")

        let inPipe = output.drain()
        #expect(inPipe.hasSuffix("\n"), "a line was cut")
        let lines = inPipe.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("{\"v\":1,") && $0.hasSuffix("}") })
        // Each report counts the drops since the last; their sum is every event not in the pipe.
        let reports = daemon.output.split(separator: "\n").filter { $0.hasPrefix("touchline: stdout: ") && $0.contains(" dropped (reader too slow)") }
        let dropped = reports.compactMap { Int($0.dropFirst("touchline: stdout: ".count).prefix { $0.isNumber }) }.reduce(0, +)
        #expect(!reports.isEmpty && dropped > 0, "stderr: \(daemon.output)")
        #expect(lines.count + dropped == received, "\(lines.count) in the pipe, \(dropped) dropped; stderr: \(daemon.output)")
    }

    /// An action that prints on its standard output: the lines go to the daemon's stderr (the
    /// journal), and --stdout carries replay's event lines only.
    @Test func anActionsOutputGoesToStderrNotIntoTheEvents() throws {
        let expected = try replayLines()
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        var fifo = try ActionFIFO(in: dir.path)
        defer { fifo.close() }
        let output = try OutputPipe()
        defer { close(output.read) }
        let daemon = try CleanProcess(pinchAction: """
            shell = true
            argv = "echo action-output-$TOUCHLINE_PHASE; echo ran > '\(fifo.path)'"
            """, in: dir, standardOutput: output.write)
        close(output.write)
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        // The pinch's end is its last event: once its action ran, every line has been written.
        #expect(try fifo.line() == "ran")

        kill(daemon.pid, SIGTERM)
        let end = daemon.wait()
        ended = true
        #expect(end?.status == 0, "daemon: \(daemon.output)")
        let events = output.drain().split(separator: "\n").map(String.init)
        #expect(!events.contains { $0.contains("action-output") }, "an action's output in the event stream")
        #expect(events == expected, "stdout: \(events)")
        #expect(daemon.output.contains("action-output-ended\n"), "stderr: \(daemon.output)")
    }
}
