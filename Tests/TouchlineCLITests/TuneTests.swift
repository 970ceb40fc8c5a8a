import Foundation
import Testing

/// A crafted panel, 200 × 120 mm at 10 units per mm, written as an evemu recording: strokes and
/// holds at given times, in mm; `labels` collects what the person meant, in the labels format
/// (docs/labels.md), times from the recording's first event.
struct CraftedPanel {
    private(set) var lines: [String] = []
    private(set) var labels: [String] = []
    private var id = 1
    /// The recording's clock starts here (labels count from its first event).
    let origin = 1.0

    /// BadInputTests' screen, 200 × 120 mm at 10 units per mm.
    static let header = BadInputTests.header
        .replacingOccurrences(of: "N: Bad Input Screen", with: "N: Crafted Bezel Panel")
        .replacingOccurrences(of: "0 799 0 0 5", with: "0 1999 0 0 10")
        .replacingOccurrences(of: "0 479 0 0 5", with: "0 1199 0 0 10")

    private mutating func event(_ t: Double, _ type: Int, _ code: Int, _ value: Int) {
        let us = Int((origin + t) * 1_000_000 + 0.5)
        lines.append("E: \(us / 1_000_000).\(String(format: "%06d", us % 1_000_000)) \(String(format: "%04x %04x", type, code)) \(value)")
    }

    /// One finger down at `t` (s) at (x, y) mm, moving by (dx, dy) mm in `steps` reports over
    /// `duration` s, then lifted.
    mutating func stroke(at t: Double, x: Double, y: Double, dx: Double = 0, dy: Double = 0, duration: Double, steps: Int = 20) {
        event(t, 3, 0x39, id)
        id += 1
        event(t, 3, 0x35, Int(x * 10))
        event(t, 3, 0x36, Int(y * 10))
        event(t, 1, 0x14a, 1)
        event(t, 0, 0, 0)
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            let ti = t + duration * f
            event(ti, 3, 0x35, Int((x + dx * f) * 10))
            event(ti, 3, 0x36, Int((y + dy * f) * 10))
            event(ti, 0, 0, 0)
        }
        let end = t + duration + 0.01
        event(end, 3, 0x39, -1)
        event(end, 1, 0x14a, 0)
        event(end, 0, 0, 0)
    }

    mutating func label(_ json: String) { labels.append(json) }

    var text: String { Self.header + lines.joined(separator: "\n") + "\n" }

    func labelsFile(_ file: String) -> String {
        "{\"version\": 1, \"recordings\": [{\"file\": \"\(file)\", \"expect\": [\n" + labels.joined(separator: ",\n") + "\n]}]}\n"
    }
}

