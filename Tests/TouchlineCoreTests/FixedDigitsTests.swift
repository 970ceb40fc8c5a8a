// The number writer's fast paths (two digits per step, the digit count from the bit length,
// rounding without libm) held to the definitions they replaced, byte for byte.
import Testing
@testable import TouchlineCore

@Suite struct FixedDigitsTests {
    /// The writer as it was: one digit per division, the point tested at every digit.
    static func reference(_ scaled: Int64, decimals: Int) -> String {
        var magnitude = scaled.magnitude
        var digits: [UInt8] = []
        var written = 0
        repeat {
            if written == decimals && decimals > 0 { digits.append(UInt8(ascii: ".")) }
            digits.append(UInt8(truncatingIfNeeded: magnitude % 10) &+ 48)
            magnitude /= 10
            written += 1
        } while magnitude > 0 || written <= decimals
        if scaled < 0 { digits.append(UInt8(ascii: "-")) }
        return String(decoding: digits.reversed(), as: UTF8.self)
    }

    /// Every power of ten and its neighbours, both signs, the extremes, and a seeded spread of
    /// every length, at every number of decimals the writers use and past them.
    static var values: [Int64] {
        var values: [Int64] = [0, 1, -1, 9, 10, 11, 99, 100, 101, Int64.max, Int64.min, Int64.min + 1]
        var p: Int64 = 1
        for _ in 0..<19 {
            values += [p - 1, p, p + 1, -(p - 1), -p, -(p + 1)]
            if p <= Int64.max / 10 { p *= 10 }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let bits = Int(state >> 58)  // 0...63 significant bits
            values.append(Int64(bitPattern: state) >> (63 - bits))
        }
        return values
    }

    @Test func integersMatchTheDigitByDigitWriter() {
        for decimals in [0, 1, 2, 3, 4, 6, 8, 9, 17, 24, 30] {
            for value in Self.values {
                let expected = Self.reference(value, decimals: decimals)
                #expect(formatFixed(value, decimals: decimals) == expected, "\(value) with \(decimals) decimals")
                #expect(fixedLength(value, decimals: decimals) == expected.utf8.count, "\(value) with \(decimals) decimals")
            }
        }
    }

    /// Through the scratch path too (JSONScratch.fixed), which computes the length first.
    @Test func scratchNumbersMatchTheDigitByDigitWriter() {
        for value in Self.values {
            var w = JSONWriter()
            w.appendObject(OneNumber(value: value))
            #expect(w.string == "{\"n\":\(Self.reference(value, decimals: 6))}")
        }
    }

    /// Half away from zero, as `Int64((x * 10^d).rounded(.toNearestOrAwayFromZero))` clamped to
    /// ±9e17, at halves, near halves, −0.0, huge and tiny values.
    @Test func roundingMatchesLibm() {
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.49999999999999994, -0.49999999999999994,
                                0.125, -0.125, 0.005, 1.005, 2.675, 1e15 + 0.5, 4503599627370495.5, -4503599627370495.5,
                                9e17, -9e17, 8.999999999999999e17, 1e18, -1e300, 1e300, .leastNonzeroMagnitude,
                                -.leastNonzeroMagnitude, .greatestFiniteMagnitude]
        var state: UInt64 = 12345
        for _ in 0..<5000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let x = Double(Int64(bitPattern: state) >> 20) / 1024.0  // many exact halves and quarters
            values += [x, x / 1000, x.nextUp, x.nextDown]
        }
        for decimals in 0...8 {
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            for x in values {
                let expected = Int64(min(max((x * scale).rounded(.toNearestOrAwayFromZero), -9.0e17), 9.0e17))
                #expect(fixedScaled(x, decimals: decimals) == expected, "\(x) with \(decimals) decimals")
            }
        }
    }
}

private struct OneNumber: JSONObjectMembers {
    var value: Int64
    func writeMembers<W: JSONMembers>(_ w: inout W) {
        w.key("n")
        w.fixed(value, decimals: 6)
    }
}
