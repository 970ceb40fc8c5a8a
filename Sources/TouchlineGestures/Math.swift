import TouchlineCore

// The pure modules import neither Foundation nor Glibc, so the little trigonometry the graph
// needs (the angle between two vectors, for rotation and swipe direction) is written here.

enum GestureMath {
    static let pi = 3.141592653589793

    /// atan(x), accurate to about 1e-15 over the whole line. Two argument halvings
    /// (atan x = 2·atan(x / (1 + √(1 + x²)))) bring |x| ≤ 1 below tan(π/16) ≈ 0.2, where the
    /// Taylor series converges fast; |x| > 1 uses atan x = π/2 − atan(1/x).
    static func atan(_ x: Double) -> Double {
        if x.isNaN { return 0 }
        if x < 0 { return -atan(-x) }
        if x > 1 { return pi / 2 - atan(1 / x) }
        var y = x
        y = y / (1 + (1 + y * y).squareRoot())
        y = y / (1 + (1 + y * y).squareRoot())
        let y2 = y * y
        // Σ (−1)^k y^(2k+1) / (2k+1) for k < 12, by Horner with constant coefficients (a
        // division per term was most of the cost of a frame's rotation).
        var sum = -1.0 / 23
        sum = sum * y2 + 1.0 / 21
        sum = sum * y2 - 1.0 / 19
        sum = sum * y2 + 1.0 / 17
        sum = sum * y2 - 1.0 / 15
        sum = sum * y2 + 1.0 / 13
        sum = sum * y2 - 1.0 / 11
        sum = sum * y2 + 1.0 / 9
        sum = sum * y2 - 1.0 / 7
        sum = sum * y2 + 1.0 / 5
        sum = sum * y2 - 1.0 / 3
        sum = (sum * y2 + 1) * y
        return 4 * sum
    }

    /// atan2(y, x) in (−π, π], as C's.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        if x > 0 { return atan(y / x) }
        if x < 0 { return y >= 0 ? atan(y / x) + pi : atan(y / x) - pi }
        if y > 0 { return pi / 2 }
        if y < 0 { return -pi / 2 }
        return 0
    }

    /// The signed angle that turns `a` onto `b`, in (−π, π]; positive is clockwise on the screen
    /// because y grows downwards (as UIKit's rotation).
    static func angle(from a: Vector, to b: Vector) -> Double {
        let cross = a.dx * b.dy - a.dy * b.dx
        let dot = a.dx * b.dx + a.dy * b.dy
        return atan2(cross, dot)
    }

    static let degreesPerRadian = 180 / pi
}
