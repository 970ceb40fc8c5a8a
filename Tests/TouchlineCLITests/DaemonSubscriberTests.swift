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
        let daemon = try CleanProcess(
            daemon: ["--source", "trace:" + Self.recording, "--speed", "50", "--start-delay", "1", "--socket", socketPath],
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
            daemon: ["--source", "trace:" + Self.recording, "--loop", "4", "--speed", "200", "--start-delay", "1", "--socket", socketPath],
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
