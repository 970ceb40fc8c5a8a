// A phone's getevent capture without its `getevent -lp` header, as a user replays it: the
// edge swipes (Android's home and back gestures) with no --range, a warning naming --range, and
// `inspect` saying where each range came from.
import Foundation
import Testing

@Suite struct PhoneCaptureTests {
    /// Each event that begins or settles a gesture, as "gesture edge/direction".
    func gestures(_ stdout: String) throws -> [String] {
        try stdout.split(separator: "\n").compactMap { line in
            let e = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard e["phase"] as? String == "began" || e["phase"] as? String == "recognized" else { return nil }
            let detail = e["edge"] as? String ?? e["direction"] as? String
            return [e["gesture"] as? String ?? "?", detail].compactMap { $0 }.joined(separator: " ")
        }
    }

    /// 9b4ee5b read y 0..4095 and x 0..2047 for this 1080×2220 phone and found only the two
    /// back gestures from the left edge (x 0 is an edge under any range). Now every edge swipe
    /// is there, in the three forms getevent prints.
    @Test(arguments: [PhoneCapture.Form.labelled, .numeric, .labelledWithRate])
    func edgeSwipesWithoutRange(form: PhoneCapture.Form) throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        _ = try dir.write("phone.txt", PhoneCapture.text(form))
        let result = try touchline(in: URL(fileURLWithPath: dir.path), "replay", "phone.txt")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try gestures(result.stdout) == [
            "tap",
            "edgeSwipe bottom", "swipe up",
            "edgeSwipe left", "swipe right",
            "edgeSwipe right", "swipe left",
            "tap",
            "edgeSwipe bottom", "swipe up",
            "edgeSwipe right", "swipe left",
            "edgeSwipe left", "swipe right",
            "tap",
        ])
        // The ranges it guessed, and --range to give the real ones (each form the same warning,
        // and inspect the same).
        expectReport(result.stderr, "replay-phone-no-range.stderr.txt")
    }

    /// `inspect` names each position range and where it came from: guessed (and by which
    /// rule), given with --range, or the trace's own description.
    @Test func inspectSaysHowEachRangeWasObtained() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let path = try dir.write("phone.txt", PhoneCapture.text())
        try touchline(in: URL(fileURLWithPath: dir.path), "inspect", "phone.txt").expect(status: 0, stdout: "inspect-phone.txt", stderr: "replay-phone-no-range.stderr.txt")

        let given = try touchline("inspect", "--json", "--range", "ABS_MT_POSITION_Y=0:2399", path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(given.stdout.utf8)) as? [String: Any])
        #expect(object["xRange"] as? [Int] == [0, 1079])
        #expect(object["xRangeSource"] as? String == "edges")
        #expect(object["yRange"] as? [Int] == [0, 2399])
        #expect(object["yRangeSource"] as? String == "range")

        let taps = try dir.write("taps.txt", "[    1.000000] EV_ABS       ABS_MT_TRACKING_ID   00000001\n[    1.000000] EV_ABS       ABS_MT_POSITION_X    0000021c\n[    1.000000] EV_ABS       ABS_MT_POSITION_Y    000004b0\n[    1.000000] EV_SYN       SYN_REPORT           00000000\n")
        let guessed = try #require(try JSONSerialization.jsonObject(with: Data(touchline("inspect", "--json", taps).stdout.utf8)) as? [String: Any])
        #expect(guessed["xRange"] as? [Int] == [0, 1023])
        #expect(guessed["xRangeSource"] as? String == "powerOfTwo")
        // y 0..2047: no touch showed the edge, so the next power of two above the values seen.
        try touchline(in: URL(fileURLWithPath: dir.path), "inspect", "taps.txt").expect(status: 0, stdout: "inspect-phone-taps.txt", stderr: "inspect-phone-taps.stderr.txt")

        let evemu = try #require(try inspect(Paths.trace("evemu-devices/dell_canvas_touch.evemu")).first)
        #expect(evemu["xRangeSource"] as? String == "header")
        #expect(evemu["yRangeSource"] as? String == "header")
    }
}
