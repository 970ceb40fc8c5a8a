// The output side's unsafe code, all of it: JSON bytes made in stack memory and appended to the
// writer's array at once. Appended piece by piece, each piece paid the array's capacity check
// and a copy call (the writer was a third of a replay's time: docs/performance.md), so the hot
// path keeps its pointers; they stay here, where each write can be read next to the check that
// keeps it in bounds. Every write below is checked BEFORE it happens: a write that would pass the
// end is not made (JSONScratch then reports an overflow and the object is written again through
// the growable `JSONWriter`). No pointer leaves this file in a public signature.

// MARK: - Numbers and keys through a few stack bytes

/// Appends `scaled / 10^decimals` in decimal to a byte buffer.
@inlinable public func appendFixed(_ scaled: Int64, decimals: Int, to out: inout [UInt8]) {
    let length = fixedLength(scaled, decimals: decimals)
    guard length <= 48 else {
        // Longer than the stack bytes (more than 24 decimals): the array grows by `length`
        // first, so the digits are written inside its new tail.
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: length))
        out.withUnsafeMutableBufferPointer { all in
            // `all.count` is `start + length`, so the end is the buffer's end; the base is
            // non-nil because the array holds at least `length` ≥ 1 bytes.
            writeFixed(scaled, decimals: decimals, endingAt: all.baseAddress! + (start + length))
        }
        return
    }
    var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &storage) { raw in
        // 48 bytes of storage, `length` ≤ 48 checked above.
        let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
        writeFixed(scaled, decimals: decimals, endingAt: p + length)
        out.append(contentsOf: UnsafeBufferPointer(start: p, count: length))
    }
}

/// Writes `scaled / 10^decimals` in decimal backwards so that it ends just before `end`: exactly
/// `fixedLength(scaled, decimals:)` bytes, which every caller has room for before `end`. Two
/// digits per step from a table of pairs: half the steps of one digit at a time, and the
/// decimals and the whole part in loops of their own, without a test for the point per digit.
@inlinable @inline(__always)
func writeFixed(_ scaled: Int64, decimals: Int, endingAt end: UnsafeMutablePointer<UInt8>) {
    let pairs = digitPairs.utf8Start
    var magnitude = scaled.magnitude
    var p = end
    if decimals > 0 {
        var left = decimals
        while left >= 2 {
            let q = magnitude / 100
            let r = Int(truncatingIfNeeded: magnitude &- q &* 100) &* 2
            p -= 2
            p[0] = pairs[r]
            p[1] = pairs[r &+ 1]
            magnitude = q
            left &-= 2
        }
        if left == 1 {
            let q = magnitude / 10
            p -= 1
            p.pointee = UInt8(truncatingIfNeeded: magnitude &- q &* 10) &+ 48
            magnitude = q
        }
        p -= 1
        p.pointee = UInt8(ascii: ".")
    }
    // The whole part: one digit at least ("0.25").
    while magnitude >= 100 {
        let q = magnitude / 100
        let r = Int(truncatingIfNeeded: magnitude &- q &* 100) &* 2
        p -= 2
        p[0] = pairs[r]
        p[1] = pairs[r &+ 1]
        magnitude = q
    }
    if magnitude >= 10 {
        let r = Int(truncatingIfNeeded: magnitude) &* 2
        p -= 2
        p[0] = pairs[r]
        p[1] = pairs[r &+ 1]
    } else {
        p -= 1
        p.pointee = UInt8(truncatingIfNeeded: magnitude) &+ 48
    }
    if scaled < 0 {
        p -= 1
        p.pointee = UInt8(ascii: "-")
    }
}

/// "00", "01", … "99" end to end: the two digits of `n` < 100 at `2n` (a literal in read-only
/// data, named where it is used: a global would cost a one-time-initialization check per use;
/// `writeFixed` reads indexes 0...199 only).
@inlinable var digitPairs: StaticString { "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899" }

/// `,"key":` (the comma when `comma`) in one append: four appends and a copy per key were a third
/// of the writer's time.
@inlinable func appendKey(_ key: StaticString, comma: Bool, to bytes: inout [UInt8]) {
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
        // 64 bytes of storage; at most 1 + 1 + 60 + 1 + 1 = 64 are written (count ≤ 60 above).
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

// MARK: - Whole objects through stack scratch

/// An object whose members can be written through either writer (`JSONWriter` or
/// `JSONScratch`), so that `JSONWriter.appendObject` can take the scratch path and fall back to
/// the growable one with the same bytes.
public protocol JSONObjectMembers {
    func writeMembers<W: JSONMembers>(_ w: inout W)
}

extension JSONWriter {
    /// One object written into `JSONScratch.capacity` bytes of stack memory, then appended to
    /// `bytes` at once, with the separator before it when one is due. An object that does not
    /// fit (a name or a string of any length: library users name targets in code) is noticed
    /// before any byte passes the scratch's end, and is written again piece by piece into the
    /// growable array: the same bytes either way, no allocation on the common path.
    @inlinable public mutating func appendObject<Object: JSONObjectMembers>(_ object: Object) {
        let comma = needsComma
        let appended = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONScratch.capacity) { buffer -> Bool in
            // The allocation has `capacity` > 0 bytes, so a base address; JSONScratch checks
            // every write against `capacity` before making it.
            var scratch = JSONScratch(base: buffer.baseAddress!)
            if comma { scratch.byte(UInt8(ascii: ",")) }
            scratch.byte(UInt8(ascii: "{"))
            object.writeMembers(&scratch)
            scratch.byte(UInt8(ascii: "}"))
            guard !scratch.overflowed else { return false }
            // `count` ≤ capacity: every byte counted was written inside the buffer.
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: scratch.count))
            return true
        }
        if !appended {
            beginObject()
            object.writeMembers(&self)
            endObject()
        }
        needsComma = true
    }
}

