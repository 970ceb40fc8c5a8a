import TouchlineCore

// Writers append text to an internal buffer and hand it to the sink in chunks, so a long
// conversion streams in bounded memory. Both rebase time so that the first event is at 0, as
// `libinput record` and evemu-record do.

/// Bytes being assembled before they go to a sink.
struct OutputBuffer {
    var bytes: [UInt8] = []
    static let flushSize = 64 * 1024

    init() { bytes.reserveCapacity(Self.flushSize + 4096) }

    @inline(__always) mutating func append(_ s: StaticString) {
        withBytes(of: s) { TouchlineTrace.append($0, to: &bytes) }
    }
    @inline(__always) mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }
    @inline(__always) mutating func append(_ b: UInt8) { bytes.append(b) }

    /// A decimal, right-aligned in `width` columns (with spaces, or zeros if `zeros`).
    @inline(__always) mutating func append(_ value: Int64, width: Int = 0, zeros: Bool = false) {
        let negative = value < 0
        let magnitude = value.magnitude
        var count = 1
        var limit: UInt64 = 10
        // At most 20 digits: the count stops before 10^20 would overflow.
        while count < 20 && magnitude >= limit { count += 1; limit &*= 10 }
        let used = count + (negative ? 1 : 0)
        if negative && zeros { bytes.append(UInt8(ascii: "-")) }
        var pad = width - used
        while pad > 0 { bytes.append(zeros ? 0x30 : 0x20); pad -= 1 }
        if negative && !zeros { bytes.append(UInt8(ascii: "-")) }
        // The digits are written last to first into room made for them (checked subscripts).
        bytes.append(contentsOf: repeatElement(0x30, count: count))
        var v = magnitude
        var k = bytes.count
        repeat {
            k -= 1
            bytes[k] = UInt8(truncatingIfNeeded: v % 10) + 0x30
            v /= 10
        } while v != 0
    }

    /// Lower-case hex, zero-padded to `width` digits.
    mutating func appendHex(_ value: UInt64, width: Int) {
        var count = 1
        while count < 16 && value >> (4 * UInt64(count)) != 0 { count += 1 }
        var n = max(width, count)
        while n > 0 {
            n -= 1
            let nibble = Int((value >> (4 * UInt64(n))) & 15)
            bytes.append(nibble < 10 ? 0x30 + UInt8(nibble) : 0x57 + UInt8(nibble))
        }
    }

    /// Text in double quotes, with quotes and backslashes escaped.
    mutating func appendQuoted(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            // A control byte raw would end the YAML line (LF) or reach a terminal (ESC): written
            // as YAML's `\xHH`, which the reader decodes.
            if b < 0x20 || b == 0x7F {
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(b >> 4)], hex[Int(b & 0xF)]])
                continue
            }
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(b)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func flush(to sink: inout any ByteSink, force: Bool = false) throws {
        guard !bytes.isEmpty, force || bytes.count >= Self.flushSize else { return }
        try sink.write(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}

/// Names for row comments, looked up once per (type, code).
struct CommentNames {
    private var cache: [UInt32: [UInt8]] = [:]

    mutating func name(type: UInt16, code: UInt16) -> [UInt8] {
        let key = UInt32(type) << 16 | UInt32(code)
        if let hit = cache[key] { return hit }
        let t = EventCodes.typeName(type) ?? "type \(type)"
        let c = EventCodes.codeName(type: type, code: code) ?? "code \(code)"
        var text = Array((t + " / " + c).utf8)
        while text.count < 33 { text.append(0x20) }
        cache[key] = text
        return text
    }
}

/// evemu's comment names: "EV_ABS / ABS_MT_POSITION_X    " ("%s / %-20s "), once per code.
struct EvemuCommentNames {
    private var cache: [UInt32: [UInt8]] = [:]

    mutating func name(type: UInt16, code: UInt16) -> [UInt8] {
        let key = UInt32(type) << 16 | UInt32(code)
        if let hit = cache[key] { return hit }
        var c = Array((EventCodes.codeName(type: type, code: code) ?? "(null)").utf8)
        while c.count < 20 { c.append(0x20) }
        let text = Array(((EventCodes.typeName(type) ?? "(null)") + " / ").utf8) + c + [0x20]
        cache[key] = text
        return text
    }
}

/// The udev properties libinput record would show for a device that came without any (an
/// evemu or getevent trace), from the device's kind.
func syntheticUdevProperties(_ d: DeviceDescription) -> [String: String] {
    guard d.udevProperties.isEmpty else { return d.udevProperties }
    var props = ["ID_INPUT": "1"]
    switch d.kind {
    case .touchscreen: props["ID_INPUT_TOUCHSCREEN"] = "1"
    case .touchpad: props["ID_INPUT_TOUCHPAD"] = "1"
    case .pen: props["ID_INPUT_TABLET"] = "1"
    case .keyboard: props["ID_INPUT_KEYBOARD"] = "1"
    case .pointer: props["ID_INPUT_MOUSE"] = "1"
    case .other: break
    }
    return props
}

/// Writes `libinput record` YAML version 1, which libinput's own tools (`libinput analyze`,
/// `libinput replay`) read. Events go under their device; since the format lists each
/// device's events after its header, events of several devices must come device by device
/// (0 first); an event of an earlier device after a later one has started is an error.
public struct LibinputRecordWriter {
    public let devices: [DeviceDescription]
    /// Where the bytes went; read it back after `finish()`.
    public private(set) var sink: any ByteSink
    private var out = OutputBuffer()
    private var names = CommentNames()
    private var currentDevice = -1
    private var inFrame = false
    private var firstTime: Int64?
    private var lastReport: Int64 = 0
    private var finished = false
    private let nodes: [String]
    /// The current device's `events:` key is written (at its first event: a device without
    /// any gets `events: []`, which libinput's tools read as no events; a bare `events:` is a
    /// null that `libinput analyze per-slot-delta` stops on).
    private var eventsOpened = true

    /// `nodes` are the device paths to record (default /dev/input/eventN by index).
    public init(devices: [DeviceDescription], sink: any ByteSink, nodes: [String]? = nil) {
        precondition(!devices.isEmpty, "a libinput record file needs at least one device")
        self.devices = devices
        self.sink = sink
        self.nodes = nodes ?? devices.indices.map { "/dev/input/event\($0)" }
    }

    /// Times are written relative to this (nil until set: the first event written sets it). A
    /// recorder of several devices sets the recording's first event, of any device: device 0's
    /// events are written first, but another device may have sent first.
    public var origin: Timestamp? {
        get { firstTime.map { Timestamp(microseconds: $0) } }
        set { firstTime = newValue?.microseconds }
    }

    public mutating func write(_ event: TraceEvent) throws {
        precondition(!finished, "write after finish")
        guard event.device >= 0 && event.device < devices.count else {
            throw TraceWriterError("event of device \(event.device), but the recording has \(devices.count) device\(devices.count == 1 ? "" : "s")")
        }
        if event.device != currentDevice {
            guard event.device > currentDevice else {
                throw TraceWriterError("an event of device \(event.device) after events of device \(currentDevice): libinput record lists each device's events together, so write them device by device")
            }
            closeFrame()
            while currentDevice < event.device { closeDevice(); currentDevice += 1; writeDeviceHeader(currentDevice) }
        }
        if !eventsOpened {
            out.append("  events:\n")
            eventsOpened = true
        }
        let e = event.event
        let first = firstTime ?? e.time.microseconds
        firstTime = first
        // libinput record writes unsigned times; an event before the first one is clamped to 0.
        let t = max(0, e.time.microseconds &- first)
        if !inFrame {
            out.append("  - evdev:\n")
            inFrame = true
        }
        out.append("    - [")
        out.append(t / 1_000_000, width: 3)
        out.append(", ")
        out.append(t % 1_000_000, width: 6)
        out.append(", ")
        out.append(Int64(e.type), width: 3)
        out.append(", ")
        out.append(Int64(e.code), width: 3)
        out.append(", ")
        out.append(Int64(e.value), width: 7)
        out.append("] # ")
        if e.type == EventCodes.EV_SYN && e.code == EventCodes.SYN_REPORT {
            out.append("------------ SYN_REPORT (0) ---------- +")
            out.append((t &- lastReport) / 1000)
            out.append("ms\n")
            lastReport = t
            inFrame = false
        } else {
            out.bytes.append(contentsOf: names.name(type: e.type, code: e.code))
            out.append(Int64(e.value), width: 6)
            out.append(UInt8(ascii: "\n"))
        }
        try out.flush(to: &sink)
    }

    /// Writes what is left (headers of devices without events) and hands everything to the sink.
    public mutating func finish() throws {
        guard !finished else { return }
        closeFrame()
        while currentDevice < devices.count - 1 { closeDevice(); currentDevice += 1; writeDeviceHeader(currentDevice) }
        closeDevice()
        finished = true
        try out.flush(to: &sink, force: true)
    }

    private mutating func closeFrame() { inFrame = false }

    /// A device whose events never came: an empty list.
    private mutating func closeDevice() {
        if !eventsOpened { out.append("  events: []\n") }
        eventsOpened = true
    }

    private mutating func writeDeviceHeader(_ index: Int) {
        if index == 0 {
            out.append("# libinput record\nversion: 1\nndevices: ")
            out.append(Int64(devices.count))
            out.append("\nlibinput:\n  version: \"1.22.1\"\n  git: \"unknown\"\n")
            out.append("system:\n  os: \"unknown\"\n  kernel: \"unknown\"\n  dmi: \"unknown\"\n")
            out.append("# Written by Touchline from a trace; the versions above are the format's, not a live system's.\n")
            out.append("devices:\n")
        }
        let d = devices[index]
        out.append("- node: ")
        out.append(nodes[index])
        out.append("\n  evdev:\n    # Name: ")
        // A comment is read by people (and ends at a newline): the name's control characters
        // escaped, as everything printed for a person (the quoted `name:` below keeps them).
        out.append(d.name.escapingControlCharacters)
        out.append("\n    # ID: bus 0x")
        out.appendHex(UInt64(d.bus), width: 1)
        out.append(" vendor 0x")
        out.appendHex(UInt64(d.vendor), width: 1)
        out.append(" product 0x")
        out.appendHex(UInt64(d.product), width: 1)
        out.append(" version 0x")
        out.appendHex(UInt64(d.version), width: 1)
        out.append("\n    name: ")
        out.appendQuoted(d.name)
        out.append("\n    id: [")
        out.append(Int64(d.bus)); out.append(", ")
        out.append(Int64(d.vendor)); out.append(", ")
        out.append(Int64(d.product)); out.append(", ")
        out.append(Int64(d.version)); out.append("]\n    codes:\n")
        var codes = d.codes
        if !d.absinfo.isEmpty {
            codes[EventCodes.EV_ABS] = Array(Set(codes[EventCodes.EV_ABS] ?? []).union(d.absinfo.keys)).sorted()
        }
        if codes[EventCodes.EV_SYN]?.isEmpty ?? true { codes[EventCodes.EV_SYN] = [EventCodes.SYN_REPORT] }
        for type in codes.keys.sorted() {
            guard let list = codes[type], !list.isEmpty else { continue }
            out.append("      ")
            out.append(Int64(type))
            out.append(": [")
            for (i, c) in list.sorted().enumerated() {
                if i > 0 { out.append(", ") }
                out.append(Int64(c))
            }
            out.append("] # ")
            out.append(EventCodes.typeName(type) ?? "type \(type)")
            out.append(UInt8(ascii: "\n"))
        }
        let abs = codes[EventCodes.EV_ABS] ?? []
        if !abs.isEmpty {
            out.append("    absinfo:\n")
            for code in abs {
                // libinput replay builds every EV_ABS code from its absinfo, so each needs one.
                let a = d.absinfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
                out.append("      ")
                out.append(Int64(code))
                out.append(": [")
                out.append(Int64(a.minimum)); out.append(", ")
                out.append(Int64(a.maximum)); out.append(", ")
                out.append(Int64(a.fuzz)); out.append(", ")
                out.append(Int64(a.flat)); out.append(", ")
                out.append(Int64(a.resolution)); out.append("]\n")
            }
        }
        out.append("    properties: [")
        for (i, p) in d.properties.sorted().enumerated() {
            if i > 0 { out.append(", ") }
            out.append(Int64(p))
        }
        out.append("]\n  udev:\n    properties:\n")
        let udev = syntheticUdevProperties(d)
        for key in udev.keys.sorted() {
            out.append("    - ")
            out.append(key)
            out.append(UInt8(ascii: "="))
            out.append(udev[key]!)
            out.append(UInt8(ascii: "\n"))
        }
        out.append("  quirks:\n")
        eventsOpened = false
        lastReport = 0
    }
}

/// Writes an evemu 1.3 recording as `evemu-record` writes one: the commented header
/// (`# Input device ID`, `# Supported events`, each axis's range, `# Properties`), then
/// `N: I: P: B: A:`, then `E:` lines with `%04d` values and evemu's comment (the event's names,
/// or a SYN_REPORT's milliseconds since the last). evemu-play and the evemu reader here accept
/// it; a person comparing it with a real evemu file sees the same layout. evemu describes one
/// device.
public struct EvemuWriter {
    public let device: DeviceDescription
    public private(set) var sink: any ByteSink
    private var out = OutputBuffer()
    private var names = EvemuCommentNames()
    private var firstTime: Int64?
    private var lastReport: Int64 = 0
    private var wroteHeader = false
    private var finished = false

    /// The types evemu writes a `B:` mask for, present or not (libevdev's types with codes,
    /// but EV_PWR and EV_FF_STATUS).
    static let maskTypes: [UInt16] = [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x11, 0x12, 0x14, 0x15]

    public init(device: DeviceDescription, sink: any ByteSink) {
        self.device = device
        self.sink = sink
    }

    public mutating func write(_ event: InputEvent) throws {
        precondition(!finished, "write after finish")
        if !wroteHeader { writeHeader() }
        let first = firstTime ?? event.time.microseconds
        firstTime = first
        let t = max(0, event.time.microseconds &- first)
        out.append("E: ")
        out.append(t / 1_000_000)
        out.append(UInt8(ascii: "."))
        out.append(t % 1_000_000, width: 6, zeros: true)
        out.append(UInt8(ascii: " "))
        out.appendHex(UInt64(event.type), width: 4)
        out.append(UInt8(ascii: " "))
        out.appendHex(UInt64(event.code), width: 4)
        out.append(UInt8(ascii: " "))
        // evemu prints values with "%04d": -1 is "-001".
        out.append(Int64(event.value), width: 4, zeros: true)
        out.append("\t# ")
        if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_REPORT {
            out.append("------------ SYN_REPORT (")
            out.append(Int64(event.value))
            out.append(") ---------- +")
            // evemu subtracts whole milliseconds: 0.316645 after 0.233856 is +83ms.
            out.append(t / 1000 &- lastReport / 1000)
            out.append("ms\n")
            lastReport = t
        } else if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_MT_REPORT {
            out.append("++++++++++++ SYN_MT_REPORT (")
            out.append(Int64(event.value))
            out.append(") ++++++++++\n")
        } else {
            out.bytes.append(contentsOf: names.name(type: event.type, code: event.code))
            out.append(Int64(event.value))
            out.append(UInt8(ascii: "\n"))
        }
        try out.flush(to: &sink)
    }

    public mutating func finish() throws {
        guard !finished else { return }
        if !wroteHeader { writeHeader() }
        finished = true
        try out.flush(to: &sink, force: true)
    }

    /// "%#04x", as evemu prints the ids: 0 is "0000", 0x18 "0x18", 0x56a "0x56a".
    private mutating func appendAlternateHex(_ v: UInt16) {
        if v == 0 { return out.append("0000") }
        out.append("0x")
        out.appendHex(UInt64(v), width: 2)
    }

    private mutating func writeHeader() {
        wroteHeader = true
        let d = device
        var codes = d.codes
        if !d.absinfo.isEmpty {
            codes[EventCodes.EV_ABS] = Array(Set(codes[EventCodes.EV_ABS] ?? []).union(d.absinfo.keys)).sorted()
        }
        out.append("# EVEMU 1.3\n# Written by Touchline from a trace (evemu-record adds the kernel and DMI of a live system)\n# Input device name: ")
        out.appendQuoted(d.name)
        out.append("\n# Input device ID: bus ")
        appendAlternateHex(d.bus)
        out.append(" vendor ")
        appendAlternateHex(d.vendor)
        out.append(" product ")
        appendAlternateHex(d.product)
        out.append(" version ")
        appendAlternateHex(d.version)
        out.append("\n# Supported events:\n")
        for type in codes.keys.sorted() {
            guard let list = codes[type], !list.isEmpty else { continue }
            out.append("#   Event type ")
            out.append(Int64(type))
            out.append(" (")
            out.append(EventCodes.typeName(type) ?? "(null)")
            out.append(")\n")
            for code in Set(list).sorted() {
                out.append("#     Event code ")
                out.append(Int64(code))
                out.append(" (")
                out.append(EventCodes.codeName(type: type, code: code) ?? "(null)")
                out.append(")\n")
                guard type == EventCodes.EV_ABS, let a = d.absinfo[code] else { continue }
                // evemu's columns: the numbers end at column 20.
                out.append("#       Value ")
                out.append(Int64(a.value), width: 6)
                out.append("\n#       Min ")
                out.append(Int64(a.minimum), width: 8)
                out.append("\n#       Max ")
                out.append(Int64(a.maximum), width: 8)
                out.append("\n#       Fuzz ")
                out.append(Int64(a.fuzz), width: 7)
                out.append("\n#       Flat ")
                out.append(Int64(a.flat), width: 7)
                out.append("\n#       Resolution ")
                out.append(Int64(a.resolution))
                out.append(UInt8(ascii: "\n"))
            }
        }
        out.append("# Properties:\n")
        for property in Set(d.properties).sorted() {
            out.append("#   Property  type ")
            out.append(Int64(property))
            out.append(" (")
            out.append(EventCodes.propertyName(property) ?? "(null)")
            out.append(")\n")
        }
        out.append("N: ")
        // evemu's format has no quoting: the name ends at the newline, and a newline in it would
        // start a line of its own (`E:` events injected). Its control characters are escaped, as
        // in the libinput writer's `# Name:` comment (issue 24, item 11).
        out.append(d.name.escapingControlCharacters)
        out.append("\nI: ")
        for (i, v) in [d.bus, d.vendor, d.product, d.version].enumerated() {
            if i > 0 { out.append(UInt8(ascii: " ")) }
            out.appendHex(UInt64(v), width: 4)
        }
        out.append(UInt8(ascii: "\n"))
        writeMask(prefix: nil, bits: d.properties.filter { $0 < 64 }, bytes: 8)
        for type in Self.maskTypes {
            guard let maxCode = EventCodes.maxCode(type: type) else { continue }
            // evemu writes a type's whole mask, eight bytes a line.
            let bytes = ((Int(maxCode) + 1 + 63) / 64) * 8
            writeMask(prefix: type, bits: (codes[type] ?? []).filter { $0 <= maxCode }, bytes: bytes)
        }
        for code in d.absinfo.keys.sorted() {
            let a = d.absinfo[code]!
            out.append("A: ")
            out.appendHex(UInt64(code), width: 2)
            for v in [a.minimum, a.maximum, a.fuzz, a.flat, a.resolution] {
                out.append(UInt8(ascii: " "))
                out.append(Int64(v))
            }
            out.append(UInt8(ascii: "\n"))
        }
        out.append("################################\n#      Waiting for events      #\n################################\n")
    }

    /// `P:` (prefix nil) or `B: TT` lines of a bitmask, eight bytes a line.
    private mutating func writeMask(prefix: UInt16?, bits: [UInt16], bytes: Int) {
        var mask = [UInt8](repeating: 0, count: bytes)
        for b in bits where Int(b) / 8 < bytes { mask[Int(b) / 8] |= 1 << (b % 8) }
        var i = 0
        while i < bytes {
            if let prefix {
                out.append("B: ")
                out.appendHex(UInt64(prefix), width: 2)
            } else {
                out.append("P:")
            }
            for k in i..<min(i + 8, bytes) {
                out.append(UInt8(ascii: " "))
                out.appendHex(UInt64(mask[k]), width: 2)
            }
            out.append(UInt8(ascii: "\n"))
            i += 8
        }
    }
}
