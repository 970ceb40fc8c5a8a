import TouchlineCore

// evemu-record text (evemu 1.1 to 1.3 and evemu 2.x, which still writes "# EVEMU 1.3").
// Header: `N:` name, `I:` bus vendor product version (hex), `P:` property bitmask bytes, `B:`
// per-type event bitmask bytes (consecutive lines of one type continue the mask), `A:` axis
// (code in hex, then min max fuzz flat [resolution] in decimal; 1.1 has no resolution), `L:`
// and `S:` LED and switch state (ignored). Events: `E: sec.usec type code value`, type and code
// in hex, value in decimal; evemu 2 appends a `# comment`.

/// Collects header lines into a DeviceDescription.
struct EvemuHeaderBuilder {
    var name: String?
    var ids: (bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16) = (0, 0, 0, 0)
    var properties: [UInt16] = []
    var codes: [UInt16: [UInt16]] = [:]
    var absinfo: [UInt16: AbsInfo] = [:]
    /// Axes with a second `A:` line (the last one is kept; the frame assembler warns).
    var duplicateAbsinfo: [UInt16] = []
    var sawHeader = false
    private var propertyOffset = 0
    private var maskType = -1
    private var maskOffset = 0

    var description: DeviceDescription {
        var sortedCodes: [UInt16: [UInt16]] = [:]
        for (type, list) in codes { sortedCodes[type] = Array(Set(list)).sorted() }
        // An A: line is a promise that the device has that axis, even when B: left it out.
        if !absinfo.isEmpty {
            var abs = Set(sortedCodes[EventCodes.EV_ABS] ?? [])
            abs.formUnion(absinfo.keys)
            sortedCodes[EventCodes.EV_ABS] = abs.sorted()
        }
        var d = DeviceDescription(
            name: name ?? "", bus: ids.bus, vendor: ids.vendor, product: ids.product, version: ids.version,
            properties: Array(Set(properties)).sorted(), codes: sortedCodes, absinfo: absinfo)
        d.duplicateAbsinfo = duplicateAbsinfo
        return d
    }

