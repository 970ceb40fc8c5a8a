import TouchlineCore

// `libinput record` YAML, version 1, read without a YAML library: the header is a small
// indentation-driven key/value walk that knows the keys libinput writes and skips the rest,
// and event rows `- [sec, usec, type, code, value] # comment` have a hand-written scanner.
// With several devices, libinput record writes each device's events under that device, so
// device N+1's header comes after device N's events.

/// One YAML line split into indentation, list dash, key and value (ranges into the line).
struct YAMLLine {
    var indent: Int
    /// Whether the line starts a list item ("- ").
    var isItem: Bool
    /// Where the content (after the dash) starts.
    var contentIndent: Int
    var key: Range<Int>?
    /// The value after "key:" or the scalar after "- ", comments and trailing spaces removed.
    var value: Range<Int>

    /// nil for blank and comment-only lines.
    static func split(_ l: Span<UInt8>) -> YAMLLine? {
        var i = 0
        while i < l.count && l[i] == 0x20 { i += 1 }
        guard i < l.count, l[i] != UInt8(ascii: "#") else { return nil }
        let indent = i
        var isItem = false
        if l[i] == UInt8(ascii: "-") && (i + 1 == l.count || l[i + 1] == 0x20) {
            isItem = true
            i += 1
            while i < l.count && l[i] == 0x20 { i += 1 }
        }
        let content = i
        // The value ends at a comment outside quotes.
        var end = l.count
        var inQuotes = false
        var k = content
        while k < l.count {
            let b = l[k]
            if b == UInt8(ascii: "\"") { inQuotes.toggle() }
            else if b == UInt8(ascii: "\\") && inQuotes { k += 1 }
            else if b == UInt8(ascii: "#") && !inQuotes && (k == content || l[k - 1].isSpaceOrTab) { end = k; break }
            k += 1
        }
        while end > content && l[end - 1].isSpaceOrTab { end -= 1 }
        // A key is a plain word followed by ':' and a space or the end.
        var key: Range<Int>?
        var valueStart = content
        if content < end && l[content] != UInt8(ascii: "[") && l[content] != UInt8(ascii: "\"") {
            var j = content
            while j < end && l[j] != UInt8(ascii: ":") && !l[j].isSpaceOrTab { j += 1 }
            if j < end && l[j] == UInt8(ascii: ":") && (j + 1 == end || l[j + 1] == 0x20) && j > content {
                key = content..<j
                valueStart = j + 1
                while valueStart < end && l[valueStart] == 0x20 { valueStart += 1 }
            }
        }
        if isItem && content == end { return YAMLLine(indent: indent, isItem: true, contentIndent: content, key: nil, value: end..<end) }
        if !isItem && key == nil && content == end { return nil }
        return YAMLLine(indent: indent, isItem: isItem, contentIndent: content, key: key, value: valueStart..<end)
    }
}

/// Whether a line looks like the start of a libinput record file.
func looksLikeLibinputRecord(_ l: Span<UInt8>) -> Bool {
    guard let y = YAMLLine.split(l), y.indent == 0, !y.isItem, let key = y.key else { return false }
    for k in key where !(l[k] >= UInt8(ascii: "a") && l[k] <= UInt8(ascii: "z")) && l[k] != UInt8(ascii: "_") { return false }
    return true
}

/// A flow list of integers: "[0, 2776, 0, 0, 0]".
func parseIntList(_ l: Span<UInt8>, _ range: Range<Int>, what: String) throws(LineError) -> [Int64] {
    var c = ByteCursor(l.extracting(..<range.upperBound), at: range.lowerBound)
    guard c.take(UInt8(ascii: "[")) else { throw LineError("expected \(what) as a list '[a, b, ...]', found \(found(c))") }
    var values: [Int64] = []
    c.skipSpaces()
    if c.take(UInt8(ascii: "]")) { return values }
    while true {
        c.skipSpaces()
        guard let v = c.signedDecimal() else { throw LineError("expected a decimal number in \(what), found \(found(c))") }
        values.append(v)
        c.skipSpaces()
        if c.take(UInt8(ascii: ",")) { continue }
        if c.take(UInt8(ascii: "]")) { break }
        throw LineError("expected ',' or ']' in \(what), found \(found(c))")
    }
    c.skipSpaces()
    guard c.atEnd else { throw LineError("unexpected \(found(c)) after the list in \(what)") }
    return values
}

