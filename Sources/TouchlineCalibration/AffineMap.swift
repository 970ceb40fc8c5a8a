import TouchlineCore

// The six numbers of a calibration, with libinput's meaning (LIBINPUT_CALIBRATION_MATRIX,
// src/evdev.c `evdev_device_calibrate`): row-major a b c d e f of the 3×3 matrix
// [a b c; d e f; 0 0 1], applied to a touch's normalized device coordinates (0…1 over the
// axis range, x right, y down) to give normalized coordinates of the screen:
// x' = a·x + b·y + c, y' = d·x + e·y + f. The translation is in multiples of the whole width
// and height (c = 1 moves a touch one screen width to the right).

/// An affine map of normalized coordinates, in libinput's order (a b c d e f).
public struct AffineMap: Hashable, Sendable, CustomStringConvertible {
    public var a, b, c, d, e, f: Double

    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// Six numbers, as a `[[device]]` calibration or the udev property holds them; nil unless
    /// exactly six finite ones.
    public init?(_ numbers: [Double]) {
        guard numbers.count == 6, numbers.allSatisfy(\.isFinite) else { return nil }
        self.init(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
    }

    public static let identity = AffineMap(1, 0, 0, 0, 1, 0)

    public var numbers: [Double] { [a, b, c, d, e, f] }

    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f)
    }

    /// The linear part's determinant: 0 when the map folds the plane onto a line.
    public var determinant: Double { a * e - b * d }

    /// The map undone; nil when it folds the plane onto a line.
    public var inverse: AffineMap? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let ia = e / det, ib = -b / det, id = -d / det, ie = a / det
        return AffineMap(ia, ib, -(ia * c + ib * f), id, ie, -(id * c + ie * f))
    }

    /// `self` after `first`: x ↦ self(first(x)) (libinput's `matrix_mult(self, first)`).
    public func after(_ first: AffineMap) -> AffineMap {
        AffineMap(
            a * first.a + b * first.d, a * first.b + b * first.e, a * first.c + b * first.f + c,
            d * first.a + e * first.d, d * first.b + e * first.e, d * first.c + e * first.f + f)
    }

    /// The same map on libinput's normalization of the device axes. libinput normalizes a
    /// device coordinate as (v − min) / (max − min + 1) (`evdev_device_calibrate`, and
    /// `scale_axis` for the transformed position it reports); Touchline (`SurfaceGeometry`) and
    /// the X server (`DeviceSetTransform`) as (v − min) / (max − min). `self` is on Touchline's;
    /// `xSpan`, `ySpan` are max − min of each axis. Only the device side differs: both report a
    /// touch's screen position as the matrix's output times the screen's size.
    public func onLibinputAxes(xSpan: Double, ySpan: Double) -> AffineMap {
        let kx = xSpan > 0 ? (xSpan + 1) / xSpan : 1
        let ky = ySpan > 0 ? (ySpan + 1) / ySpan : 1
        return AffineMap(a * kx, b * ky, c, d * kx, e * ky, f)
    }

    /// "a b c d e f" with six decimals, as the udev property and `xinput` take them.
    public func formatted(separator: String = " ", decimals: Int = 6) -> String {
        numbers.map { Self.format($0, decimals: decimals) }.joined(separator: separator)
    }

    static func format(_ value: Double, decimals: Int) -> String {
        let text = formatFixed(value, decimals: decimals)
        // formatFixed keeps the sign of a value that rounds to zero only when the scaled integer
        // is non-zero, so "-0.000000" cannot appear; kept as a check of that promise.
        return text.hasPrefix("-") && text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) ? String(text.dropFirst()) : text
    }

    public var description: String { formatted() }
}
