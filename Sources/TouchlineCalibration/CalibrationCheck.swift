import TouchlineCore

// `touchline calibrate --check`: one more touch, at a point the person has not aimed at before
// (random, from a seed that is printed, so that the same point can be asked again), and how
// far the calibration in force puts it from that point. The distance is measured on the
// panel, in mm, as the fit's residuals are: how far the finger would have had to move.

public struct CalibrationCheck: Hashable, Sendable {
    /// Where the point may fall: inside the crosshairs' inset, so that a finger reaches it.
    public static let range = 0.15...0.85

    /// The point for `seed` (normalized screen coordinates): SplitMix64's first two outputs,
    /// the same on every machine.
    public static func point(seed: UInt64) -> Point {
        var state = seed
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(UInt64(1) << 53)
        }
        let span = range.upperBound - range.lowerBound
        let x = range.lowerBound + next() * span
        let y = range.lowerBound + next() * span
        return Point(x: x, y: y)
    }

    /// The point aimed at (normalized screen coordinates).
    public var target: Point
    /// The touch (normalized device coordinates).
    public var touched: Point
    /// The calibration in force, on Touchline's normalization (device → screen).
    public var map: AffineMap
    /// The panel, mm (native axes).
    public var sensor: Size

    public init(target: Point, touched: Point, map: AffineMap, sensor: Size) {
        (self.target, self.touched, self.map, self.sensor) = (target, touched, map, sensor)
    }

    /// Where the calibration puts the touch (normalized screen coordinates).
    public var landed: Point { map.apply(touched) }

    /// mm on the panel between the touch and where the calibration wants it for the point;
    /// infinite when the map folds the plane (no touch lands on the point).
    public var error: Double {
        Calibration.residuals(map, [CalibrationPoint(touched: touched, target: target)], sensor: sensor)[0]
    }

    /// "check: aimed at 0.372,0.615 (seed 7), …, off by 1.4 mm: within the tolerance of 4.0 mm".
    /// `calibration` names the map's origin (the udev property, --matrix, none).
    public func report(seed: UInt64, calibration: String, tolerance: Double) -> String {
        func pair(_ p: Point) -> String { "\(formatFixed(p.x, decimals: 3)),\(formatFixed(p.y, decimals: 3))" }
        let error = self.error
        let verdict = error <= tolerance
            ? "within the tolerance of \(formatFixed(tolerance, decimals: 1)) mm"
            : "more than the tolerance of \(formatFixed(tolerance, decimals: 1)) mm: calibrate again"
        return "check: aimed at \(pair(target)) (seed \(seed)), touched \(pair(touched)) (normalized), "
            + "which \(calibration) puts at \(pair(landed)): off by \(error.isFinite ? formatFixed(error, decimals: 1) : "∞") mm on the panel, \(verdict)\n"
    }

    /// The prompt: where to touch, as fractions of the screen from its top-left corner.
    public static func prompt(_ target: Point, seed: UInt64) -> String {
        "check (seed \(seed); --seed \(seed) asks for this point again): touch the screen at \(formatFixed(target.x * 100, decimals: 1)) % "
            + "of its width from the left and \(formatFixed(target.y * 100, decimals: 1)) % of its height from the top, then lift the finger"
    }
}

extension AffineMap {
    /// The inverse of `onLibinputAxes`: a matrix on libinput's normalization (the udev
    /// property's) on Touchline's.
    public func fromLibinputAxes(xSpan: Double, ySpan: Double) -> AffineMap {
        let kx = xSpan > 0 ? (xSpan + 1) / xSpan : 1
        let ky = ySpan > 0 ? (ySpan + 1) / ySpan : 1
        return AffineMap(a / kx, b / ky, c, d / kx, e / ky, f)
    }
}

/// What the page's executable drives (CalibrationRun, CheckRun): the page's answers and the
/// device's touches in, the page's current line out.
public protocol PageRun: Sendable {
    /// A touch is taken now (the page said it shows the point it is for).
    var armed: Bool { get }
    /// The run has its outcome: no touch is taken any more.
    var isOver: Bool { get }
    /// The `shown=N` the page answers once it shows the outcome.
    var shownAtEnd: Int { get }
    mutating func answer(_ answer: CalibrationRun.Answer) -> Bool
    mutating func touch(_ normalized: Point) -> Bool
    /// The line the page reads now, while the run is not over.
    func pageLine(device: CalibratedDevice) -> [UInt8]
}

extension CalibrationRun: PageRun {
    public var isOver: Bool { outcome != nil }
    public var shownAtEnd: Int { targets.count }
    public func pageLine(device: CalibratedDevice) -> [UInt8] { line(device: device) }
}

/// `calibrate --check --page`: the check's one point as a crosshair on the page (the page's
/// own protocol: the point is taken once the page says it shows it), then the error on it.
public struct CheckRun: PageRun {
    public let target: Point
    public let seed: UInt64
    public private(set) var armed = false
    /// The touch (normalized device coordinates), once taken.
    public private(set) var touched: Point?

    public init(seed: UInt64) {
        self.seed = seed
        target = CalibrationCheck.point(seed: seed)
    }

    public var isOver: Bool { touched != nil }
    public var shownAtEnd: Int { 1 }

    public mutating func answer(_ answer: CalibrationRun.Answer) -> Bool {
        guard touched == nil, !armed, answer == .shown(0) else { return false }
        armed = true
        return true
    }

    public mutating func touch(_ normalized: Point) -> Bool {
        guard armed, touched == nil, normalized.x.isFinite, normalized.y.isFinite else { return false }
        touched = normalized
        armed = false
        return true
    }

    /// `{"calibrate":"point","check":7,"index":0,"of":1,"prompt":0,"x":…,"y":…,"taken":0,…}`:
    /// a point line as the calibration's, with the seed.
    public func pageLine(device: CalibratedDevice) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.field("calibrate", raw: "point")
        w.field("check", Int64(bitPattern: seed))
        w.field("index", 0)
        w.field("of", 1)
        w.field("prompt", 0)
        w.field("x", target.x, decimals: 4)
        w.field("y", target.y, decimals: 4)
        w.field("taken", 0)
        Self.deviceFields(device, into: &w)
        w.endObject()
        return w.bytes
    }

    /// `{"calibrate":"checked","seed":7,"x":…,"y":…,"error":1.4,"tolerance":4.0,"within":true,
    /// "calibration":"--matrix","report":"check: …",…}`: the outcome (`error` null when the map
    /// folds the plane).
    public static func line(_ check: CalibrationCheck, seed: UInt64, calibration: String, tolerance: Double, device: CalibratedDevice) -> [UInt8] {
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        w.field("calibrate", raw: "checked")
        w.field("seed", Int64(bitPattern: seed))
        w.field("x", check.target.x, decimals: 4)
        w.field("y", check.target.y, decimals: 4)
        let error = check.error
        if error.isFinite { w.field("error", error, decimals: 1) } else { w.fieldNull("error") }
        w.field("tolerance", tolerance, decimals: 1)
        w.field("within", error <= tolerance)
        w.field("calibration", calibration)
        w.field("report", check.report(seed: seed, calibration: calibration, tolerance: tolerance))
        deviceFields(device, into: &w)
        w.endObject()
        return w.bytes
    }

    static func deviceFields(_ device: CalibratedDevice, into w: inout JSONWriter) {
        w.field("device", device.name)
        w.field("panelWidth", device.sensor.width, decimals: 2)
        w.field("panelHeight", device.sensor.height, decimals: 2)
    }
}
