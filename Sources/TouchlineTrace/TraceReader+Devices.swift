import TouchlineCore

// A libinput record file with several devices (`libinput record --all`) stores each device's
// events after that device's header, one section after the other, although they were
// recorded together. `TraceReader.open` reads such a file so that every device is known
// before the first event and the events come in time order, as if live:
//
// - A file that can be read again (a regular file): one walk over the whole file parses the
//   headers and skips event rows unread, noting where each device's section starts (byte
//   offset and line); each device with events then gets its own reader over the same file,
//   opened again and seeked there. Memory: one line buffer per device with events, and at
//   most `maxDevices` devices; time: one extra read of the file, without parsing rows.
// - A stream that cannot (a pipe, standard input): the events of every device but the last
//   are held in memory, at most `maxBufferedEvents` (a clear error past it); the last
//   device streams. Without `ndevices:` in the header the last device is not known before
//   the end, so every device is held.
// - `ndevices: 1`, what libinput record writes for one device: the file streams as it is,
//   with no walk; a second device is then an error.
//
// A bad event row ends its device's events; the merged stream throws that error when it needs
// that device's next event, so every event before it in time order has been returned (the
// same whether the file was read in place or held).

/// The readers of one file's device sections, merged.
struct DeviceMerge {
    struct Lane {
        var device: Int
        /// The device's section read in place...
        var reader: TraceReader?
        /// ...or its events held in memory, and the error that ended them.
        var held: [InputEvent] = []
        var heldError: TraceError?
    }

    // Per lane, in device order. Kept in separate arrays so that the per-event pick reads the
    // heads without copying a reader (a reader read out of an array is a copy of the whole
    // struct: it showed as a third of the time).
    private var devices: [Int]
    private var heads: [InputEvent?]
    /// The lane's index in `readers`, or -1 for a held lane.
    private var readerIndex: [Int]
    private var readers: [TraceReader]
    private var held: [[InputEvent]]
    private var nextHeld: [Int]
    private var heldErrors: [TraceError?]
    private let order: TraceReaderOptions.DeviceOrder
    /// The lane whose head was returned last, to be read on before the next pick (-2: all of
    /// them, before the first).
    private var refill = -2
    private var last = -1

    /// The line of the last event returned (for a held event, its device's last line read).
    var lineNumber: Int {
        guard last >= 0, readerIndex[last] >= 0 else { return heldLine }
        return readers[readerIndex[last]].scanner.lineNumber
    }
    /// Where holding ended.
    var heldLine = 0

    init(lanes: [Lane], order: TraceReaderOptions.DeviceOrder) {
        self.order = order
        devices = lanes.map(\.device)
        heads = Array(repeating: nil, count: lanes.count)
        readers = lanes.compactMap(\.reader)
        var n = 0
        readerIndex = lanes.map { lane in
            guard lane.reader != nil else { return -1 }
            n += 1
            return n - 1
        }
        held = lanes.map(\.held)
        nextHeld = Array(repeating: 0, count: lanes.count)
        heldErrors = lanes.map(\.heldError)
    }

    private mutating func fill(_ i: Int) throws(TraceError) {
        let r = readerIndex[i]
        if r >= 0 {
            heads[i] = try readers[r].next()?.event
        } else if nextHeld[i] < held[i].count {
            heads[i] = held[i][nextHeld[i]]
            nextHeld[i] += 1
        } else {
            heads[i] = nil
            held[i] = []
            if let error = heldErrors[i] {
                heldErrors[i] = nil
                throw error
            }
        }
    }

    mutating func next() throws(TraceError) -> TraceEvent? {
        if refill >= 0 {
            let i = refill
            refill = -1
            try fill(i)
        } else if refill == -2 {
            refill = -1
            for i in heads.indices { try fill(i) }
        }
        var best = -1
        var bestTime = Timestamp.zero
        switch order {
        case .time:
            // Ties go to the earlier device (lanes are in device order): the same output every run.
            for i in heads.indices {
                guard let head = heads[i] else { continue }
                if best < 0 || head.time < bestTime { best = i; bestTime = head.time }
            }
        case .device:
            best = heads.firstIndex { $0 != nil } ?? -1
        }
        guard best >= 0, let event = heads[best] else { return nil }
        refill = best
        last = best
        return TraceEvent(device: devices[best], event: event)
    }
}

