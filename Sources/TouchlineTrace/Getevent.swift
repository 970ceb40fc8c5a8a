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
    /// The device name when the trace has no `name:` line (default "getevent").
    public var name: String?
    /// Axis ranges (by ABS code) that replace the inferred ones, for instance the panel's real
    /// 0...1023 where the trace only reached 4...1014; set `resolution` here to get exact mm.
    public var ranges: [UInt16: AbsInfo]

    public init(name: String? = nil, ranges: [UInt16: AbsInfo] = [:]) {
        self.name = name
        self.ranges = ranges
    }
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

    mutating func type(_ token: UnsafeBufferPointer<UInt8>) -> UInt16? {
        for entry in types where equal(entry.name, token) { return entry.type }
        let name = String(decoding: token, as: UTF8.self)
        let type: UInt16?
        if let t = EventCodes.type(named: name) {
            type = t
        } else if token.count <= 4, let v = wholeHex(token) {
            type = UInt16(v)
        } else {
            type = nil
        }
        if let type, types.count < 64 { types.append((Array(token), type)) }
        return type
    }

    mutating func code(type: UInt16, _ token: UnsafeBufferPointer<UInt8>) -> UInt16? {
        for entry in codes where entry.type == type && equal(entry.name, token) { return entry.code }
        let name = String(decoding: token, as: UTF8.self)
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
                if let full = EventCodes.codeName(type: type, code: candidate), full.utf8.starts(with: token) {
                    match = candidate
                    matches += 1
                }
            }
            if matches == 1 { code = match }
        }
        if let code, codes.count < 256 { codes.append((Array(token), type, code)) }
        return code
    }

    @inline(__always) private func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] { return false }
        return true
    }
}

/// The value of a token made only of hex digits, or nil.
func wholeHex(_ token: UnsafeBufferPointer<UInt8>) -> UInt64? {
    guard !token.isEmpty, token.count <= 16 else { return nil }
    var v: UInt64 = 0
    for b in token {
        guard let d = hexValue(b) else { return nil }
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
    /// "  name:     "touch_dev"" (the range is the name inside the quotes).
    case name(Range<Int>)
    /// Other lines getevent prints about devices ("could not get driver version ...", the
    /// indented details of -i).
    case info
}

/// Whether a line looks like getevent output, for format detection.
func looksLikeGetevent(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    var c = ByteCursor(line)
    if c.take("add device ") || c.take("could not get driver version") || c.take("/dev/input/") { return true }
    guard c.take(UInt8(ascii: "[")) else { return false }
    c.skipSpaces()
    return c.unsignedDecimal() != nil && c.take(UInt8(ascii: "."))
}

func parseGeteventLine(_ line: UnsafeBufferPointer<UInt8>, names: inout GeteventNames) throws(LineError) -> GeteventLine {
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
            guard !path.isEmpty else { throw LineError("expected a device path after 'add device N:'") }
            return .addDevice(path)
        }
        if c.take("could not ") { return .info }
        if c.take("/dev/input/") {
            throw LineError("expected a timestamp '[ sec.usec]' at the start of the event line: record with 'getevent -lt'")
        }
        throw LineError("expected a getevent -lt line '[ sec.usec] EV_TYPE CODE VALUE', found \(quoted(line))")
    }
    // Indented lines belong to an "add device" block.
    if c.take("name:") {
        c.skipSpaces()
        var start = c.index, end = line.count
        while end > start && line[end - 1].isSpaceOrTab { end -= 1 }
        if end - start >= 2 && line[start] == UInt8(ascii: "\"") && line[end - 1] == UInt8(ascii: "\"") {
            start += 1
            end -= 1
        }
        return .name(start..<end)
    }
    return .info
}

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
        guard c.take(UInt8(ascii: ":")) else { throw LineError("expected ':' after the device path") }
        path = start..<(c.index - 1)
        c.skipSpaces()
    }
    let typeToken = c.token()
    guard !typeToken.isEmpty else { throw LineError("expected an event type (EV_ABS or hex) after the timestamp, found the end of the line") }
    guard let type = names.type(UnsafeBufferPointer(rebasing: c.bytes[typeToken])) else {
        throw LineError("unknown event type '\(c.text(typeToken))': expected a name such as EV_ABS or a 4-digit hex number")
    }
    c.skipSpaces()
    let codeToken = c.token()
    guard !codeToken.isEmpty else { throw LineError("expected an event code after the type, found the end of the line") }
    guard let code = names.code(type: type, UnsafeBufferPointer(rebasing: c.bytes[codeToken])) else {
        let typeName = EventCodes.typeName(type) ?? hex4(type)
        throw LineError("unknown event code '\(c.text(codeToken))' for \(typeName): expected a name such as ABS_MT_POSITION_X or a 4-digit hex number")
    }
    c.skipSpaces()
    let valueToken = c.token()
    let valueBytes = UnsafeBufferPointer(rebasing: c.bytes[valueToken])
    var value: Int32
    // getevent prints values with "%08x": fewer digits means a cut line.
    if valueToken.count == 8, let v = wholeHex(valueBytes) {
        value = Int32(bitPattern: UInt32(v))
    } else {
        switch c.text(valueToken) {
        case "UP": value = 0
        case "DOWN": value = 1
        case "REPEAT": value = 2
        case "": throw LineError("expected a value (8 hex digits) after the code, found the end of the line")
        default: throw LineError("expected a value of 8 hex digits (or UP/DOWN/REPEAT) after the code, found '\(c.text(valueToken))'")
        }
    }
    c.skipSpaces()
    guard c.atEnd else { throw LineError("unexpected \(found(c)) after the value: expected the end of the line") }
    try validateEvent(type: UInt64(type), code: UInt64(code))
    return GeteventRow(path: path, event: InputEvent(time: Timestamp(seconds: sec, microseconds: usec), type: type, code: code, value: value))
}

