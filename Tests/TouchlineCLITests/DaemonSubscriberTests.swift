// Several clients of one real daemon process, on a real socket, fed by a shared recording
// (a Wacom DTH2242 touchscreen: taps, long presses, pans, pinches and a rotation): each client
// gets exactly the events its filter admits, and one that never reads costs the others nothing.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct DaemonSubscriberTests {
    static let recording = Paths.trace("libinput-record/Wacom DTH2242 Finger.yml")

    /// A short directory under /tmp (sun_path holds 108 bytes), removed by the caller.
    static func directory() throws -> String {
        let dir = "/tmp/touchline-subscribers-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        return dir
    }

    static func gesture(of line: String) -> String? {
        line.firstMatch(of: /"gesture":"([A-Za-z]+)"/).map { String($0.output.1) }
    }

    /// Two subscribers with different filters, one by a list of names and one by the object
    /// form (after two malformed messages), each receive exactly replay's lines of their
    /// gestures, in replay's order.
    @Test func twoSubscribersGetExactlyTheirEvents() throws {
        let replay = try touchline("replay", Self.recording)
        #expect(replay.status == 0)
        let lines = replay.lines.map(String.init)
        let wantA = lines.filter { ["tap", "longPress"].contains(Self.gesture(of: $0)) }
        let wantB = lines.filter { ["pinch", "rotate"].contains(Self.gesture(of: $0)) }
        try #require(wantA.count > 10 && wantB.count > 10 && wantA.count + wantB.count < lines.count)

        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/touchline.sock"
        // --stay: B is read only after A has all its events, by then the trace has ended; a
        // daemon that stopped at the end would drop what it still held for B (as at SIGTERM).
        let daemon = try CleanProcess(
            daemon: ["--source", "trace:" + Self.recording, "--speed", "50", "--start-delay", "1", "--stay", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }

        let a = try DaemonClient(path: socketPath)
        try a.send("{\"subscribe\": [\"tap\", \"longPress\"]}\n")
        #expect(try a.line() == "{\"ok\":{\"subscribe\":{\"gestures\":[\"longPress\",\"tap\"],\"targets\":[],\"devices\":[]}}}")
        let b = try DaemonClient(path: socketPath)
        // Malformed messages first: each gets its error, and the connection goes on.
        try b.send("not json\n")
        #expect(try b.line()?.hasPrefix("{\"error\":\"not JSON") == true)
        try b.send("{\"subscribe\": [\"swipe\", \"wave\"]}\n")
        #expect(try b.line()?.contains("wave") == true)
        try b.send("{\"subscribe\": {\"gestures\": [\"pinch\", \"rotate\"], \"devices\": [0]}}\n")
        #expect(try b.line()?.hasPrefix("{\"ok\":") == true)

        var gotA: [String] = []
        while gotA.count < wantA.count, let line = try a.line(timeout: 20) { gotA.append(line) }
        var gotB: [String] = []
        while gotB.count < wantB.count, let line = try b.line(timeout: 20) { gotB.append(line) }
        #expect(gotA == wantA)
        #expect(gotB == wantB)

        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait()?.status == 0, "daemon: \(daemon.output)")
        ended = true
        // Nothing else was queued for either: the connection closes after their last event.
        #expect(try a.line() == nil)
        #expect(try b.line() == nil)
    }

    /// A client still reading when a played trace ends gets every event queued for it: the
    /// daemon lets it take them (for at most 2 s) before it exits 0 on its own. bead128's
    /// daemon closed the connection at once, and what its queue held beyond the socket's buffer
    /// was lost: of these 196 lines (45 KB), the buffer takes about 167, a line costing the
    /// kernel over 1 KB of its 208 KiB (measured with a client that reads only at the end).
    @Test func aClientReadingAtTheTraceEndGetsEverything() throws {
        let replay = try touchline("replay", Self.recording)
        #expect(replay.status == 0)
        let gestures = ["tap", "longPress", "pinch", "rotate"]
        let lines = replay.lines.map(String.init).filter { gestures.contains(Self.gesture(of: $0) ?? "") }
        try #require(lines.count > 190)
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--source", "trace:" + Self.recording, "--speed", "50", "--start-delay", "1", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        let client = try DaemonClient(path: socketPath)
        try client.send("{\"subscribe\": [\"tap\", \"longPress\", \"pinch\", \"rotate\"]}\n")
        #expect(try client.line()?.hasPrefix("{\"ok\":{\"subscribe\":") == true)
        // Nothing is read until the daemon says the trace has ended: by then its queue for
        // this client holds what the socket's buffer could not.
        let said = try whenChanged(dir, timeout: 60) { daemon.output.contains("played to its end") ? true : nil }
        #expect(said == true, "daemon: \(daemon.output)")
        var got: [String] = []
        while let line = try client.line(timeout: 20) { got.append(line) }
        #expect(got.count == lines.count)
        #expect(got == lines)
        #expect(daemon.wait()?.status == 0, "daemon: \(daemon.output)")
        ended = true
    }

    /// Issue 24, item 11 (on 8d7af8f a client that shut down its writing side after its
    /// subscribe line was closed at once: `line()` gave nil, not even the reply): a half-closed
    /// client still gets its reply and the events, also when its last line had no newline; one
    /// that half-closes having said nothing is closed.
    @Test func aClientThatHalfClosesStillReceives() throws {
        let daemon = try TapDaemon(startDelay: 1.5)
        let withNewline = try DaemonClient(path: daemon.socket)
        let withoutNewline = try DaemonClient(path: daemon.socket)
        let silent = try DaemonClient(path: daemon.socket)
        try withNewline.send(#"{"subscribe": []}"# + "\n")
        try withoutNewline.send(#"{"subscribe": ["tap"]}"#)
        for client in [withNewline, withoutNewline, silent] { #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0) }
        #expect(try withNewline.line() == #"{"ok":{"subscribe":{"gestures":[],"targets":[],"devices":[]}}}"#)
        #expect(try withoutNewline.line() == #"{"ok":{"subscribe":{"gestures":["tap"],"targets":[],"devices":[]}}}"#)
        #expect(try silent.line() == nil)
        let replay = try String(contentsOf: Paths.recordings.appendingPathComponent("tap.events.jsonl"), encoding: .utf8)
        for client in [withNewline, withoutNewline] { #expect(try client.line() == replay.trimmingCharacters(in: .newlines)) }
        #expect(daemon.stop() == 0, "daemon: \(daemon.process.output)")
        for client in [withNewline, withoutNewline] { #expect(try client.line() == nil) }
    }

    /// Issue 24, item 11 (on 8d7af8f `{"subscribe": {"devices": [900000000000000000]}}` was
    /// answered `{"ok":{"subscribe":{…,"devices":[900000000000000000]}}}`): a device number
    /// the daemon will never give is an error, in a registration too, and the connection goes on.
    @Test func aDeviceNumberOutOfRangeIsAnError() throws {
        let daemon = try TapDaemon(startDelay: 1.5)
        let client = try DaemonClient(path: daemon.socket)
        try client.send(#"{"subscribe": {"devices": [0, 900000000000000000]}}"# + "\n")
        #expect(try client.line() == #"{"error":"subscribe.devices[1]: expected a device number from 0 to 999999 (as events' \"device\"), found 900000000000000000"}"#)
        try client.send(#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "devices": [1000000], "recognizers": [{"kind": "tap"}]}}"# + "\n")
        #expect(try client.line() == #"{"error":"register.devices[0]: expected a device number from 0 to 999999 (as events' \"device\"), found 1000000"}"#)
        try client.send(#"{"subscribe": {"devices": [999999, 0]}}"# + "\n")
        #expect(try client.line() == #"{"ok":{"subscribe":{"gestures":[],"targets":[],"devices":[0,999999]}}}"#)
        let replay = try String(contentsOf: Paths.recordings.appendingPathComponent("tap.events.jsonl"), encoding: .utf8)
        #expect(try client.line() == replay.trimmingCharacters(in: .newlines))
        #expect(daemon.stop() == 0, "daemon: \(daemon.process.output)")
    }

    /// A client that subscribes and never reads: the other client still receives every event of
    /// four plays of the recording (about 1.4 MB, more than the slow client's queue and its
    /// socket buffer together), and the slow one, when it finally reads, is told how many of
    /// its events were dropped.
    @Test func aClientThatNeverReadsDelaysNobodyAndCountsItsDrops() throws {
        let replay = try touchline("replay", Self.recording)
        let perPlay = replay.lines.count
        try #require(perPlay > 1000)

        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--source", "trace:" + Self.recording, "--loop", "4", "--speed", "200", "--start-delay", "1", "--stay", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }

        let slow = try DaemonClient(path: socketPath)
        try slow.send("{\"subscribe\": []}\n")
        let reader = try DaemonClient(path: socketPath)
        try reader.send("{\"subscribe\": []}\n")
        #expect(try reader.line()?.hasPrefix("{\"ok\":") == true)
        var events = 0
        var notices: [String] = []
        while events < 4 * perPlay, let line = try reader.line(timeout: 30) {
            if line.hasPrefix("{\"v\":") { events += 1 } else { notices.append(line) }
        }
        #expect(events == 4 * perPlay)
        #expect(notices.isEmpty, "the reading client lost events: \(notices.prefix(3))")

        // Now the slow client reads: what was queued, then the count of what was not.
        var report: String?
        var received = 0
        while report == nil, let line = try slow.line(timeout: 20) {
            if line.hasPrefix("{\"dropped\":") { report = line } else { received += 1 }
        }
        let counts = try #require(report?.firstMatch(of: /\{"dropped":(\d+),"total":(\d+)\}/))
        let dropped = Int(counts.output.1) ?? 0
        #expect(dropped > 0)
        #expect(Int(counts.output.2) == dropped, "one report, so far: \(report ?? "")")
        // Every event was either queued for it or counted as dropped (the reply is one line).
        #expect(received - 1 + dropped <= 4 * perPlay)

        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait()?.status == 0, "daemon: \(daemon.output)")
        ended = true
    }
}
