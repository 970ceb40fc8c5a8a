// JSON Lines output without Foundation: keys in the order written, numbers with fixed precision,
// so the same input always gives the same bytes. The writer appends to one reusable byte
// buffer; on the hot path the caller clears it (`removeAll(keepingCapacity:)`) per line.

/// What an object's members are written with: `JSONWriter` (any object) and `JSONScratch` (an
/// object of bounded length, written through a pointer). A member list written once, generic
/// over this, gives the same bytes through either.
public protocol JSONMembers {
    mutating func key(_ key: StaticString)
    mutating func field(_ key: StaticString, _ value: Int)
    mutating func field(_ key: StaticString, _ time: Timestamp)
    mutating func field(_ key: StaticString, _ value: Double, decimals: Int)
    mutating func field(_ key: StaticString, raw value: StaticString)
    /// A member whose value is already JSON (a number, or a quoted string such as an interned
    /// name's `jsonBytes`).
    mutating func field(_ key: StaticString, json: UnsafeRawBufferPointer)
    /// Any string, escaped as JSON requires.
    mutating func field(_ key: StaticString, _ value: String)
    /// `scaled / 10^decimals` as a value, after `key`.
    mutating func fixed(_ scaled: Int64, decimals: Int)
    /// An array of whole numbers.
    mutating func array(_ key: StaticString, _ count: Int, _ element: (Int) -> UInt32)
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

    /// `,"key":` (the comma when one is due) in one append: four appends and a copy per key were
    /// a third of the writer's time.
    @inlinable public mutating func key(_ key: StaticString) {
        let comma = needsComma
        needsComma = true
        let count = key.utf8CodeUnitCount
        guard count <= 60, key.hasPointerRepresentation else {
            if comma { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            key.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(UInt8(ascii: ":"))
            return
        }
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &storage) { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var n = 0
            if comma {
                p[0] = UInt8(ascii: ",")
                n = 1
            }
            p[n] = UInt8(ascii: "\"")
            (p + n + 1).update(from: key.utf8Start, count: count)
            p[n + 1 + count] = UInt8(ascii: "\"")
            p[n + 2 + count] = UInt8(ascii: ":")
            bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: n + 3 + count))
        }
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

    @inlinable public mutating func field(_ key: StaticString, json: UnsafeRawBufferPointer) {
        self.key(key)
        bytes.append(contentsOf: json)
    }

    @inlinable public mutating func fixed(_ scaled: Int64, decimals: Int) {
        appendFixed(scaled, decimals: decimals, to: &bytes)
    }

    @inlinable public mutating func array(_ key: StaticString, _ count: Int, _ element: (Int) -> UInt32) {
        beginArray(key)
        for i in 0..<count { self.element(Double(element(i)), decimals: 0) }
        endArray()
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

    /// One object of at most `JSONScratch.capacity` bytes written through `body` into scratch
    /// memory on the stack, then appended to `bytes` at once, with the separator before it when
    /// one is due. The bytes are those the methods above write; appended piece by piece, each
    /// piece paid the array's capacity check and a copy call (the writer was a third of a
    /// replay's time: docs/performance.md). `body` must stay within the capacity: it is for
    /// lines whose longest form is known (every number is at most 27 bytes).
    @inlinable public mutating func appendObject(_ body: (inout JSONScratch) -> Void) {
        let comma = needsComma
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONScratch.capacity) { buffer in
            var scratch = JSONScratch(base: buffer.baseAddress!)
            if comma { scratch.byte(UInt8(ascii: ",")) }
            scratch.byte(UInt8(ascii: "{"))
            body(&scratch)
            scratch.byte(UInt8(ascii: "}"))
            precondition(scratch.count <= JSONScratch.capacity, "JSONWriter.appendObject: the object overran its scratch memory")
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: scratch.count))
        }
        needsComma = true
    }
}

/// Writes one JSON object's members through a pointer, for `JSONWriter.appendObject`. The same
/// bytes as `JSONWriter`'s methods of the same names.
public struct JSONScratch: JSONMembers {
    /// The most bytes one object may take.
    public static let capacity = 1024
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    public var count: Int { written }
    @usableFromInline var written = 0
    @usableFromInline var needsComma = false

    @inlinable init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

    @inlinable public mutating func byte(_ b: UInt8) {
        base[written] = b
        written &+= 1
    }

    @inlinable public mutating func bytes(_ raw: UnsafeRawBufferPointer) {
        if let source = raw.baseAddress { (base + written).update(from: source.assumingMemoryBound(to: UInt8.self), count: raw.count) }
        written &+= raw.count
    }

    @inlinable public mutating func bytes(_ text: StaticString) {
        text.withUTF8Buffer { bytes(UnsafeRawBufferPointer($0)) }
    }

    @inlinable public mutating func key(_ key: StaticString) {
        if needsComma { byte(UInt8(ascii: ",")) }
        needsComma = true
        byte(UInt8(ascii: "\""))
        bytes(key)
        byte(UInt8(ascii: "\""))
        byte(UInt8(ascii: ":"))
    }

    /// A member whose value is already JSON (a number, or a quoted string such as an interned
    /// name's `jsonBytes`).
    @inlinable public mutating func field(_ key: StaticString, json: UnsafeRawBufferPointer) {
        self.key(key)
        bytes(json)
    }

    /// Any string, escaped as JSON requires. Lines with strings of any length belong in
    /// `JSONWriter`: this stops the program rather than overrun the scratch memory.
    public mutating func field(_ key: StaticString, _ value: String) {
        self.key(key)
        var escaped = JSONWriter(capacity: value.utf8.count + 2)
        escaped.appendString(value)
        precondition(written + escaped.bytes.count <= JSONScratch.capacity - 1, "JSONScratch: a string too long for the scratch memory")
        escaped.bytes.withUnsafeBytes { bytes($0) }
    }

    @inlinable public mutating func field(_ key: StaticString, raw value: StaticString) {
        self.key(key)
        byte(UInt8(ascii: "\""))
        bytes(value)
        byte(UInt8(ascii: "\""))
    }

    @inlinable public mutating func field(_ key: StaticString, _ value: Int) {
        self.key(key)
        fixed(Int64(value), decimals: 0)
    }

    @inlinable public mutating func field(_ key: StaticString, _ time: Timestamp) {
        self.key(key)
        fixed(time.microseconds, decimals: 6)
    }

    @inlinable public mutating func field(_ key: StaticString, _ value: Double, decimals: Int) {
        self.key(key)
        fixed(value, decimals: decimals)
    }

    /// An array of whole numbers.
    @inlinable public mutating func array(_ key: StaticString, _ count: Int, _ element: (Int) -> UInt32) {
        self.key(key)
        byte(UInt8(ascii: "["))
        for i in 0..<count {
            if i > 0 { byte(UInt8(ascii: ",")) }
            fixed(Int64(element(i)), decimals: 0)
        }
        byte(UInt8(ascii: "]"))
    }

    /// As `appendFixed(_:decimals:to:)` for an Int64 (decimals 0...24).
    @inlinable public mutating func fixed(_ scaled: Int64, decimals: Int) {
        precondition(decimals >= 0 && decimals <= 24)
        let length = fixedLength(scaled, decimals: decimals)
        writeFixed(scaled, decimals: decimals, endingAt: base + (written &+ length))
        written &+= length
    }

    /// As `appendFixed(_:decimals:to:)` for a Double.
    @inlinable public mutating func fixed(_ value: Double, decimals: Int) {
        fixed(fixedScaled(value, decimals: decimals), decimals: decimals)
    }
}
