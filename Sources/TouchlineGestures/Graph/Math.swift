import TouchlineCore

// The pure modules import neither Foundation nor Glibc, so the little trigonometry the graph
// needs (the angle between two vectors, for rotation and swipe direction) is written here.

package enum GestureMath {
    package static let pi = 3.141592653589793

    /// atan(x), accurate to about 1e-15 over the whole line. |x| > 1 uses
    /// atan x = π/2 − atan(1/x); above tan(π/16) ≈ 0.2, one or two argument halvings
    /// (atan x = 2·atan(x / (1 + √(1 + x²)))) bring x below it, where the Taylor series
    /// converges fast (12 terms: error below 0.2^25 / 25 ≈ 1e-19).
    ///
    /// The turn of a contact between two frames is a small angle, so the common case takes
    /// no halving at all, and the series is evaluated by Estrin's scheme (independent pairs,
    /// then powers of y²) rather than Horner's: each halving is a square root and a division
    /// in a row, and Horner's rule a chain of 12 dependent steps; together they made this
    /// function half of a frame's time (docs/performance.md).
    static func atan(_ x: Double) -> Double {
        if x.isNaN { return 0 }
        // atan(−x) = −atan(x), atan(x) = π/2 − atan(1/x); without recursion (the call for a
        // negative turn, half of all turns, cost a frame a call and a return).
        let magnitude = abs(x)
        let r = magnitude > 1 ? pi / 2 - atanSeries(1 / magnitude) : atanSeries(magnitude)
        return x.sign == .minus ? -r : r
    }

    /// atan(x) for 0 ≤ x ≤ 1.
    @inline(__always) private static func atanSeries(_ x: Double) -> Double {
        var y = x
        var scale = 1.0
        while y > 0.2 {
            y = y / (1 + (1 + y * y).squareRoot())
            scale *= 2
        }
        let z = y * y
        let z2 = z * z
        let z4 = z2 * z2
        if y < 0.07 {
            // A frame's turn (below 4°): seven terms, the next below 0.07^15 / 15 ≈ 3e-19 of
            // the result, so a shorter chain for the same value (to an ulp).
            let a0 = 1 - z * (1.0 / 3), a1 = 1.0 / 5 - z * (1.0 / 7), a2 = 1.0 / 9 - z * (1.0 / 11)
            let b0 = a0 + a1 * z2, b1 = a2 + z2 * (1.0 / 13)
            return scale * y * (b0 + b1 * z4)
        }
        let z8 = z4 * z4
        // Σ (−1)^k z^k / (2k+1), k < 12, in pairs.
        // Coefficients as constant reciprocals: multiplications, not divisions.
        let a0 = 1 - z * (1.0 / 3), a1 = 1.0 / 5 - z * (1.0 / 7), a2 = 1.0 / 9 - z * (1.0 / 11)
        let a3 = 1.0 / 13 - z * (1.0 / 15), a4 = 1.0 / 17 - z * (1.0 / 19), a5 = 1.0 / 21 - z * (1.0 / 23)
        let b0 = a0 + a1 * z2, b1 = a2 + a3 * z2, b2 = a4 + a5 * z2
        return scale * y * (b0 + b1 * z4 + b2 * z8)
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
