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
        var term = y
        var sum = 0.0
        var n = 1.0
        var sign = 1.0
        // |y| ≤ 0.2: 12 terms leave an error below 0.2^25 / 25 ≈ 1e-19.
        for _ in 0..<12 {
            sum += sign * term / n
            term *= y2
            n += 2
            sign = -sign
        }
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
