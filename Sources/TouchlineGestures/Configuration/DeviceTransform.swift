import TouchlineCore

// A device's rotation and calibration (docs/live.md#devices) as one affine map of normalized
// coordinates, applied to assembled frames before the graph. A device without settings has no
// transform at all (nil), so the common case does no per-frame work.

/// Normalized (0…1, x right, y down) native coordinates → normalized coordinates of what the
/// user sees, then millimetres on the rotated surface.
public struct DeviceTransform: Hashable, Sendable {
    /// x' = a·x + b·y + c, y' = d·x + e·y + f (normalized), calibration then rotation.
    public var a, b, c, d, e, f: Double
    public var rotation: Rotation

    /// nil when the rotation is 0 and the calibration is absent or the identity, unless
    /// `always` (an identity that rescales positions to another surface size).
    public init?(rotation: Rotation, calibration: [Double]?, always: Bool = false) {
        var m = calibration ?? [1, 0, 0, 0, 1, 0]
        if m.count != 6 { m = [1, 0, 0, 0, 1, 0] }
        if !always && rotation == .none && m == [1, 0, 0, 0, 1, 0] { return nil }
        self.rotation = rotation
        // Rotation clockwise on normalized coordinates: 90: (1 - y, x); 180: (1 - x, 1 - y);
        // 270: (y, 1 - x). Composed after the calibration's rows.
        let (r0, r1): ([Double], [Double])
        switch rotation {
        case .none: (r0, r1) = (m[0...2].map { $0 }, m[3...5].map { $0 })
        case .quarter: (r0, r1) = ([-m[3], -m[4], 1 - m[5]], [m[0], m[1], m[2]])
        case .half: (r0, r1) = ([-m[0], -m[1], 1 - m[2]], [-m[3], -m[4], 1 - m[5]])
        case .threeQuarters: (r0, r1) = ([m[3], m[4], m[5]], [-m[0], -m[1], 1 - m[2]])
        }
        (a, b, c) = (r0[0], r0[1], r0[2])
        (d, e, f) = (r1[0], r1[1], r1[2])
    }

    /// The surface the graph sees: width and height swap at 90 and 270.
    public func surface(_ native: Size) -> Size {
        switch rotation {
        case .none, .half: return native
        case .quarter, .threeQuarters: return Size(width: native.height, height: native.width)
        }
    }

    /// `frame`'s contacts, transformed, into `output` (whose storage is reused: no allocation
    /// once it has grown to the largest frame). `surface` is `surface(native)`.
    public func apply(_ frame: TouchFrame, surface: Size, into output: inout TouchFrame) {
        output.time = frame.time
        output.afterDrop = frame.afterDrop
        output.hasPalm = frame.hasPalm
        output.contacts.removeAll(keepingCapacity: true)
        for contact in frame.contacts {
            var turned = contact
            let n = contact.normalized
            let x = a * n.x + b * n.y + c
            let y = d * n.x + e * n.y + f
            turned.normalized = Point(x: x, y: y)
            turned.position = Point(x: x * surface.width, y: y * surface.height)
            output.contacts.append(turned)
        }
    }
}
