// A hand-written parser for the subset of TOML that graph configurations use: comments, bare
// and quoted keys, `[table]` and `[[array of tables]]` headers, basic and literal strings,
// integers, floats, booleans and arrays (across lines too). No dates, no inline tables, no
// dotted keys outside `[defaults]` (where `kind.parameter` is one key). Every error names the
// line and says what was expected.

public struct TOMLValue: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case string(String)
        case integer(Int64)
        case float(Double)
        case bool(Bool)
        case array([TOMLValue])
    }
    public var kind: Kind
    public var line: Int

    public var typeName: String {
        switch kind {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .bool: return "a boolean"
        case .array: return "an array"
        }
    }

    public var description: String {
        switch kind {
        case let .string(s): return "\"\(s)\""
        case let .integer(i): return "\(i)"
        case let .float(d): return "\(d)"
        case let .bool(b): return "\(b)"
        case let .array(a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

/// One `[name]` or `[[name]]` section (the root has the name "").
public struct TOMLSection: Sendable, Hashable {
    public var name: String
    public var isArrayElement: Bool
    public var line: Int
    public var entries: [(key: String, value: TOMLValue, line: Int)]

    public static func == (a: TOMLSection, b: TOMLSection) -> Bool {
        a.name == b.name && a.isArrayElement == b.isArrayElement && a.line == b.line
            && a.entries.map(\.key) == b.entries.map(\.key) && a.entries.map(\.value) == b.entries.map(\.value)
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(line)
    }
}

public struct TOMLDocument: Sendable {
    /// Sections in file order; the first is the root.
    public var sections: [TOMLSection]

    public static func parse(_ text: String, file: String) throws(ConfigError) -> TOMLDocument {
        var parser = TOMLParser(bytes: Array(text.utf8), file: file)
        return try parser.parseDocument()
    }
}

struct TOMLParser {
    let bytes: [UInt8]
    let file: String
    var i = 0
    var line = 1

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    func error(_ message: String, line: Int? = nil) -> ConfigError {
        ConfigError(file: file, line: line ?? self.line, message: message)
    }

    var atEnd: Bool { i >= bytes.count }
    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func skipSpaces() {
        while let c = peek, c == 0x20 || c == 0x09 { i += 1 }
    }

    /// Skips spaces, a comment, and the end of the line; fails on anything else.
    mutating func endOfLine(after what: String) throws(ConfigError) {
        skipSpaces()
        if peek == UInt8(ascii: "#") { while let c = peek, c != 0x0A { i += 1 } }
        if peek == 0x0D { i += 1 }
        guard let c = peek else { return }
        guard c == 0x0A else { throw error("expected the end of the line after \(what), found \(describe(c))") }
        i += 1
        line += 1
    }

    /// Skips blank lines, comments and (inside arrays) newlines.
    mutating func skipBlank() {
        while let c = peek {
            if c == 0x20 || c == 0x09 || c == 0x0D { i += 1 }
            else if c == 0x0A { i += 1; line += 1 }
            else if c == UInt8(ascii: "#") { while let c = peek, c != 0x0A { i += 1 } }
            else { break }
        }
    }

    func describe(_ c: UInt8) -> String {
        if c == 0x0A { return "the end of the line" }
        if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16))"
    }

    static func isBare(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
    }

    mutating func parseDocument() throws(ConfigError) -> TOMLDocument {
        var sections = [TOMLSection(name: "", isArrayElement: false, line: 1, entries: [])]
        var seenTables = Set<String>()
        var seenKeys = Set<String>()
        while true {
            skipBlank()
            guard let c = peek else { break }
            if c == UInt8(ascii: "[") {
                let headerLine = line
                i += 1
                let isArray = peek == UInt8(ascii: "[")
                if isArray { i += 1 }
                skipSpaces()
                let name = try parseKey(dotted: true)
                skipSpaces()
                guard peek == UInt8(ascii: "]") else { throw error("expected ']' to close the table header [\(name)") }
                i += 1
                if isArray {
                    guard peek == UInt8(ascii: "]") else { throw error("expected ']]' to close the array-of-tables header [[\(name)") }
                    i += 1
                } else {
                    if !seenTables.insert(name).inserted { throw error("table [\(name)] is declared twice") }
                }
                try endOfLine(after: "the table header")
                sections.append(TOMLSection(name: name, isArrayElement: isArray, line: headerLine, entries: []))
                seenKeys = []
                continue
            }
            let keyLine = line
            let key = try parseKey(dotted: true)
            skipSpaces()
            guard peek == UInt8(ascii: "=") else {
                throw error(atEnd ? "expected '=' after the key '\(key)', found the end of the file" : "expected '=' after the key '\(key)', found \(describe(peek!))")
            }
            i += 1
            skipSpaces()
            let value = try parseValue()
            try endOfLine(after: "the value of '\(key)'")
            if !seenKeys.insert(key).inserted { throw error("the key '\(key)' is set twice in this table", line: keyLine) }
            sections[sections.count - 1].entries.append((key, value, keyLine))
        }
        return TOMLDocument(sections: sections)
    }

    mutating func parseKey(dotted: Bool) throws(ConfigError) -> String {
        var parts: [String] = []
        while true {
            skipSpaces()
            guard let c = peek else { throw error("expected a key, found the end of the file") }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                guard case let .string(s) = try parseValue().kind else { throw error("expected a key") }
                parts.append(s)
            } else if TOMLParser.isBare(c) {
                let start = i
                while let c = peek, TOMLParser.isBare(c) { i += 1 }
                parts.append(String(decoding: bytes[start..<i], as: UTF8.self))
            } else {
                throw error("expected a key (letters, digits, '_' or '-', or a quoted string), found \(describe(c))")
            }
            skipSpaces()
            if dotted && peek == UInt8(ascii: ".") { i += 1; continue }
            return parts.joined(separator: ".")
        }
    }

    mutating func parseValue() throws(ConfigError) -> TOMLValue {
        let valueLine = line
        guard let c = peek, c != 0x0A, c != UInt8(ascii: "#") else { throw error("expected a value (a string, number, boolean or array)") }
        switch c {
        case UInt8(ascii: "\""):
            return TOMLValue(kind: .string(try parseBasicString()), line: valueLine)
        case UInt8(ascii: "'"):
            i += 1
            let start = i
            while let c = peek, c != UInt8(ascii: "'") {
                if c == 0x0A { throw error("the literal string is not closed on its line") }
                i += 1
            }
            guard !atEnd else { throw error("the literal string is not closed") }
            let s = String(decoding: bytes[start..<i], as: UTF8.self)
            i += 1
            return TOMLValue(kind: .string(s), line: valueLine)
        case UInt8(ascii: "["):
            i += 1
            var items: [TOMLValue] = []
            while true {
                skipBlank()
                guard let c = peek else { throw error("the array opened on line \(valueLine) is not closed") }
                if c == UInt8(ascii: "]") { i += 1; break }
                items.append(try parseValue())
                skipBlank()
                if peek == UInt8(ascii: ",") { i += 1; continue }
                if peek == UInt8(ascii: "]") { i += 1; break }
                throw error(atEnd ? "the array opened on line \(valueLine) is not closed" : "expected ',' or ']' in the array, found \(describe(peek!))")
            }
            return TOMLValue(kind: .array(items), line: valueLine)
        case UInt8(ascii: "{"):
            throw error("inline tables are not supported; use a [table] or [[array of tables]] section")
        default:
            let start = i
            while let c = peek, c != 0x20, c != 0x09, c != 0x0A, c != 0x0D, c != UInt8(ascii: ","), c != UInt8(ascii: "]"), c != UInt8(ascii: "#") { i += 1 }
            let word = String(decoding: bytes[start..<i], as: UTF8.self)
            if word == "true" { return TOMLValue(kind: .bool(true), line: valueLine) }
            if word == "false" { return TOMLValue(kind: .bool(false), line: valueLine) }
            let digits = word.replacingUnderscores()
            if let n = Int64(digits) { return TOMLValue(kind: .integer(n), line: valueLine) }
            if let d = Double(digits), d.isFinite, digits.first.map({ $0.isNumber || $0 == "-" || $0 == "+" }) == true {
                return TOMLValue(kind: .float(d), line: valueLine)
            }
            throw error("expected a value (a quoted string, a number, true, false or an array), found '\(word)'; strings need quotes")
        }
    }

    mutating func parseBasicString() throws(ConfigError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw error("the string is not closed") }
            if c == 0x0A { throw error("the string is not closed on its line") }
            i += 1
            if c == UInt8(ascii: "\"") { break }
            if c != UInt8(ascii: "\\") { out.append(c); continue }
            guard let e = peek else { throw error("the string is not closed") }
            i += 1
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "\""): out.append(e)
            case UInt8(ascii: "\\"): out.append(e)
            case UInt8(ascii: "u"):
                guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16),
                      let scalar = Unicode.Scalar(v) else { throw error("expected 4 hex digits after \\u") }
                i += 4
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw error("unknown escape \\\(Character(Unicode.Scalar(e))) in a string")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        var s = ""
        for c in self where c != "_" { s.append(c) }
        return s
    }
}
