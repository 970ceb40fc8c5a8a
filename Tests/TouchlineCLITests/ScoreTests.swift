import Foundation
import Testing

/// `touchline score` against ../shared/traces/score.py, the labels' own checker: the same labels
/// hold and the same ones are missed, with the default graph and with a deliberately wrong one.
@Suite(.enabled(if: Paths.tracesFound, "the shared traces are not at ../shared/traces"))
struct ScoreTests {
    let labels = Paths.trace("labels.json")
    let script = Paths.trace("score.py")

    /// "FILE: has tap …" of each label a score line says is missed.
    func missed(_ output: String, marker: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix(marker + " ") }.map { line in
            var text = String(line.dropFirst(marker.count + 1))
            // Up to the detail: score.py's "N matching…" or "replay exited…", ours "N matching…".
            if let r = text.range(of: #": [0-9]+ matching|: replay exited"#, options: .regularExpression) { text = String(text[..<r.lowerBound]) }
            return text
        }.sorted()
    }

    @Test func everySharedLabelHoldsAsScorePySays() throws {
        let ours = try touchline("score", labels)
        #expect(ours.status == 0, "\(ours.stdout)")
        #expect(ours.lines.contains("score: 128/128 labels hold (14 files)"))
        #expect(ours.lines.filter { $0.hasPrefix("ok   ") }.count == 128)
        let theirs = try run("/usr/bin/python3", [script, Paths.binary.path])
        #expect(theirs.status == 0)
        #expect(theirs.lines.last == "score: 128/128 labels hold (14 files)")
    }

    @Test func aWrongConfigMissesTheSameLabelsAsScorePy() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("wrong.toml").path
        // Taps must lift within 60 ms, a pan moves 25 mm before it starts, a rotate turns 3°.
        try "[defaults]\ntap.maxDuration = 60\npan.slop = 25\nrotate.minimumAngle = 3\n".write(toFile: config, atomically: true, encoding: .utf8)
        let ours = try touchline("score", "--config", config, "--jobs", "2", labels)
        let theirs = try run("/usr/bin/python3", [script, Paths.binary.path, "--config", config])
        #expect(ours.status == 1)
        #expect(theirs.status == 1)
        let a = missed(ours.stdout, marker: "MISS")
        #expect(a.count == 29)
        #expect(a == missed(theirs.stdout, marker: "FAIL"))
        #expect(ours.lines.last(where: { $0.hasPrefix("score:") }) == theirs.lines.last)
        // A miss names the attempt that failed, with its threshold.
        #expect(ours.stdout.contains("nearest attempt: 0.060 s tap failed: no lift within 60.0 ms"))
        // The same bytes with one thread.
        #expect(try touchline("score", "--config", config, "--jobs", "1", labels).stdout == ours.stdout)
    }

    /// A leftward pan: its dx is negative, so `abs>=` holds where `>=` does not; an action's
    /// filter would refuse `abs>=` (labels only).
    @Test func magnitudeConditionsAndBadLabels() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var p = CraftedPanel()
        p.stroke(at: 0, x: 150, y: 80, dx: -30, duration: 0.6)
        p.label(#"{"has": "pan", "from": 0, "to": 1, "where": {"dx": ["abs>=", 29]}}"#)
        p.label(#"{"none": "pan", "from": 0, "to": 1, "where": {"dx": [">=", 29]}}"#)
        p.label(#"{"has": ["swipe", "pan"], "min": 2, "where": {"phase": ["!=", "began"]}}"#)
        try p.text.write(to: dir.appendingPathComponent("panel.evemu"), atomically: true, encoding: .utf8)
        let labels = dir.appendingPathComponent("labels.json").path
        try p.labelsFile("panel.evemu").write(toFile: labels, atomically: true, encoding: .utf8)
        // In the labels' folder: the report names the files as they were given.
        try touchline(in: dir, "score", "labels.json").expect(status: 0, stdout: "score-magnitude.txt")

        // Each bad labels file gets an error that says where and what, whole.
        var errors: [(String, String)] = []
        for (text, status) in [
            (#"{"version": 2, "recordings": []}"#, 65),
            (#"[{"file": "panel.evemu"}]"#, 65),
            (#"[{"file": "panel.evemu", "expect": [{"has": "tap", "where": {"count": ["~", 2]}}]}]"#, 65),
            (#"[{"file": "panel.evemu", "expect": [{"has": "tap", "none": "pan"}]}]"#, 65),
            (#"[{"file": "missing.evemu", "expect": []}]"#, 66),
        ] as [(String, Int32)] {
            try text.write(toFile: labels, atomically: true, encoding: .utf8)
            let bad = try touchline(in: dir, "score", "labels.json")
            #expect(bad.status == status, "\(text): \(bad.stderr)")
            #expect(bad.stdout.isEmpty)
            errors.append((text, bad.stderr))
        }
        expectReport(Report.table(errors), "score-bad-labels.stderr.txt")
    }
}