/// What the pre-scan learns about one device of a getevent trace.
struct GeteventDeviceFacts {
    var path: [UInt8]?
    var name: String?
    var codes: [UInt16: Set<UInt16>] = [:]
    var minimum: [UInt16: Int32] = [:]
    var maximum: [UInt16: Int32] = [:]

    mutating func observe(_ e: InputEvent) {
        if codes[e.type]?.contains(e.code) != true { codes[e.type, default: []].insert(e.code) }
        guard e.type == EventCodes.EV_ABS else { return }
        // A tracking id of -1 is a lift, not a point of the id's range.
        if e.code == EventCodes.ABS_MT_TRACKING_ID && e.value < 0 { return }
        if let m = minimum[e.code] { if e.value < m { minimum[e.code] = e.value } } else { minimum[e.code] = e.value }
        if let m = maximum[e.code] { if e.value > m { maximum[e.code] = e.value } } else { maximum[e.code] = e.value }
    }

    /// The description: what was seen, ranges from 0 (or the lowest value, if negative) to
    /// the highest value seen, as documented in docs/traces.md.
    func description(options: GeteventOptions) -> DeviceDescription {
        var codes = self.codes
        codes[EventCodes.EV_SYN, default: []].insert(EventCodes.SYN_REPORT)
        var absinfo: [UInt16: AbsInfo] = [:]
        for code in codes[EventCodes.EV_ABS] ?? [] {
            if code == EventCodes.ABS_MT_TRACKING_ID {
                absinfo[code] = AbsInfo(minimum: 0, maximum: 65535)
                continue
            }
            let lo = min(0, minimum[code] ?? 0)
            let hi = max(lo, maximum[code] ?? 0)
            absinfo[code] = AbsInfo(minimum: lo, maximum: hi)
        }
        for (code, range) in options.ranges {
            absinfo[code] = range
            codes[EventCodes.EV_ABS, default: []].insert(code)
        }
        var sorted: [UInt16: [UInt16]] = [:]
        for (type, set) in codes { sorted[type] = set.sorted() }
        return DeviceDescription(
            name: options.name ?? name ?? "getevent",
            properties: [EventCodes.INPUT_PROP_DIRECT], codes: sorted, absinfo: absinfo)
    }
}
