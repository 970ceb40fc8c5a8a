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

/// 10^0...10^8: a Double is written with at most 8 decimals (it carries about 16 significant
/// digits, and the writers give 6 at most); an Int64 already scaled may have up to 24.
@usableFromInline let powersOfTen: [Int64] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

// appendFixed(Int64) and writeFixed write through pointers: UnsafeByteScratch.swift.

/// The bytes `scaled / 10^decimals` takes in decimal: the digits, at least `decimals` + 1 of
/// them, a point when there are decimals, a sign when negative (27 at most for decimals ≤ 24).
@inlinable public func fixedLength(_ scaled: Int64, decimals: Int) -> Int {
    var digits = 0
    var n = scaled.magnitude
    repeat {
        digits &+= 1
        n /= 10
    } while n > 0
    return max(digits, decimals &+ 1) &+ (decimals > 0 ? 1 : 0) &+ (scaled < 0 ? 1 : 0)
}

@inlinable public func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
    appendFixed(fixedScaled(value, decimals: decimals), decimals: decimals, to: &out)
}

/// `value × 10^decimals` rounded half away from zero, as an integer: 0 for a non-finite value,
/// clamped so that wild values cannot trap the conversion; −0.0 becomes 0 (never "-0.00").
/// `decimals` is 0...8 (`powersOfTen`); callers pass constants, so a bad one is our bug.
@inlinable public func fixedScaled(_ value: Double, decimals: Int) -> Int64 {
    precondition(decimals >= 0 && decimals < powersOfTen.count, "a Double is written with 0...8 decimals")
    guard value.isFinite else { return 0 }
    let scale = Double(powersOfTen[decimals])
    var scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
    scaled = min(max(scaled, -9.0e17), 9.0e17)
    return Int64(scaled)
}
