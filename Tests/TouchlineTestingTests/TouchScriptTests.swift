// The frames a touch script makes: one per 1/rate s while fingers move and one at the exact
// end, none while time only passes, each contact's phase and position as asked, time virtual.
import Testing
import TouchlineCore
import TouchlineTesting

@Suite struct TouchScriptTests {
    /// A frame as one line: its time, then each contact's id, phase and position (mm).
    static func lines(_ script: TouchScript) -> [String] {
        script.frames.map { frame in
            "\(frame.time)" + frame.contacts.map {
                " \($0.id) \($0.phase) (\(formatFixed($0.position.x, decimals: 2)),\(formatFixed($0.position.y, decimals: 2)))"
            }.joined()
        }
    }

    @Test func downMoveWaitUpAtTheRate() {
        var s = TouchScript(rate: 100)
        s.down(0, at: Point(x: 10, y: 20))
        s.move(0, to: Point(x: 40, y: 20), over: 30)
        s.wait(50)
        s.up(0)
        #expect(Self.lines(s) == [
            "0.000000 c0 began (10.00,20.00)",
            "0.010000 c0 moved (20.00,20.00)",
            "0.020000 c0 moved (30.00,20.00)",
            "0.030000 c0 moved (40.00,20.00)",
            "0.080000 c0 ended (40.00,20.00)",
        ])
        #expect(s.time == Timestamp(microseconds: 80_000))
        #expect(s.fingersDown == 0)
    }

    /// A move that is not a whole number of frames ends with a frame at its exact end; a
    /// second finger gets a fresh id and the still one is `stationary`.
    @Test func twoFingersAndAnUnevenMove() {
        var s = TouchScript(rate: 120, start: Timestamp(microseconds: 1_000_000))
        s.down(0, at: Point(x: 10, y: 10))
        s.wait(5)
        s.down(1, at: Point(x: 50, y: 10))
        s.move(1, to: Point(x: 50, y: 30), over: 20)
        s.up([0, 1])
        s.down(0, at: Point(x: 0, y: 0))
        s.cancel([0])
        #expect(Self.lines(s) == [
            "1.000000 c0 began (10.00,10.00)",
            "1.005000 c0 stationary (10.00,10.00) c1 began (50.00,10.00)",
            "1.011667 c0 stationary (10.00,10.00) c1 moved (50.00,16.67)",
            "1.018333 c0 stationary (10.00,10.00) c1 moved (50.00,23.33)",
            "1.025000 c0 stationary (10.00,10.00) c1 moved (50.00,30.00)",
            "1.025000 c0 ended (10.00,10.00) c1 ended (50.00,30.00)",
            "1.025000 c2 began (0.00,0.00)",
            "1.025000 c2 cancelled (0.00,0.00)",
        ])
        #expect(s.position(of: 1) == nil)
    }

    /// Normalized positions are on the script's surface; pressure and touch major only when given.
    @Test func normalizedPressureAndTouchMajor() {
        var s = TouchScript(rate: 50, surface: Size(width: 100, height: 50))
        s.down(0, at: Point(x: 25, y: 10), pressure: 0.2, touchMajor: 8)
        s.press(0, pressure: 0.6, over: 40)
        s.down(1, at: Point(x: 50, y: 25))
        let got = s.frames.map { frame in
            "\(frame.time)" + frame.contacts.map { c in
                " \(c.id) \(c.phase) n=(\(formatFixed(c.normalized.x, decimals: 2)),\(formatFixed(c.normalized.y, decimals: 2)))"
                    + " p=\(c.pressure.map { formatFixed($0.value, decimals: 2) } ?? "-") major=\(c.touchMajor.map { "\($0)" } ?? "-")"
            }.joined()
        }
        let expected = [
            "0.000000 c0 began n=(0.25,0.20) p=0.20 major=8.00 mm",
            "0.020000 c0 stationary n=(0.25,0.20) p=0.40 major=8.00 mm",
            "0.040000 c0 stationary n=(0.25,0.20) p=0.60 major=8.00 mm",
            "0.040000 c0 stationary n=(0.25,0.20) p=0.60 major=8.00 mm c1 began n=(0.50,0.50) p=- major=-",
        ]
        if got != expected { print("ACTUAL\n" + got.joined(separator: "\n") + "\nEND") }
        #expect(got == expected)
    }

    /// The script's sine and cosine (Taylor series, no Foundation) at the angles a turn uses.
    @Test func sineAndCosine() {
        let angles = [0, 0.5235987755982988, 1.5707963267948966, 3.141592653589793, -2.0943951023931957, 7.853981633974483]
        #expect(angles.map { formatFixed(TouchScript.sine($0), decimals: 6) } == ["0.000000", "0.500000", "1.000000", "0.000000", "-0.866025", "1.000000"])
        #expect(angles.map { formatFixed(TouchScript.cosine($0), decimals: 6) } == ["1.000000", "0.866025", "0.000000", "-1.000000", "-0.500000", "0.000000"])
    }
}
