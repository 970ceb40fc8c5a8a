// A small JSON reader (RFC 8259) for the event socket's client messages, where every byte comes
// from someone else: the input is bounded by the caller (a line of at most 4 KiB), nesting by
// `maximumDepth` (the recursion is the reader's only stack use), and every error names the
// column where the text stopped being JSON. Beside the writer, without Foundation: loading
// Foundation for JSONSerialization cost every command 6.6 MB of peak RSS and 6 ms of start-up
// (docs/architecture.md, "No Foundation").

/// A JSON value as read. Objects keep their members in the order written, a repeated key
/// keeping its last value where the first stood (as JSONSerialization's dictionary did).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number (`1.5`, `1e3`, an integer too large for 64 bits).
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])
}

public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var value: JSONValue
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == JSONMember {
    /// The value of `key` in an object's members, or nil: one lookup for every reader of the
    /// socket's and the labels' objects (the reader keeps one member per key, its last value).
    public func value(_ key: String) -> JSONValue? { first { $0.key == key }?.value }
}

/// Where and why a text is not JSON. `column` counts bytes from 1.
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var column: Int
    public var reason: String
    public init(column: Int, reason: String) {
        self.column = column
        self.reason = reason
    }
    public var description: String { "\(reason) at column \(column)" }
}

public enum JSONReader {
    /// Deep enough for any message the socket takes (a register message nests 4 levels), and
    /// shallow enough that the recursion cannot exhaust a thread's stack.
    public static let maximumDepth = 64

    /// Reads one value (any kind: an object, a list or a scalar) filling the whole of `bytes`
    /// but for white space around it.
    public static func read<Bytes: Collection<UInt8>>(_ bytes: Bytes, maximumDepth: Int = maximumDepth) throws(JSONReadError) -> JSONValue {
        var parser = Parser(bytes: Array(bytes), maximumDepth: maximumDepth)
        parser.skipSpace()
        let value = try parser.value(depth: 1)
        parser.skipSpace()
        if parser.index < parser.bytes.count {
            throw parser.error("unexpected \(parser.describe(parser.bytes[parser.index])) after the value")
        }
        return value
    }

    /// Reads as `read`, and says where each value starts: `offsets` holds byte offsets in
    /// preorder (a value, then for an array its items, for an object each member's key and then
    /// its value), so that a reader of a file (labels) can name the line and column of what it
    /// refuses. A key given twice in one object is refused here, where `read` keeps the last:
    /// the offsets would no longer follow the value.
    public static func readLocated<Bytes: Collection<UInt8>>(_ bytes: Bytes, maximumDepth: Int = maximumDepth) throws(JSONReadError) -> (JSONValue, offsets: [Int]) {
        var parser = Parser(bytes: Array(bytes), maximumDepth: maximumDepth)
        parser.offsets = []
        parser.skipSpace()
        let value = try parser.value(depth: 1)
        parser.skipSpace()
        if parser.index < parser.bytes.count {
            throw parser.error("unexpected \(parser.describe(parser.bytes[parser.index])) after the value")
        }
        return (value, parser.offsets ?? [])
    }
}

/// Reads a document piece by piece, for a file too large to hold as one value (a labels file of
/// 200,000 recordings): the caller walks its outer object or list and takes each item as a
/// value of its own, with the offsets `readLocated` gives (absolute byte offsets).
public struct JSONPieceReader {
    private var parser: Parser

    public init(_ bytes: [UInt8]) {
        parser = Parser(bytes: bytes, maximumDepth: JSONReader.maximumDepth)
        parser.skipSpace()
    }

    /// The next byte past white space, not taken.
    public mutating func peek() -> UInt8? {
        parser.skipSpace()
        return parser.index < parser.bytes.count ? parser.bytes[parser.index] : nil
    }

    /// Where the next byte is (past white space).
    public mutating func offset() -> Int {
        parser.skipSpace()
        return parser.index
    }

    /// Takes `[` or `{`.
    public mutating func open(_ bracket: UInt8) throws(JSONReadError) {
        guard peek() == bracket else {
            throw parser.error(parser.index < parser.bytes.count ? "unexpected \(parser.describe(parser.bytes[parser.index])), expected '\(Character(Unicode.Scalar(bracket)))'" : "unexpected end")
        }
        parser.index += 1
    }

    /// Within a list: true when another item follows (its comma taken), false at `]` (taken).
    /// `first`: no comma before this one.
    public mutating func more(_ close: UInt8, first: Bool) throws(JSONReadError) -> Bool {
        guard let next = peek() else { throw parser.error("unexpected end, expected '\(Character(Unicode.Scalar(close)))'") }
        if next == close {
            parser.index += 1
            return false
        }
        if first { return true }
        guard next == UInt8(ascii: ",") else {
            throw parser.error("unexpected \(parser.describe(next)), expected ',' or '\(Character(Unicode.Scalar(close)))'")
        }
        parser.index += 1
        parser.skipSpace()
        return true
    }

    /// A member's key and its colon: the key and where it starts.
    public mutating func key() throws(JSONReadError) -> (String, offset: Int) {
        let start = offset()
        guard start < parser.bytes.count, parser.bytes[start] == UInt8(ascii: "\"") else {
            throw parser.error(start < parser.bytes.count ? "unexpected \(parser.describe(parser.bytes[start])), expected a key (a string)" : "unexpected end, expected a key")
        }
        let key = try parser.string()
        guard peek() == UInt8(ascii: ":") else { throw parser.error("expected ':'") }
        parser.index += 1
        parser.skipSpace()
        return (key, start)
    }

