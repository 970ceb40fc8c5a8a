import TouchlineCore

/// How to read a trace whose content does not say everything.
public struct TraceReaderOptions: Sendable {
    /// The device of a header-less evemu `.events` file (read its `.desc` with
    /// `TraceReader.readDescription`). A file with its own header ignores this.
    public var description: DeviceDescription?
    /// Name, axis ranges and look-ahead for getevent traces, which carry no ranges unless they
    /// begin with a `getevent -lp` header.
    public var getevent: GeteventOptions
    /// The longest line accepted; a longer one (a binary file, say) is an error.
    public var maxLineLength: Int
    /// The format to read, instead of detecting it from the first line (`--format`).
    public var format: TraceFormat?
    /// How `TraceReader.open` orders the events of a libinput record file with several
    /// devices: by time, as if recorded live together (replay), or device by device, as the
    /// format stores them (convert).
    public var deviceOrder: DeviceOrder = .time
    /// The most devices a libinput record file may list (each device with events is read
    /// through its own buffer of `maxLineLength` + 64 KiB).
    public var maxDevices = TraceReaderOptions.maxDevicesLimit
    /// The most events `TraceReader.open` holds in memory for a libinput record file with
    /// several devices that cannot be read again (a pipe): the events of every device but the
    /// last, 16 bytes each (4 Mi events: 64 MiB).
    public var maxBufferedEvents = 4 << 20

    public static let maxDevicesLimit = 128

    public enum DeviceOrder: Sendable {
        case time, device
    }

    public init(
        description: DeviceDescription? = nil,
        getevent: GeteventOptions = GeteventOptions(), maxLineLength: Int = 64 * 1024, format: TraceFormat? = nil
    ) {
        self.format = format
        self.description = description
        self.getevent = getevent
        self.maxLineLength = maxLineLength
    }
}

/// Reads a trace one event at a time, with memory bounded by the longest line. The format is
/// detected from the content; the header is read by `init`, so `devices` is known before the
/// first event (for libinput record files with several devices, each later device is added
/// when its header is reached, which is before any of its events).
///
///     var reader = try TraceReader(source: BytesSource(bytes), fileName: "t.yml")
///     while let e = try reader.next() { ... }
///
/// A bad line throws a `TraceError` naming the file and line; every event before it has been
/// returned, and calling `next()` again after an error returns nil.
public struct TraceReader {
    public let format: TraceFormat
    public internal(set) var devices: [DeviceDescription]
    /// Events returned so far.
    public private(set) var eventCount = 0
    public var fileName: String { scanner.fileName }
    /// The line of the last event returned (or of the error thrown).
    public var lineNumber: Int { merge?.lineNumber ?? scanner.lineNumber }

    var scanner: LineScanner
    var pending: TraceEvent?
    /// After an error, or past the end of the one device section this reader reads.
    var done = false
    // getevent
    private var getevent: GeteventDecoder
    /// The getevent decoder has not yet seen the line that detection read.
    private var geteventLineReady = true
    // libinput record
    var header = LibinputHeaderParser()
    var eventsKeyIndent = -1
    var eventsItemIndent = -1
    var inEvdevItem = false
    /// A reader of one device's section (TraceReader+Devices) ends where the next device starts.
    var deviceLimit = Int.max
    /// The devices' sections read together (TraceReader+Devices).
    var merge: DeviceMerge?
    let limits: TraceReaderOptions

    public init(source: some ByteSource, fileName: String, options: TraceReaderOptions = TraceReaderOptions()) throws(TraceError) {
        scanner = LineScanner(source: source, fileName: fileName, maxLineLength: options.maxLineLength)
        getevent = GeteventDecoder(options: options.getevent, fileName: fileName)
        limits = options
        devices = []
        // Detection: the first line that is neither blank nor a '#' comment decides.
        var detected: TraceFormat?
        while try scanner.nextLine() {
            let kind: Int = scanner.withLine { l in
                var i = 0
                while i < l.count && l[i].isSpaceOrTab { i += 1 }
                if i == l.count || l[i] == UInt8(ascii: "#") { return 0 }
                for k in l.indices where (l[k] < 0x20 && l[k] != 0x09) || l[k] == 0x7F { return -1 }
                if evemuKind(l) != nil { return 1 }
                if looksLikeGetevent(l) { return 2 }
                if looksLikeLibinputRecord(l) { return 3 }
                return -2
            }
            if kind == 0 { continue }
            if let forced = options.format {
                detected = forced
                break
            }
            switch kind {
            case 1: detected = .evemu
            case 2: detected = .getevent
            case 3: detected = .libinputRecord
            case -1: throw scanner.error("binary data: expected a text trace (evemu, libinput record YAML or getevent -lt)")
            default:
                let line = scanner.withLine { quoted($0) }
                throw scanner.error("not a trace Touchline can read: expected an evemu line ('N:', 'E:', ...), a libinput record line ('version: 1') or a getevent -lt line ('[ sec.usec] EV_ABS ...'), found \(line)")
            }
            break
        }
        guard let detected else {
            if !scanner.sawBytes { throw scanner.error("empty file: expected an evemu, libinput record or getevent -lt trace", line: 1) }
            throw scanner.error("no trace: only blank and comment lines; expected an evemu, libinput record or getevent -lt trace")
        }
        format = detected
        switch detected {
        case .evemu: try startEvemu(options)
        case .getevent: try startGetevent(options)
        case .libinputRecord: try startLibinputRecord()
        }
    }

