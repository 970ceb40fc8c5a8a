// `touchline daemon --source trace:FILE --loop N` (the soak's input, docs/performance.md) and
// the hidden `--measure` (the in-process latency at exit), on the real daemon process.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct DaemonLoopTests {
    /// Three copies of long-press.yml give a subscriber replay's events three times, each copy
    /// shifted by the same interval (the trace's span plus the one-second gap) so that time runs
    /// on; only the contact numbers go on counting, as on a device touched three times.
    /// With --measure the daemon reports its latency percentiles on stderr at exit.
    @Test func loopPlaysTheTraceAgainWithTimeRunningOn() throws {
        let recording = Paths.recordings.appendingPathComponent("long-press.yml").path
        let expected = try touchline("replay", recording)
        #expect(expected.status == 0)
        let replayEvents = try expected.lines.map { try event(String($0)) }
        try #require(replayEvents.count == 2)

        let dir = "/tmp/touchline-loop-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--source", "trace:" + recording, "--loop", "3", "--speed", "20", "--start-delay", "0.5",
             "--measure", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }

        let client = try DaemonClient(path: socketPath)
        try client.send("{\"subscribe\": []}\n")
        #expect(try client.line()?.hasPrefix("{\"ok\":") == true)
        var received: [[String: Any]] = []
        while received.count < 3 * replayEvents.count, let line = try client.line() {
            received.append(try event(line))
        }
        try #require(received.count == 3 * replayEvents.count)
        let shift = try #require(time(received[2]) - time(received[0]) as Double?)
        #expect(shift >= 1.0, "each copy starts at least a second after the last one's end")
        for (k, got) in received.enumerated() {
            let want = replayEvents[k % replayEvents.count]
            #expect(strip(got) == strip(want), "event \(k)")
            #expect(abs(time(got) - time(want) - Double(k / replayEvents.count) * shift) < 1e-6, "event \(k)'s time")
        }

        kill(daemon.pid, SIGTERM)
        let end = daemon.wait()
        ended = true
        #expect(end?.status == 0, "daemon: \(daemon.output)")
        #expect(daemon.output.contains("latency frame read → event written to the socket:"), "daemon: \(daemon.output)")
        #expect(daemon.output.contains("p99.9"), "daemon: \(daemon.output)")
    }

    @Test func loopIsCheckedBeforeAnythingRuns() throws {
        let recording = Paths.recordings.appendingPathComponent("long-press.yml").path
        // At least 1; only with --source trace:FILE; a file it can read again.
        try expectErrors([
            (["daemon", "--source", "trace:" + recording, "--loop", "0", "--socket", "/tmp/never-made.sock"], 64),
            (["daemon", "--loop", "2", "--socket", "/tmp/never-made.sock"], 64),
            (["daemon", "--source", "trace:-", "--loop", "2", "--socket", "/tmp/never-made.sock"], 64),
        ], "daemon-loop.stderr.txt")
    }

    /// Timing options that reached a trap converting Double to Int64 (SIGILL, the socket left
    /// behind) are refused before anything runs, naming the option and its range.
    @Test func timingOptionsOutOfRangeAreRefused() throws {
        let recording = Paths.recordings.appendingPathComponent("long-press.yml").path
        let cases = [("--speed", "1e-15"), ("--speed", "1e308"), ("--speed", "1e12"), ("--start-delay", "9.3e12"), ("--start-delay", "-1")]
        try expectErrors(cases.map { option, value in
            (["daemon", "--source", "trace:" + recording, option + "=" + value, "--socket", "/tmp/never-made.sock"], 64)
        }, "daemon-timing-options.stderr.txt")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-made.sock"))
    }

    func event(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
    }

    func time(_ event: [String: Any]) -> Double { event["time"] as? Double ?? .nan }

    /// The event without what a later copy changes: its time, its sequence number, its contacts.
    func strip(_ event: [String: Any]) -> NSDictionary {
        var event = event
        for key in ["time", "seq", "contacts"] { event[key] = nil }
        return event as NSDictionary
    }
}
