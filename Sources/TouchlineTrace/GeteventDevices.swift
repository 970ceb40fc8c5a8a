import TouchlineCore

// What a getevent trace says about its devices: the paths that number them, the `getevent -lp`
// header blocks that describe them, and what their events show when there is no header.

/// Device paths to device indices in constant time. A lookup hashes the path's bytes where the
/// line holds them and allocates nothing; the paths live end to end in one byte array.
struct DevicePathTable {
    private var arena: [UInt8] = []
    /// Path i is arena[starts[i]..<starts[i + 1]].
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    /// Open addressing, linear probing; -1 is empty. Kept at most half full.
    private var slots = [Int32](repeating: -1, count: 16)

    var count: Int { hashes.count }

    /// FNV-1a: paths differ in their last digits, which it mixes into every bit.
    @inline(__always) static func hash(_ p: Span<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for k in p.indices { h = (h ^ UInt64(p[k])) &* 0x0000_0100_0000_01b3 }
        return h
    }

    @inline(__always) func find(_ p: Span<UInt8>) -> Int? {
        let h = Self.hash(p)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = Int(slots[i])
            if s < 0 { return nil }
            if hashes[s] == h && equals(s, p) { return s }
            i = (i + 1) & mask
        }
    }

    /// Adds a path not in the table; returns its index.
    mutating func insert(_ p: Span<UInt8>) -> Int {
        if (count + 1) * 2 > slots.count { grow() }
        let h = Self.hash(p)
        let index = count
        append(p, to: &arena)
        starts.append(arena.count)
        hashes.append(h)
        place(index, hash: h)
        return index
    }

    /// Whether path `index` is these bytes.
    @inline(__always) func equals(_ index: Int, _ p: Span<UInt8>) -> Bool {
        let s = starts[index], e = starts[index + 1]
        guard e - s == p.count else { return false }
        let a = arena.span.extracting(s..<e)
        for k in 0..<p.count where a[k] != p[k] { return false }
        return true
    }

    func path(_ index: Int) -> String {
        String(decoding: arena[starts[index]..<starts[index + 1]], as: UTF8.self)
    }

    private mutating func place(_ index: Int, hash h: UInt64) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while slots[i] >= 0 { i = (i + 1) & mask }
        slots[i] = Int32(index)
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for index in 0..<count { place(index, hash: hashes[index]) }
    }
}

/// One device of a getevent trace until the reader describes it: what its `getevent -lp` block
/// said, if it had one, and what its events showed.
struct GeteventDeviceFacts {
    var path: String?
    var name: String?
    var bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0
    /// The "input props:" list, when the block had one.
    var properties: [UInt16]?
    /// Codes from the block's "events:" list and from events seen.
    var codes: [UInt16: Set<UInt16>] = [:]
    /// Ranges from the block's ABS lines.
    var headerRanges: [UInt16: AbsInfo] = [:]
    /// Whether the block listed the device's events: then its codes and ranges are the device's,
    /// and nothing is inferred.
    var hasHeaderEvents = false
    /// The lowest and highest value seen per ABS code, while the reader looks ahead.
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

    /// The range assumed for an axis whose values lo...hi were seen when nothing shows its edge
    /// (docs/traces.md): the maximum is the smallest 2^k - 1 at or above the highest value seen,
    /// never the highest value itself (the edge of the screen must not be wherever the user
    /// happened to touch), so no touch seems to start at an edge. A negative value gives the
    /// mirror image -2^k. Slots get 0..63 and tracking ids 0..65535, as their values say nothing
    /// of the range. `guessEdges` then moves a position axis's edge to where touches show it.
    static func assumedRange(code: UInt16, lowest lo: Int32, highest hi: Int32) -> AbsInfo {
        if code == EventCodes.ABS_MT_TRACKING_ID { return AbsInfo(minimum: 0, maximum: 65535) }
        if code == EventCodes.ABS_MT_SLOT { return AbsInfo(minimum: 0, maximum: Int32(FrameAssembler.undeclaredSlots - 1)) }
        func powerOfTwoAtOrAbove(_ v: Int64) -> Int64 {
            var p: Int64 = 2
            while p < v { p <<= 1 }
            return p
        }
        let maximum = hi < 0 ? 0 : powerOfTwoAtOrAbove(Int64(hi) + 1) - 1
        let minimum = lo >= 0 ? 0 : -powerOfTwoAtOrAbove(-Int64(lo))
        return AbsInfo(minimum: Int32(clamping: minimum), maximum: Int32(clamping: maximum))
    }

