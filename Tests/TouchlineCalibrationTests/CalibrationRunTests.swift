import Testing
import TouchlineCalibration
import TouchlineCore
import TouchlineGestures

// The page's sequence (CalibrationRun, docs/calibrate.md#the-page): a touch counts only once
// the page says its crosshair is shown; the last touch fits; a point far off is asked again
// and its new touch replaces it; redo goes back one point, dropping the redo button's own tap.

/// A panel turned 90° on its screen and scaled 0.9 about the centre (device → screen).
let turned = AffineMap(0, -0.9, 0.95, 0.9, 0, 0.05)

func device(_ target: Point) -> Point { turned.inverse!.apply(target) }

@Suite struct CalibrationRunTests {
    @Test func theLayoutSpansTheScreenAndMatchesPointsText() {
        #expect(CalibrationLayout.points(4).map { [$0.x, $0.y] } == [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]])
        #expect(CalibrationLayout.points(9).count == 9)
        #expect(CalibrationLayout.text(CalibrationLayout.points(5)) == "0.100,0.100 0.900,0.100 0.900,0.900 0.100,0.900 0.500,0.500")
    }

    @Test func aTouchCountsOnlyOnceItsCrosshairIsShown() throws {
        let targets = CalibrationLayout.points(9)
        var run = CalibrationRun(targets: targets, sensor: panel)
        // The tap that started the page, before any crosshair: not a point's.
        do {
            let changed = run.touch(Point(x: 0.5, y: 0.5))
            #expect(!changed)
        }
        do {
            let changed = run.answer(.shown(1))
            #expect(!changed, "a point not asked for")
        }
        for (i, target) in targets.enumerated() {
            #expect(run.current == i)
            do {
                let changed = run.answer(.shown(i))
                #expect(changed)
            }
            do {
                let changed = run.answer(.shown(i))
                #expect(!changed, "shown twice changes nothing")
            }
            do {
                let changed = run.touch(device(target))
                #expect(changed)
            }
            do {
                let changed = run.touch(device(target))
                #expect(!changed, "a second touch before the next crosshair is shown")
            }
        }
        guard case .fitted(let calibration, let points)? = run.outcome else { Issue.record("no fit: \(String(describing: run.outcome))"); return }
        #expect(zip(calibration.map.numbers, turned.numbers).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(points.map(\.target) == targets)
        #expect(run.current == nil)
        // The same fit as --from's on the same touches.
        #expect(calibration == (try Calibration.fit(points, sensor: panel)))
    }

    @Test func aPointFarOffIsAskedAgainAndReplaced() throws {
        let targets = CalibrationLayout.points(9)
        var run = CalibrationRun(targets: targets, sensor: panel)
        for (i, target) in targets.enumerated() {
            _ = run.answer(.shown(i))
            // The third touch slips 15 mm along the panel's x.
            let slip = i == 2 ? Point(x: 15 / panel.width, y: 0) : Point(x: 0, y: 0)
            _ = run.touch(Point(x: device(target).x + slip.x, y: device(target).y))
        }
        #expect(run.outcome == nil)
        #expect(run.current == 2)
        #expect(run.note?.hasPrefix("it was 15.0 mm off the fit of the others") == true, "\(run.note ?? "")")
        let line = String(decoding: run.line(device: CalibratedDevice(name: "P", vendor: 1, product: 2, xSpan: 100, ySpan: 100, sensor: panel)), as: UTF8.self)
        #expect(line.hasPrefix(#"{"calibrate":"point","index":2,"of":9,"prompt":9,"x":0.9000,"y":0.9000,"taken":8,"note":"it was 15.0 mm"#), "\(line)")
        do {
            let changed = run.answer(.shown(2))
            #expect(changed)
        }
        do {
            let changed = run.touch(device(targets[2]))
            #expect(changed)
        }
        guard case .fitted(let calibration, _)? = run.outcome else { Issue.record("no fit"); return }
        #expect(calibration.outlier == nil && calibration.agrees)
        #expect(run.asks == 1)
    }

    @Test func redoGoesBackOnePointAndDropsTheButtonsOwnTap() {
        let targets = CalibrationLayout.points(5)
        var run = CalibrationRun(targets: targets, sensor: panel)
        for i in 0..<2 {
            _ = run.answer(.shown(i))
            _ = run.touch(device(targets[i]))
        }
        // Point 3 shown; the redo button's tap reaches the device first and is taken for it.
        _ = run.answer(.shown(2))
        _ = run.touch(Point(x: 0.5, y: 0.95))
        #expect(run.current == 3)
        do {
            let changed = run.answer(.redo(2))
            #expect(changed)
        }
        #expect(run.current == 1, "back to point 2")
        #expect(run.touches[1] == nil && run.touches[2] == nil && run.touches[0] != nil)
        // The answer first, then the tap (not taken: point 2 is not shown yet).
        var other = CalibrationRun(targets: targets, sensor: panel)
        _ = other.answer(.shown(0))
        _ = other.touch(device(targets[0]))
        _ = other.answer(.shown(1))
        do {
            let changed = other.answer(.redo(1))
            #expect(changed)
        }
        do {
            let changed = other.touch(Point(x: 0.5, y: 0.95))
            #expect(!changed)
        }
        #expect(other.current == 0 && other.touches.allSatisfy { $0 == nil })
        do {
            let changed = other.answer(.redo(4))
            #expect(!changed, "a redo of a point not shown changes nothing")
        }
    }

    @Test func touchesOnOneLineAreAskedAgainThenRefusedWithTheReason() {
        let targets = CalibrationLayout.points(4)
        var run = CalibrationRun(targets: targets, sensor: panel)
        for round in 0...CalibrationRun.maximumAsks {
            for i in 0..<4 {
                _ = run.answer(.shown(i))
                _ = run.touch(Point(x: 0.2 + 0.1 * Double(i), y: 0.5))
            }
            if round < CalibrationRun.maximumAsks { #expect(run.note?.hasSuffix("touch them all again") == true) }
        }
        guard case .failed(let reason)? = run.outcome else { Issue.record("not refused"); return }
        #expect(reason.hasPrefix("the touches lie on one line"))
    }

    @Test(arguments: [
        ("shown=3", CalibrationRun.Answer.shown(3)), ("secret=x&redo=12", .redo(12)), ("token=t&shown=0&secret=s", .shown(0)),
    ])
    func answersAreParsed(_ query: String, _ expected: CalibrationRun.Answer) {
        #expect(CalibrationRun.Answer.parse(Substring(query)) == expected)
    }

    @Test(arguments: ["", "shown=", "shown=100", "shown=-1", "shown=1&redo=1", "shown=1&shown=2", "shown=1a", "touch=3", "shown=٣"])
    func anythingElseIsRefused(_ query: String) {
        #expect(CalibrationRun.Answer.parse(Substring(query)) == nil)
    }
}
