import TouchlineCore

// Android `getevent -lt` text, as `adb shell getevent -lt` prints it:
//   [   52032.679748] EV_ABS       ABS_MT_TRACKING_ID   0000027d
//   [   52032.679748] /dev/input/event2: EV_KEY       BTN_TOUCH            DOWN
// getevent prints the device path only when it watches several devices, names with
// "%-20.20s" (so longer names are cut at 20 characters), unknown types and codes as 4-digit hex,
// values as 32-bit hex (ffffffff is -1), and EV_KEY values as UP/DOWN/REPEAT. Before the
// events it may print "add device N: PATH" and "  name: "..."" blocks.

/// How to describe a device that a getevent trace does not describe.
public struct GeteventOptions: Sendable, Hashable {
    /// The device name when the trace has no `name:` line and prints no device path (default
    /// "getevent").
    public var name: String?
    /// Axis ranges (by ABS code) that replace those of a `getevent -lp` header and the inferred
    /// ones, for instance the panel's real 0...1079 where the trace only reached 4...1014; set
    /// `resolution` here to get exact mm.
    public var ranges: [UInt16: AbsInfo]
    /// How many events the reader looks ahead, for a device whose ranges it has to infer, before
    /// it decides them (docs/traces.md, "Axis ranges").
    public var lookAhead: Int

    public init(name: String? = nil, ranges: [UInt16: AbsInfo] = [:], lookAhead: Int = GeteventOptions.defaultLookAhead) {
        self.name = name
        self.ranges = ranges
        self.lookAhead = max(1, lookAhead)
    }

    /// 4,096 events: a few seconds of touching, 128 KiB of buffered events.
    public static let defaultLookAhead = 4096
}

/// One parsed event line: the device path's bytes (if printed) and the event.
struct GeteventRow {
    var path: Range<Int>?
    var event: InputEvent
}

/// Remembers the names seen so far, so that the hot path compares a few bytes instead of
/// building a String per row.
struct GeteventNames {
    private var types: [(name: [UInt8], type: UInt16)] = []
    private var codes: [(name: [UInt8], type: UInt16, code: UInt16)] = []

    mutating func type(_ token: Span<UInt8>) -> UInt16? {
        for entry in types where equal(entry.name, token) { return entry.type }
        let name = text(of: token)
        let type: UInt16?
        if let t = EventCodes.type(named: name) {
            type = t
        } else if token.count <= 4, let v = wholeHex(token) {
            type = UInt16(v)
        } else {
            type = nil
        }
        if let type, types.count < 64 { types.append((bytes(of: token), type)) }
        return type
    }

    mutating func code(type: UInt16, _ token: Span<UInt8>) -> UInt16? {
        for entry in codes where entry.type == type && equal(entry.name, token) { return entry.code }
        let name = text(of: token)
        var code: UInt16?
        if let named = EventCodes.code(named: name), named.type == type {
            code = named.code
        } else if token.count <= 4, let v = wholeHex(token) {
            code = UInt16(v)
        } else if token.count == 20, let maxCode = EventCodes.maxCode(type: type) {
            // getevent cut a longer name at 20 characters: take the one code it can be.
            var match: UInt16?
            var matches = 0
            for candidate in 0...maxCode {
                if let full = EventCodes.codeName(type: type, code: candidate), startsWith(full, token) {
                    match = candidate
                    matches += 1
                }
            }
            if matches == 1 { code = match }
        }
        if let code, codes.count < 256 { codes.append((bytes(of: token), type, code)) }
        return code
    }

    @inline(__always) private func equal(_ a: [UInt8], _ b: Span<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] { return false }
        return true
    }
}

/// The value of a token made only of hex digits, or nil.
func wholeHex(_ token: Span<UInt8>) -> UInt64? {
    guard !token.isEmpty, token.count <= 16 else { return nil }
    var v: UInt64 = 0
    for k in token.indices {
        guard let d = hexValue(token[k]) else { return nil }
        v = v << 4 | UInt64(d)
    }
    return v
}

/// What kind of line a getevent trace line is.
enum GeteventLine {
    case blank
    case event(GeteventRow)
    /// "add device 1: /dev/input/event4" (the range is the path).
    case addDevice(Range<Int>)
    /// An indented line of an "add device" block ("  name: ...", "  events:", "    ABS (0003):
    /// ..."): the header reader takes it.
    case detail
    /// Other lines getevent prints about devices ("could not get driver version ...",
    /// "remove device ...").
    case info
}

/// Whether a line looks like getevent output, for format detection.
func looksLikeGetevent(_ line: Span<UInt8>) -> Bool {
    var c = ByteCursor(line)
    if c.take("add device ") || c.take("could not get driver version") || c.take("/dev/input/") { return true }
    guard c.take(UInt8(ascii: "[")) else { return false }
    c.skipSpaces()
    return c.unsignedDecimal() != nil && c.take(UInt8(ascii: "."))
}

