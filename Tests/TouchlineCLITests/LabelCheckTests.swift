import Foundation
import Testing

/// Labels are checked as an `[[action]]`'s filters are (issue 36, item 2): a typo in a gesture
/// or a field, a word for a number, a window that holds nothing, each refused with the line and
/// column, exit 65, where they used to hold or miss silently (`{"none": "rotat"}` always held).
/// And what `score` reads (items 3 to 5): streamed in order, regular files only, a labels file
/// given twice read once.
@Suite struct LabelCheckTests {
    /// A folder holding `panel.evemu`, one tap of 80 ms.
    static func tapPanel() throws -> URL {
        let dir = Paths.temporaryDirectory()
        var p = CraftedPanel()
        p.stroke(at: 0, x: 100, y: 60, duration: 0.08, steps: 2)
        try p.text.write(to: dir.appendingPathComponent("panel.evemu"), atomically: true, encoding: .utf8)
        return dir
    }

    /// A one-tap panel and a labels file whose third line is `label`.
    func score(_ label: String, _ extra: String...) throws -> CLIResult {
        let dir = try Self.tapPanel()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = dir.appendingPathComponent("labels.json").path
        try "{\"version\": 1, \"recordings\": [\n {\"file\": \"panel.evemu\", \"expect\": [\n  \(label)\n ]}\n]}\n"
            .write(toFile: labels, atomically: true, encoding: .utf8)
        var result = try touchline(arguments: ["score", labels] + extra)
        result.stderr = result.stderr.replacingOccurrences(of: dir.path + "/", with: "")
        return result
    }