/// A scalar value, unquoted.
func scalarText(_ l: Span<UInt8>, _ range: Range<Int>) -> String {
    var r = range
    if r.count >= 2 && l[r.lowerBound] == UInt8(ascii: "\"") && l[r.upperBound - 1] == UInt8(ascii: "\"") {
        r = (r.lowerBound + 1)..<(r.upperBound - 1)
        var out: [UInt8] = []
        out.reserveCapacity(r.count)
        var k = r.lowerBound
        while k < r.upperBound {
            if l[k] == UInt8(ascii: "\\") && k + 1 < r.upperBound {
                k += 1
                // YAML's double-quoted escapes (a device name may hold any byte).
                switch l[k] {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "0"): out.append(0x00)
                case UInt8(ascii: "a"): out.append(0x07)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "v"): out.append(0x0B)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "e"): out.append(0x1B)
                case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
                    let digits = l[k] == UInt8(ascii: "x") ? 2 : l[k] == UInt8(ascii: "u") ? 4 : 8
                    if let scalar = hexScalar(l, from: k + 1, digits: digits, end: r.upperBound) {
                        out.append(contentsOf: String(Character(scalar)).utf8)
                        k += digits
                    } else {
                        // Not an escape YAML knows: kept as written.
                        out.append(UInt8(ascii: "\\"))
                        out.append(l[k])
                    }
                default: out.append(l[k])
                }
            } else {
                out.append(l[k])
            }
            k += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
    return text(of: l.extracting(r))
}

/// The scalar written as `digits` hex digits at `start` (a `\x`, `\u` or `\U` escape).
private func hexScalar(_ l: Span<UInt8>, from start: Int, digits: Int, end: Int) -> Unicode.Scalar? {
    guard start + digits <= end else { return nil }
    var value: UInt32 = 0
    for k in start..<(start + digits) {
        let b = l[k]
        let digit: UInt8
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
        default: return nil
        }
        value = value << 4 | UInt32(digit)
    }
    return Unicode.Scalar(value)
}

/// Parses an event row `- [sec, usec, type, code, value] # comment` whose '-' is at `dash`.
/// The hot path of the libinput record reader.
@inline(__always)
func parseLibinputRow(_ l: Span<UInt8>, dash: Int) throws(LineError) -> InputEvent {
    var c = ByteCursor(l, at: dash + 1)
    c.skipSpaces()
    guard c.take(UInt8(ascii: "[")) else {
        throw LineError("expected an event row '- [sec, usec, type, code, value]', found \(quoted(l.extracting(dash...)))")
    }
    var fields: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
    // Where each number starts, so that a message quotes it as the row holds it ("+05", not 5).
    var starts: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)
    for n in 0..<5 {
        c.skipSpaces()
        let start = c.index
        guard let v = c.signedDecimal(), c.atEnd || c.peek!.isSpaceOrTab || c.peek! == UInt8(ascii: ",") || c.peek! == UInt8(ascii: "]") else {
            let what = c.isDecimalInteger(from: start, stops: ",]") ? " (too many digits)" : ""
            throw LineError("expected an event row '- [sec, usec, type, code, value]' with 5 decimal numbers, but number \(n + 1) is \(c.found(from: start, stops: ",]"))\(what)")
        }
        switch n {
        case 0: fields.0 = v; starts.0 = start
        case 1: fields.1 = v; starts.1 = start
        case 2: fields.2 = v; starts.2 = start
        case 3: fields.3 = v; starts.3 = start
        default: fields.4 = v; starts.4 = start
        }
        c.skipSpaces()
        if n < 4 {
            guard c.take(UInt8(ascii: ",")) else {
                throw LineError("expected an event row '- [sec, usec, type, code, value]' with 5 numbers, but after number \(n + 1) found \(found(c)) instead of ','")
            }
        } else {
            guard c.take(UInt8(ascii: "]")) else {
                throw LineError("expected ']' after the 5 numbers of the event row, found \(found(c))")
            }
        }
    }
    guard c.atEndOrComment() else { throw LineError("unexpected \(found(c)) after the event row: expected the end of the line or a '#' comment") }
    let (sec, usec, type, code, value) = fields
    guard sec >= 0, sec <= 999_999_999_999, usec >= 0, usec < 1_000_000 else {
        throw LineError("expected a time of 0 to 999999999999 seconds and 0 to 999999 microseconds, found seconds \(c.found(from: starts.0, stops: ",]")) and microseconds \(c.found(from: starts.1, stops: ",]"))")
    }
    // The kernel's tables (validateEvent), with the row's decimal numbers quoted as written.
    guard type >= 0, type <= Int64(UInt16.max), let maxCode = EventCodes.maxCode(type: UInt16(type)) else {
        throw LineError("unknown event type \(c.found(from: starts.2, stops: ",]")): expected a type the kernel defines (0 EV_SYN, 1 EV_KEY, 3 EV_ABS, ...)")
    }
    guard code >= 0, code <= Int64(maxCode) else {
        let name = EventCodes.typeName(UInt16(type)) ?? String(type)
        throw LineError("event code \(c.found(from: starts.3, stops: ",]")) is out of range for \(name): expected 0 to \(maxCode)")
    }
    guard let value32 = Int32(exactly: value) else {
        throw LineError("event value \(c.found(from: starts.4, stops: ",]")) does not fit in 32 bits: expected -2147483648 to 2147483647")
    }
    return InputEvent(time: Timestamp(seconds: sec, microseconds: usec), type: UInt16(type), code: UInt16(code), value: value32)
}