extension TraceReader {
    /// Makes a libinput record reader, just opened, give the events of all its devices (see
    /// the top of this file). `reopen` opens the same file again; it is called only when the
    /// reader's source is re-readable.
    mutating func readAllDevices(reopen: () throws -> any ByteSource) throws {
        guard format == .libinputRecord, merge == nil, deviceLimit == .max, let first = pending else { return }
        // All devices known already: `ndevices: 1`, or the first event is the last device's.
        if let declared = header.declaredDevices, header.devices.count == declared { return }
        let firstDevice = first.device
        var lanes: [DeviceMerge.Lane] = []
        var all: [DeviceDescription]
        if scanner.sourceIsRereadable {
            var walker = try resumed(reopen, at: scanner.nextLineOffset)
            var lane = self
            lane.deviceLimit = firstDevice + 1
            lanes.append(DeviceMerge.Lane(device: firstDevice, reader: lane))
            var none: [InputEvent] = [], noError: TraceError?, budget = 0
            var started: TraceReader?
            while true {
                let (nextDevice, sawRows) = try walker.walkSection(hold: false, into: &none, rowError: &noError, budget: &budget)
                if let reader = started, sawRows { lanes.append(DeviceMerge.Lane(device: reader.header.devices.count - 1, reader: reader)) }
                started = nil
                guard nextDevice else { break }
                var reader = try walker.resumed(reopen, at: walker.scanner.nextLineOffset)
                reader.deviceLimit = walker.header.devices.count
                started = reader
            }
            try walker.checkDeclaredDevices()
            all = walker.header.devices
        } else {
            // Held in memory: this reader's stream is the only one.
            var walker = self
            walker.pending = nil
            var budget = limits.maxBufferedEvents - 1
            var lane = DeviceMerge.Lane(device: firstDevice, held: [first.event])
            while true {
                let (nextDevice, _) = try walker.walkSection(hold: true, into: &lane.held, rowError: &lane.heldError, budget: &budget)
                if !lane.held.isEmpty || lane.heldError != nil { lanes.append(lane) }
                guard nextDevice else {
                    try walker.checkDeclaredDevices()
                    break
                }
                lane = DeviceMerge.Lane(device: walker.header.devices.count - 1)
                if let declared = walker.header.declaredDevices, walker.header.devices.count == declared {
                    // The last device: it streams. Its header is read before the first event.
                    try walker.startSection()
                    lanes.append(DeviceMerge.Lane(device: lane.device, reader: walker))
                    break
                }
            }
            all = walker.header.devices
        }
        pending = nil
        devices = all
        merge = DeviceMerge(lanes: lanes, order: limits.deviceOrder)
    }

    /// The next event of the merged devices.
    mutating func nextMerged() throws(TraceError) -> TraceEvent? {
        let event = try merge!.next()
        return event
    }

    /// A copy of this reader that goes on from the start of the next line (at `offset`) in a
    /// new source over the same file.
    private func resumed(_ reopen: () throws -> any ByteSource, at offset: Int) throws -> TraceReader {
        var source = try reopen()
        try source.seek(to: offset)
        var copy = self
        copy.scanner = LineScanner(continuing: source, at: offset, lineNumber: scanner.lineNumber,
                                   fileName: scanner.fileName, maxLineLength: scanner.maxLineLength)
        copy.pending = nil
        copy.done = false
        return copy
    }

    /// Reads on to the first line of the next device (true) or the end of the file (false),
    /// returning no event: the current device's rows are skipped unread, or with `hold` parsed
    /// into `held` (at most `budget` more); a bad row ends the holding, into `rowError`.
    private mutating func walkSection(
        hold: Bool, into held: inout [InputEvent], rowError: inout TraceError?, budget: inout Int
    ) throws(TraceError) -> (nextDevice: Bool, sawRows: Bool) {
        let device = header.devices.count
        var sawRows = false
        var skipping = !hold
        while try scanner.nextLine() {
            if eventsItemIndent >= 0 && inEvdevItem {
                let itemIndent = eventsItemIndent
                let isRow = scanner.withLine { l -> Bool in
                    var i = 0
                    while i < l.count && l[i] == 0x20 { i += 1 }
                    return i < l.count && l[i] != UInt8(ascii: "#") && i > itemIndent
                }
                if isRow {
                    sawRows = true
                    if skipping { continue }
                    let event: InputEvent
                    do {
                        // The same parse and messages as `libinputLine`.
                        event = try lineOrError { l throws(LineError) -> InputEvent in
                            var i = 0
                            while l[i] == 0x20 { i += 1 }
                            guard l[i] == UInt8(ascii: "-") && (i + 1 == l.count || l[i + 1] == 0x20) else {
                                throw LineError("expected an event row '- [sec, usec, type, code, value]' in the evdev block, found \(quoted(l))")
                            }
                            return try parseLibinputRow(l, dash: i)
                        }
                    } catch {
                        rowError = error
                        skipping = true
                        continue
                    }
                    guard budget > 0 else {
                        throw scanner.error("more than \(limits.maxBufferedEvents) events before the last device's: a libinput record file with several devices that cannot be read again (a pipe) is held in memory up to \(limits.maxBufferedEvents) events; give it as a file instead")
                    }
                    budget -= 1
                    held.append(event)
                    continue
                }
            }
            _ = try libinputLine()
            if header.devices.count > device { return (true, sawRows) }
        }
        return (false, sawRows)
    }

    /// Reads a device's header up to its first event, which becomes `pending` (nil if the file
    /// ends first).
    private mutating func startSection() throws(TraceError) {
        while try scanner.nextLine() {
            if let event = try libinputLine() {
                pending = event
                return
            }
        }
    }

    /// At the end of the file: as many devices as `ndevices:` says.
    private func checkDeclaredDevices() throws(TraceError) {
        if let declared = header.declaredDevices, header.devices.count != declared {
            throw scanner.error("the file ends with \(header.devices.count) device\(header.devices.count == 1 ? "" : "s"), but the header's 'ndevices: \(declared)' says \(declared)")
        }
    }
}
