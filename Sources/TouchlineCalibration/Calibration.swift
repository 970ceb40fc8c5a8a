import TouchlineCore

// The least-squares fit of a calibration: touches (where the panel felt the finger, in its
// normalized coordinates) paired with the points they aimed at (normalized coordinates of the
// screen), to the affine map libinput applies (AffineMap). Residuals are measured on the
// panel, in mm: how far the finger would have had to move for the fitted map to put it on
// its point. One point far off the others' fit is named and left out when the others agree
// without it; points that cannot fix a plane (fewer than three, or all on one line) are
// refused with the reason.

/// One touch and the point it aimed at.
public struct CalibrationPoint: Hashable, Sendable {
    /// Normalized device coordinates (0…1 of each axis' range, as `Contact.normalized`).
    public var touched: Point
    /// Normalized screen coordinates (0…1 of the screen's width and height).
    public var target: Point

    public init(touched: Point, target: Point) {
        self.touched = touched
        self.target = target
    }
}

/// Why a set of points gives no calibration.
public enum CalibrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer than three touches at distinct places (`distinct`: how many there were).
    case tooFewPoints(distinct: Int)
    /// A coordinate is not a finite number.
    case notFinite(point: Int)
    /// The touches lie on one line: an affine map needs them to span an area. `spread`: mm
    /// across the line.
    case touchesOnOneLine(spread: Double)
    /// The points aimed at lie on one line.
    case targetsOnOneLine

    public var description: String {
        switch self {
        case let .tooFewPoints(distinct):
            "a calibration needs touches at three or more distinct places, not on one line; "
                + "there \(distinct == 1 ? "is" : "are") \(distinct)"
        case let .notFinite(point):
            "point \(point + 1) is not a finite number"
        case let .touchesOnOneLine(spread):
            "the touches lie on one line (within \(formatFixed(spread, decimals: 1)) mm across it): "
                + "a calibration needs points that span the screen, such as its corners"
        case .targetsOnOneLine:
            "the points aimed at lie on one line: a calibration needs points that span the screen, such as its corners"
        }
    }
}

/// What a fit found.
public struct Calibration: Hashable, Sendable {
    /// Device normalized → screen normalized, on Touchline's normalization of the axes
    /// (a `[[device]]` calibration; `AffineMap.onLibinputAxes` gives libinput's).
    public var map: AffineMap
    /// Per point given, mm on the panel between the touch and where the map wants it. A point
    /// left out (`outlier`) has its distance from the fit of the others.
    public var residuals: [Double]
    /// The point with the largest residual among those fitted.
    public var worst: Int
    /// A point far off the others' fit, left out of `map`.
    public var outlier: Int?
    /// Whether every fitted point is within the tolerance: if not, the points disagree and
    /// should be touched again (with four points, one off cannot be told from the others).
    public var agrees: Bool
    /// The orientation nearest `map`.
    public var orientation: Orientation
    /// The screen's size in mm, as the panel measures it (the touched area the screen spans).
    public var screen: Size
    /// How many screen widths (heights) a panel width (height) covers along the screen's x (y).
    public var scale: Point
    /// Where the panel's centre lands, from the screen's centre, in mm of the screen (x right,
    /// y down).
    public var offset: Point
    /// What is left of the linear part once orientation and scale are taken out (the largest
    /// off-diagonal term, as a fraction): a panel glued on askew.
    public var skew: Double
    /// The tolerance the points were held to (mm).
    public var tolerance: Double
}

extension Calibration {
    /// The distance (mm on the panel) beyond which a point is off: a fingertip lands within ~2
    /// mm of where its owner aims (the 1 mm noise of the fit's tests gives ≤ 1.5 mm), a
    /// misaimed or slipped touch lands much farther.
    public static let defaultTolerance = 4.0

    /// Fits `points` on a panel of `sensor` mm (width × height, native axes).
    public static func fit(_ points: [CalibrationPoint], sensor: Size, tolerance: Double = defaultTolerance) throws(CalibrationError) -> Calibration {
        for (i, p) in points.enumerated() where !(p.touched.x.isFinite && p.touched.y.isFinite && p.target.x.isFinite && p.target.y.isFinite) {
            throw .notFinite(point: i)
        }
        let all = Array(points.indices)
        try checkSpread(all, points, sensor: sensor)
        var map = leastSquares(all, points)
        var residuals = Self.residuals(map, points, sensor: sensor)
        var fitted = all
        var outlier: Int?
        if (residuals.max() ?? 0) > tolerance && points.count >= 5 {
            // The point whose removal leaves the others closest to their own fit; it is the
            // outlier when that fit holds them within the tolerance and misses it.
            var best: (index: Int, others: Double, map: AffineMap)?
            for leave in all {
                let rest = all.filter { $0 != leave }
                guard (try? checkSpread(rest, points, sensor: sensor)) != nil else { continue }
                let candidate = leastSquares(rest, points)
                let r = Self.residuals(candidate, points, sensor: sensor)
                let others = rest.map { r[$0] }.max() ?? 0
                if others < best?.others ?? .infinity { best = (leave, others, candidate) }
            }
            if let best, best.others <= tolerance {
                let r = Self.residuals(best.map, points, sensor: sensor)
                if r[best.index] > tolerance {
                    map = best.map
                    residuals = r
                    outlier = best.index
                    fitted = all.filter { $0 != best.index }
                }
            }
        }
        let worst = fitted.max { residuals[$0] < residuals[$1] } ?? 0
        return describe(map, residuals: residuals, worst: worst, outlier: outlier,
                        agrees: fitted.allSatisfy { residuals[$0] <= tolerance }, sensor: sensor, tolerance: tolerance)
    }

