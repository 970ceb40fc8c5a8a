// Where a TOML key or value is, and what went wrong there.

/// A place in the source: 1-based line, and 1-based column counted in Unicode scalars (a tab is
/// one column), so that it matches what an editor's status bar shows for UTF-8 text.
public struct TOMLPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public static func < (a: TOMLPosition, b: TOMLPosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
    public var description: String { "\(line):\(column)" }
}

/// A document that is not TOML 1.0 (or goes past one of the reader's limits), printed as
/// "FILE:LINE:COLUMN: sentence". The sentence says what was found, verbatim and shortened when
/// long, and what was expected.
public struct TOMLError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }
    public var position: TOMLPosition { TOMLPosition(line: line, column: column) }
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Source text as a person reads it in a message: printable text as it is, control characters
/// and bytes that are not UTF-8 as escapes, cut after `limit` scalars with "…".
public enum TOMLQuote {
    public static let limit = 40

    public static func verbatim(_ bytes: ArraySlice<UInt8>, limit: Int = TOMLQuote.limit) -> String {
        var out = ""
        var i = bytes.startIndex
        var count = 0
        while i < bytes.endIndex {
            if count == limit {
                out += "…"
                break
            }
            count += 1
            let c = bytes[i]
            if c >= 0x20 && c < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(c))
                i += 1
            } else if c < 0x80 {
                out += escape(c)
                i += 1
            } else if let n = UTF8Check.scalarLength(bytes, at: i) {
                out += String(decoding: bytes[i..<i + n], as: UTF8.self)
                i += n
            } else {
                out += "\\x" + hex(c)
                i += 1
            }
        }
        return out
    }

    public static func verbatim(_ text: String, limit: Int = TOMLQuote.limit) -> String {
        verbatim(ArraySlice(Array(text.utf8)), limit: limit)
    }

    static func escape(_ c: UInt8) -> String {
        switch c {
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        default: return "\\x" + hex(c)
        }
    }

    static func hex(_ c: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(digits[Int(c >> 4)]) + String(digits[Int(c & 0xF)])
    }

    /// One byte or character for "found …": the end of the line or file named in words.
    static func describe(_ bytes: [UInt8], at i: Int) -> String {
        guard i < bytes.count else { return "the end of the file" }
        switch bytes[i] {
        case 0x0A: return "the end of the line"
        case 0x0D where i + 1 < bytes.count && bytes[i + 1] == 0x0A: return "the end of the line"
        default:
            let n = UTF8Check.scalarLength(bytes[...], at: i) ?? 1
            return "'" + verbatim(bytes[i..<i + n]) + "'"
        }
    }
}

enum UTF8Check {
    /// The length of the well-formed UTF-8 sequence at `i` (no overlong forms, no surrogates,
    /// nothing past U+10FFFF), or nil.
    static func scalarLength(_ b: ArraySlice<UInt8>, at i: Int) -> Int? {
        let c0 = b[i]
        if c0 < 0x80 { return 1 }
        let n: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch c0 {
        case 0xC2...0xDF: n = 2
        case 0xE0: n = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: n = 3
        case 0xED: n = 3; high = 0x9F
        case 0xF0: n = 4; low = 0x90
        case 0xF1...0xF3: n = 4
        case 0xF4: n = 4; high = 0x8F
        default: return nil
        }
        guard i + n <= b.endIndex else { return nil }
        guard b[i + 1] >= low && b[i + 1] <= high else { return nil }
        for k in 2..<n where b[i + k] & 0xC0 != 0x80 { return nil }
        return n
    }
}
