import Testing
import TouchlineCalibration
import TouchlineCore
import TouchlineGestures

// The fit of `touchline calibrate` (docs/calibrate.md): touches made through a known map are
// fitted back to it, named, and held to the tolerance; a point far off is left out; points
// that fix no plane are refused with the reason.

/// A 300 × 200 mm panel, as a 4096 × 4096-unit controller might report it.
let panel = Size(width: 300, height: 200)

/// Nine crosshairs inset 10% from the edges, as the page shows them.
let grid: [Point] = [0.1, 0.5, 0.9].flatMap { y in [0.1, 0.5, 0.9].map { x in Point(x: x, y: y) } }

/// The touches a panel mounted as `truth` (device → screen) gives for `targets`.
func touches(_ truth: AffineMap, _ targets: [Point] = grid) throws -> [CalibrationPoint] {
    let inverse = try #require(truth.inverse)
    return targets.map { CalibrationPoint(touched: inverse.apply($0), target: $0) }
}

func close(_ m: AffineMap, _ n: AffineMap, within: Double = 1e-9) -> Bool {
    zip(m.numbers, n.numbers).allSatisfy { abs($0 - $1) <= within }
}

/// Deterministic noise in [-1, 1) (a linear congruential generator: the same every run).
struct Noise {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53) * 2 - 1
    }
}

@Suite struct CalibrationFitTests {
    @Test(arguments: Orientation.allCases)
    func eachOrientationIsFittedExactlyAndNamed(_ orientation: Orientation) throws {
        let fit = try Calibration.fit(touches(orientation.map), sensor: panel)
        #expect(close(fit.map, orientation.map), "\(fit.map)")
        #expect(fit.orientation == orientation)
        #expect(fit.findings == "\(orientation)")
        #expect(fit.residuals.allSatisfy { $0 < 1e-6 })
        #expect(fit.outlier == nil && fit.agrees)
    }

    @Test func theFourRotationsAndTheFlipsHaveTheirNames() {
        #expect(Orientation.rotated90.description == "rotated 90° clockwise")
        #expect(Orientation.rotated180.description == "rotated 180°")
        #expect(Orientation.rotated270.description == "rotated 270° clockwise (90° counter-clockwise)")
        #expect(Orientation.invertedX.description == "X inverted")
        #expect(Orientation.invertedY.description == "Y inverted")
        #expect(Orientation.swapped.description == "X and Y swapped")
    }

    @Test func scaleAndOffsetAreNamedInMillimetres() throws {
        // The screen spans 1/1.07 of the panel's width and 1/0.95 of its height, shifted.
        let truth = AffineMap(1.07, 0, -0.02, 0, 0.95, 0.03)
        let fit = try Calibration.fit(touches(truth), sensor: panel)
        #expect(close(fit.map, truth))
        #expect(fit.orientation == .normal)
        #expect(abs(fit.scale.x - 1.07) < 1e-9 && abs(fit.scale.y - 0.95) < 1e-9)
        // The screen measures 300 / 1.07 × 200 / 0.95 mm on the panel; the panel's centre lands
        // at (0.515, 0.505) of it.
        #expect(abs(fit.screen.width - 300 / 1.07) < 1e-6 && abs(fit.screen.height - 200 / 0.95) < 1e-6)
        #expect(abs(fit.offset.x - 0.015 * 300 / 1.07) < 1e-6 && abs(fit.offset.y - 0.005 * 200 / 0.95) < 1e-6)
        #expect(fit.findings == "not rotated, scaled 1.070 × 0.950 (x × y), offset +4.2 mm, +1.1 mm (x, y)")
    }

    @Test func aQuarterTurnScaledIsNamedAsBoth() throws {
        // The VM's screen: rotated 90° and scaled 0.9 in each direction about the centre.
        let truth = AffineMap(0.9, 0, 0.05, 0, 0.9, 0.05).after(Orientation.rotated90.map)
        let fit = try Calibration.fit(touches(truth), sensor: panel)
        #expect(close(fit.map, truth))
        #expect(fit.orientation == .rotated90)
        #expect(fit.findings == "rotated 90° clockwise, scaled 0.900 × 0.900 (x × y)")
        // The screen's x runs along the panel's y: its width is the panel's height over 0.9.
        #expect(abs(fit.screen.width - 200 / 0.9) < 1e-6 && abs(fit.screen.height - 300 / 0.9) < 1e-6)
    }