func parseGeteventLine(_ line: Span<UInt8>, names: inout GeteventNames) throws(LineError) -> GeteventLine {
    var c = ByteCursor(line)
    c.skipSpaces()
    if c.atEnd { return .blank }
    if c.peek == UInt8(ascii: "[") {
        return .event(try parseGeteventEvent(&c, names: &names))
    }
    if c.index == 0 {
        if c.take("add device ") {
            _ = c.unsignedDecimal()
            _ = c.take(UInt8(ascii: ":"))
            c.skipSpaces()
            let path = c.token()
            guard !path.isEmpty else { throw LineError("expected a device path after 'add device N:', found the end of the line") }
            guard path.count <= maxDevicePathLength else {
                throw LineError("a device path of \(path.count) bytes: expected at most \(maxDevicePathLength), found \(quotedToken(c.bytes, path))")
            }
            return .addDevice(path)
        }
        if c.take("could not ") || c.take("remove device ") { return .info }
        if c.take("/dev/input/") {
            throw LineError("expected a timestamp '[ sec.usec]' at the start of the event line: record with 'getevent -lt'")
        }
        throw LineError("expected a getevent -lt line '[ sec.usec] EV_TYPE CODE VALUE', found \(quoted(line))")
    }
    return .detail
}

/// The longest device path accepted: getevent prints paths under /dev/input, and every path
/// seen is kept for the whole trace, so a hostile trace must not make each one 64 KiB.
let maxDevicePathLength = 1024

@inline(__always)
func parseGeteventEvent(_ c: inout ByteCursor, names: inout GeteventNames) throws(LineError) -> GeteventRow {
    _ = c.take(UInt8(ascii: "["))
    c.skipSpaces()
    guard let sec = c.unsignedDecimal(maxDigits: 12), c.take(UInt8(ascii: ".")), let usec = c.unsignedDecimal(maxDigits: 6) else {
        throw LineError("expected a timestamp '[ sec.usec]' at the start of the line, found \(found(c))")
    }
    guard c.take(UInt8(ascii: "]")) else { throw LineError("expected ']' after the timestamp, found \(found(c))") }
    c.skipSpaces()
    var path: Range<Int>?
    if c.take("/dev/") {
        let start = c.index - 5
        while !c.atEnd && c.peek != UInt8(ascii: ":") && !c.peek!.isSpaceOrTab { c.index += 1 }
        guard c.take(UInt8(ascii: ":")) else {
            throw LineError("expected ':' after the device path \(quotedToken(c.bytes, start..<c.index)), found \(found(c))")
        }
        guard c.index - 1 - start <= maxDevicePathLength else {
            throw LineError("a device path of \(c.index - 1 - start) bytes: expected at most \(maxDevicePathLength), found \(quotedToken(c.bytes, start..<(c.index - 1)))")
        }
        path = start..<(c.index - 1)
        c.skipSpaces()
    }
    let typeToken = c.token()
    guard !typeToken.isEmpty else { throw LineError("expected an event type (EV_ABS or hex) after the timestamp, found the end of the line") }
    guard let type = names.type(c.bytes.extracting(typeToken)) else {
        throw LineError("unknown event type \(quotedToken(c.bytes, typeToken)): expected a type name such as EV_ABS, EV_KEY or EV_SYN, or 4 hex digits")
    }
    c.skipSpaces()
    let codeToken = c.token()
    guard !codeToken.isEmpty else { throw LineError("expected an event code after the type, found the end of the line") }
    guard let code = names.code(type: type, c.bytes.extracting(codeToken)) else {
        throw LineError(unknownCodeMessage(type: type, token: c.bytes.extracting(codeToken)))
    }
    c.skipSpaces()
    let valueToken = c.token()
    let valueBytes = c.bytes.extracting(valueToken)
    var value: Int32
    // getevent prints values with "%08x": fewer digits means a cut line.
    if valueToken.count == 8, let v = wholeHex(valueBytes) {
        value = Int32(bitPattern: UInt32(v))
    } else if equalsASCII(valueBytes, "UP") {
        value = 0
    } else if equalsASCII(valueBytes, "DOWN") {
        value = 1
    } else if equalsASCII(valueBytes, "REPEAT") {
        value = 2
    } else if valueToken.isEmpty {
        throw LineError("expected a value (8 hex digits) after the code, found the end of the line")
    } else {
        throw LineError("expected a value of 8 hex digits (or UP/DOWN/REPEAT) after the code, found \(quotedToken(c.bytes, valueToken))")
    }
    c.skipSpaces()
    // `getevent -r` prints after each SYN_REPORT but the first " rate N": a million over the µs
    // since the previous one (negative if time went back). The timestamps say the same: read
    // and ignored.
    if !c.atEnd && type == EventCodes.EV_SYN && code == EventCodes.SYN_REPORT && c.take("rate") {
        let mark = c.index
        c.skipSpaces()
        let number = c.index
        guard number > mark, c.signedDecimal() != nil else {
            c.index = number
            throw LineError("expected a whole number after 'rate' (getevent -r), found \(found(c))", column: number + 1)
        }
        c.skipSpaces()
    }
    guard c.atEnd else {
        throw LineError("unexpected \(found(c)) after the value: expected the end of the line (or ' rate N' after a SYN_REPORT, as getevent -r prints)", column: c.index + 1)
    }
    try validateEvent(type: UInt64(type), code: UInt64(code))
    return GeteventRow(path: path, event: InputEvent(time: Timestamp(seconds: sec, microseconds: usec), type: type, code: code, value: value))
}