    /// The names of a map: orientation, scale, offset, skew, the screen's size.
    static func describe(_ map: AffineMap, residuals: [Double], worst: Int, outlier: Int?, agrees: Bool, sensor: Size, tolerance: Double) -> Calibration {
        let orientation = Orientation.nearest(map)
        // What is left once the orientation is undone: ideally a scale and an offset along the
        // panel's own axes (an orientation's inverse always exists).
        let rest = orientation.map.inverse!.after(map)
        let scaleX = orientation.swapsAxes ? abs(rest.e) : abs(rest.a)
        let scaleY = orientation.swapsAxes ? abs(rest.a) : abs(rest.e)
        let skew = max(abs(rest.b), abs(rest.d)) / max(1e-12, max(abs(rest.a), abs(rest.e)))
        let screen = screenSize(map, sensor: sensor)
        let centre = map.apply(Point(x: 0.5, y: 0.5))
        return Calibration(
            map: map, residuals: residuals, worst: worst, outlier: outlier, agrees: agrees, orientation: orientation,
            screen: screen, scale: Point(x: scaleX, y: scaleY),
            offset: Point(x: (centre.x - 0.5) * screen.width, y: (centre.y - 0.5) * screen.height), skew: skew,
            tolerance: tolerance)
    }

    /// The screen's width and height as lengths on the panel: the panel distance between the
    /// touches the map sends to (0, 0) and (1, 0), and to (0, 0) and (0, 1).
    static func screenSize(_ map: AffineMap, sensor: Size) -> Size {
        guard let inverse = map.inverse else { return Size(width: 0, height: 0) }
        func length(_ dx: Double, _ dy: Double) -> Double {
            let x = dx * sensor.width, y = dy * sensor.height
            return (x * x + y * y).squareRoot()
        }
        return Size(width: length(inverse.a, inverse.d), height: length(inverse.b, inverse.e))
    }

    /// Per point, mm on the panel between its touch and the touch the map sends to its target.
    static func residuals(_ map: AffineMap, _ points: [CalibrationPoint], sensor: Size) -> [Double] {
        guard let inverse = map.inverse else { return points.map { _ in .infinity } }
        return points.map { p in
            let wanted = inverse.apply(p.target)
            let dx = (wanted.x - p.touched.x) * sensor.width, dy = (wanted.y - p.touched.y) * sensor.height
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    /// Refuses points that cannot fix an affine map: fewer than three distinct touches, or
    /// touches (targets) on one line, judged by the spread across the narrowest direction
    /// (the smaller eigenvalue of their covariance), in mm on the panel and in screen units.
    static func checkSpread(_ indices: [Int], _ points: [CalibrationPoint], sensor: Size) throws(CalibrationError) {
        let touched = indices.map { Point(x: points[$0].touched.x * sensor.width, y: points[$0].touched.y * sensor.height) }
        var distinct: [Point] = []
        for t in touched where !distinct.contains(where: { Self.distance($0, t) < 1 }) { distinct.append(t) }
        guard distinct.count >= 3 else { throw .tooFewPoints(distinct: distinct.count) }
        let spread = narrowestSpread(touched)
        guard spread >= 1 else { throw .touchesOnOneLine(spread: spread) }
        guard narrowestSpread(indices.map { points[$0].target }) >= 0.01 else { throw .targetsOnOneLine }
    }

    static func distance(_ p: Point, _ q: Point) -> Double {
        let dx = p.x - q.x, dy = p.y - q.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The standard deviation of `points` across their narrowest direction.
    static func narrowestSpread(_ points: [Point]) -> Double {
        let n = Double(points.count)
        let mx = points.reduce(0) { $0 + $1.x } / n, my = points.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in points {
            sxx += (p.x - mx) * (p.x - mx)
            syy += (p.y - my) * (p.y - my)
            sxy += (p.x - mx) * (p.y - my)
        }
        let half = (sxx + syy) / 2
        let root = ((sxx - syy) * (sxx - syy) / 4 + sxy * sxy).squareRoot()
        return (max(0, half - root) / n).squareRoot()
    }

    /// The least-squares affine map through the points at `indices` (each output row
    /// independently; centred so that the 2×2 normal equations stay well conditioned).
    /// `checkSpread` has made the touches' covariance invertible.
    static func leastSquares(_ indices: [Int], _ points: [CalibrationPoint]) -> AffineMap {
        let n = Double(indices.count)
        var mx = 0.0, my = 0.0, mX = 0.0, mY = 0.0
        for i in indices {
            mx += points[i].touched.x; my += points[i].touched.y
            mX += points[i].target.x; mY += points[i].target.y
        }
        (mx, my, mX, mY) = (mx / n, my / n, mX / n, mY / n)
        var sxx = 0.0, syy = 0.0, sxy = 0.0, sxX = 0.0, syX = 0.0, sxY = 0.0, syY = 0.0
        for i in indices {
            let x = points[i].touched.x - mx, y = points[i].touched.y - my
            let X = points[i].target.x - mX, Y = points[i].target.y - mY
            sxx += x * x; syy += y * y; sxy += x * y
            sxX += x * X; syX += y * X; sxY += x * Y; syY += y * Y
        }
        let det = sxx * syy - sxy * sxy
        let a = (sxX * syy - syX * sxy) / det, b = (syX * sxx - sxX * sxy) / det
        let d = (sxY * syy - syY * sxy) / det, e = (syY * sxx - sxY * sxy) / det
        return AffineMap(a, b, mX - a * mx - b * my, d, e, mY - d * mx - e * my)
    }
}
