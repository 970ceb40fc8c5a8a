import Foundation
import Testing

// `touchline calibrate` as a user runs it (docs/calibrate.md): a recording of taps made through a
// panel turned 90° and scaled 0.9 gives that map, its udev rule (also written to a file), its
// [[device]] section and xinput line; a count mismatch, a file that is not a trace, points on
// one line are refused with the reason; --corners on a recording gives the orientation.

/// A libinput record file of one-finger taps (80 ms down, 600 ms apart) at raw positions on a
/// 2160 × 1350-unit, 216 × 135 mm panel (18ths of each axis are whole units).
func tapRecording(_ taps: [(x: Int, y: Int)]) -> String {
    var text = """
        # libinput record
        version: 1
        ndevices: 1
        libinput:
          version: "1.22.1"
          git: "unknown"
        system:
          os: "touchline:test"
          kernel: "test"
          dmi: "dmi:test"
        devices:
        - node: /dev/input/event0
          evdev:
            name: "Calibration Test Panel"
            id: [3, 3823, 1, 1]
            codes:
              0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN
              1: [330] # EV_KEY
              3: [0, 1, 47, 53, 54, 57] # EV_ABS
            absinfo:
              0: [0, 2160, 0, 0, 10]
              1: [0, 1350, 0, 0, 10]
              47: [0, 9, 0, 0, 0]
              53: [0, 2160, 0, 0, 10]
              54: [0, 1350, 0, 0, 10]
              57: [0, 65535, 0, 0, 0]
            properties: [1]
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_TOUCHSCREEN=1
          quirks:
          events:

        """
    func frame(_ ms: Int, _ events: [(Int, Int, Int)]) {
        text += "  - evdev:\n"
        for (type, code, value) in events + [(0, 0, 0)] {
            text += "    - [\(ms / 1000), \((ms % 1000) * 1000), \(type), \(code), \(value)]\n"
        }
    }
    for (i, tap) in taps.enumerated() {
        let t = 500 + 600 * i
        frame(t, [(3, 57, 100 + i), (3, 53, tap.x), (3, 54, tap.y), (1, 330, 1), (3, 0, tap.x), (3, 1, tap.y)])
        frame(t + 80, [(3, 57, -1), (1, 330, 0)])
    }
    return text
}

/// Nine crosshairs inset 10 %, and where a panel turned 90° clockwise and scaled 0.9 about the
/// screen's centre feels the finger that hits them: screen (X, Y) = (0.95 − 0.9·v, 0.05 + 0.9·u).
let crosshairs: [(Double, Double)] = [0.1, 0.5, 0.9].flatMap { y in [0.1, 0.5, 0.9].map { x in (x, y) } }
func turnedTaps(_ points: [(Double, Double)] = crosshairs) -> [(x: Int, y: Int)] {
    points.map { X, Y in
        let u = (Y - 0.05) / 0.9, v = (0.95 - X) / 0.9
        return (Int((u * 2160).rounded()), Int((v * 1350).rounded()))
    }
}
let crosshairPoints = crosshairs.map { "\($0.0),\($0.1)" }.joined(separator: " ")