@inline(__always) func equalsASCII(_ bytes: Span<UInt8>, _ text: StaticString) -> Bool {
    guard bytes.count == text.utf8CodeUnitCount else { return false }
    return withBytes(of: text) { p in
        for k in 0..<bytes.count where bytes[k] != p[k] { return false }
        return true
    }
}

/// The bytes of a token, kept.
func bytes(of token: Span<UInt8>) -> [UInt8] {
    var kept: [UInt8] = []
    append(token, to: &kept)
    return kept
}

/// Whether `text` starts with the bytes of `token`.
func startsWith(_ text: String, _ token: Span<UInt8>) -> Bool {
    var k = 0
    for b in text.utf8 {
        guard k < token.count else { return true }
        guard b == token[k] else { return false }
        k += 1
    }
    return k == token.count
}

/// The message for a code token that names no code of `type`: the token as the line holds it,
/// and what the type's codes look like (or which type the name belongs to).
func unknownCodeMessage(type: UInt16, token: Span<UInt8>) -> String {
    let typeName = EventCodes.typeName(type) ?? hex4(type)
    let shown = quotedToken(token, 0..<token.count)
    let example: String
    switch type {
    case EventCodes.EV_SYN: example = "SYN_REPORT"
    case EventCodes.EV_KEY: example = "BTN_TOUCH"
    case EventCodes.EV_REL: example = "REL_X"
    case EventCodes.EV_ABS: example = "ABS_MT_POSITION_X"
    case EventCodes.EV_MSC: example = "MSC_SCAN"
    case EventCodes.EV_SW: example = "SW_LID"
    default: example = typeName.hasPrefix("EV_") ? String(typeName.dropFirst(3)) + "_…" : "a code name"
    }
    let expected = "expected a code name of \(typeName) such as \(example), or 4 hex digits"
    if let other = EventCodes.code(named: text(of: token)), other.type != type {
        let otherType = EventCodes.typeName(other.type) ?? hex4(other.type)
        return "event code \(shown) is a code of \(otherType), not of \(typeName): \(expected)"
    }
    if token.count == 20, EventCodes.maxCode(type: type) != nil {
        // getevent cut a name at 20 characters and more than one code (or none) starts so.
        return "unknown event code \(shown) for \(typeName) (getevent cuts names at 20 characters, and this start fits no single code): \(expected)"
    }
    return "unknown event code \(shown) for \(typeName): \(expected)"
}

/// A token of a line quoted for a message as the line holds it: printable ASCII and valid UTF-8
/// as they are, other bytes as \xNN, shortened to `limit` bytes with "…".
func quotedToken(_ line: Span<UInt8>, _ range: Range<Int>, limit: Int = 40) -> String {
    let bytes = line.extracting(range)
    let shown = bytes.extracting(0..<min(bytes.count, limit))
    var out = "'"
    var i = 0
    let digits = Array("0123456789abcdef".utf8)
    while i < shown.count {
        let b = shown[i]
        if b >= 0x20 && b < 0x7F {
            out.unicodeScalars.append(Unicode.Scalar(b))
            i += 1
            continue
        }
        // A whole multi-byte UTF-8 character is shown as itself; anything else as \xNN.
        let length = b >= 0xF0 && b < 0xF5 ? 4 : b >= 0xE0 && b < 0xF0 ? 3 : b >= 0xC2 && b < 0xE0 ? 2 : 0
        if length > 0 && i + length <= shown.count,
           let decoded = try? UTF8Span(validating: shown.extracting(i..<i + length)) {
            out += String(copying: decoded)
            i += length
            continue
        }
        out += "\\x" + String(decoding: [digits[Int(b >> 4)], digits[Int(b & 15)]], as: UTF8.self)
        i += 1
    }
    return out + (bytes.count > limit ? "…'" : "'")
}
