// Booleans, numbers and dates: the values that are one unquoted word. Each is checked against
// TOML 1.0's grammar by hand (so that "1__0", "+0x1" or "07" are refused as the spec says), and
// a value out of range is an error that quotes the word as the file holds it.

extension TOMLScanner {
    /// The extent of an unquoted value: letters, digits and `_ + - . :`, and a date's space
    /// separator when a time follows it ("1979-05-27 07:32:00").
    mutating func word() -> Range<Int> {
        let start = i
        func isWordByte(_ c: UInt8) -> Bool {
            TOMLScanner.isBareKey(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":")
        }
        while let c = peek, isWordByte(c) { i += 1 }
        if i - start == 10, bytes[start + 4] == UInt8(ascii: "-"), peek == 0x20,
           let a = peek(1), let b = peek(2), TOMLScanner.isDigit(a), TOMLScanner.isDigit(b), at(3, is: UInt8(ascii: ":")) {
            i += 1
            while let c = peek, isWordByte(c) { i += 1 }
        }
        return start..<i
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    /// Reads the word at `r` as a boolean, number or date; `key` names what it is the value of.
    mutating func scalar(_ r: Range<Int>, key: @autoclosure () -> String) throws(TOMLError) -> TOMLValue.Kind {
        let text = bytes[r]
        if text.elementsEqual("true".utf8) { return .bool(true) }
        if text.elementsEqual("false".utf8) { return .bool(false) }
        let looksLikeDate = text.contains(UInt8(ascii: ":"))
            || (text.count >= 5 && text.prefix(4).allSatisfy(TOMLScanner.isDigit) && text.dropFirst(4).first == UInt8(ascii: "-"))
        if looksLikeDate { return try dateTime(r, key: key) }
        return try number(r, key: key)
    }

    private func found(_ r: Range<Int>, key: String) -> String {
        "found \(TOMLQuote.verbatim(bytes[r]))" + (key.isEmpty ? "" : " for '\(key)'")
    }

    /// The end of a run of digits in which each '_' stands between two digits, or nil when an
    /// underscore does not.
    private func digitRun(from start: Int, to end: Int, _ isDigit: (UInt8) -> Bool) -> Int? {
        var k = start
        guard k < end, isDigit(bytes[k]) else { return k }
        while k < end {
            if isDigit(bytes[k]) {
                k += 1
            } else if bytes[k] == UInt8(ascii: "_") {
                guard k + 1 < end, isDigit(bytes[k + 1]) else { return nil }
                k += 1
            } else {
                break
            }
        }
        return k
    }

    private func number(_ r: Range<Int>, key: () -> String) throws(TOMLError) -> TOMLValue.Kind {
        // The message is made only when it is thrown.
        func bad(_ expected: String) -> TOMLError { error("\(found(r, key: key())); expected \(expected)", at: r.lowerBound) }
        let valueExpected = "a value (a quoted string, number, true, false, date, array or inline table)"
        guard !r.isEmpty else { throw unexpected(valueExpected) }
        var k = r.lowerBound
        let end = r.upperBound
        let sign = bytes[k]
        let signed = sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-")
        if signed { k += 1 }
        let negative = sign == UInt8(ascii: "-")
        let rest = bytes[k..<end]
        if rest.elementsEqual("inf".utf8) { return .float(negative ? -.infinity : .infinity) }
        if rest.elementsEqual("nan".utf8) { return .float(.nan) }
        guard k < end, TOMLScanner.isDigit(bytes[k]) else {
            if !signed, let c = bytes[r].first, c >= 0x41 {
                throw bad("\(valueExpected); strings need quotes")
            }
            throw bad(valueExpected)
        }

        // Hexadecimal, octal, binary: no sign, digits with underscores between them.
        if bytes[k] == UInt8(ascii: "0"), k + 1 < end, let radix = TOMLScanner.radix(bytes[k + 1]) {
            let name = radix == 16 ? "hexadecimal" : radix == 8 ? "octal" : "binary"
            guard !signed else { throw bad("an unsigned \(name) integer (TOML allows a sign on decimal numbers only)") }
            let isDigit = { (c: UInt8) -> Bool in TOMLScanner.digitValue(c).map { $0 < radix } ?? false }
            guard let digitsEnd = digitRun(from: k + 2, to: end, isDigit), digitsEnd == end, digitsEnd > k + 2 else {
                throw bad("a \(name) integer (0\(Character(Unicode.Scalar(bytes[k + 1])))… with digits, '_' only between digits)")
            }
            var value: Int64 = 0
            for c in bytes[(k + 2)..<end] where c != UInt8(ascii: "_") {
                let (m, o1) = value.multipliedReportingOverflow(by: Int64(radix))
                let (s, o2) = m.addingReportingOverflow(Int64(TOMLScanner.digitValue(c) ?? 0))
                guard !o1, !o2 else { throw bad("an integer from 0 to 0x7FFFFFFFFFFFFFFF (the 64-bit range)") }
                value = s
            }
            return .integer(value)
        }

        guard let intEnd = digitRun(from: k, to: end, TOMLScanner.isDigit) else {
            throw bad("a number with '_' only between digits")
        }
        if bytes[k] == UInt8(ascii: "0"), intEnd - k > 1 {
            throw bad("a number without leading zeros")
        }
        var p = intEnd
        var isFloat = false
        if p < end, bytes[p] == UInt8(ascii: ".") {
            isFloat = true
            guard let fractionEnd = digitRun(from: p + 1, to: end, TOMLScanner.isDigit), fractionEnd > p + 1 else {
                throw bad("a float with digits on both sides of '.', '_' only between digits")
            }
            p = fractionEnd
        }
        if p < end, bytes[p] == UInt8(ascii: "e") || bytes[p] == UInt8(ascii: "E") {
            isFloat = true
            var e = p + 1
            if e < end, bytes[e] == UInt8(ascii: "+") || bytes[e] == UInt8(ascii: "-") { e += 1 }
            guard let exponentEnd = digitRun(from: e, to: end, TOMLScanner.isDigit), exponentEnd > e else {
                throw bad("a float with digits after its exponent's 'e', '_' only between digits")
            }
            p = exponentEnd
        }
        guard p == end else { throw bad(isFloat ? "a float such as 1.5, -2e3 or inf" : "a number such as 42, 1_000, 0x2A or 1.5") }

        if !isFloat {
            // Accumulated negatively, so that -9223372036854775808 fits.
            var value: Int64 = 0
            for c in bytes[k..<end] where c != UInt8(ascii: "_") {
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.subtractingReportingOverflow(Int64(c - 0x30))
                guard !o1, !o2 else { throw bad("an integer from -9223372036854775808 to 9223372036854775807 (the 64-bit range)") }
                value = s
            }
            if !negative {
                guard value != .min else { throw bad("an integer from -9223372036854775808 to 9223372036854775807 (the 64-bit range)") }
                value = -value
            }
            return .integer(value)
        }
        var digits = ""
        if negative { digits.append("-") }
        for c in bytes[k..<end] where c != UInt8(ascii: "_") { digits.unicodeScalars.append(Unicode.Scalar(c)) }
        guard let value = Double(digits) else { throw bad("a float such as 1.5, -2e3 or inf") }
        guard value.isFinite else {
            throw bad("a float from -1.7976931348623157e308 to 1.7976931348623157e308 (the 64-bit range), or inf")
        }
        return .float(value)
    }

    static func radix(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "x"): return 16
        case UInt8(ascii: "o"): return 8
        case UInt8(ascii: "b"): return 2
        default: return nil
        }
    }

    static func digitValue(_ c: UInt8) -> Int? { TOMLScanner.hexDigit(c).map(Int.init) }

    // MARK: dates and times

    private func dateTime(_ r: Range<Int>, key: () -> String) throws(TOMLError) -> TOMLValue.Kind {
        // The message is made only when it is thrown.
        func bad(_ expected: String) -> TOMLError { error("\(found(r, key: key())); expected \(expected)", at: r.lowerBound) }
        let shape = "a date-time (1979-05-27T07:32:00Z, 1979-05-27T07:32:00, 1979-05-27 or 07:32:00)"
        var k = r.lowerBound
        let end = r.upperBound
        func digits(_ n: Int) -> Int? {
            guard k + n <= end else { return nil }
            var v = 0
            for c in bytes[k..<k + n] {
                guard TOMLScanner.isDigit(c) else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            k += n
            return v
        }
        func expect(_ c: Character) -> Bool {
            guard k < end, bytes[k] == c.asciiValue else { return false }
            k += 1
            return true
        }
        func time() throws(TOMLError) -> TOMLTime {
            guard let h = digits(2), expect(":"), let m = digits(2), expect(":"), let s = digits(2) else {
                throw bad("\(shape), with two-digit hours, minutes and seconds")
            }
            guard h < 24, m < 60, s <= 60 else { throw bad("a time from 00:00:00 to 23:59:60") }
            var nanosecond = 0
            if k < end, bytes[k] == UInt8(ascii: ".") {
                k += 1
                let start = k
                var scale = 100_000_000
                while k < end, TOMLScanner.isDigit(bytes[k]) {
                    nanosecond += Int(bytes[k] - 0x30) * scale
                    scale /= 10
                    k += 1
                }
                guard k > start else { throw bad("digits after the seconds' '.'") }
            }
            return TOMLTime(hour: h, minute: m, second: s, nanosecond: nanosecond)
        }

        if r.count >= 3, bytes[r.lowerBound + 2] == UInt8(ascii: ":") {
            let t = try time()
            guard k == end else { throw bad(shape) }
            return .localTime(t)
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2) else {
            throw bad(shape)
        }
        guard (1...12).contains(month) else { throw bad("a month from 01 to 12") }
        let monthDays = TOMLDate.days(inMonth: month, of: year)
        guard day >= 1, day <= monthDays else { throw bad("a day from 01 to \(monthDays) (the month's length in \(year))") }
        let date = TOMLDate(year: year, month: month, day: day)
        if k == end { return .localDate(date) }
        guard bytes[k] == UInt8(ascii: "T") || bytes[k] == UInt8(ascii: "t") || bytes[k] == 0x20 else { throw bad(shape) }
        k += 1
        let t = try time()
        if k == end { return .localDateTime(date, t) }
        if bytes[k] == UInt8(ascii: "Z") || bytes[k] == UInt8(ascii: "z") {
            k += 1
            guard k == end else { throw bad(shape) }
            return .offsetDateTime(date, t, offsetMinutes: 0)
        }
        let sign = bytes[k]
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { throw bad(shape) }
        k += 1
        guard let oh = digits(2), expect(":"), let om = digits(2), k == end else {
            throw bad("an offset Z or ±HH:MM after the time")
        }
        guard oh < 24, om < 60 else { throw bad("an offset from -23:59 to +23:59") }
        let offset = (oh * 60 + om) * (sign == UInt8(ascii: "-") ? -1 : 1)
        return .offsetDateTime(date, t, offsetMinutes: offset)
    }
}
