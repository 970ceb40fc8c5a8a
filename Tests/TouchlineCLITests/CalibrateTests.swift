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
        let recording = try write(tapRecording(turnedTaps()), in: dir)
        let rule = dir.appendingPathComponent("99-touchline-calibration.rules").path
        let result = try touchline("calibrate", "--from", recording, "--points", crosshairPoints, "--udev-rule", rule)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let out = result.stdout
        #expect(out.hasPrefix("device: Calibration Test Panel (vendor 0x0eef, product 0x0001), panel 216.0 × 135.0 mm\n"), "\(out)")
        #expect(out.contains("\nfound: rotated 90° clockwise, scaled 0.900 × 0.900 (x × y); the screen spans 150.0 × 240.0 mm of the panel\n"), "\(out)")
        // libinput's normalization: b and e times 1351/1350, a and d times 2161/2160.
        #expect(out.contains("ENV{LIBINPUT_CALIBRATION_MATRIX}=\"0.000000 -0.900667 0.950000 0.900417 0.000000 0.050000\""), "\(out)")
        #expect(out.contains("[[device]]\nmatch.name = \"Calibration Test Panel\"\nrotation = 90\ncalibration = [0.900000, 0.000000, 0.050000, 0.000000, 0.900000, 0.050000]\n"), "\(out)")
        #expect(out.contains("xinput set-prop 'Calibration Test Panel' --type=float \"Coordinate Transformation Matrix\" 0.000000 -0.900000 0.950000 0.900000 0.000000 0.050000 0 0 1\n"), "\(out)")
        let written = try String(contentsOfFile: rule, encoding: .utf8)
        #expect(written.hasPrefix("# Calibration Test Panel (vendor 0x0eef, product 0x0001): rotated 90° clockwise, worst "))
        #expect(out.contains(written), "the rule written is the one printed")
        for i in 1...9 { #expect(out.contains("point \(i): aimed at \(crosshairs[i - 1].0),\(crosshairs[i - 1].1), touched ")) }
    }

    @Test func pixelsWithTheScreensSize() throws {
        let dir = Paths.temporaryDirectory()
        let recording = try write(tapRecording(turnedTaps()), in: dir)
        let pixels = crosshairs.map { "\(Int($0.0 * 1080)),\(Int($0.1 * 1920))" }.joined(separator: " ")
        let result = try touchline("calibrate", "--from", recording, "--points", pixels, "--screen", "1080x1920")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("found: rotated 90° clockwise, scaled 0.900 × 0.900 (x × y)"), "\(result.stdout)")
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
        let notATrace = try write("hello, world\n", in: dir, "notes.txt")
        let result = try touchline("calibrate", "--from", notATrace, "--points", crosshairPoints)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("touchline: \(notATrace):"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func tapsOnOneLineAreRefusedWithTheReason() throws {
        let dir = Paths.temporaryDirectory()
        let line = [(0.1, 0.5), (0.3, 0.5), (0.5, 0.5), (0.7, 0.5), (0.9, 0.5)]
        let recording = try write(tapRecording(turnedTaps(line)), in: dir)
        let result = try touchline("calibrate", "--from", recording, "--points", line.map { "\($0.0),\($0.1)" }.joined(separator: " "))
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("touchline: \(recording): device 0: the touches lie on one line (within "), "\(result.stderr)")
    }

    @Test func badPointsAreAUsageErrorNamingThePoint() throws {
        let result = try touchline("calibrate", "--from", "x.yml", "--points", "0.1,0.1 0.5;0.5 0.9,0.9")
        #expect(result.status == 64)
        #expect(result.stderr.contains("--points: point 2, '0.5;0.5', is not X,Y"), "\(result.stderr)")
        let off = try touchline("calibrate", "--from", "x.yml", "--points", "0.1,0.1 1.5,0.5 0.9,0.9")
        #expect(off.status == 64)
        #expect(off.stderr.contains("--points: point 2, '1.5,0.5', is off the screen"), "\(off.stderr)")
    }

    @Test func theCornersOfARecordingGiveTheOrientation() throws {
        let dir = Paths.temporaryDirectory()
        // The corners as near as the panel reaches (it covers the screen's middle 90 %), in the
        // order asked: top-left, top-right, bottom-right, bottom-left.
        let corners = [(0.07, 0.07), (0.93, 0.07), (0.93, 0.93), (0.07, 0.93)]
        let recording = try write(tapRecording(turnedTaps(corners)), in: dir)
        let result = try touchline("calibrate", "--corners", "trace:" + recording)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\norientation: rotated 90° clockwise\n"), "\(result.stdout)")
        #expect(result.stdout.contains("ENV{LIBINPUT_CALIBRATION_MATRIX}=\"0.000000 -1.000741 1.000000 1.000463 0.000000 0.000000\""), "\(result.stdout)")
        #expect(result.stderr.contains("touch the top-left corner of the screen, as near to it as you can (1 of 4)"), "\(result.stderr)")
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
        let refused = try touchline("calibrate", "--labels", plain)
        #expect(refused.status == 65 && refused.stderr.contains("attempt 1 (has tap 0.40..1.00 s) names no point: its prompt ends in \"at X,Y\""), "\(refused.stderr)")
        let given = try touchline("calibrate", "--labels", plain, "--points", crosshairPoints)
        #expect(given.status == 0 && given.stdout == fromPoints.stdout, "\(given.stderr)")
    }

    @Test func checkAsksForTheSeedsPointAndSaysHowFarOffTheTouchIs() throws {
        let dir = Paths.temporaryDirectory()
        // Seed 7's point, touched through the turned panel: the rule's matrix puts it there.
        let seven = (0.42288, 0.16175)
        let recording = try write(tapRecording(turnedTaps([seven])), in: dir)
        let matrix = "0.000000 -0.900667 0.950000 0.900417 0.000000 0.050000"
        let result = try touchline("calibrate", "--check", "trace:" + recording, "--seed", "7", "--matrix", matrix)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("check (seed 7; --seed 7 asks for this point again): touch the screen at "), "\(result.stderr)")
        #expect(result.stdout.hasPrefix("check: aimed at "), "\(result.stdout)")
        #expect(result.stdout.contains("which --matrix puts at ") && result.stdout.contains(" mm on the panel, within the tolerance of 4.0 mm"), "\(result.stdout)")
        // Without the calibration, the same touch is far off: status 1.
        let none = try touchline("calibrate", "--check", "trace:" + recording, "--seed", "7")
        #expect(none.status == 1 && none.stdout.contains("which no calibration (the device's own coordinates) puts at ") && none.stdout.contains("calibrate again"), "\(none.stdout)")
    }
}