    @Test func typosInLabelsAreRefusedWithTheirPlace() throws {
        let gestures = "tap, longPress, pan, swipe, edgeSwipe, pinch, rotate, peek, pop, peekActions, drag, spring"
        let cases: [(String, String)] = [
            (#"{"none": "rotat"}"#, #"labels.json:3:12: panel.evemu: "none": 'rotat' is no gesture; gestures: \#(gestures)"#),
            (#"{"has": ["pan", "nosuch"]}"#, #"labels.json:3:19: panel.evemu: "has": 'nosuch' is no gesture; gestures: \#(gestures)"#),
            (#"{"has": "tap", "where": {"edge": ["==", "left"]}}"#,
             "labels.json:3:28: panel.evemu: tap events have no field 'edge'; their fields: phase, fingers, x, y, tool, count, duration"),
            (#"{"has": "tap", "where": {"fingers": ["==", "two"]}}"#,
             #"labels.json:3:46: panel.evemu: fingers: found "two", expected a number (fingers is one)"#),
            (#"{"has": "edgeSwipe", "where": {"edge": ["==", "lef"]}}"#,
             #"labels.json:3:49: panel.evemu: edge: found "lef", expected one of left, right, top, bottom"#),
            (#"{"has": "tap", "where": {"phase": ["==", "begun"]}}"#,
             #"labels.json:3:44: panel.evemu: phase: found "begun", expected one of recognized, began, changed, ended, cancelled"#),
            (#"{"has": "tap", "from": 2, "to": 1}"#,
             #"labels.json:3:26: panel.evemu: the window is empty: "from" 2.0 is after "to" 1.0: {"has": "tap", "from": 2, "to": 1}"#),
            (#"{"has": "tap", "to": -1}"#,
             #"labels.json:3:24: panel.evemu: "to" -1 ends the window before the recording's first event (0 s): {"has": "tap", "to": -1}"#),
            (#"{"has": "tap", "min": 1e18}"#,
             #"labels.json:3:25: panel.evemu: "min" is how many matching events at least, a whole number from 1 to 1000000: found 1e+18"#),
            (#"{"none": "tap", "min": 2}"#,
             #"labels.json:3:3: panel.evemu: "min" applies to a has label (a none label holds with no matching event): {"none": "tap", "min": 2}"#),
            (#"{"has": "tap", "has": "pan"}"#, #"labels.json:3:18: not JSON: the key "has" again in one object; expected each key once"#),
        ]
        for (label, message) in cases {
            let result = try score(label)
            #expect(result.status == 65 && result.stderr == "touchline: \(message)\n", "\(label): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // What is right still holds: a pop is a gesture (a peek's), `from` may pad before the
        // first event as the shared labels do.
        let right = try score(#"{"has": "tap", "from": -0.1, "to": 1, "where": {"fingers": ["==", 1], "phase": ["==", "recognized"]}}, {"none": "pop"}"#)
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.lines == ["ok   panel.evemu: has tap -0.10..1.00 s fingers==1 phase==recognized", "ok   panel.evemu: none pop",
                                "score: 2/2 labels hold (1 file)", "spurious: 0 events where a none label says there should be none"])
    }

    /// A label's check and an action's agree: the same word for a number is refused in an
    /// `[[action]]` (there through the kinds' declared field sorts, FieldFilter.sort).
    @Test func anActionTakesNoWordForANumberEither() throws {
        // d.toml:3:11: … a number without quotes.
        try checkConfig("[[action]]\ngesture = \"tap\"\nfingers = \"two\"\nargv = [\"true\"]\n", name: "d.toml")
            .expect(status: 65, stderr: "check-config-word-for-number.stderr.txt")
    }

    /// `score` prints each recording's lines as its window finishes: the recordings before a
    /// bad one are reported before the error (they used to be read all before anything).
    @Test func scoreStreamsRecordingsInOrder() throws {
        let dir = try Self.tapPanel()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = dir.appendingPathComponent("labels.json").path
        let good = #"{"file": "panel.evemu", "expect": [{"has": "tap"}]}"#
        try "[\(good), \(good), \(good), {\"file\": \"missing.evemu\", \"expect\": []}]".write(toFile: labels, atomically: true, encoding: .utf8)
        let result = try touchline(in: dir, "score", "labels.json", "--jobs", "1")
        #expect(result.status == 66)
        #expect(result.lines == ["ok   panel.evemu: has tap", "ok   panel.evemu: has tap", "ok   panel.evemu: has tap"], "\(result.stdout)")
        expectReport(result.stderr, "score-missing-recording.stderr.txt")
    }

    /// A FIFO named as a recording is refused as a configuration would be, not waited on; a
    /// labels file given twice counts its recordings once.
    @Test func recordingsAreRegularFilesAndALabelsFileCountsOnce() throws {
        let dir = try Self.tapPanel()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(mkfifo(dir.appendingPathComponent("fifo.evemu").path, 0o600) == 0)
        let labels = dir.appendingPathComponent("labels.json").path
        try #"[{"file": "fifo.evemu", "expect": [{"has": "tap"}]}]"#.write(toFile: labels, atomically: true, encoding: .utf8)
        let fifo = try touchline("score", labels)
        #expect(fifo.status == 66)
        #expect(fifo.stderr == "touchline: \(dir.path)/fifo.evemu: not a regular file (a FIFO); a labelled recording is read from a regular file\n", "\(fifo.stderr)")

        try #"[{"file": "panel.evemu", "expect": [{"has": "tap"}]}]"#.write(toFile: labels, atomically: true, encoding: .utf8)
        let twice = try touchline("score", labels, labels)
        #expect(twice.status == 0)
        #expect(twice.lines == ["ok   panel.evemu: has tap", "score: 1/1 labels hold (1 file)", "spurious: 0 events where a none label says there should be none"])
        #expect(twice.stderr == "touchline: note: \(labels): the labels file \(labels) again; read once\n")
    }

    /// `record --guided` takes a folder or a FIFO as a plan file and refuses it, where it used
    /// to read its name as the plan's text (`plan line 1: 'f.plan'`).
    @Test func aGuidedPlanMustBeARegularFile() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("f.plan").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (plan, kind) in [(fifo, "a FIFO"), (dir.path, "a directory")] {
            let result = try touchline("record", "/dev/input/no-such-device", "--guided", plan, "-o", dir.appendingPathComponent("out.yml").path)
            #expect(result.status == 66)
            #expect(result.stderr == "touchline: \(plan): not a regular file (\(kind)); a guided plan is read from a regular file\n", "\(result.stderr)")
        }
    }
}