    /// Moves the edge of each position axis among `assumed` to where the look-ahead's touches
    /// show it (`PanelEdges.edgeMaximum`, docs/traces.md "Axis ranges"); returns the axes moved.
    /// The others keep the power of two. `events` are this device's events of the look-ahead.
    func guessEdges(_ description: inout DeviceDescription, assumed: [UInt16], events: some Sequence<InputEvent>) -> [UInt16] {
        let positions = [EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_X, EventCodes.ABS_Y]
        guard assumed.contains(where: positions.contains) else { return [] }
        // The power-of-two ranges hold every value seen: the assembler clamps nothing.
        let touches = LookAheadTouches(device: description, events: events)
        var moved: [UInt16] = []
        for (code, extents) in [(touches.xCode, touches.x), (touches.yCode, touches.y)] where assumed.contains(code) {
            // A negative value is no panel's: those axes keep the mirror rule.
            guard (minimum[code] ?? 0) >= 0, let highest = maximum[code],
                  let edge = PanelEdges.edgeMaximum(highest: highest, touches: extents) else { continue }
            description.absinfo[code]?.maximum = edge
            moved.append(code)
        }
        // A multitouch device's ABS_X and ABS_Y (pointer emulation) have its MT axes' ranges:
        // the kernel copies them (input_mt_init_slots, input_copy_abs).
        for (single, multi) in [(EventCodes.ABS_X, EventCodes.ABS_MT_POSITION_X), (EventCodes.ABS_Y, EventCodes.ABS_MT_POSITION_Y)]
        where assumed.contains(single) && moved.contains(multi) && (minimum[single] ?? 0) >= 0 {
            guard let edge = description.absinfo[multi]?.maximum, (maximum[single] ?? 0) <= edge else { continue }
            description.absinfo[single]?.maximum = edge
            moved.append(single)
        }
        return moved
    }

    /// The description, and the ABS codes whose ranges were assumed (not from the header or the
    /// user).
    func description(options: GeteventOptions) -> (DeviceDescription, assumed: [UInt16]) {
        var codes = self.codes
        codes[EventCodes.EV_SYN, default: []].insert(EventCodes.SYN_REPORT)
        var absinfo = headerRanges
        var assumed: [UInt16] = []
        for code in (codes[EventCodes.EV_ABS] ?? []).sorted() where absinfo[code] == nil && options.ranges[code] == nil {
            absinfo[code] = Self.assumedRange(code: code, lowest: minimum[code] ?? 0, highest: maximum[code] ?? 0)
            // Ids and slots are numbers, not places: no screen edge depends on them.
            if code != EventCodes.ABS_MT_TRACKING_ID && code != EventCodes.ABS_MT_SLOT { assumed.append(code) }
        }
        for (code, range) in options.ranges {
            absinfo[code] = range
            codes[EventCodes.EV_ABS, default: []].insert(code)
        }
        var sorted: [UInt16: [UInt16]] = [:]
        for (type, set) in codes { sorted[type] = set.sorted() }
        let description = DeviceDescription(
            name: name ?? path ?? options.name ?? "getevent", bus: bus, vendor: vendor, product: product, version: version,
            // getevent traces come from phone and tablet touchscreens.
            properties: properties ?? [EventCodes.INPUT_PROP_DIRECT], codes: sorted, absinfo: absinfo)
        return (description, assumed)
    }
}

/// Reads the indented lines of an `add device` block, as `getevent -lp` (or `-lip`) prints them:
///
///     add device 2: /dev/input/event4
///       name:     "fts_ts"
///       events:
///         KEY (0001): BTN_TOUCH             BTN_TOOL_FINGER
///         ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
///                     ABS_MT_POSITION_X     : value 0, min 0, max 1199, fuzz 0, flat 0, resolution 0
///       input props:
///         INPUT_PROP_DIRECT
///
/// Without -l codes are 4 hex digits; a '*' after a key means it was down.
struct GeteventHeaderReader {
    private enum Section { case none, events, properties }
    private var section = Section.none
    private var type: UInt16?
    /// Codes left out of the description, for the user; the decoder takes them after each line
    /// and adds where they were.
    var dropped: [String] = []

    /// A new `add device` block begins.
    mutating func reset() {
        section = .none
        type = nil
    }