    /// Applies one header line (its first byte is the kind letter, the second ':').
    mutating func apply(_ line: Span<UInt8>) throws(LineError) {
        var c = ByteCursor(line, at: 2)
        c.skipSpaces()
        switch line[0] {
        case UInt8(ascii: "N"):
            var end = line.count
            while end > c.index && line[end - 1].isSpaceOrTab { end -= 1 }
            name = c.text(c.index..<end)
            maskType = -1
        case UInt8(ascii: "I"):
            var values: [UInt16] = []
            for what in ["bus", "vendor", "product", "version"] {
                c.skipSpaces()
                let start = c.index
                guard let v = c.hex(maxDigits: 4), c.atEnd || c.peek!.isSpaceOrTab || c.peek! == UInt8(ascii: "#") else {
                    throw LineError("expected 'I: bus vendor product version' as hex numbers of up to 4 digits, but the \(what) is \(c.found(from: start))")
                }
                values.append(UInt16(v))
            }
            guard c.atEndOrComment() else { throw LineError("unexpected \(found(c)) after the version in the 'I:' line: expected the end of the line") }
            ids = (values[0], values[1], values[2], values[3])
            maskType = -1
        case UInt8(ascii: "P"):
            var count = 0
            while !c.atEndOrComment() {
                let start = c.index
                guard let byte = c.hex(maxDigits: 2), c.atEnd || c.peek!.isSpaceOrTab || c.peek! == UInt8(ascii: "#") else {
                    throw LineError("expected property bitmask bytes in hex (2 digits each) after 'P:', found \(c.found(from: start))")
                }
                for bit in 0..<8 where byte & (1 << bit) != 0 { properties.append(UInt16(propertyOffset * 8 + bit)) }
                propertyOffset += 1
                count += 1
                if propertyOffset > 64 { throw LineError("too many property bytes in 'P:' lines: expected at most 64") }
            }
            if count == 0 { throw LineError("expected property bitmask bytes in hex after 'P:'") }
            maskType = -1
        case UInt8(ascii: "B"):
            let typeStart = c.index
            guard let type = c.hex(maxDigits: 2), c.atEnd || c.peek!.isSpaceOrTab else {
                throw LineError("expected 'B: type bytes...' with the event type in hex (2 digits), found \(c.found(from: typeStart))")
            }
            guard let maxCode = EventCodes.maxCode(type: UInt16(type)) else {
                throw LineError("unknown event type \(hex4(type)) in a 'B:' line: expected a type the kernel defines")
            }
            if Int(type) != maskType {
                maskType = Int(type)
                maskOffset = 0
            }
            while !c.atEndOrComment() {
                let start = c.index
                guard let byte = c.hex(maxDigits: 2), c.atEnd || c.peek!.isSpaceOrTab || c.peek! == UInt8(ascii: "#") else {
                    throw LineError("expected event bitmask bytes in hex (2 digits each) in the 'B:' line, found \(c.found(from: start))")
                }
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    let code = maskOffset * 8 + bit
                    // evemu pads masks to whole lines; bits past the kernel's maximum are noise.
                    if code <= Int(maxCode) { codes[UInt16(type), default: []].append(UInt16(code)) }
                }
                maskOffset += 1
                if maskOffset > 128 { throw LineError("too many bitmask bytes for type \(hex4(type)): expected at most 128") }
            }
        case UInt8(ascii: "A"):
            let codeStart = c.index
            guard let code = c.hex(maxDigits: 2), c.atEnd || c.peek!.isSpaceOrTab else {
                throw LineError("expected 'A: code min max fuzz flat [resolution]' with the axis code in hex (2 digits), found \(c.found(from: codeStart))")
            }
            guard code <= UInt64(EventCodes.ABS_MAX) else { throw LineError("axis code \(hex4(code)) in an 'A:' line is out of range: expected at most 0x003f") }
            var values: [Int32] = []
            c.skipSpaces()
            let valuesStart = c.index
            let names = ["min", "max", "fuzz", "flat", "resolution"]
            while !c.atEndOrComment() {
                let start = c.index
                guard let v = c.signedDecimal(), let v32 = Int32(exactly: v),
                      c.atEnd || c.peek!.isSpaceOrTab || c.peek! == UInt8(ascii: "#") else {
                    let what = values.count < names.count ? names[values.count] : "number \(values.count + 1)"
                    throw LineError(c.int32FieldProblem(
                        "the \(what)", from: start,
                        expected: "'A: code min max fuzz flat [resolution]' with decimal numbers, but the \(what) is not one"))
                }
                values.append(v32)
            }
            guard values.count == 4 || values.count == 5 else {
                var end = c.index
                while end > valuesStart && c.bytes[end - 1].isSpaceOrTab { end -= 1 }
                let text = values.isEmpty ? "none" : "\(values.count): " + quoted(c.bytes.extracting(valuesStart..<end))
                throw LineError("expected 'A: code min max fuzz flat [resolution]': 4 or 5 decimal numbers after the code, found \(text)")
            }
            if absinfo[UInt16(code)] != nil { duplicateAbsinfo.append(UInt16(code)) }
            absinfo[UInt16(code)] = AbsInfo(minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3], resolution: values.count == 5 ? values[4] : 0)
            maskType = -1
        default:
            // L: and S: (LED and switch state) say nothing a touch pipeline needs.
            maskType = -1
        }
        sawHeader = true
    }
}

/// What the cursor is looking at, for messages: "'zz'" or "the end of the line".
func found(_ c: ByteCursor) -> String {
    var k = c.index
    while k < c.bytes.count && c.bytes[k].isSpaceOrTab { k += 1 }
    guard k < c.bytes.count else { return "the end of the line" }
    var e = k
    while e < c.bytes.count && !c.bytes[e].isSpaceOrTab { e += 1 }
    return quoted(c.bytes.extracting(k..<e), limit: 24)
}

/// Whether a line is an evemu line ("X:" with X one of the evemu letters).
@inline(__always) func evemuKind(_ line: Span<UInt8>) -> UInt8? {
    guard line.count >= 2, line[1] == UInt8(ascii: ":") else { return nil }
    switch line[0] {
    case UInt8(ascii: "N"), UInt8(ascii: "I"), UInt8(ascii: "P"), UInt8(ascii: "B"), UInt8(ascii: "A"),
         UInt8(ascii: "L"), UInt8(ascii: "S"), UInt8(ascii: "E"):
        return line[0]
    default:
        return nil
    }
}

