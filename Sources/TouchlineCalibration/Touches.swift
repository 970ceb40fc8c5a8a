import TouchlineCore
import TouchlineGestures

// Which of the recognizers' events are a calibration's touches: the product's own tap
// recognizer (the default graph's) decides what a touch is, so a slide, a second finger or a
// palm is not taken for one. A careful person often holds the finger still on a crosshair for
// longer than a tap lasts: that is a long press, and its start counts as the touch.

public enum CalibrationTouches {
    /// Where `event`'s touch landed (mm on the panel, native axes when the device has no
    /// `[[device]]` settings), when it is a one-finger tap or the start of a one-finger long
    /// press; nil for every other event.
    public static func position(of event: GestureEvent) -> Point? {
        guard event.fingers == 1 else { return nil }
        if event.gesture == TapRecognizer.gesture && event.phase == .recognized { return event.position }
        if event.gesture == LongPressRecognizer.gesture && event.phase == .began { return event.position }
        return nil
    }
}

/// `calibrate --corners`: four touches, one at each corner of the screen in the order asked
/// (top-left, top-right, bottom-right, bottom-left), fitted as a calibration whose targets are
/// the corners. A finger cannot reach a corner exactly, so what it gives is the orientation
/// (exact: the nearest of the eight) and the extent the touches span; scale and offset want
/// points inset from the edges (`--from`, or the page).
public struct CornerCheck: Hashable, Sendable {
    public static let names = ["top-left", "top-right", "bottom-right", "bottom-left"]
    public static let corners = [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)]

    /// The fit of the four corners (its orientation is the answer).
    public var fit: Calibration
    /// The orientation alone, as a calibration: what the outputs write.
    public var orientationOnly: Calibration
    /// The touches, mm on the panel (native axes).
    public var touched: [Point]
    public var sensor: Size

    /// `touched`: normalized device coordinates of the four touches, in `names`' order.
    public init(_ touched: [Point], sensor: Size) throws(CalibrationError) {
        let points = zip(touched, Self.corners).map { CalibrationPoint(touched: $0, target: $1) }
        // The corners are approximate: the tolerance does not apply (a corner 6 mm short is a
        // finger, not a fault).
        fit = try Calibration.fit(points, sensor: sensor, tolerance: .infinity)
        let orientation = fit.orientation
        orientationOnly = Calibration.describe(orientation.map, residuals: fit.residuals, worst: fit.worst, outlier: nil, agrees: true,
                                               sensor: sensor, tolerance: .infinity)
        self.touched = touched.map { Point(x: $0.x * sensor.width, y: $0.y * sensor.height) }
        self.sensor = sensor
    }

    public var orientation: Orientation { fit.orientation }

    /// What the corners say: the orientation, and the extent of the touches on the panel.
    public func report(_ device: CalibratedDevice) -> String {
        let xs = touched.map(\.x), ys = touched.map(\.y)
        func mm(_ v: Double) -> String { formatFixed(v, decimals: 1) }
        var lines = ["device: \(device.name) (\(device.ids)), panel \(device.sensor)"]
        for (name, p) in zip(Self.names, touched) { lines.append("\(name): touched at \(mm(p.x)), \(mm(p.y)) mm") }
        lines.append("orientation: \(orientation)")
        lines.append("extent: the corners touched span x \(mm(xs.min()!)) to \(mm(xs.max()!)) mm and y \(mm(ys.min()!)) to \(mm(ys.max()!)) mm of the panel")
        lines.append("matrix: \(orientation.map.formatted()) (the orientation; for scale and offset calibrate --from points inset from the edges)")
        return lines.joined(separator: "\n") + "\n"
    }
}
