import Foundation
import Testing

@Suite struct ReplayTests {
    /// The same trace gives the same bytes on every run.
    @Test(arguments: ["Recordings/pinch.yml", "Recordings/double-tap.yml", "Recordings/long-press.yml"])
    func byteIdenticalAcrossRuns(_ recording: String) throws {
        let path = Paths.root.appendingPathComponent(recording).path
        let first = try touchline("replay", path)
        let second = try touchline("replay", path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stdout.isEmpty)
        #expect(first.stdout == second.stdout)
        let frames1 = try touchline("replay", "--frames", path)
        let frames2 = try touchline("replay", "--frames", path)
        #expect(frames1.stdout == frames2.stdout && !frames1.stdout.isEmpty)
    }

    @Test func framesAreJSONLinesWithTimeFirst() throws {
        let result = try touchline("replay", "--frames", Paths.recordings.appendingPathComponent("two-finger-tap.yml").path)
        #expect(result.status == 0)
        let lines = result.lines
        #expect(lines.count == 2, "a down frame and an up frame")
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["time"] is Double)
            #expect(object?["contacts"] is [Any])
        }
        // Both contacts began in the first, ended in the second.
        expectReport(result.stdout, "replay-frames-two-finger-tap.jsonl")
    }

    @Test func warnsWhenTheDeviceHasNoResolution() throws {
        let result = try touchline("replay", "--frames", Paths.trace("evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"))
        #expect(result.status == 0)
        #expect(result.stderr.contains("no resolution"))
        let sized = try touchline("replay", "--frames", "--size", "154x86", Paths.trace("evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"))
        #expect(sized.status == 0)
        #expect(sized.stderr.isEmpty, "\(sized.stderr)")
    }

    @Test func rejectsAMalformedSize() throws {
        try expectErrors([(["replay", "--frames", "--size", "wide", Paths.recordings.appendingPathComponent("tap.yml").path], 64)],
                         "replay-size-wide.stderr.txt")
    }
}

/// `touchline replay` prints exactly the golden events beside each bundled recording (the
/// library-level golden test in TouchlineGesturesTests checks the same files through the API).
@Suite struct ReplayGoldenTests {
    static let recordings: [String] = (try? FileManager.default.contentsOfDirectory(atPath: Paths.recordings.path))?
        .filter { $0.hasSuffix(".yml") }.sorted() ?? []

    @Test func everyRecordingHasAGoldenFile() {
        #expect(Self.recordings.count >= 10)
        for name in Self.recordings {
            let golden = Paths.recordings.appendingPathComponent(name.replacingOccurrences(of: ".yml", with: ".events.jsonl"))
            #expect(FileManager.default.fileExists(atPath: golden.path), "\(name) has no golden file")
        }
    }

    @Test(arguments: recordings)
    func replayEqualsGolden(_ name: String) throws {
        // A recording whose gesture needs targets has its graph beside it (NAME.toml).
        let options = Paths.recordingConfig(name).map { ["--config", $0] } ?? []
        let result = try touchline(arguments: ["replay"] + options + [Paths.recordings.appendingPathComponent(name).path])
        #expect(result.status == 0, "\(result.stderr)")
        let golden = try String(contentsOf: Paths.recordings.appendingPathComponent(name.replacingOccurrences(of: ".yml", with: ".events.jsonl")), encoding: .utf8)
        #expect(result.stdout == golden)
    }

    @Test func explainSaysWhoWonAndWhy() throws {
        let result = try touchline("replay", "--explain", Paths.recordings.appendingPathComponent("double-tap.yml").path)
        #expect(result.status == 0)
        // tap won (≤ 300.0 ms), longPress failed (lost to tap), each with its reason.
        expectReport(result.stdout, "replay-explain-double-tap.jsonl")
        // Without --explain, the same gestures and no explain lines.
        let plain = try touchline("replay", Paths.recordings.appendingPathComponent("double-tap.yml").path)
        #expect(!plain.stdout.contains("explain"))
        let gestures = result.lines.filter { !$0.contains("\"gesture\":\"explain\"") }.map { $0.replacing(/"seq":\d+,/, with: "") }
        #expect(gestures == plain.lines.map { $0.replacing(/"seq":\d+,/, with: "") })
    }

    @Test func configErrorsNameFileLineAndColumn() throws {
        let dir = Paths.temporaryDirectory()
        let config = dir.appendingPathComponent("bad.toml")
        try Data("# a target whose rectangle lacks its height\n[[target]]\nname = \"button\"\nrect = [10, 10, 20]\n".utf8).write(to: config)
        let result = try touchline("replay", "--config", config.path, Paths.recordings.appendingPathComponent("tap.yml").path)
        #expect(result.status == 65)
        #expect(result.stderr == "touchline: \(config.path):4:8: found an array for a target's rect; expected [x, y, width, height], four numbers\n", "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// Issue 12: invalid graphs are refused before anything runs, exit 65, with the file, the
    /// line and column of the key at fault and what is wrong. On 532b116 the cycle and min > max configs exited 0
    /// (no events for the cycle), the 900-byte name died by SIGILL and the 3,000-byte one by
    /// SIGSEGV.
    @Test(arguments: [
        ("[[recognizer]]\nname = \"tap\"\nkind = \"tap\"\nrequiresFailureOf = \"doubleTap\"\n\n[[recognizer]]\nname = \"doubleTap\"\nkind = \"tap\"\ntaps = 2\nrequiresFailureOf = \"tap\"\n",
         ":4:1: requiresFailureOf makes recognizers wait for each other's failure for ever: tap → doubleTap → tap; remove one of these relations"),
        ("[[recognizer]]\nkind = \"pan\"\nminimumFingers = 5\nmaximumFingers = 2\n",
         ":3:1: recognizer 'pan' (pan): minimumFingers 5 is more than maximumFingers 2; expected minimumFingers ≤ maximumFingers"),
        ("[[recognizer]]\nname = \"\(String(repeating: "n", count: 900))\"\nkind = \"tap\"\n",
         ":2:1: recognizer name '\(String(repeating: "n", count: 40))…' is 900 bytes; a name is at most 64 bytes of UTF-8"),
        ("[[target]]\nname = \"\(String(repeating: "n", count: 3000))\"\nrect = [0, 0, 10, 10]\n",
         ":2:1: target name '\(String(repeating: "n", count: 40))…' is 3000 bytes; a name is at most 64 bytes of UTF-8"),
    ])
    func invalidGraphsAreRefused(config text: String, message: String) throws {
        let dir = Paths.temporaryDirectory()
        let config = dir.appendingPathComponent("graph.toml")
        try Data(text.utf8).write(to: config)
        let result = try touchline("replay", "--config", config.path, Paths.recordings.appendingPathComponent("pinch.yml").path)
        #expect(result.status == 65)
        #expect(result.stderr == "touchline: \(config.path)\(message)\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func exampleConfigRuns() throws {
        try touchline("replay", "--config", Paths.root.appendingPathComponent("docs/example-config.toml").path,
                      Paths.recordings.appendingPathComponent("double-tap.yml").path).expect(status: 0, stdout: "replay-example-config.jsonl")
    }
}
