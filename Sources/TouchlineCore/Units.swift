// Units live in types (style principle 7): instants and durations are different types, lengths
// are millimetres, pressure is normalized. Device units become these once, in the frame
// assembler; nothing downstream sees raw evdev values.

/// An instant on the input's own clock, in microseconds (the kernel's `input_event` time for a
/// live device, the trace's time for a replay). The epoch is whatever the source uses.
public struct Timestamp: BitwiseCopyable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }
    @inlinable public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds &* 1_000_000 &+ microseconds
    }

    // Computed, not stored: a stored static is read through a one-time-initialization check
    // at every use, on every frame.
    @inlinable public static var zero: Timestamp { Timestamp(microseconds: 0) }

    @inlinable public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }
    @inlinable public static func - (a: Timestamp, b: Timestamp) -> Interval {
        Interval(microseconds: a.microseconds &- b.microseconds)
    }
    @inlinable public static func + (a: Timestamp, b: Interval) -> Timestamp {
        Timestamp(microseconds: a.microseconds &+ b.microseconds)
    }
    @inlinable public static func - (a: Timestamp, b: Interval) -> Timestamp {
        Timestamp(microseconds: a.microseconds &- b.microseconds)
    }

    /// Seconds with exactly six decimals, as every output of Touchline writes time.
    public var description: String { formatFixed(microseconds, decimals: 6) }
}

/// A duration in microseconds.
public struct Interval: BitwiseCopyable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }
    @inlinable public static func milliseconds(_ ms: Int64) -> Interval { Interval(microseconds: ms &* 1000) }
    @inlinable public static func microseconds(_ us: Int64) -> Interval { Interval(microseconds: us) }
    @inlinable public static var zero: Interval { Interval(microseconds: 0) }

    @inlinable public var seconds: Double { Double(microseconds) / 1_000_000 }
    @inlinable public var milliseconds: Double { Double(microseconds) / 1000 }

    @inlinable public static func < (a: Interval, b: Interval) -> Bool { a.microseconds < b.microseconds }
    @inlinable public static func + (a: Interval, b: Interval) -> Interval {
        Interval(microseconds: a.microseconds &+ b.microseconds)
    }
    @inlinable public static func - (a: Interval, b: Interval) -> Interval {
        Interval(microseconds: a.microseconds &- b.microseconds)
    }

    public var description: String { formatFixed(microseconds, decimals: 6) + " s" }
}

/// A length in millimetres on the sensor surface.
public struct Millimetres: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var value: Double
    @inlinable public init(_ value: Double) { self.value = value }
    @inlinable public static func < (a: Millimetres, b: Millimetres) -> Bool { a.value < b.value }
    public var description: String { formatFixed(value, decimals: 2) + " mm" }
}

/// A point on the sensor, in millimetres from its top-left corner, y growing downwards (as the
/// kernel's axes and UIKit's coordinates do).
public struct Point: BitwiseCopyable, Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
    @inlinable public static var zero: Point { Point(x: 0, y: 0) }

    @inlinable public static func - (a: Point, b: Point) -> Vector { Vector(dx: a.x - b.x, dy: a.y - b.y) }
    @inlinable public static func + (a: Point, b: Vector) -> Point { Point(x: a.x + b.dx, y: a.y + b.dy) }
    @inlinable public func distance(to other: Point) -> Double { (self - other).length }

    public var description: String { "(\(formatFixed(x, decimals: 2)), \(formatFixed(y, decimals: 2))) mm" }
}

/// A displacement in millimetres.
public struct Vector: BitwiseCopyable, Hashable, Sendable {
    public var dx: Double
    public var dy: Double
    @inlinable public init(dx: Double, dy: Double) { self.dx = dx; self.dy = dy }
    @inlinable public static var zero: Vector { Vector(dx: 0, dy: 0) }
    @inlinable public var length: Double { (dx * dx + dy * dy).squareRoot() }
    @inlinable public static func + (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx + b.dx, dy: a.dy + b.dy) }
    @inlinable public static func - (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx - b.dx, dy: a.dy - b.dy) }
    @inlinable public static func * (a: Vector, k: Double) -> Vector { Vector(dx: a.dx * k, dy: a.dy * k) }
    @inlinable public static func / (a: Vector, k: Double) -> Vector { Vector(dx: a.dx / k, dy: a.dy / k) }
}

/// A size in millimetres.
public struct Size: BitwiseCopyable, Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    @inlinable public init(width: Double, height: Double) { self.width = width; self.height = height }
    public var description: String { "\(formatFixed(width, decimals: 1)) × \(formatFixed(height, decimals: 1)) mm" }
}

/// Pressure normalized per device to 0...1 from its absinfo range (kernel code: `ABS_MT_PRESSURE`
/// or `ABS_PRESSURE`).
public struct Pressure: Hashable, Comparable, Sendable {
    public var value: Double
    @inlinable public init(_ value: Double) { self.value = value }
    @inlinable public static func < (a: Pressure, b: Pressure) -> Bool { a.value < b.value }
}

