import TouchlineGestures

// The eight ways a panel's axes can sit on a screen's: the four rotations, a mirrored axis,
// and the swaps (a transposed controller). Each is an exact map of normalized coordinates; a
// fit is named by the one nearest to it (`Orientation.nearest`), and what remains after it is
// scale, offset and skew.

public enum Orientation: String, Sendable, CaseIterable, CustomStringConvertible {
    case normal, rotated90, rotated180, rotated270, invertedX, invertedY, swapped, swappedInverted

    /// The map, device normalized → screen normalized. Rotations are clockwise, as a
    /// `[[device]]` rotation: at 90 a native (x, y) is at (1 − y, x) (DeviceTransform).
    public var map: AffineMap {
        switch self {
        case .normal: AffineMap(1, 0, 0, 0, 1, 0)
        case .rotated90: AffineMap(0, -1, 1, 1, 0, 0)
        case .rotated180: AffineMap(-1, 0, 1, 0, -1, 1)
        case .rotated270: AffineMap(0, 1, 0, -1, 0, 1)
        case .invertedX: AffineMap(-1, 0, 1, 0, 1, 0)
        case .invertedY: AffineMap(1, 0, 0, 0, -1, 1)
        case .swapped: AffineMap(0, 1, 0, 1, 0, 0)
        case .swappedInverted: AffineMap(0, -1, 1, -1, 0, 1)
        }
    }

    /// Whether the screen's x follows the panel's y (the sizes of the two swap).
    public var swapsAxes: Bool {
        switch self {
        case .rotated90, .rotated270, .swapped, .swappedInverted: true
        case .normal, .rotated180, .invertedX, .invertedY: false
        }
    }

    /// The `[[device]]` rotation that carries this orientation's swap (so that the graph's
    /// surface is the screen's shape); a mirror left over goes into the calibration.
    public var rotation: Rotation {
        switch self {
        case .normal, .invertedX, .invertedY: .none
        case .rotated90, .swapped, .swappedInverted: .quarter
        case .rotated180: .half
        case .rotated270: .threeQuarters
        }
    }

    public var description: String {
        switch self {
        case .normal: "not rotated"
        case .rotated90: "rotated 90° clockwise"
        case .rotated180: "rotated 180°"
        case .rotated270: "rotated 270° clockwise (90° counter-clockwise)"
        case .invertedX: "X inverted"
        case .invertedY: "Y inverted"
        case .swapped: "X and Y swapped"
        case .swappedInverted: "X and Y swapped, both inverted"
        }
    }

    /// The orientation whose linear part is nearest `map`'s (the largest agreement of signs
    /// and weights); a tie goes to the first in declaration order.
    public static func nearest(_ map: AffineMap) -> Orientation {
        var best = Orientation.normal
        var bestScore = -Double.infinity
        for o in allCases {
            let m = o.map
            let score = m.a * map.a + m.b * map.b + m.d * map.d + m.e * map.e
            if score > bestScore { (best, bestScore) = (o, score) }
        }
        return best
    }
}