/// Writes one JSON object's members into stack memory for `JSONWriter.appendObject`: the same
/// bytes as `JSONWriter`'s methods of the same names. Every write is checked against `capacity`
/// before it is made; one that does not fit is not made, and sets `overflowed` (later writes are
/// dropped too, and `appendObject` writes the object through `JSONWriter` instead).
public struct JSONScratch: JSONMembers {
    /// The most bytes one object may take on the scratch path.
    public static let capacity = 1024
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far (≤ `capacity`).
    public var count: Int { written }
    @usableFromInline var written = 0
    @usableFromInline var needsComma = false
    /// A write did not fit: the scratch's content is incomplete and must not be used.
    public var overflowed: Bool { overflow }
    @usableFromInline var overflow = false

    /// `base` must point to `capacity` writable bytes that outlive the scratch.
    @inlinable init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// Whether `n` more bytes fit; marks the overflow when not. `written` ≤ `capacity` always
    /// holds (only a checked write advances it), so the subtraction cannot wrap. An overflow
    /// sets `written` to `capacity`, so every later write of a byte or more fails too.
    @inlinable @inline(__always) mutating func room(_ n: Int) -> Bool {
        if _fastPath(n <= JSONScratch.capacity &- written) { return true }
        overflow = true
        written = JSONScratch.capacity
        return false
    }

    @inlinable @inline(__always) public mutating func byte(_ b: UInt8) {
        guard room(1) else { return }
        base[written] = b
        written &+= 1
    }

    @inlinable @inline(__always) public mutating func bytes(_ text: StaticString) {
        text.withUTF8Buffer { source in
            guard room(source.count) else { return }
            if let start = source.baseAddress { (base + written).update(from: start, count: source.count) }
            written &+= source.count
        }
    }

    /// The bytes `,"key":` takes now (with the comma when one is due).
    @inlinable @inline(__always) func keyLength(_ key: StaticString) -> Int {
        (needsComma ? 4 : 3) &+ byteCount(key)
    }

    /// Writes `,"key":` without a check: the caller has checked `keyLength(key)` more bytes,
    /// with what follows it, in one `room` call.
    @inlinable @inline(__always) mutating func putKey(_ key: StaticString) {
        let count = byteCount(key)
        var p = base + written
        if needsComma { p.pointee = UInt8(ascii: ","); p += 1 }
        p.pointee = UInt8(ascii: "\"")
        key.withUTF8Buffer { source in
            if let start = source.baseAddress { (p + 1).update(from: start, count: count) }
        }
        p[count &+ 1] = UInt8(ascii: "\"")
        p[count &+ 2] = UInt8(ascii: ":")
        written &+= (needsComma ? 4 : 3) &+ count
        needsComma = true
    }

    /// Writes `fixedLength(scaled, decimals:)` = `length` bytes without a check (checked by the
    /// caller). `writeFixed` writes exactly `length` bytes, ending here.
    @inlinable @inline(__always) mutating func putFixed(_ scaled: Int64, decimals: Int, length: Int) {
        writeFixed(scaled, decimals: decimals, endingAt: base + (written &+ length))
        written &+= length
    }

    @inlinable @inline(__always) public mutating func key(_ key: StaticString) {
        guard room(keyLength(key)) else { return }
        putKey(key)
    }

    /// A name's JSON form (quoted, escaped when it was interned).
    @inlinable @inline(__always) public mutating func field(_ key: StaticString, _ name: InternedString) {
        let json = name.jsonBytes
        guard room(keyLength(key) &+ json.count) else { return }
        putKey(key)
        if let start = json.baseAddress { (base + written).update(from: start.assumingMemoryBound(to: UInt8.self), count: json.count) }
        written &+= json.count
    }

    /// Any string, escaped as JSON requires (`JSONWriter.appendString`'s bytes), each escape
    /// checked before it is written.
    public mutating func field(_ key: StaticString, _ value: String) {
        self.key(key)
        byte(UInt8(ascii: "\""))
        for b in value.utf8 {
            let escape = jsonEscape(b)
            guard room(escape.count) else { return }
            let p = base + written
            switch escape.count {
            case 1: p[0] = b
            case 2: p[0] = UInt8(ascii: "\\"); p[1] = escape.second
            default:
                p[0] = UInt8(ascii: "\\"); p[1] = UInt8(ascii: "u"); p[2] = UInt8(ascii: "0"); p[3] = UInt8(ascii: "0")
                p[4] = hexDigit(b >> 4); p[5] = hexDigit(b & 0xf)
            }
            written &+= escape.count
        }
        byte(UInt8(ascii: "\""))
    }