    /// The next event, or nil at the end of the trace.
    public mutating func next() throws(TraceError) -> TraceEvent? {
        if let event = pending {
            pending = nil
            eventCount += 1
            return event
        }
        if done { return nil }
        do {
            let event: TraceEvent?
            switch format {
            case .evemu: event = try nextEvemu()
            case .getevent: event = try nextGetevent()
            case .libinputRecord: event = merge == nil ? try nextLibinputRecord() : try nextMerged()
            }
            if event != nil { eventCount += 1 }
            return event
        } catch {
            done = true
            throw error
        }
    }

    private func noEvents(_ expected: String) -> TraceError {
        scanner.error("no events: \(expected)")
    }

    // MARK: evemu

    private mutating func startEvemu(_ options: TraceReaderOptions) throws(TraceError) {
        var builder = EvemuHeaderBuilder()
        // The detecting line is the current one: process it, then continue to the first event.
        repeat {
            let event: InputEvent? = try lineOrError { l throws(LineError) -> InputEvent? in
                if isBlankOrComment(l) { return nil }
                guard let kind = evemuKind(l) else { throw LineError(unknownEvemuLine(l)) }
                if kind == UInt8(ascii: "E") { return try parseEvemuEvent(l) }
                try builder.apply(l)
                return nil
            }
            if let event {
                if builder.sawHeader {
                    devices = [builder.description]
                } else if let description = options.description {
                    devices = [description]
                } else {
                    var error = scanner.error("event lines without a device description: this is a header-less evemu .events file; give its .desc file (--desc FILE, or NAME.desc beside it)")
                    error.needsDescription = true
                    throw error
                }
                pending = TraceEvent(device: 0, event: event)
                return
            }
        } while try scanner.nextLine()
        throw noEvents("the file ends after its header; expected 'E: sec.usec type code value' event lines")
    }

    @inline(__always)
    private mutating func nextEvemu() throws(TraceError) -> TraceEvent? {
        while try scanner.nextLine() {
            let event: InputEvent? = try lineOrError { l throws(LineError) -> InputEvent? in
                if l.count >= 2 && l[0] == UInt8(ascii: "E") && l[1] == UInt8(ascii: ":") { return try parseEvemuEvent(l) }
                if isBlankOrComment(l) { return nil }
                if evemuKind(l) != nil {
                    throw LineError("expected an event line 'E: sec.usec type code value', found a header line after the events")
                }
                throw LineError(unknownEvemuLine(l))
            }
            if let event { return TraceEvent(device: 0, event: event) }
        }
        return nil
    }

    // MARK: getevent

    private mutating func startGetevent(_ options: TraceReaderOptions) throws(TraceError) {
        guard let event = try getevent.next(&scanner, &devices, lineReady: &geteventLineReady) else {
            throw noEvents("expected event lines such as '[   12.345678] EV_ABS       ABS_MT_POSITION_X    0000002b'")
        }
        pending = event
    }

    @inline(__always)
    private mutating func nextGetevent() throws(TraceError) -> TraceEvent? {
        try getevent.next(&scanner, &devices, lineReady: &geteventLineReady)
    }

    /// Warnings about the trace that are not errors (so far: getevent ranges that were assumed,
    /// and values beyond them), each a sentence starting with the file name. Returns them once.
    public mutating func takeWarnings() -> [String] {
        guard !getevent.warnings.isEmpty else { return [] }
        defer { getevent.warnings.removeAll() }
        return getevent.warnings
    }

    /// Where the range of ABS axis `code` of `device` came from (`touchline inspect` says it):
    /// for evemu and libinput record always the trace's description; for getevent the
    /// `getevent -lp` header, `--range` or a guess (docs/traces.md, "Axis ranges"). Nil when
    /// the device has no such axis.
    public func rangeSource(device: Int, code: UInt16) -> AxisRangeSource? {
        if format == .getevent { return getevent.rangeSource(device: device, code: code, devices) }
        guard device < devices.count, devices[device].absinfo[code] != nil else { return nil }
        return .header
    }

    /// Whether `takeWarnings()` has something (cheap enough to ask after every event).
    public var hasWarnings: Bool { !getevent.warnings.isEmpty }

    // MARK: libinput record

    private mutating func startLibinputRecord() throws(TraceError) {
        repeat {
            if let event = try libinputLine() {
                pending = event
                return
            }
        } while try scanner.nextLine()
        if !header.sawVersion && header.devices.isEmpty {
            throw scanner.error("not a libinput record file: expected 'version: 1' and a 'devices:' list")
        }
        // `events: []`: said to be empty, so a recording of nothing (a bare `events:` at the end
        // of the file is one cut short).
        if header.sawEmptyEventList && !header.devices.isEmpty {
            done = true
            return
        }
        throw noEvents("expected an 'events:' list of '- evdev:' blocks with rows '- [sec, usec, type, code, value]'")
    }

