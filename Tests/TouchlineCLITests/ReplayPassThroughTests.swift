// `touchline replay FILE --config C --passthrough OUT.yml` (docs/live.md#pass-through): what an
// application on the daemon's pass-through clone would receive, as a libinput record file
// libinput's own tools read.
import Foundation
import Testing
import TouchlineCore
import TouchlineTrace

@Suite struct ReplayPassThroughTests {
    /// Recordings/edge-swipe-left.yml, tap.yml and pan.yml one after the other in one trace
    /// (one device: the recordings share it), each shifted to start 1 s after the previous
    /// one's last event.
    static func edgeSwipeTapPan(into path: String) throws {
        var devices: [DeviceDescription] = []
        var events: [InputEvent] = []
        var offset: Int64 = 0
        for name in ["edge-swipe-left.yml", "tap.yml", "pan.yml"] {
            let bytes = try Paths.bytes(Paths.recordings.appendingPathComponent(name).path)
            var reader = try TraceReader(source: BytesSource(bytes), fileName: name)
            var last: Int64 = 0
            while let e = try reader.next() {
                var event = e.event
                event.time.microseconds += offset
                last = event.time.microseconds
                events.append(event)
            }
            devices = reader.devices
            offset = last + 1_000_000
        }
        var writer = LibinputRecordWriter(devices: devices, sink: BytesSink())
        writer.origin = .zero
        for event in events { try writer.write(TraceEvent(device: 0, event: event)) }
        try writer.finish()
        try Data((writer.sink as! BytesSink).bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A frame of `replay --frames` without the contact ids (the clone's are its own) and
    /// slots: time, then each contact's phase, position, pressure and size.
    static func framesWithoutIDs(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").map { line in
            String(line).replacing(/"id":\d+,/, with: "").replacing(/"slot":\d+,/, with: "")
        }
    }

    /// A kiosk's graph for `edgeSwipeTapPan`: the edge swipe consumed, the tap and the pan not.
    static let consumingEdgeSwipe = """
        [[recognizer]]
        kind = "edgeSwipe"
        consume = true

        [[recognizer]]
        kind = "tap"

        [[recognizer]]
        kind = "pan"
        """

    @Test func theClonesRecordHoldsTheTapAndThePanButNotTheConsumedEdgeSwipe() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("edge-tap-pan.yml").path
        try Self.edgeSwipeTapPan(into: trace)
        let config = dir.appendingPathComponent("kiosk.toml").path
        try Self.consumingEdgeSwipe.write(toFile: config, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("clone.yml").path
        // In the trace's folder, so that the summary names the clone's record as it was given.
        let result = try touchline(in: dir, "replay", "edge-tap-pan.yml", "--config", "kiosk.toml", "--passthrough", "clone.yml", "--explain")
        // The edge swipe's events, the explain lines, a hold line per contact; on standard error
        // the summary: 2 contacts sent at once, 1 dropped.
        result.expect(status: 0, stdout: "replay-passthrough-explain.jsonl", stderr: "replay-passthrough.stderr.txt")
        // The gesture events are replay's, whatever the clone receives.
        let plain = try touchline("replay", trace, "--config", config, "--explain")
        #expect(result.lines.filter { !$0.hasPrefix("{\"passthrough\"") } == plain.lines)
        // A hold line per contact: the edge swipe's held then dropped, the tap's and the pan's
        // sent at once.
        let holds = result.lines.filter { $0.hasPrefix("{\"passthrough\"") }.map { String($0.split(separator: ",")[0]) }
        #expect(holds == ["{\"passthrough\":\"dropped\"", "{\"passthrough\":\"forwarded\"", "{\"passthrough\":\"forwarded\""])

        // The clone's record: two touch sequences, the tap's and the pan's, with the input's
        // times, positions, pressure and size, frame for frame.
        let input = try touchline("replay", "--frames", trace)
        let clone = try touchline("replay", "--frames", out)
        #expect(clone.status == 0, "\(clone.stderr)")
        let sequences = clone.lines.filter { $0.contains("\"phase\":\"began\"") }
        #expect(sequences.count == 2)
        let inputFrames = Self.framesWithoutIDs(input.stdout)
        // The edge swipe is the input's first touch: every frame up to its lift is left out.
        let firstLift = try #require(inputFrames.firstIndex { $0.contains("\"phase\":\"ended\"") })
        #expect(Self.framesWithoutIDs(clone.stdout) == Array(inputFrames[(firstLift + 1)...]))

        // libinput's own tools read it.
        let analyze = try libinput("analyze", "per-slot-delta", out)
        #expect(analyze.status == 0, "\(analyze.stderr)")
        #expect(!analyze.stdout.isEmpty)
    }

    /// A consuming three-finger swipe (pan limited to two fingers, so the swipe decides) with a
    /// hold of its own long enough for the stroke: none of the three touches reaches the clone,
    /// and the swipe is recognized. With the standard bound (150 ms / 16 mm) the same touches
    /// are released to the app after 18 mm: a swipe decides at its lift.
    @Test func aConsumingThreeFingerSwipeWithItsOwnHoldNeverReachesTheClone() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = Paths.recordings.appendingPathComponent("three-finger-swipe-up.yml").path
        let graph = """
            [[recognizer]]
            name = "threeFingerSwipe"
            kind = "swipe"
            fingers = 3
            consume = true
            HOLD
            [[recognizer]]
            kind = "tap"

            [[recognizer]]
            kind = "pan"
            maximumFingers = 2
            """
        var summaries: [(String, String)] = []
        // With its own hold: 0 released by the hold bound, 3 dropped; with the standard one: 3
        // released by the hold bound, 0 dropped.
        for (hold, sequences) in [("hold = \"500ms\"\nholdDistance = \"80mm\"\n", 0), ("", 3)] {
            let config = dir.appendingPathComponent("swipe.toml").path
            try graph.replacingOccurrences(of: "HOLD\n", with: hold).write(toFile: config, atomically: true, encoding: .utf8)
            let out = dir.appendingPathComponent("clone.yml").path
            let result = try touchline(in: dir, "replay", trace, "--config", "swipe.toml", "--passthrough", "clone.yml")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.lines.contains { $0.contains(#""gesture":"swipe","phase":"recognized""#) && $0.contains(#""fingers":3"#) })
            summaries.append((hold.isEmpty ? "the standard hold" : hold.split(separator: "\n").joined(separator: "; "), result.stderr))
            let clone = try touchline("replay", "--frames", out)
            #expect(clone.stdout.split(separator: "\"phase\":\"began\"", omittingEmptySubsequences: false).count - 1 == sequences, "hold: \(hold)")
        }
        expectReport(Report.table(summaries), "replay-passthrough-hold.stderr.txt")
    }

    /// Every contact consumed: nothing reaches the app, and the clone's record says so with an
    /// empty list, `events: []`, which libinput's own tools read and `touchline replay` reads
    /// as a recording of nothing. Main wrote a bare `events:` (a null: `libinput analyze
    /// per-slot-delta` stopped on it with a TypeError) and `touchline replay` refused it (65).
    @Test func aCloneThatReceivesNothingIsARecordOfNothing() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = Paths.recordings.appendingPathComponent("edge-swipe-left.yml").path
        let config = dir.appendingPathComponent("kiosk.toml").path
        try "[[recognizer]]\nkind = \"edgeSwipe\"\nconsume = true\n\n[[recognizer]]\nkind = \"pan\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("clone.yml").path
        // 0 contacts sent at once, 1 dropped; the record ends in "events: []".
        let result = try touchline(in: dir, "replay", trace, "--config", "kiosk.toml", "--passthrough", "clone.yml")
        #expect(result.status == 0, "\(result.stderr)")
        expectReport(result.stderr, "replay-passthrough-nothing.stderr.txt")
        expectReport(try String(contentsOfFile: out, encoding: .utf8), "replay-passthrough-nothing.yml")
        let replayed = try touchline("replay", out)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == "")
        let analyze = try libinput("analyze", "per-slot-delta", out)
        #expect(analyze.status == 0, "\(analyze.stderr)")
        #expect(!analyze.stderr.contains("Traceback"), "\(analyze.stderr)")
    }

    /// `daemon --check-config` (start-up and SIGHUP read the file the same way) says when a
    /// consuming recognizer cannot claim within its hold bound, with both numbers and the fix;
    /// main said ok. With the hold it asks for, the file is fine.
    @Test func checkConfigSaysWhenAConsumingRecognizerCannotClaimWithinItsHold() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("kiosk.toml").path
        let press = "[[recognizer]]\nname = \"threeFingerPress\"\nkind = \"longPress\"\nfingers = 3\nconsume = true\n"
        try press.write(toFile: config, atomically: true, encoding: .utf8)
        // kiosk.toml:5:1: claims 500 ms after its contacts land, held at most 150 ms: raise hold.
        try touchline(in: dir, "daemon", "--check-config", "kiosk.toml").expect(status: 65, stderr: "check-config-hold.stderr.txt")
        try (press + "hold = \"600ms\"\n").write(toFile: config, atomically: true, encoding: .utf8)
        let fixed = try touchline("daemon", "--check-config", config)
        #expect(fixed.status == 0, "\(fixed.stderr)")
    }

    @Test func passthroughTakesOneTraceAndAFileName() throws {
        let tap = Paths.recordings.appendingPathComponent("tap.yml").path
        try touchline(in: Paths.recordings, "replay", "tap.yml", "tap.yml", "--passthrough", "/tmp/never-written.yml")
            .expect(status: 64, stderr: "replay-passthrough-two-traces.stderr.txt")
        let empty = try touchline("replay", tap, "--passthrough", "")
        #expect(empty.status == 64)
    }
}
