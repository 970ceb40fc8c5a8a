// JSON Lines output without Foundation: keys in the order written, numbers with fixed precision,
// so the same input always gives the same bytes. The writer appends to one reusable byte
// buffer; on the hot path the caller clears it (`removeAll(keepingCapacity:)`) per line.

/// What an object's members are written with: `JSONWriter` (any object, growing) and
/// `JSONScratch` (stack scratch of fixed size, UnsafeByteScratch.swift). A member list written
/// once, generic over this, gives the same bytes through either.
public protocol JSONMembers {
    mutating func key(_ key: StaticString)
    mutating func field(_ key: StaticString, _ value: Int)
    mutating func field(_ key: StaticString, _ time: Timestamp)
    mutating func field(_ key: StaticString, _ value: Double, decimals: Int)
    mutating func field(_ key: StaticString, raw value: StaticString)
    /// An interned name, as a JSON string.
    mutating func field(_ key: StaticString, _ name: InternedString)
    /// Any string, escaped as JSON requires.
    mutating func field(_ key: StaticString, _ value: String)
    /// `scaled / 10^decimals` as a value, after `key`.
    mutating func fixed(_ scaled: Int64, decimals: Int)
    /// An array of whole numbers.
    mutating func array(_ key: StaticString, _ count: Int, _ element: (Int) -> UInt32)
    /// An array of interned names, as JSON strings.
    mutating func names(_ key: StaticString, _ count: Int, _ element: (Int) -> InternedString)
    /// `null`.
    mutating func fieldNull(_ key: StaticString)
}

/// Builds one JSON object at a time into `bytes`.
public struct JSONWriter: Sendable, JSONMembers {
    public var bytes: [UInt8]
    @usableFromInline var needsComma: Bool = false

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Forgets the content, keeps the storage.
    @inlinable public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    @inlinable public mutating func beginObject() {
        separator()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// `,"key":{`: an object as a member of the one being written.
    @inlinable public mutating func beginObject(_ key: StaticString) {
        self.key(key)
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    @inlinable public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    @inlinable public mutating func beginArray(_ key: StaticString) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    @inlinable public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Ends the line (JSON Lines).
    @inlinable public mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    @inlinable mutating func separator() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// `,"key":` (the comma when one is due) in one append (UnsafeByteScratch.swift).
    @inlinable public mutating func key(_ key: StaticString) {
        let comma = needsComma
        needsComma = true
        appendKey(key, comma: comma, to: &bytes)
    }

    @inlinable public mutating func field(_ key: StaticString, _ value: Int) {
        self.key(key)
        appendFixed(Int64(value), decimals: 0, to: &bytes)
    }

    @inlinable public mutating func field(_ key: StaticString, _ value: Int64) {
        self.key(key)
        appendFixed(value, decimals: 0, to: &bytes)
    }

    /// A Double with a fixed number of decimals (0...8, `fixedScaled`).
    @inlinable public mutating func field(_ key: StaticString, _ value: Double, decimals: Int) {
        self.key(key)
        appendFixed(value, decimals: decimals, to: &bytes)
    }

    /// A timestamp in seconds with µs precision.
    @inlinable public mutating func field(_ key: StaticString, _ time: Timestamp) {
        self.key(key)
        appendFixed(time.microseconds, decimals: 6, to: &bytes)
    }

    @inlinable public mutating func field(_ key: StaticString, _ value: Bool) {
        self.key(key)
        if value {
            bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            bytes.append(contentsOf: [UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e")])
        }
    }

    @inlinable public mutating func fieldNull(_ key: StaticString) {
        self.key(key)
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    /// A string that is known to need no escaping (an identifier of ours).
    @inlinable public mutating func field(_ key: StaticString, raw value: StaticString) {
        self.key(key)
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Any string, escaped as JSON requires.
    public mutating func field(_ key: StaticString, _ value: String) {
        self.key(key)
        appendString(value)
    }

    /// An interned name, as a JSON string (escaped once, when it was interned).
    @inlinable public mutating func field(_ key: StaticString, _ name: InternedString) {
        self.key(key)
        name.appendJSON(to: &bytes)
    }

    @inlinable public mutating func fixed(_ scaled: Int64, decimals: Int) {
        appendFixed(scaled, decimals: decimals, to: &bytes)
    }

    @inlinable public mutating func array(_ key: StaticString, _ count: Int, _ element: (Int) -> UInt32) {
        beginArray(key)
        for i in 0..<count { self.element(Double(element(i)), decimals: 0) }
        endArray()
    }

    @inlinable public mutating func names(_ key: StaticString, _ count: Int, _ element: (Int) -> InternedString) {
        beginArray(key)
        for i in 0..<count {
            separator()
            element(i).appendJSON(to: &bytes)
            needsComma = true
        }
        endArray()
    }

    /// A string value inside an array.
    public mutating func element(_ value: String) {
        separator()
        appendString(value)
        needsComma = true
    }

    /// A number value inside an array (decimals 0...8, `fixedScaled`).
    @inlinable public mutating func element(_ value: Double, decimals: Int) {
        separator()
        appendFixed(value, decimals: decimals, to: &bytes)
        needsComma = true
    }

    public mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            let escape = jsonEscape(byte)
            switch escape.count {
            case 1: bytes.append(byte)
            case 2: bytes.append(UInt8(ascii: "\\")); bytes.append(escape.second)
            default:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0xf))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The content as a String (for tests and small outputs).
    public var string: String { String(decoding: bytes, as: UTF8.self) }
}
