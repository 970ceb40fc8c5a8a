import TouchlineCore

/// How hard and how wide a contact presses, in 16 bits each: what `GroupSample.pressure` and
/// `touchMajor` are made of, and what the graph tracks per contact when a kind reads them.
/// Pressure 0…1 in steps of 1/65534 (finer than any device's axis: the Dell Canvas pen has
/// 4,096 levels); touch major in 0.01 mm up to 655.34 mm. `absent` (0xFFFF): not reported.
struct ContactForce: BitwiseCopyable, Hashable, Sendable {
    static let absent: UInt16 = 0xFFFF
    var pressure = ContactForce.absent
    var size = ContactForce.absent

    init() {}

    @inline(__always) init(_ c: borrowing Contact) {
        pressure = ContactForce.pressureLevel(c.pressure?.value)
        size = ContactForce.sizeLevel(c.touchMajor?.value)
    }

    @inline(__always) static func pressureLevel(_ p: Double?) -> UInt16 {
        guard let p else { return absent }
        // NaN fails both comparisons and becomes 0: a device never crashes the graph.
        return UInt16((p > 0 ? min(p, 1) : 0) * 65534 + 0.5)
    }
    @inline(__always) static func pressure(_ level: UInt16) -> Double? { level == absent ? nil : Double(level) / 65534 }

    @inline(__always) static func sizeLevel(_ mm: Double?) -> UInt16 {
        guard let mm else { return absent }
        return UInt16((mm > 0 ? min(mm, 655.34) : 0) * 100 + 0.5)
    }
    @inline(__always) static func size(_ level: UInt16) -> Double? { level == absent ? nil : Double(level) / 100 }

    /// The higher of two levels, where a present one beats an absent one.
    @inline(__always) static func highest(_ a: UInt16, _ b: UInt16) -> UInt16 {
        a == absent ? b : b == absent ? a : max(a, b)
    }
}