/// The header walk: a stack of (indent, key) gives each line its path, such as
/// devices/evdev/absinfo/53.
struct LibinputHeaderParser {
    enum Key: Equatable {
        case devices, evdev, udev, events, codes, absinfo, properties, other
        case number(Int64)
    }

    private var stack: [(indent: Int, key: Key)] = []
    var devices: [DeviceDescription] = []
    var sawVersion = false
    /// What `ndevices:` says (libinput record always writes it, and libinput replay insists
    /// on it; a file without it has as many devices as it lists).
    var declaredDevices: Int?
    /// A device's events are written as an empty list, `events: []`: a recording in which
    /// nothing happened on purpose (`replay --passthrough` of a trace whose every contact was
    /// consumed), not one cut short.
    var sawEmptyEventList = false

    /// Classifies a key without building a String for the common ones.
    private static func key(_ l: Span<UInt8>, _ r: Range<Int>) -> Key {
        let b = l.extracting(r)
        if !b.isEmpty, b[0].isDigit {
            var c = ByteCursor(b)
            if let v = c.unsignedDecimal(), c.atEnd { return .number(v) }
        }
        switch text(of: b) {
        case "devices": return .devices
        case "evdev": return .evdev
        case "udev": return .udev
        case "events": return .events
        case "codes": return .codes
        case "absinfo": return .absinfo
        case "properties": return .properties
        default: return .other
        }
    }

    /// What a line opened, for the reader's state.
    enum Outcome { case header, eventsKey(indent: Int) }

    mutating func apply(_ l: Span<UInt8>, _ y: YAMLLine) throws(LineError) -> Outcome {
        if y.isItem {
            while let top = stack.last, top.indent > y.indent { stack.removeLast() }
            let parent = stack.map(\.key)
            if parent == [.devices] {
                devices.append(DeviceDescription(name: ""))
            } else if parent == [.devices, .udev, .properties], y.key == nil, !devices.isEmpty {
                let text = scalarText(l, y.value)
                if let eq = text.firstIndex(of: "=") {
                    devices[devices.count - 1].udevProperties[String(text[..<eq])] = String(text[text.index(after: eq)...])
                }
            }
            if let key = y.key {
                stack.append((y.contentIndent, Self.key(l, key)))
                return try keyValue(l, y, key: key)
            }
            return .header
        }
        guard let key = y.key else {
            throw LineError("expected 'key: value' or a '- ' list item in the libinput record header, found \(quoted(l))")
        }
        while let top = stack.last, top.indent >= y.indent { stack.removeLast() }
        stack.append((y.indent, Self.key(l, key)))
        return try keyValue(l, y, key: key)
    }

