// The lexical layer of the TOML reader: positions, whitespace, comments, newlines, keys and the
// four kinds of string. Works on raw bytes; the whole input is checked to be UTF-8 first, so
// that everything after may decode slices without a second check.

struct TOMLScanner {
    let bytes: [UInt8]
    let file: String
    var i: Int
    /// Offsets where each line starts (line 1 after a BOM).
    private var lineStarts: [Int]
    // The last position computed: columns are counted forwards from it on the same line, so that
    // a long line with many values costs linear time.
    private var cacheLine = 0
    private var cacheOffset = 0
    private var cacheColumn = 1

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        let bom = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        i = bom
        var starts = [bom]
        for (k, c) in bytes.enumerated() where c == 0x0A { starts.append(k + 1) }
        lineStarts = starts
        cacheOffset = bom
    }

    // MARK: positions and errors

    private func lineIndex(of offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    private func lineHolds(_ line: Int, _ offset: Int) -> Bool {
        line < lineStarts.count && lineStarts[line] <= offset && (line + 1 == lineStarts.count || offset < lineStarts[line + 1])
    }

    private func columns(from start: Int, to end: Int) -> Int {
        var n = 0
        var k = start
        while k < end && k < bytes.count {
            if bytes[k] & 0xC0 != 0x80 { n += 1 }
            k += 1
        }
        return n
    }

    mutating func position(_ offset: Int) -> TOMLPosition {
        // Reading goes forwards: the offset is most often on the last line asked for or the
        // next, found without the search.
        let line = lineHolds(cacheLine, offset) ? cacheLine : lineHolds(cacheLine + 1, offset) ? cacheLine + 1 : lineIndex(of: offset)
        if line == cacheLine && offset >= cacheOffset {
            cacheColumn += columns(from: cacheOffset, to: offset)
        } else {
            cacheColumn = 1 + columns(from: lineStarts[line], to: offset)
        }
        cacheLine = line
        cacheOffset = offset
        return TOMLPosition(line: line + 1, column: cacheColumn)
    }

    func error(_ message: String, at offset: Int) -> TOMLError {
        let line = lineIndex(of: offset)
        let column = 1 + columns(from: lineStarts[line], to: offset)
        return TOMLError(file: file, line: line + 1, column: column, message: message)
    }

    func error(_ message: String) -> TOMLError { error(message, at: i) }

    /// "found X; expected Y" at the current byte.
    func unexpected(_ expected: String) -> TOMLError {
        error("found \(TOMLQuote.describe(bytes, at: i)); expected \(expected)")
    }

    // MARK: bytes

    var atEnd: Bool { i >= bytes.count }
    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }
    func peek(_ k: Int) -> UInt8? { i + k < bytes.count ? bytes[i + k] : nil }
    func at(_ k: Int, is c: UInt8) -> Bool { i + k < bytes.count && bytes[i + k] == c }

    static func isBareKey(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
    }

    /// TOML allows tab but no other control character in comments and strings.
    static func isControl(_ c: UInt8) -> Bool { (c < 0x20 && c != 0x09) || c == 0x7F }

    /// Fails at the first byte that is not UTF-8.
    func checkUTF8() throws(TOMLError) {
        var k = i
        let all = bytes[...]
        while k < bytes.count {
            if bytes[k] < 0x80 {
                k += 1
                continue
            }
            guard let n = UTF8Check.scalarLength(all, at: k) else {
                throw error("found byte 0x\(TOMLQuote.hex(bytes[k])), which is not UTF-8; expected a UTF-8 file", at: k)
            }
            k += n
        }
    }

    // MARK: whitespace, comments, newlines

    mutating func skipSpaces() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
    }

    /// Skips a comment up to (not including) its newline.
    mutating func skipComment() throws(TOMLError) {
        guard peek == UInt8(ascii: "#") else { return }
        i += 1
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A || (c == 0x0D && at(1, is: 0x0A)) { return }
            if TOMLScanner.isControl(c) {
                throw error("found the control character \(TOMLQuote.describe(bytes, at: i)) in a comment; expected text (tab is the only control character allowed)")
            }
            i += 1
        }
    }

    /// Consumes LF or CRLF; false when neither is here. A CR alone is an error.
    mutating func newline() throws(TOMLError) -> Bool {
        if peek == 0x0A {
            i += 1
            return true
        }
        if peek == 0x0D {
            guard at(1, is: 0x0A) else { throw error("found a carriage return without a line feed; expected LF or CRLF line ends") }
            i += 2
            return true
        }
        return false
    }

    /// Spaces, a comment, then the end of the line or file: what must follow a key/value pair or
    /// a table header.
    mutating func endOfLine(after what: @autoclosure () -> String) throws(TOMLError) {
        skipSpaces()
        try skipComment()
        if atEnd { return }
        if try newline() { return }
        throw unexpected("the end of the line after \(what())")
    }

    /// Blank lines, spaces and comments, as between statements and inside arrays.
    mutating func skipBlank() throws(TOMLError) {
        while true {
            skipSpaces()
            try skipComment()
            if try !newline() { return }
        }
    }

    // MARK: keys

    /// One part of a key: bare, "basic" or 'literal'.
    mutating func simpleKey() throws(TOMLError) -> String {
        guard let c = peek else { throw unexpected("a key") }
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
            if at(1, is: c) && at(2, is: c) {
                throw error("found a multi-line string where a key is; expected a bare key or a one-line quoted key")
            }
            return c == UInt8(ascii: "\"") ? try basicString() : try literalString()
        }
        guard TOMLScanner.isBareKey(c) else {
            throw unexpected("a key (letters, digits, '_' and '-', or a quoted string)")
        }
        let start = i
        while let c = peek, TOMLScanner.isBareKey(c) { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// A dotted key: its parts with where each starts.
    mutating func keyPath() throws(TOMLError) -> [(key: String, offset: Int)] {
        var parts: [(key: String, offset: Int)] = []
        while true {
            skipSpaces()
            let start = i
            parts.append((try simpleKey(), start))
            skipSpaces()
            guard peek == UInt8(ascii: ".") else { return parts }
            i += 1
        }
    }

    // MARK: strings

    /// `"…"` or `"""…"""`, at the opening quote.
    mutating func basicString() throws(TOMLError) -> String {
        let multiline = at(1, is: 0x22) && at(2, is: 0x22)
        let open = i
        i += multiline ? 3 : 1
        if multiline { _ = try newline() }
        var out: [UInt8] = []
        while true {
            guard let c = peek else {
                throw error("found the end of the file in the string opened at \(error("", at: open).position); expected its closing \(multiline ? "\"\"\"" : "\"")")
            }
            switch c {
            case 0x22:
                if try closeQuote(0x22, multiline: multiline, into: &out) { return String(decoding: out, as: UTF8.self) }
            case 0x5C:
                try escape(multiline: multiline, into: &out)
            case 0x0A, 0x0D:
                guard multiline else { throw unexpected("the closing \" of the string on its line") }
                _ = try newline()
                out.append(0x0A)
            default:
                if TOMLScanner.isControl(c) {
                    throw error("found the control character \(TOMLQuote.describe(bytes, at: i)) in a string; expected it escaped (\\t, \\n, \\u0000…)")
                }
                out.append(c)
                i += 1
            }
        }
    }

    /// `'…'` or `'''…'''`, at the opening quote: no escapes.
    mutating func literalString() throws(TOMLError) -> String {
        let multiline = at(1, is: 0x27) && at(2, is: 0x27)
        let open = i
        i += multiline ? 3 : 1
        if multiline { _ = try newline() }
        var out: [UInt8] = []
        while true {
            guard let c = peek else {
                throw error("found the end of the file in the literal string opened at \(error("", at: open).position); expected its closing \(multiline ? "'''" : "'")")
            }
            switch c {
            case 0x27:
                if try closeQuote(0x27, multiline: multiline, into: &out) { return String(decoding: out, as: UTF8.self) }
            case 0x0A, 0x0D:
                guard multiline else { throw unexpected("the closing ' of the literal string on its line") }
                _ = try newline()
                out.append(0x0A)
            default:
                if TOMLScanner.isControl(c) {
                    throw error("found the control character \(TOMLQuote.describe(bytes, at: i)) in a literal string; expected text (tab is the only control character allowed)")
                }
                out.append(c)
                i += 1
            }
        }
    }

    /// At a quote: true when it closes the string. In a multi-line string one or two quotes
    /// may stand just before the closing three, so a run of up to five closes it.
    private mutating func closeQuote(_ q: UInt8, multiline: Bool, into out: inout [UInt8]) throws(TOMLError) -> Bool {
        guard multiline else {
            i += 1
            return true
        }
        var run = 0
        while peek == q { run += 1; i += 1 }
        if run < 3 {
            out.append(contentsOf: repeatElement(q, count: run))
            return false
        }
        guard run <= 5 else {
            throw error("found \(run) quotes in a row; expected at most two inside a multi-line string and three to close it", at: i - run)
        }
        out.append(contentsOf: repeatElement(q, count: run - 3))
        return true
    }

    private mutating func escape(multiline: Bool, into out: inout [UInt8]) throws(TOMLError) {
        let start = i
        i += 1
        guard let e = peek else { throw error("found the end of the file after \\; expected an escape") }
        switch e {
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "r"): out.append(0x0D)
        case 0x22, 0x5C: out.append(e)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = e == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for k in 1...digits {
                guard let h = peek(k), let d = TOMLScanner.hexDigit(h) else {
                    let end = min(bytes.count, i + 1 + digits)
                    throw error("found \(TOMLQuote.verbatim(bytes[start..<end])); expected \\\(e == UInt8(ascii: "u") ? "u and 4" : "U and 8") hex digits", at: start)
                }
                value = value << 4 | d
            }
            guard let scalar = Unicode.Scalar(value) else {
                let text = TOMLQuote.verbatim(bytes[start..<i + 1 + digits])
                let why = (0xD800...0xDFFF).contains(value) ? "a surrogate code point, which is not a character" : "past U+10FFFF, the last code point"
                throw error("found \(text), \(why); expected the escape of a Unicode scalar value (\\u0000 to \\uD7FF or \\uE000 to \\U0010FFFF)", at: start)
            }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
            i += digits
        case 0x20, 0x09, 0x0A, 0x0D:
            // A line-ending backslash: it, the rest of the line's spaces, and every blank or
            // space after the line end vanish.
            guard multiline else {
                throw error("found \\ followed by \(TOMLQuote.describe(bytes, at: i)); expected an escape (a backslash ends a line only in a multi-line string)", at: start)
            }
            skipSpaces()
            guard try newline() else {
                throw error("found \\ followed by spaces and then text; expected a line-ending backslash to end its line", at: start)
            }
            while true {
                skipSpaces()
                if try !newline() { break }
            }
            return
        default:
            let n = UTF8Check.scalarLength(bytes[...], at: i) ?? 1
            throw error("found \(TOMLQuote.verbatim(bytes[start..<i + n])), an escape TOML 1.0 does not have; expected \\b, \\t, \\n, \\f, \\r, \\\", \\\\, \\uXXXX or \\UXXXXXXXX", at: start)
        }
        i += 1
    }

    static func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: return UInt32(c - 0x30)
        case 0x41...0x46: return UInt32(c - 0x41 + 10)
        case 0x61...0x66: return UInt32(c - 0x61 + 10)
        default: return nil
        }
    }
}