    private mutating func nextLibinputRecord() throws(TraceError) -> TraceEvent? {
        while try scanner.nextLine() {
            // Nearly every line of a recording is an event row of an evdev block: try that
            // first, without the general line walk. A line the fast path does not take goes
            // through `libinputLine`, which accepts it or says what is wrong with it.
            if inEvdevItem {
                let itemIndent = eventsItemIndent
                if let event = scanner.withLine({ fastEvdevRow($0, deeperThan: itemIndent) }) {
                    return TraceEvent(device: header.devices.count - 1, event: event)
                }
                // The next frame's `- evdev:` at the item's indent: the general walk would make
                // it the current item again (`.newItem(isEvdev: true)` at the same indent).
                if scanner.withLine({ isBareEvdevItem($0, at: itemIndent) }) { continue }
            }
            if let event = try libinputLine() { return event }
            if done { return nil }
        }
        return nil
    }

    /// One line of a libinput record file: an event row (returned), or header and structure.
    @inline(__always)
    mutating func libinputLine() throws(TraceError) -> TraceEvent? {
        if eventsKeyIndent >= 0 {
            // Inside an events list: rows first, the hot path.
            let itemIndent = eventsItemIndent, inEvdev = inEvdevItem
            enum Step { case skip, event(InputEvent), newItem(isEvdev: Bool, indent: Int), leave }
            let keyIndent = eventsKeyIndent
            let step: Step = try lineOrError { l throws(LineError) -> Step in
                var i = 0
                while i < l.count && l[i] == 0x20 { i += 1 }
                if i == l.count || l[i] == UInt8(ascii: "#") { return .skip }
                let isDash = l[i] == UInt8(ascii: "-") && (i + 1 == l.count || l[i + 1] == 0x20)
                if itemIndent >= 0 && i > itemIndent {
                    if isDash && inEvdev { return .event(try parseLibinputRow(l, dash: i)) }
                    if inEvdev { throw LineError("expected an event row '- [sec, usec, type, code, value]' in the evdev block, found \(quoted(l))") }
                    return .skip
                }
                if isDash && i >= keyIndent && (itemIndent < 0 || i == itemIndent) {
                    guard let y = YAMLLine.split(l), let key = y.key else { return .newItem(isEvdev: false, indent: i) }
                    let isEvdev = key.count == 5 && text(of: l.extracting(key)) == "evdev"
                    if isEvdev && !y.value.isEmpty {
                        throw LineError("expected '- evdev:' followed by event rows on the next lines, found a value after 'evdev:'")
                    }
                    return .newItem(isEvdev: isEvdev, indent: i)
                }
                return .leave
            }
            switch step {
            case .skip:
                return nil
            case .event(let e):
                return TraceEvent(device: header.devices.count - 1, event: e)
            case .newItem(let isEvdev, let indent):
                eventsItemIndent = indent
                inEvdevItem = isEvdev
                return nil
            case .leave:
                eventsKeyIndent = -1
                eventsItemIndent = -1
                inEvdevItem = false
                header.leaveEvents()
            }
        }
        var parser = header
        let result: LibinputHeaderParser.Outcome? = try lineOrError { l throws(LineError) -> LibinputHeaderParser.Outcome? in
            guard let y = YAMLLine.split(l) else { return nil }
            return try parser.apply(l, y)
        }
        header = parser
        if header.devices.count > devices.count {
            if header.devices.count > deviceLimit {
                // The next device's section: this reader's own has ended.
                done = true
                return nil
            }
            if header.devices.count > limits.maxDevices {
                throw scanner.error("device \(header.devices.count) starts here: Touchline reads at most \(limits.maxDevices) devices from one file")
            }
            if let declared = header.declaredDevices, header.devices.count > declared {
                throw scanner.error("device \(header.devices.count) starts here, but the header's 'ndevices: \(declared)' says the file has \(declared)")
            }
        }
        devices = header.devices
        if case .eventsKey(let indent)? = result {
            eventsKeyIndent = indent
            eventsItemIndent = -1
            inEvdevItem = false
        }
        return nil
    }

    // MARK: helpers

    /// Runs a line parser on the current line, turning its error into "FILE:LINE: message".
    @inline(__always)
    func lineOrError<R>(_ body: (Span<UInt8>) throws(LineError) -> R) throws(TraceError) -> R {
        do {
            return try scanner.withLine(body)
        } catch {
            throw scanner.error(error.message)
        }
    }
}

@inline(__always) func isBlankOrComment(_ l: Span<UInt8>) -> Bool {
    var i = 0
    while i < l.count && l[i].isSpaceOrTab { i += 1 }
    return i == l.count || l[i] == UInt8(ascii: "#")
}

func unknownEvemuLine(_ l: Span<UInt8>) -> String {
    "expected an evemu line ('N:', 'I:', 'P:', 'B:', 'A:', 'E:' or a '#' comment), found \(quoted(l))"
}