    private mutating func keyValue(_ l: Span<UInt8>, _ y: YAMLLine, key: Range<Int>) throws(LineError) -> Outcome {
        let path = stack.map(\.key)
        if path.count == 1 {
            if text(of: l.extracting(key)) == "version" {
                var c = ByteCursor(l.extracting(..<y.value.upperBound), at: y.value.lowerBound)
                guard let v = c.unsignedDecimal(), c.atEnd else { throw LineError("expected 'version: 1', found \(quoted(l))") }
                guard v == 1 else { throw LineError("unsupported libinput record version \(v): expected version 1") }
                sawVersion = true
            } else if text(of: l.extracting(key)) == "ndevices" {
                var c = ByteCursor(l.extracting(..<y.value.upperBound), at: y.value.lowerBound)
                guard let v = c.unsignedDecimal(), c.atEnd, v >= 1, v <= Int64(TraceReaderOptions.maxDevicesLimit) else {
                    throw LineError("expected 'ndevices: N' with N from 1 to \(TraceReaderOptions.maxDevicesLimit), found \(quoted(l))")
                }
                declaredDevices = Int(v)
            }
            return .header
        }
        guard path.first == .devices, !devices.isEmpty else { return .header }
        let d = devices.count - 1
        switch path.dropFirst().first {
        case .events? where path.count == 2:
            if text(of: l.extracting(y.value)) == "[]" { sawEmptyEventList = true }
            return .eventsKey(indent: stack.last!.indent)
        case .evdev? where path.count == 3:
            let name = text(of: l.extracting(key))
            switch name {
            case "name":
                devices[d].name = scalarText(l, y.value)
            case "id":
                let ids = try parseIntList(l, y.value, what: "the device id [bus, vendor, product, version]")
                guard ids.count == 4, ids.allSatisfy({ $0 >= 0 && $0 <= 0xFFFF }) else {
                    throw LineError("expected the device id as [bus, vendor, product, version], 4 numbers from 0 to 65535")
                }
                devices[d].bus = UInt16(ids[0]); devices[d].vendor = UInt16(ids[1])
                devices[d].product = UInt16(ids[2]); devices[d].version = UInt16(ids[3])
            case "properties":
                let props = try parseIntList(l, y.value, what: "the input properties")
                guard props.allSatisfy({ $0 >= 0 && $0 < 0x20 }) else { throw LineError("expected input property numbers from 0 to 31") }
                devices[d].properties = Array(Set(props.map { UInt16($0) })).sorted()
            default:
                break
            }
        case .evdev? where path.count == 4:
            guard case .number(let n) = path[3] else { break }
            if path[2] == .codes {
                guard n <= Int64(EventCodes.EV_MAX) else { throw LineError("event type \(n) in 'codes:' is out of range: expected at most 31") }
                let codes = try parseIntList(l, y.value, what: "the codes of type \(n)")
                guard codes.allSatisfy({ $0 >= 0 && $0 <= 0xFFFF }) else { throw LineError("expected event codes from 0 to 65535 for type \(n)") }
                devices[d].codes[UInt16(n)] = Array(Set(codes.map { UInt16($0) })).sorted()
            } else if path[2] == .absinfo {
                guard n <= Int64(EventCodes.ABS_MAX) else { throw LineError("axis code \(n) in 'absinfo:' is out of range: expected at most 63") }
                let v = try parseIntList(l, y.value, what: "the absinfo of axis \(n) [min, max, fuzz, flat, resolution]")
                guard v.count == 5, let a = Int32(exactly: v[0]), let b = Int32(exactly: v[1]), let f = Int32(exactly: v[2]),
                      let fl = Int32(exactly: v[3]), let r = Int32(exactly: v[4]) else {
                    throw LineError("expected the absinfo of axis \(n) as [min, max, fuzz, flat, resolution], 5 numbers that fit in 32 bits")
                }
                if devices[d].absinfo[UInt16(n)] != nil { devices[d].duplicateAbsinfo.append(UInt16(n)) }
                devices[d].absinfo[UInt16(n)] = AbsInfo(minimum: a, maximum: b, fuzz: f, flat: fl, resolution: r)
            }
        default:
            break
        }
        return .header
    }

    /// Drops the path down to the top level, as when the events list ends.
    mutating func leaveEvents() {
        while let top = stack.last, top.key != .devices { stack.removeLast() }
    }
}

/// `- evdev:` alone at `indent`, as libinput writes the line that opens each frame's block: the
/// same item again, which the reader takes without the general line walk (a frame's opening line
/// was a tenth of the reader's time). Anything else (a comment after it, other spacing) is left
/// to that walk.
@inline(__always)
func isBareEvdevItem(_ l: Span<UInt8>, at indent: Int) -> Bool {
    guard indent >= 0, l.count == indent &+ 8 else { return false }
    var i = 0
    while i < indent {
        if l[i] != 0x20 { return false }
        i &+= 1
    }
    return l[i] == UInt8(ascii: "-") && l[i &+ 1] == 0x20 && l[i &+ 2] == UInt8(ascii: "e") && l[i &+ 3] == UInt8(ascii: "v")
        && l[i &+ 4] == UInt8(ascii: "d") && l[i &+ 5] == UInt8(ascii: "e") && l[i &+ 6] == UInt8(ascii: "v") && l[i &+ 7] == UInt8(ascii: ":")
}