// MARK: - Fixed-precision formatting without Foundation

/// Formats an integer count of 10^-decimals units as a decimal string ("1.500000"). Exact, so
/// the same input always gives the same bytes.
public func formatFixed(_ scaled: Int64, decimals: Int) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(24)
    appendFixed(scaled, decimals: decimals, to: &out)
    return String(decoding: out, as: UTF8.self)
}

/// Formats a Double rounded half away from zero to `decimals` (0...8) places ("-0.25"). Non-finite
/// values, which the core never produces on purpose, print as 0 so that output stays valid JSON.
public func formatFixed(_ value: Double, decimals: Int) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(24)
    appendFixed(value, decimals: decimals, to: &out)
    return String(decoding: out, as: UTF8.self)
}

// A Double is written with at most 8 decimals (it carries about 16 significant digits, and the
// writers give 6 at most); an Int64 already scaled may have up to 24.

// appendFixed(Int64) and writeFixed write through pointers: UnsafeByteScratch.swift.

/// The bytes `scaled / 10^decimals` takes in decimal: the digits, at least `decimals` + 1 of
/// them, a point when there are decimals, a sign when negative (27 at most for decimals ≤ 24).
@inlinable @inline(__always) public func fixedLength(_ scaled: Int64, decimals: Int) -> Int {
    max(decimalDigitCount(scaled.magnitude), decimals &+ 1) &+ (decimals > 0 ? 1 : 0) &+ (scaled < 0 ? 1 : 0)
}

/// The decimal digits of `n` (0 for 0) without a division per digit: the bit length gives
/// ⌊log10⌋ or one less (1233 / 4096 is log10 2 to within 1e-5, so for 64 bits and under the
/// estimate is never off by more than one), and one comparison with a power of ten decides.
@inlinable @inline(__always) func decimalDigitCount(_ n: UInt64) -> Int {
    let bits = 64 &- n.leadingZeroBitCount
    let estimate = (bits &* 1233) >> 12
    return n >= unsignedPowerOfTen(estimate) ? estimate &+ 1 : estimate
}

/// 10^k for k in 0...19 (a switch of constants, which the compiler makes a table in read-only
/// data: a global array would cost a one-time-initialization check per use). 0 past 19, so that
/// no UInt64 is at least it; `decimalDigitCount` asks for at most 19.
@inlinable @inline(__always) func unsignedPowerOfTen(_ k: Int) -> UInt64 {
    switch k {
    case 0: return 1
    case 1: return 10
    case 2: return 100
    case 3: return 1_000
    case 4: return 10_000
    case 5: return 100_000
    case 6: return 1_000_000
    case 7: return 10_000_000
    case 8: return 100_000_000
    case 9: return 1_000_000_000
    case 10: return 10_000_000_000
    case 11: return 100_000_000_000
    case 12: return 1_000_000_000_000
    case 13: return 10_000_000_000_000
    case 14: return 100_000_000_000_000
    case 15: return 1_000_000_000_000_000
    case 16: return 10_000_000_000_000_000
    case 17: return 100_000_000_000_000_000
    case 18: return 1_000_000_000_000_000_000
    case 19: return 10_000_000_000_000_000_000
    default: return UInt64.max
    }
}

@inlinable public func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
    appendFixed(fixedScaled(value, decimals: decimals), decimals: decimals, to: &out)
}

/// `value × 10^decimals` rounded half away from zero, as an integer: 0 for a non-finite value,
/// clamped so that wild values cannot trap the conversion; −0.0 becomes 0 (never "-0.00").
/// `decimals` is 0...8; callers pass constants, so a bad one is our bug.
@inlinable @inline(__always) public func fixedScaled(_ value: Double, decimals: Int) -> Int64 {
    precondition(decimals >= 0 && decimals <= 8, "a Double is written with 0...8 decimals")
    guard value.isFinite else { return 0 }
    let scaled = value * Double(unsignedPowerOfTen(decimals))
    // Past ±9e17 doubles are 128 apart, so rounding cannot cross the clamp: clamp first.
    if scaled >= 9.0e17 { return 900_000_000_000_000_000 }
    if scaled <= -9.0e17 { return -900_000_000_000_000_000 }
    // Half away from zero without libm's `round` (a call per number on generic x86-64): the
    // conversion truncates exactly, and a double minus its truncation is exact too. −0.0 and
    // anything in (−0.5, 0) give 0, as `Int64(round(x))` does.
    var whole = Int64(scaled)
    let fraction = scaled - Double(whole)
    if fraction >= 0.5 { whole &+= 1 } else if fraction <= -0.5 { whole &-= 1 }
    return whole
}
