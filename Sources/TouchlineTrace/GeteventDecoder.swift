import TouchlineCore

/// The getevent part of `TraceReader`: one pass over the lines, devices numbered by path, and
/// for a device without a `getevent -lp` block a bounded look-ahead that decides its ranges
/// (docs/traces.md, "Axis ranges").
///
/// A device is *pending* from its first line (`add device` or an event) until it is described
/// and appended to the reader's `devices`, which happens before its first event is returned.
/// When a pending device needs its ranges inferred, the reader buffers every event (of every
/// device, to keep their order) until `lookAhead` events are buffered, the input ends or a line
/// is bad; then it describes the pending devices and returns the buffered events. A bad line
/// found while looking ahead is thrown after the events before it.
struct GeteventDecoder {
    private let options: GeteventOptions
    private let fileName: String
    private var names = GeteventNames()
    private var paths = DevicePathTable()
    /// Whether device 0 exists without a path (events printed before any path was seen).
    private var pathlessDevice = false
    /// Devices numbered but not yet described: index `describedCount + k` is `pending[k]`.
    private var pending: [GeteventDeviceFacts] = []
    /// The device whose `add device` block the header lines belong to.
    private var headerDevice: Int?
    private var header = GeteventHeaderReader()
    /// The path of the last event line, to skip the hash lookup on a run of the same device.
    private var lastPathIndex = -1
    /// Per device, whether it has sent an event, and how many have: each device that sends
    /// costs its consumer an assembler and a graph (about 18 KB), so their number is bounded
    /// by what a machine can have. Devices that are only listed (`add device`) cost a path.
    private var sent: [Bool] = []
    private var sendingCount = 0
    /// The kernel numbers at most 1,024 input devices (INPUT_MAX_CHAR_DEVICES in
    /// drivers/input/input.c), so no real trace has more that send events.
    static let maxSendingDevices = 1024
    /// Every device a trace names costs its path, its description and its summary for the whole
    /// trace (about 1 KB with the consumers' share), so the paths are bounded too: 64 times what
    /// a machine can have, far past any real listing (a phone lists 20 or so), and at most
    /// about 70 MB (a 100 MB file of distinct `add device` lines would otherwise be 3 M devices).
    static let maxDevicePaths = 65_536

    private var buffer: [TraceEvent] = []
    private var bufferLines: [Int] = []
    private var head = 0
    private var deferredError: TraceError?
    private var finished = false

    /// Per ABS code (0...63) the range assumed for the device `rangeDevice` ([Int32.min,
    /// Int32.max] where nothing was assumed), and per device the codes assumed.
    private var assumedCodes: [UInt64] = []
    /// Per device, the assumed codes whose edge the look-ahead's touches showed (the rest of
    /// `assumedCodes` are powers of two).
    private var edgeCodes: [UInt64] = []
    private var rangeDevice = -1
    private var rangeMinimum = [Int32](repeating: .min, count: 64)
    private var rangeMaximum = [Int32](repeating: .max, count: 64)
    /// ABS codes already warned about (one warning per axis per trace).
    private var warnedCodes: UInt64 = 0
    private var warnedAssumption = false
    /// Warnings for the user, taken by `TraceReader.takeWarnings()`.
    var warnings: [String] = []

    init(options: GeteventOptions, fileName: String) {
        self.options = options
        self.fileName = fileName
        buffer.reserveCapacity(options.lookAhead)
        bufferLines.reserveCapacity(options.lookAhead)
    }