/// An event row indented deeper than its `- evdev:` item (at `itemIndent`) and written in
/// libinput's own widths, or nil: every other line, and any row this cannot take, goes through
/// the reader's general line walk and `parseLibinputRow`, which alone words errors.
@inline(__always)
func fastEvdevRow(_ l: Span<UInt8>, deeperThan itemIndent: Int) -> InputEvent? {
    let base = l
    var i = 0
    while i < l.count && base[i] == 0x20 { i += 1 }
    guard i > itemIndent, i + 1 < l.count, base[i] == UInt8(ascii: "-"), base[i + 1] == 0x20 else { return nil }
    return libinputFixedRow(l, dash: i)
}

/// The row exactly as libinput writes it, `- [%3lu, %6u, %3d, %3d, %7d]`: after the seconds,
/// every field has its fixed width, so each is converted from one 8-byte load (spaces count as
/// leading zeros) instead of byte by byte. nil for anything else (a wider or negative field,
/// such as a lift's tracking id -1, or other spacing): the general parser reads those, and
/// they are rare enough that a second fast parser for them did not pay (it cost more than it
/// saved).
@inline(__always)
func libinputFixedRow(_ base: Span<UInt8>, dash: Int) -> InputEvent? {
    let end = base.count
    var i = dash + 1
    guard i + 1 < end, base[i] == 0x20, base[i + 1] == UInt8(ascii: "[") else { return nil }
    i += 2
    // Seconds: blanks, then digits, up to the comma.
    while i < end && base[i] == 0x20 { i += 1 }
    var sec: Int64 = 0
    let first = i
    while i < end, case let d = base[i] &- 0x30, d < 10 { sec = sec &* 10 &+ Int64(d); i += 1 }
    guard i > first, i - first <= 12 else { return nil }
    // ", " usec(6) ", " type(3) ", " code(3) ", " value(7) "]": 28 bytes from here.
    guard i + 28 <= end else { return nil }
    @inline(__always) func separator(_ at: Int) -> Bool { base[at] == UInt8(ascii: ",") && base[at + 1] == 0x20 }
    guard separator(i), separator(i + 8), separator(i + 13), separator(i + 18), base[i + 27] == UInt8(ascii: "]") else { return nil }
    guard let usec = fixedField(base, end: i + 8, width: 6), let type = fixedField(base, end: i + 13, width: 3),
          let code = fixedField(base, end: i + 18, width: 3), let value = fixedField(base, end: i + 27, width: 7) else { return nil }
    i += 28
    while i < end && base[i] == 0x20 { i += 1 }
    guard i == end || base[i] == UInt8(ascii: "#") else { return nil }
    guard usec < 1_000_000, type <= UInt64(UInt16.max), let maxCode = EventCodes.maxCode(type: UInt16(type)), code <= UInt64(maxCode),
          let value32 = Int32(exactly: value) else { return nil }
    return InputEvent(time: Timestamp(seconds: sec, microseconds: Int64(usec)), type: UInt16(type), code: UInt16(code), value: value32)
}

/// The `width` bytes (1...8) before `end` as a right-aligned decimal: spaces, then at least one
/// digit; nil otherwise. One unaligned load (bounds-checked: the caller has `end - 8 >= 0`).
@inline(__always)
func fixedField(_ base: Span<UInt8>, end: Int, width: Int) -> UInt64? {
    var word = loadWord(base, at: end - 8)
    // The field is the top `width` bytes (little endian: the last bytes in memory); fill the
    // bytes before it with spaces.
    let below = UInt64(8 - width) * 8
    if below > 0 { word = (word & (~0 << below)) | (0x2020_2020_2020_2020 & ~(~0 << below)) }
    let highs: UInt64 = 0x8080_8080_8080_8080, low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    // Per byte, the high bit set when the byte is not a digit / not a space (ASCII; a carry out
    // of a non-ASCII byte can only mark later bytes, and any marked byte fails the row).
    let hi: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, zeros: UInt64 = 0x3030_3030_3030_3030
    let digitOther = ((word & hi) ^ zeros) | (((word &+ 0x0606_0606_0606_0606) & hi) ^ zeros)
    let notDigit = (((digitOther & low7) &+ low7) | digitOther) & highs
    let spaceOther = word ^ 0x2020_2020_2020_2020
    let notSpace = (((spaceOther & low7) &+ low7) | spaceOther) & highs
    let digit = ~notDigit & highs
    // Every byte a digit or a space, the last one a digit, and no space after a digit.
    guard notDigit & notSpace == 0, digit & 0x8000_0000_0000_0000 != 0, digit & ~(digit >> 8) & ~0xFF00_0000_0000_0000 == 0 else { return nil }
    var v = word & 0x0F0F_0F0F_0F0F_0F0F
    v = (v &* 2561) >> 8
    v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
    v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    return v
}
