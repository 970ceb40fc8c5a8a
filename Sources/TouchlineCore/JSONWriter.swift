// JSON Lines output without Foundation: keys in the order written, numbers with fixed precision,
// so the same input always gives the same bytes. The writer appends to one reusable byte
// buffer; on the hot path the caller clears it (`removeAll(keepingCapacity:)`) per line.

/// Builds one JSON object at a time into `bytes`.
public struct JSONWriter: Sendable {
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

    @inlinable public mutating func key(_ key: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = true
    }

    @inlinable public mutating func field(_ key: StaticString, _ value: Int) {
        self.key(key)
        appendFixed(Int64(value), decimals: 0, to: &bytes)
    }

    @inlinable public mutating func field(_ key: StaticString, _ value: Int64) {
        self.key(key)
        appendFixed(value, decimals: 0, to: &bytes)
    }

    /// A Double with a fixed number of decimals.
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

    /// A string value inside an array.
    public mutating func element(_ value: String) {
        separator()
        appendString(value)
        needsComma = true
    }

    /// A number value inside an array.
    @inlinable public mutating func element(_ value: Double, decimals: Int) {
        separator()
        appendFixed(value, decimals: decimals, to: &bytes)
        needsComma = true
    }

    public mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xf)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The content as a String (for tests and small outputs).
    public var string: String { String(decoding: bytes, as: UTF8.self) }
}