    /// The next event; `lineReady` says the scanner already holds an unread line (the one
    /// format detection looked at).
    mutating func next(_ scanner: inout LineScanner, _ devices: inout [DeviceDescription], lineReady: inout Bool) throws(TraceError) -> TraceEvent? {
        while true {
            if head < buffer.count {
                let event = buffer[head]
                checkRange(event, line: bufferLines[head], devices)
                head += 1
                if head == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    bufferLines.removeAll(keepingCapacity: true)
                    head = 0
                }
                return event
            }
            if let error = deferredError {
                deferredError = nil
                finished = true
                throw error
            }
            if finished { return nil }
            guard let event = try readEvent(&scanner, lineReady: &lineReady) else {
                finished = true
                describePending(&devices)
                return nil
            }
            if event.device < devices.count {
                checkRange(event, line: scanner.lineNumber, devices)
                return event
            }
            // The event's device is pending: describe it now if nothing needs inferring,
            // otherwise look ahead first.
            if pending.allSatisfy(\.hasHeaderEvents) {
                describePending(&devices)
                checkRange(event, line: scanner.lineNumber, devices)
                return event
            }
            buffer.append(event)
            bufferLines.append(scanner.lineNumber)
            do {
                while buffer.count < options.lookAhead, let e = try readEvent(&scanner, lineReady: &lineReady) {
                    buffer.append(e)
                    bufferLines.append(scanner.lineNumber)
                }
            } catch {
                deferredError = error
            }
            describePending(&devices)
        }
    }

    /// Reads lines up to the next event (header lines update the pending devices); nil at the end.
    private mutating func readEvent(_ scanner: inout LineScanner, lineReady: inout Bool) throws(TraceError) -> TraceEvent? {
        while true {
            if lineReady {
                lineReady = false
            } else if try !scanner.nextLine() {
                return nil
            }
            if let event = try line(&scanner) { return event }
        }
    }

    private mutating func line(_ scanner: inout LineScanner) throws(TraceError) -> TraceEvent? {
        var names = self.names
        defer { self.names = names }
        // Resolves a path where the line holds it, so that looking it up allocates nothing.
        enum Parsed { case none, event(InputEvent, device: Int), addDevice(Int), detail }
        let parsed: Parsed
        do {
            parsed = try scanner.withLine { (l) throws(LineError) -> Parsed in
                switch try parseGeteventLine(l, names: &names) {
                case .blank, .info:
                    return .none
                case .detail:
                    return .detail
                case .addDevice(let range):
                    return .addDevice(try deviceIndex(l.extracting(range)))
                case .event(let row):
                    guard let range = row.path else {
                        if paths.count == 0 && !pathlessDevice {
                            pathlessDevice = true
                            pending.append(GeteventDeviceFacts())
                        }
                        return .event(row.event, device: 0)
                    }
                    return .event(row.event, device: try deviceIndex(l.extracting(range)))
                }
            }
        } catch {
            throw scanner.error(error.message, column: error.column)
        }
        switch parsed {
        case .none:
            return nil
        case .detail:
            guard let device = headerDevice, let k = pendingIndex(device) else { return nil }
            do {
                try scanner.withLine { (l) throws(LineError) in try header.apply(l, to: &pending[k]) }
            } catch {
                throw scanner.error(error.message)
            }
            if !header.dropped.isEmpty {
                for warning in header.dropped { warnings.append("\(fileName):\(scanner.lineNumber): \(warning)") }
                header.dropped.removeAll()
            }
            return nil
        case .addDevice(let device):
            // A block for a device already described (added again after a removal) changes
            // nothing: its events are already being read with its description.
            headerDevice = device
            header.reset()
            return nil
        case .event(let event, let device):
            if device >= sent.count || !sent[device] { try firstEvent(of: device, scanner) }
            if let k = pendingIndex(device), !pending[k].hasHeaderEvents { pending[k].observe(event) }
            return TraceEvent(device: device, event: event)
        }
    }

    private mutating func firstEvent(of device: Int, _ scanner: LineScanner) throws(TraceError) {
        if device >= sent.count { sent += repeatElement(false, count: device + 1 - sent.count) }
        sent[device] = true
        sendingCount += 1
        guard sendingCount <= GeteventDecoder.maxSendingDevices else {
            let path = device < paths.count ? paths.path(device) : "(no path)"
            throw scanner.error("a \(sendingCount)th device sends events (\(path)): expected at most \(GeteventDecoder.maxSendingDevices), the most input devices the kernel numbers; is this one trace?")
        }
    }

    private var describedCount: Int { deviceCount - pending.count }
    private var deviceCount: Int { max(paths.count, pathlessDevice ? 1 : 0) }

    private func pendingIndex(_ device: Int) -> Int? {
        let k = device - describedCount
        return k >= 0 && k < pending.count ? k : nil
    }

    /// The index of a device path, numbering a new one.
    @inline(__always)
    private mutating func deviceIndex(_ path: Span<UInt8>) throws(LineError) -> Int {
        if lastPathIndex >= 0 && paths.equals(lastPathIndex, path) { return lastPathIndex }
        if let i = paths.find(path) {
            lastPathIndex = i
            return i
        }
        guard paths.count < GeteventDecoder.maxDevicePaths else {
            throw LineError("a \(paths.count + 1)th device path \(quoted(path)): expected at most \(GeteventDecoder.maxDevicePaths) devices named in one trace; is this one trace?")
        }
        let i = paths.insert(path)
        lastPathIndex = i
        // Events printed without a path before the first path belong to the device that path
        // names (getevent prints paths only once it watches several devices).
        if i == 0 && pathlessDevice {
            if let k = pendingIndex(0) { pending[k].path = paths.path(0) }
            return 0
        }
        var facts = GeteventDeviceFacts()
        facts.path = paths.path(i)
        pending.append(facts)
        return i
    }

    /// Describes every pending device, in order, and warns once about guessed ranges. The
    /// look-ahead (`buffer`) holds every event of the pending devices read so far.
    private mutating func describePending(_ devices: inout [DeviceDescription]) {
        for facts in pending {
            let index = devices.count
            var (description, assumed) = facts.description(options: options)
            let edges = assumed.isEmpty ? [] : facts.guessEdges(
                &description, assumed: assumed, events: buffer.lazy.filter { $0.device == index }.map(\.event))
            var mask: UInt64 = 0, edgeMask: UInt64 = 0
            for code in assumed where code < 64 { mask |= 1 << code }
            for code in edges where code < 64 { edgeMask |= 1 << code }
            assumedCodes.append(mask)
            edgeCodes.append(edgeMask)
            if !assumed.isEmpty && !warnedAssumption {
                warnedAssumption = true
                warnings.append(guessWarning(description, assumed: assumed, edges: edges))
            }
            devices.append(description)
        }
        pending.removeAll(keepingCapacity: true)
        headerDevice = headerDevice.flatMap { $0 < devices.count ? nil : $0 }
        rangeDevice = -1
    }

    /// The one warning about guessed ranges: each axis with its range and the rule that gave it,
    /// the position axes first (the screen's edges depend on them), and `--range`.
    private func guessWarning(_ description: DeviceDescription, assumed: [UInt16], edges: [UInt16]) -> String {
        let positions: Set<UInt16> = [EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_X, EventCodes.ABS_Y]
        let ordered = assumed.filter { positions.contains($0) } + assumed.filter { !positions.contains($0) }
        let ranges = ordered.prefix(6).map { code in
            let info = description.absinfo[code]!
            let rule = edges.contains(code) ? "touches reach its edge"
                : positions.contains(code) ? "no touch showed its edge: the next power of two" : "the next power of two"
            return "\(EventCodes.codeName(type: EventCodes.EV_ABS, code: code) ?? hex4(code)) \(info.minimum)..\(info.maximum) (\(rule))"
        }.joined(separator: ", ") + (assumed.count > 6 ? ", …" : "")
        return "\(fileName): no 'getevent -lp' header gives the axis ranges of \(description.name); guessed from the first \(options.lookAhead) events: \(ranges); pass --range AXIS=MIN:MAX to give the real ones (docs/traces.md, \"Axis ranges\")"
    }

    /// Where the range of `code` of `device` came from; nil when the device has no such axis
    /// or is not described yet.
    func rangeSource(device: Int, code: UInt16, _ devices: [DeviceDescription]) -> AxisRangeSource? {
        guard device < devices.count, devices[device].absinfo[code] != nil else { return nil }
        if options.ranges[code] != nil { return .range }
        guard code < 64, device < assumedCodes.count, assumedCodes[device] & (1 << UInt64(code)) != 0 else { return .header }
        return edgeCodes[device] & (1 << UInt64(code)) != 0 ? .edges : .powerOfTwo
    }

    /// Warns (once per axis) about a value beyond a range that was assumed. The value passes
    /// unchanged: the frame assembler clamps positions to the range, as for any device.
    @inline(__always)
    private mutating func checkRange(_ e: TraceEvent, line: Int, _ devices: [DeviceDescription]) {
        guard e.event.type == EventCodes.EV_ABS, e.event.code < 64 else { return }
        if e.device != rangeDevice { loadRanges(e.device, devices) }
        let code = Int(e.event.code)
        let v = e.event.value
        guard v < rangeMinimum[code] || v > rangeMaximum[code] else { return }
        if e.event.code == EventCodes.ABS_MT_TRACKING_ID || warnedCodes & (1 << code) != 0 { return }
        warnedCodes |= 1 << code
        let name = EventCodes.codeName(type: EventCodes.EV_ABS, code: e.event.code) ?? hex4(e.event.code)
        warnings.append("\(fileName):\(line): \(name) \(v) is beyond the assumed range \(rangeMinimum[code])..\(rangeMaximum[code]); the frame assembler clamps it to the edge; pass --range \(name)=MIN:MAX to give the real range")
    }

    private mutating func loadRanges(_ device: Int, _ devices: [DeviceDescription]) {
        rangeDevice = device
        for code in 0..<64 {
            rangeMinimum[code] = .min
            rangeMaximum[code] = .max
        }
        // Devices are described (and their masks appended) before their first event.
        guard device < assumedCodes.count else { return }
        let mask = assumedCodes[device]
        guard mask != 0 else { return }
        for code in 0..<64 where mask & (1 << UInt64(code)) != 0 {
            guard let info = devices[device].absinfo[UInt16(code)] else { continue }
            rangeMinimum[code] = info.minimum
            rangeMaximum[code] = info.maximum
        }
    }
}