    mutating func apply(_ line: Span<UInt8>, to facts: inout GeteventDeviceFacts) throws(LineError) {
        var c = ByteCursor(line)
        c.skipSpaces()
        let indent = c.index
        if indent <= 2 {
            // A key of the block: "name:", "events:", "input props:", "bus:" ...
            section = .none
            if c.take("name:") {
                c.skipSpaces()
                var start = c.index, end = line.count
                while end > start && line[end - 1].isSpaceOrTab { end -= 1 }
                if end - start >= 2 && line[start] == UInt8(ascii: "\"") && line[end - 1] == UInt8(ascii: "\"") {
                    start += 1
                    end -= 1
                }
                facts.name = c.text(start..<end)
            } else if c.take("events:") {
                section = .events
                facts.hasHeaderEvents = true
            } else if c.take("input props:") {
                section = .properties
                facts.properties = []
            } else if c.take("bus:") || c.take("bus ") {
                facts.bus = headerHex(&c) ?? facts.bus
            } else if c.take("vendor") {
                facts.vendor = headerHex(&c) ?? facts.vendor
            } else if c.take("product") {
                facts.product = headerHex(&c) ?? facts.product
            } else if c.take("version ") {
                // "version   0001" (the id's version); "version: 1.0.1" is the driver's.
                facts.version = headerHex(&c) ?? facts.version
            }
            return
        }
        switch section {
        case .none:
            return
        case .properties:
            let token = c.token()
            for property in UInt16(0)...31 {
                if let name = EventCodes.propertyName(property), c.text(token) == name {
                    facts.properties?.append(property)
                }
            }
        case .events:
            // "KEY (0001): ..." starts a type's list; a line without it continues the last one.
            let mark = c.index
            _ = c.token()
            c.skipSpaces()
            if c.take(UInt8(ascii: "(")), let t = c.hex(maxDigits: 4), c.take(UInt8(ascii: ")")), c.take(UInt8(ascii: ":")) {
                type = UInt16(t)
            } else {
                c.index = mark
            }
            guard let type else {
                throw LineError("expected a type such as 'ABS (0003):' before the codes of an 'events:' list, found \(quoted(line))")
            }
            try readCodes(&c, type: type, into: &facts)
        }
    }

    private func headerHex(_ c: inout ByteCursor) -> UInt16? {
        _ = c.take(UInt8(ascii: ":"))
        c.skipSpaces()
        let token = c.token()
        guard token.count <= 4, let v = wholeHex(c.bytes.extracting(token)) else { return nil }
        return UInt16(v)
    }

    private mutating func readCodes(_ c: inout ByteCursor, type: UInt16, into facts: inout GeteventDeviceFacts) throws(LineError) {
        while true {
            c.skipSpaces()
            if c.atEnd { return }
            var token = c.token()
            // A key held down when getevent asked is marked with '*'.
            if token.count > 1 && c.bytes[token.upperBound - 1] == UInt8(ascii: "*") { token = token.lowerBound..<(token.upperBound - 1) }
            var code = headerCode(c.bytes.extracting(token), type: type)
            // A code past the kernel's largest of its type (ABS_MAX is 0x3f) is no axis any
            // device has, and a trace written with it would not read back ('A: ff' is an error).
            if let known = code, let maxCode = EventCodes.maxCode(type: type), known > maxCode {
                let name = EventCodes.typeName(type) ?? hex4(type)
                dropped.append("the 'getevent -lp' block lists \(name) code \(quotedToken(c.bytes, token)), beyond the kernel's largest (\(hex4(maxCode))); it is left out of the device's description")
                code = nil
            }
            if let code { facts.codes[type, default: []].insert(code) }
            guard type == EventCodes.EV_ABS else { continue }
            // One axis per line: "ABS_X : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0".
            c.skipSpaces()
            guard c.take(UInt8(ascii: ":")) else { return }
            var info = AbsInfo(minimum: 0, maximum: 0)
            var sawMin = false, sawMax = false
            while true {
                c.skipSpaces()
                if c.atEnd { break }
                let key = c.text(c.index..<tokenEnd(c, stopAt: UInt8(ascii: " ")))
                c.index = tokenEnd(c, stopAt: UInt8(ascii: " "))
                c.skipSpaces()
                guard let v = c.signedDecimal(), v >= Int64(Int32.min), v <= Int64(Int32.max) else {
                    throw LineError("expected a number (32 bits) after '\(key)' in the range of \(quotedToken(c.bytes, token)), found \(found(c))")
                }
                switch key {
                case "value": info.value = Int32(v)
                case "min": info.minimum = Int32(v); sawMin = true
                case "max": info.maximum = Int32(v); sawMax = true
                case "fuzz": info.fuzz = Int32(v)
                case "flat": info.flat = Int32(v)
                case "resolution": info.resolution = Int32(v)
                default: break
                }
                _ = c.take(UInt8(ascii: ","))
            }
            guard sawMin && sawMax else {
                throw LineError("expected ': value V, min MIN, max MAX, fuzz F, flat F, resolution R' after \(quotedToken(c.bytes, token)), found no min or max")
            }
            if let code { facts.headerRanges[code] = info }
            return
        }
    }

    private func tokenEnd(_ c: ByteCursor, stopAt: UInt8) -> Int {
        var k = c.index
        while k < c.bytes.count && c.bytes[k] != stopAt && !c.bytes[k].isSpaceOrTab && c.bytes[k] != UInt8(ascii: ",") { k += 1 }
        return k
    }

    /// A code of the list: a name of `type` or 4 hex digits. A name Touchline does not know
    /// (a newer kernel's) is left out of the description: an event with it would be an error.
    private func headerCode(_ token: Span<UInt8>, type: UInt16) -> UInt16? {
        if token.count <= 4, let v = wholeHex(token) { return UInt16(v) }
        guard let named = EventCodes.code(named: text(of: token)), named.type == type else { return nil }
        return named.code
    }
}