@Suite struct TuneTests {
    /// Edge swipes from the left that the bezel stops 5.2–5.8 mm from the edge (the default
    /// margin, 3 mm, misses every one), pans that start well inside (one 15 mm from the bottom
    /// edge, moving up: a margin of 15 mm would take it), and taps.
    static func bezelPanel() -> CraftedPanel {
        var p = CraftedPanel()
        var t = 0.0
        for (i, x) in [5.2, 5.5, 5.8, 5.4, 5.6, 5.3].enumerated() {
            p.stroke(at: t, x: x, y: 20 + Double(i) * 15, dx: 40, duration: 0.2)
            p.label(#"{"has": "edgeSwipe", "from": \#(t), "to": \#(t + 0.4), "where": {"edge": ["==", "left"]}}"#)
            t += 1
        }
        for (x, y, dx, dy) in [(80.0, 60.0, 30.0, 0.0), (120.0, 40.0, 0.0, 30.0), (60.0, 105.0, 0.0, -30.0), (150.0, 80.0, -30.0, 0.0)] {
            p.stroke(at: t, x: x, y: y, dx: dx, dy: dy, duration: 0.6)
            p.label(#"{"has": "pan", "from": \#(t), "to": \#(t + 0.8), "where": {"fingers": ["==", 1]}}"#)
            p.label(#"{"none": "edgeSwipe", "from": \#(t), "to": \#(t + 0.8)}"#)
            t += 1
        }
        for (x, y) in [(100.0, 60.0), (40.0, 90.0), (170.0, 30.0)] {
            p.stroke(at: t, x: x, y: y, duration: 0.08, steps: 2)
            p.label(#"{"has": "tap", "from": \#(t), "to": \#(t + 0.6)}"#)
            p.label(#"{"none": "pan", "from": \#(t), "to": \#(t + 0.6)}"#)
            t += 1
        }
        return p
    }

    func write(_ panel: CraftedPanel, in dir: URL) throws -> String {
        try panel.text.write(to: dir.appendingPathComponent("panel.evemu"), atomically: true, encoding: .utf8)
        let labels = dir.appendingPathComponent("labels.json")
        try panel.labelsFile("panel.evemu").write(to: labels, atomically: true, encoding: .utf8)
        return labels.path
    }

    @Test func aBezelThatStopsEdgeSwipesIsTunedByTheMarginAlone() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try write(Self.bezelPanel(), in: dir)
        // In the labels' folder: the reports name the files as they were given.
        try touchline(in: dir, "score", "labels.json").expect(status: 1, stdout: "score-bezel.txt")

        // Only edgeSwipe.margin changes, to a value past the bezel and short of the pan 15 mm
        // from the bottom edge; the report says which labels it fixes and how far it is robust.
        let result = try touchline(in: dir, "tune", "labels.json", "-o", "tuned.toml", "--jobs", "2")
        result.expect(status: 0, stdout: "tune-bezel.txt")
        let config = try String(contentsOfFile: dir.appendingPathComponent("tuned.toml").path, encoding: .utf8)
        expectReport(config, "tune-bezel.toml")
        let settings = config.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(settings.count == 2 && settings[0] == "[defaults]" && settings[1].hasPrefix("edgeSwipe.margin = "), "\(config)")
        let margin = Double(settings[1].split(separator: " ").last!)!
        #expect(margin >= 5.8 && margin < 15)

        // What it wrote, replay and score read; every label holds with it.
        try touchline(in: dir, "score", "--config", "tuned.toml", "labels.json").expect(status: 0, stdout: "score-bezel-tuned.txt")
        #expect(try touchline(in: dir, "replay", "--config", "tuned.toml", "panel.evemu").status == 0)
        #expect(try touchline(in: dir, "daemon", "--check-config", "tuned.toml").status == 0)
        // The same bytes on one thread.
        let one = try touchline(in: dir, "tune", "labels.json", "--jobs", "1")
        #expect(one.stdout == result.stdout.replacingOccurrences(of: "wrote tuned.toml: 20/20 labels hold with it\n", with: ""))
    }

    /// The margin tuned on the bezel panel breaks none of the shared recordings' labels. A
    /// test of its own, so that without ../shared/traces it is reported as skipped, not
    /// passed in silence.
    @Test(.enabled(if: Paths.tracesFound, "the shared traces are not at ../shared/traces"))
    func theTunedMarginKeepsEverySharedLabel() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try write(Self.bezelPanel(), in: dir)
        let tuned = dir.appendingPathComponent("tuned.toml").path
        #expect(try touchline("tune", labels, "-o", tuned, "--jobs", "2").status == 0)
        let shared = try touchline("score", "--config", tuned, Paths.trace("labels.json"))
        #expect(shared.lines.contains("score: 128/128 labels hold (14 files)"), "\(shared.stdout)")
    }

    /// Two holds of 400 ms, alike in every way: the person meant a tap by one and not by the
    /// other. Raising tap.maxDuration fixes the first only by breaking the second: the report
    /// says so and leaves the value alone.
    @Test func conflictingLabelsAreReportedAsATradeOff() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var p = CraftedPanel()
        p.stroke(at: 0, x: 100, y: 60, duration: 0.4, steps: 4)
        p.label(#"{"has": "tap", "from": 0, "to": 1}"#)
        p.stroke(at: 2, x: 100, y: 60, duration: 0.4, steps: 4)
        p.label(#"{"none": "tap", "from": 2, "to": 3}"#)
        _ = try write(p, in: dir)
        // "changed: nothing", and tap.maxDuration's trade-off: fixes 1, breaks 1, adds 1 spurious.
        try touchline(in: dir, "tune", "labels.json", "--parameters", "tap").expect(status: 0, stdout: "tune-trade-off.txt")
    }

    @Test func holdoutScoresEachFoldWithTheOthersValues() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let panel = Self.bezelPanel()
        try panel.text.write(to: dir.appendingPathComponent("panel.evemu"), atomically: true, encoding: .utf8)
        try panel.text.write(to: dir.appendingPathComponent("again.evemu"), atomically: true, encoding: .utf8)
        let one = panel.labelsFile("panel.evemu")
        let two = panel.labelsFile("again.evemu")
        try one.write(to: dir.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try two.write(to: dir.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        // Each fold scored with the values tuned on the others, and all held out together.
        try touchline(in: dir, "tune", "a.json", "b.json", "--holdout", "2", "--parameters", "edgeSwipe")
            .expect(status: 0, stdout: "tune-holdout.txt")
        try touchline(in: dir, "tune", "a.json", "--holdout", "2").expect(status: 64, stderr: "tune-holdout-one-file.stderr.txt")
    }

    /// A plan is read before any device is opened: a mistake costs no recording.
    @Test func aGuidedPlanIsCheckedBeforeTheDevicesOpen() throws {
        try touchline("record", "/dev/input/no-such-device", "--guided", "tap:3,pinchh:2", "-o", "/nonexistent/out.yml")
            .expect(status: 64, stderr: "record-guided-plan.stderr.txt")
    }
}