    @inlinable @inline(__always) public mutating func field(_ key: StaticString, raw value: StaticString) {
        let count = byteCount(value)
        guard room(keyLength(key) &+ count &+ 2) else { return }
        putKey(key)
        base[written] = UInt8(ascii: "\"")
        value.withUTF8Buffer { source in
            if let start = source.baseAddress { (base + (written &+ 1)).update(from: start, count: count) }
        }
        base[written &+ 1 &+ count] = UInt8(ascii: "\"")
        written &+= count &+ 2
    }

    /// A key and a number, checked as one piece.
    @inlinable @inline(__always) mutating func keyAndFixed(_ key: StaticString, _ scaled: Int64, decimals: Int) {
        precondition(decimals >= 0 && decimals <= 24)
        let length = fixedLength(scaled, decimals: decimals)
        guard room(keyLength(key) &+ length) else { return }
        putKey(key)
        putFixed(scaled, decimals: decimals, length: length)
    }

    @inlinable @inline(__always) public mutating func field(_ key: StaticString, _ value: Int) {
        keyAndFixed(key, Int64(value), decimals: 0)
    }

    @inlinable @inline(__always) public mutating func field(_ key: StaticString, _ time: Timestamp) {
        keyAndFixed(key, time.microseconds, decimals: 6)
    }

    /// A Double with `decimals` (0...8, `fixedScaled`) places.
    @inlinable @inline(__always) public mutating func field(_ key: StaticString, _ value: Double, decimals: Int) {
        keyAndFixed(key, fixedScaled(value, decimals: decimals), decimals: decimals)
    }

    /// An array of whole numbers.
    @inlinable @inline(__always) public mutating func array(_ key: StaticString, _ count: Int, _ element: (Int) -> UInt32) {
        self.key(key)
        byte(UInt8(ascii: "["))
        for i in 0..<count {
            if i > 0 { byte(UInt8(ascii: ",")) }
            fixed(Int64(element(i)), decimals: 0)
        }
        byte(UInt8(ascii: "]"))
    }

    /// An array of interned names (`JSONWriter.names`' bytes), each checked before it is
    /// written.
    @inlinable public mutating func names(_ key: StaticString, _ count: Int, _ element: (Int) -> InternedString) {
        self.key(key)
        byte(UInt8(ascii: "["))
        for i in 0..<count {
            if i > 0 { byte(UInt8(ascii: ",")) }
            let json = element(i).jsonBytes
            guard room(json.count) else { return }
            if let start = json.baseAddress { (base + written).update(from: start.assumingMemoryBound(to: UInt8.self), count: json.count) }
            written &+= json.count
        }
        byte(UInt8(ascii: "]"))
    }

    @inlinable public mutating func fieldNull(_ key: StaticString) {
        guard room(keyLength(key) &+ 4) else { return }
        putKey(key)
        bytes("null")
    }

    /// As `appendFixed(_:decimals:to:)` for an Int64 (decimals 0...24).
    @inlinable @inline(__always) public mutating func fixed(_ scaled: Int64, decimals: Int) {
        precondition(decimals >= 0 && decimals <= 24)
        let length = fixedLength(scaled, decimals: decimals)
        guard room(length) else { return }
        putFixed(scaled, decimals: decimals, length: length)
    }

    /// As `appendFixed(_:decimals:to:)` for a Double (decimals 0...8, `fixedScaled`).
    @inlinable @inline(__always) public mutating func fixed(_ value: Double, decimals: Int) {
        fixed(fixedScaled(value, decimals: decimals), decimals: decimals)
    }
}

/// How JSON writes one byte of a string: 1 byte (itself), 2 (a backslash and `second`) or 6
/// (`\u00XX`).
@usableFromInline struct JSONEscape {
    @usableFromInline var count: Int
    @usableFromInline var second: UInt8
    @inlinable init(_ count: Int, _ second: UInt8) { self.count = count; self.second = second }
}

@inlinable @inline(__always) func jsonEscape(_ b: UInt8) -> JSONEscape {
    switch b {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): return JSONEscape(2, b)
    case UInt8(ascii: "\n"): return JSONEscape(2, UInt8(ascii: "n"))
    case UInt8(ascii: "\r"): return JSONEscape(2, UInt8(ascii: "r"))
    case UInt8(ascii: "\t"): return JSONEscape(2, UInt8(ascii: "t"))
    case 0..<0x20: return JSONEscape(6, 0)
    default: return JSONEscape(1, b)
    }
}

@inlinable @inline(__always) func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? nibble &+ UInt8(ascii: "0") : nibble &- 10 &+ UInt8(ascii: "a")
}

/// A StaticString's UTF-8 length whatever its representation (`utf8CodeUnitCount` traps on a
/// single-scalar one).
@inlinable @inline(__always) func byteCount(_ text: StaticString) -> Int {
    text.hasPointerRepresentation ? text.utf8CodeUnitCount : text.withUTF8Buffer { $0.count }
}