    /// One value, whole, with its offsets in preorder (as `readLocated`'s).
    public mutating func value() throws(JSONReadError) -> (JSONValue, offsets: [Int]) {
        parser.skipSpace()
        parser.offsets = []
        let value = try parser.value(depth: 2)
        defer { parser.offsets = nil }
        return (value, parser.offsets ?? [])
    }

    /// Nothing but white space is left.
    public mutating func end() throws(JSONReadError) {
        if let next = peek() { throw parser.error("unexpected \(parser.describe(next)) after the value") }
    }
}

private struct Parser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0
    /// Where each value and key starts, in preorder (`readLocated`); nil: not kept.
    var offsets: [Int]?

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func error(_ reason: String, at position: Int? = nil) -> JSONReadError {
        JSONReadError(column: (position ?? index) + 1, reason: reason)
    }

    func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7f ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0a || bytes[index] == 0x0d || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func value(depth: Int) throws(JSONReadError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end, expected a value") }
        offsets?.append(index)
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case let byte: throw error("unexpected \(describe(byte)), expected a value")
        }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(JSONReadError) -> JSONValue {
        let start = index
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else { throw error("expected \(word)", at: start) }
            index += 1
        }
        return value
    }

    mutating func enter(_ depth: Int) throws(JSONReadError) {
        if depth > maximumDepth { throw error("nested deeper than \(maximumDepth) levels") }
    }

    mutating func array(depth: Int) throws(JSONReadError) -> JSONValue {
        try enter(depth)
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end, expected ',' or ']'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            case let byte: throw error("unexpected \(describe(byte)), expected ',' or ']'")
            }
        }
    }

    mutating func object(depth: Int) throws(JSONReadError) -> JSONValue {
        try enter(depth)
        index += 1
        var members: [JSONMember] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end, expected a key") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw error("unexpected \(describe(bytes[index])), expected a key (a string)") }
            let keyStart = index
            offsets?.append(index)
            let key = try string()
            if offsets != nil, members.contains(where: { $0.key == key }) {
                throw error("the key \"\(key)\" again in one object; expected each key once", at: keyStart)
            }
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end, expected ':'") }
            guard bytes[index] == UInt8(ascii: ":") else { throw error("unexpected \(describe(bytes[index])), expected ':'") }
            index += 1
            skipSpace()
            let value = try value(depth: depth + 1)
            // Bounded by the input's length: a line of 4 KiB holds at most ~800 members.
            if let existing = members.firstIndex(where: { $0.key == key }) {
                members[existing].value = value
            } else {
                members.append(JSONMember(key: key, value: value))
            }
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end, expected ',' or '}'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            case let byte: throw error("unexpected \(describe(byte)), expected ',' or '}'")
            }
        }
    }

    /// A string's content: escapes decoded, the bytes checked as UTF-8.
    mutating func string() throws(JSONReadError) -> String {
        let start = index
        index += 1
        var scalars = String.UnicodeScalarView()
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                index += 1
                scalars.append(try escape())
            case 0..<0x20:
                throw error("a control character (byte 0x\(String(byte, radix: 16, uppercase: true))) in a string; write it as \\u00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16))")
            case 0..<0x80:
                scalars.append(Unicode.Scalar(byte))
                index += 1
            default:
                // A multi-byte sequence: decoded whole, or refused where it starts.
                let sequenceStart = index
                // A parser per sequence: one kept across sequences carries bytes it read ahead
                // of the last one into the next (FuzzJSONReader: "é힙" read back as another
                // string).
                var utf8 = Unicode.UTF8.ForwardParser()
                var iterator = bytes[index...].makeIterator()
                switch utf8.parseScalar(from: &iterator) {
                case .valid(let encoded):
                    scalars.append(Unicode.UTF8.decode(encoded))
                    index += encoded.count
                case .error, .emptyInput:
                    throw error("invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)))", at: sequenceStart)
                }
            }
        }
    }

    mutating func escape() throws(JSONReadError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let start = index - 2
            let first = try hex4()
            if first >= 0xD800 && first < 0xDC00 {
                // A high surrogate must be followed by an escaped low one: together one scalar.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("an unpaired surrogate \\u\(String(first, radix: 16, uppercase: true))", at: start)
                }
                index += 2
                let second = try hex4()
                guard second >= 0xDC00 && second < 0xE000 else {
                    throw error("an unpaired surrogate \\u\(String(first, radix: 16, uppercase: true))", at: start)
                }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else {
                throw error("an unpaired surrogate \\u\(String(first, radix: 16, uppercase: true))", at: start)
            }
            return scalar
        default:
            throw error("unknown escape \\\(describe(byte))", at: index - 2)
        }
    }

    mutating func hex4() throws(JSONReadError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("unexpected end in a \\u escape") }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("unexpected \(describe(byte)) in a \\u escape, expected a hex digit")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as RFC 8259 writes it.
    mutating func number() throws(JSONReadError) -> JSONValue {
        let start = index
        func digits(_ parser: inout Parser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, parser.bytes[parser.index] >= UInt8(ascii: "0"), parser.bytes[parser.index] <= UInt8(ascii: "9") {
                parser.index += 1
            }
            return parser.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw error("expected a digit after '-'", at: start) }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
            throw error("a number with a leading zero", at: start)
        }
        var whole = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            whole = false
            guard digits(&self) > 0 else { throw error("expected a digit after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            whole = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if whole, let integer = Int64(text) { return .integer(integer) }
        // The grammar above is a subset of what Double's parser takes; a magnitude past
        // Double's range (1e400) is refused, as JSONSerialization refused it, not made infinite.
        guard let number = Double(text), number.isFinite else { throw error("a number out of range", at: start) }
        return .number(number)
    }
}