/// Parses `E: sec.usec type code value [# comment]`. The hot path of the evemu reader.
@inline(__always)
func parseEvemuEvent(_ line: Span<UInt8>) throws(LineError) -> InputEvent {
    if let event = fastEvemuEvent(line) { return event }
    var c = ByteCursor(line, at: 2)
    c.skipSpaces()
    let timeStart = c.index
    // Twelve digits of seconds (30,000 years) keep every time far from Int64 overflow.
    guard let sec = c.unsignedDecimal(maxDigits: 12), c.take(UInt8(ascii: ".")) else {
        c.index = timeStart
        throw LineError("expected an event line 'E: sec.usec type code value' starting with a time 'sec.usec', found \(found(c))")
    }
    // evemu reads the fraction with "%06u": up to six digits, an integer count of microseconds.
    let usecStart = c.index
    guard let usec = c.unsignedDecimal(maxDigits: 6) else {
        throw LineError("expected up to 6 digits of microseconds after the '.' of the time, found \(c.found(from: usecStart))")
    }
    guard c.peek?.isSpaceOrTab == true else { throw LineError("expected a space after the time, found \(found(c))") }
    c.skipSpaces()
    var field = c.index
    guard let type = c.hex(maxDigits: 4), c.atEnd || c.peek!.isSpaceOrTab else {
        c.index = field
        throw LineError("expected a hexadecimal event type after the time, found \(found(c))")
    }
    c.skipSpaces()
    field = c.index
    guard let code = c.hex(maxDigits: 4), c.atEnd || c.peek!.isSpaceOrTab else {
        c.index = field
        throw LineError("expected a hexadecimal event code after the type, found \(found(c))")
    }
    c.skipSpaces()
    field = c.index
    guard let value = c.signedDecimal(), c.atEnd || c.peek!.isSpaceOrTab || c.peek! == UInt8(ascii: "#"),
          let value32 = Int32(exactly: value) else {
        throw LineError(c.int32FieldProblem("event value", from: field, stops: "#", expected: "a decimal event value after the code"))
    }
    guard c.atEndOrComment() else {
        throw LineError("unexpected \(found(c)) after the event value: expected the end of the line or a '#' comment")
    }
    try validateEvent(type: type, code: code)
    return InputEvent(time: Timestamp(seconds: sec, microseconds: usec), type: UInt16(type), code: UInt16(code), value: value32)
}

/// The common event line, `E: 12.345678 0003 0035 1304\t# comment`, in one pass over the
/// bytes: the general parser's cursor (optional results, a check per byte) was a third of a
/// replay. Returns nil for anything it does not take (a `0x` prefix, a `+`, too many digits,
/// an unknown type), and the general parser above then accepts the line or says what is
/// wrong with it; so this path never decides an error.
@inline(__always)
func fastEvemuEvent(_ base: Span<UInt8>) -> InputEvent? {
    let end = base.count
    var i = 2
    @inline(__always) func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
    while i < end && blank(base[i]) { i += 1 }
    // sec: 1 to 12 digits, '.', usec: 1 to 6 digits (an integer count, as evemu's "%06u").
    var sec: Int64 = 0
    var first = i
    while i < end, case let d = base[i] &- 0x30, d < 10 { sec = sec &* 10 &+ Int64(d); i += 1 }
    guard i > first, i - first <= 12, i < end, base[i] == UInt8(ascii: ".") else { return nil }
    i += 1
    var usec: Int64 = 0
    first = i
    while i < end, case let d = base[i] &- 0x30, d < 10 { usec = usec &* 10 &+ Int64(d); i += 1 }
    guard i > first, i - first <= 6, i < end, blank(base[i]) else { return nil }
    // type and code: 1 to 4 hexadecimal digits each, then a blank.
    var hex: (UInt16, UInt16) = (0, 0)
    for k in 0..<2 {
        while i < end && blank(base[i]) { i += 1 }
        first = i
        var v: UInt16 = 0
        while i < end, let d = hexValue(base[i]) { v = v &<< 4 | UInt16(d); i += 1 }
        guard i > first, i - first <= 4, i < end, blank(base[i]) else { return nil }
        if k == 0 { hex.0 = v } else { hex.1 = v }
    }
    while i < end && blank(base[i]) { i += 1 }
    var negative = false
    if i < end && base[i] == 0x2D { negative = true; i += 1 }
    first = i
    var value: Int64 = 0
    while i < end, case let d = base[i] &- 0x30, d < 10 { value = value &* 10 &+ Int64(d); i += 1 }
    guard i > first, i - first <= 10 else { return nil }
    if negative { value = -value }
    while i < end && blank(base[i]) { i += 1 }
    guard i == end || base[i] == UInt8(ascii: "#") else { return nil }
    let (type, code) = hex
    guard let maxCode = EventCodes.maxCode(type: type), code <= maxCode, let value32 = Int32(exactly: value) else { return nil }
    return InputEvent(time: Timestamp(seconds: sec, microseconds: usec), type: type, code: code, value: value32)
}