    @Test func noiseOfOneMillimetreStaysWithinTheToleranceAndNearTheTruth() throws {
        let truth = AffineMap(-1.02, 0, 1.01, 0, 0.98, 0.01)
        var noise = Noise()
        let points = try touches(truth).map { p in
            var q = p
            q.touched.x += noise.next() / panel.width
            q.touched.y += noise.next() / panel.height
            return q
        }
        let fit = try Calibration.fit(points, sensor: panel)
        #expect(fit.orientation == .invertedX)
        #expect(fit.outlier == nil && fit.agrees)
        #expect(fit.residuals.allSatisfy { $0 <= 1.5 }, "\(fit.residuals)")
        // Where the fitted map sends each corner of the panel is within 2 mm of the truth.
        for corner in [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 1)] {
            let p = fit.map.apply(corner), q = truth.apply(corner)
            #expect(abs(p.x - q.x) * fit.screen.width < 2 && abs(p.y - q.y) * fit.screen.height < 2, "\(corner)")
        }
    }

    @Test func onePointFarOffIsNamedAndLeftOut() throws {
        let truth = AffineMap(0, 1, 0, -1, 0, 1) // rotated 270
        var points = try touches(truth)
        points[4].touched.x += 12 / panel.width // the centre, 12 mm off
        let fit = try Calibration.fit(points, sensor: panel)
        #expect(fit.outlier == 4)
        #expect(close(fit.map, truth))
        #expect(abs(fit.residuals[4] - 12) < 1e-6)
        #expect(fit.agrees)
    }

    @Test func withFourPointsOneFarOffIsADisagreementNotAGuess() throws {
        let corners = [Point(x: 0.1, y: 0.1), Point(x: 0.9, y: 0.1), Point(x: 0.9, y: 0.9), Point(x: 0.1, y: 0.9)]
        var points = try touches(.identity, corners)
        points[2].touched.y += 20 / panel.height // 5 mm from each corner's fit
        let fit = try Calibration.fit(points, sensor: panel)
        #expect(fit.outlier == nil)
        #expect(!fit.agrees)
    }

    @Test func pointsOnOneLineAreRefusedWithTheReason() throws {
        let line = (0..<5).map { i in CalibrationPoint(touched: Point(x: 0.1 + 0.2 * Double(i), y: 0.5), target: Point(x: 0.1 + 0.2 * Double(i), y: 0.5)) }
        let error = #expect(throws: CalibrationError.self) { try Calibration.fit(line, sensor: panel) }
        guard case let .touchesOnOneLine(spread)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(spread < 1e-6)
        #expect(CalibrationError.touchesOnOneLine(spread: 0).description
            == "the touches lie on one line (within 0.0 mm across it): a calibration needs points that span the screen, such as its corners")
        // Touches that span the panel, aimed at points on one line.
        var aimed = try touches(.identity)
        for i in aimed.indices { aimed[i].target.y = 0.5 }
        #expect(throws: CalibrationError.targetsOnOneLine) { try Calibration.fit(aimed, sensor: panel) }
    }

    @Test func fewerThanThreeDistinctTouchesAreRefused() throws {
        let two = try touches(.identity, [Point(x: 0.1, y: 0.1), Point(x: 0.9, y: 0.9)])
        #expect(throws: CalibrationError.tooFewPoints(distinct: 2)) { try Calibration.fit(two, sensor: panel) }
        // Five taps at one place (within 1 mm) are one place.
        let same = (0..<5).map { i in CalibrationPoint(touched: Point(x: 0.5 + Double(i) * 0.0005, y: 0.5), target: grid[i]) }
        #expect(throws: CalibrationError.tooFewPoints(distinct: 1)) { try Calibration.fit(same, sensor: panel) }
        #expect(throws: CalibrationError.tooFewPoints(distinct: 0)) { try Calibration.fit([], sensor: panel) }
        #expect(CalibrationError.tooFewPoints(distinct: 1).description
            == "a calibration needs touches at three or more distinct places, not on one line; there is 1")
    }

    @Test func aNumberThatIsNotFiniteIsRefusedNotTrapped() throws {
        var points = try touches(.identity)
        points[3].target.x = .nan
        #expect(throws: CalibrationError.notFinite(point: 3)) { try Calibration.fit(points, sensor: panel) }
    }
}