@Suite struct CalibrateTests {
    func write(_ text: String, in dir: URL, _ name: String = "taps.yml") throws -> String {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func aRecordingOfTapsGivesTheMatrixTheRuleTheSectionAndTheXinputLine() throws {
        let dir = Paths.temporaryDirectory()
        _ = try write(tapRecording(turnedTaps()), in: dir)
        // In the recording's folder, so that the report names the files as they were given.
        // Found: rotated 90° clockwise, scaled 0.9; libinput's matrix normalizes b and e by
        // 1351/1350, a and d by 2161/2160; then the [[device]] section and the xinput line.
        let result = try touchline(in: dir, "calibrate", "--from", "taps.yml", "--points", crosshairPoints, "--udev-rule", "99-touchline-calibration.rules")
        result.expect(status: 0, stdout: "calibrate-from.txt")
        let written = try String(contentsOfFile: dir.appendingPathComponent("99-touchline-calibration.rules").path, encoding: .utf8)
        expectReport(written, "calibrate-from.rules")
        #expect(result.stdout.contains(written), "the rule written is the one printed")
    }

    @Test func pixelsWithTheScreensSize() throws {
        let dir = Paths.temporaryDirectory()
        _ = try write(tapRecording(turnedTaps()), in: dir)
        let pixels = crosshairs.map { "\(Int($0.0 * 1080)),\(Int($0.1 * 1920))" }.joined(separator: " ")
        try touchline(in: dir, "calibrate", "--from", "taps.yml", "--points", pixels, "--screen", "1080x1920")
            .expect(status: 0, stdout: "calibrate-from-pixels.txt")
    }

    @Test func aCountMismatchNamesTheTaps() throws {
        let dir = Paths.temporaryDirectory()
        let recording = try write(tapRecording(Array(turnedTaps().prefix(3))), in: dir)
        let result = try touchline("calibrate", "--from", recording, "--points", crosshairPoints)
        #expect(result.status == 65)
        #expect(result.stderr == "touchline: \(recording): 3 taps on device 0 (at 0.58 s, 1.18 s, 1.78 s) but --points gives 9 points: expected one tap per point, in order\n")
        #expect(result.stdout == "")
    }

    @Test func aFileThatIsNotATraceIsRefusedAsReplayRefusesIt() throws {
        let dir = Paths.temporaryDirectory()
        _ = try write("hello, world\n", in: dir, "notes.txt")
        try touchline(in: dir, "calibrate", "--from", "notes.txt", "--points", crosshairPoints)
            .expect(status: 65, stderr: "calibrate-not-a-trace.stderr.txt")
    }

    @Test func tapsOnOneLineAreRefusedWithTheReason() throws {
        let dir = Paths.temporaryDirectory()
        let line = [(0.1, 0.5), (0.3, 0.5), (0.5, 0.5), (0.7, 0.5), (0.9, 0.5)]
        _ = try write(tapRecording(turnedTaps(line)), in: dir)
        try touchline(in: dir, "calibrate", "--from", "taps.yml", "--points", line.map { "\($0.0),\($0.1)" }.joined(separator: " "))
            .expect(status: 65, stderr: "calibrate-one-line.stderr.txt")
    }

    @Test func badPointsAreAUsageErrorNamingThePoint() throws {
        var errors: [(String, String)] = []
        for points in ["0.1,0.1 0.5;0.5 0.9,0.9", "0.1,0.1 1.5,0.5 0.9,0.9"] {
            let result = try touchline("calibrate", "--from", "x.yml", "--points", points)
            #expect(result.status == 64 && result.stdout.isEmpty)
            errors.append(("--points \(points)", result.stderr))
        }
        expectReport(Report.table(errors), "calibrate-bad-points.stderr.txt")
    }

    @Test func theCornersOfARecordingGiveTheOrientation() throws {
        let dir = Paths.temporaryDirectory()
        // The corners as near as the panel reaches (it covers the screen's middle 90 %), in the
        // order asked: top-left, top-right, bottom-right, bottom-left.
        let corners = [(0.07, 0.07), (0.93, 0.07), (0.93, 0.93), (0.07, 0.93)]
        _ = try write(tapRecording(turnedTaps(corners)), in: dir)
        // The prompts on standard error ("touch the top-left corner …, 1 of 4"), the orientation
        // (rotated 90° clockwise) and its rule on standard output.
        try touchline(in: dir, "calibrate", "--corners", "trace:taps.yml")
            .expect(status: 0, stdout: "calibrate-corners.txt", stderr: "calibrate-corners.stderr.txt")
    }

    @Test func aGuidedRecordingsLabelsGiveThePointsAimedAt() throws {
        let dir = Paths.temporaryDirectory()
        // A stray tap before the first attempt (at 0.2 s, outside every window) is not a point's.
        let recording = try write(tapRecording(turnedTaps()), in: dir)
        // As `record --guided` writes them for a plan of `tap 1 touch the cross at X,Y` steps:
        // the attempt's window from 0.1 s before the touch to 0.5 s after the lift.
        var labels: [String] = []
        for (i, p) in crosshairs.enumerated() {
            let down = 0.5 + 0.6 * Double(i)
            labels.append("   {\"has\": \"tap\", \"from\": \(down - 0.1), \"to\": \(down + 0.5), \"why\": \"guided: touch the cross at \(p.0),\(p.1)\"}")
        }
        let file = try write("{\"version\": 1, \"recordings\": [\n {\"file\": \"taps.yml\", \"expect\": [\n" + labels.joined(separator: ",\n") + "\n ]}\n]}\n",
                             in: dir, "taps.yml.labels.json")
        let result = try touchline("calibrate", "--labels", file)
        #expect(result.status == 0, "\(result.stderr)")
        let fromPoints = try touchline("calibrate", "--from", recording, "--points", crosshairPoints)
        #expect(result.stdout == fromPoints.stdout, "the labels' points are --points'")
        // A prompt that names no point needs --points.
        let plain = try write(String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self).replacingOccurrences(of: " at ", with: " near "),
                              in: dir, "plain.labels.json")
        try touchline(in: dir, "calibrate", "--labels", "plain.labels.json").expect(status: 65, stderr: "calibrate-labels-no-point.stderr.txt")
        let given = try touchline("calibrate", "--labels", plain, "--points", crosshairPoints)
        #expect(given.status == 0 && given.stdout == fromPoints.stdout, "\(given.stderr)")
    }

    @Test func checkAsksForTheSeedsPointAndSaysHowFarOffTheTouchIs() throws {
        let dir = Paths.temporaryDirectory()
        // Seed 7's point, touched through the turned panel: the rule's matrix puts it there.
        let seven = (0.42288, 0.16175)
        _ = try write(tapRecording(turnedTaps([seven])), in: dir)
        let matrix = "0.000000 -0.900667 0.950000 0.900417 0.000000 0.050000"
        // The prompt on standard error; on standard output, where --matrix puts the touch, within
        // the tolerance of 4.0 mm.
        try touchline(in: dir, "calibrate", "--check", "trace:taps.yml", "--seed", "7", "--matrix", matrix)
            .expect(status: 0, stdout: "calibrate-check.txt", stderr: "calibrate-check.stderr.txt")
        // Without the calibration, the same touch is far off: status 1, "calibrate again".
        try touchline(in: dir, "calibrate", "--check", "trace:taps.yml", "--seed", "7")
            .expect(status: 1, stdout: "calibrate-check-uncalibrated.txt", stderr: "calibrate-check.stderr.txt")
    }
}
