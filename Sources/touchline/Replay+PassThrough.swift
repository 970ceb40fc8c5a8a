// `replay FILE --passthrough OUT.yml` (docs/live.md#pass-through): the replay as usual on
// standard output, and, as a libinput record file, what an application reading the daemon's
// pass-through clone of each device would have received: every touch but those a
// `consume = true` recognizer won, held ones at the time they were released.
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineSettings
import TouchlineTrace

extension Replay {
    func replayPassThrough(_ file: String, _ configuration: (GraphConfiguration, DeviceConfiguration), to output: OutputStream, color: Bool, record path: String) throws {
        // A signal while the temporary exists removes it.
        TemporaryCleanup.install(unblock: true)
        let (graphConfiguration, deviceConfiguration) = configuration
        var out = output
        var trace = try TraceFile.open(file, input: input)
        let sink = try FileByteSink(path: path, inputs: [file] + (config.map { [$0] } ?? []))
        var replay = GesturePipeline(
            configuration: graphConfiguration, assemblerOptions: input.assemblerOptions, recognizes: true, explain: explain,
            relativeTime: format.relativeTime)
        var devices = TraceDevices(deviceConfiguration, configPath: config)
        // Reports only for --explain, drained after every event.
        var set = PassThroughSet(keepsReports: explain)
        var encoders: [Int: PassThroughEncoder] = [:]
        // Device 0's clone streams to the record as it is made (libinput record lists each
        // device's events together, device 0's first): memory stays replay's, however long the
        // trace (main kept all of it: 50 MB for 400,000 frames). The devices are known when
        // the trace opens, except a getevent trace's, which may add one mid-file: its clone
        // output, and any other device's, waits for the end.
        let streams = trace.format != "getevent" && !trace.devices.isEmpty
        var writer = streams ? LibinputRecordWriter(devices: trace.devices, sink: sink) : nil
        var writeError: Error?
        var scratch: [InputEvent] = []
        var clone: [Int: [InputEvent]] = [:]
        var text = TextEventWriter(color: color)
        let isText = format.isText
        let explain = self.explain
        func write(_ event: GestureEvent) {
            if isText {
                text.reset()
                text.write(event)
                out.write(text.bytes)
            } else {
                out.writeLine(event)
            }
        }
        var first: Timestamp?
        let relative = format.relativeTime
        // The input's clock: a tap 1.2 s into the trace is 1.2 s into the clone's record.
        // A libinput recording's times count from its own start already.
        let fromOrigin = relative || trace.format == "libinput-record"
        func send(_ device: Int, _ frame: PassThroughFrame) {
            guard device == 0, writer != nil else {
                encoders[device]?.encode(frame, into: &clone[device, default: []])
                return
            }
            scratch.removeAll(keepingCapacity: true)
            encoders[device]?.encode(frame, into: &scratch)
            guard writeError == nil, !scratch.isEmpty else { return }
            if writer!.origin == nil { writer!.origin = fromOrigin ? .zero : first }
            do {
                for event in scratch { try writer!.write(TraceEvent(device: 0, event: event)) }
            } catch {
                writeError = error
            }
        }
        // --explain: a line per contact when its hold is decided.
        func reports() {
            guard explain else { return }
            for (device, r) in set.drainReports() { out.write(Self.holdLine(device: device, r, text: isText)) }
        }
        var failure: Error?
        do {
            while let (index, read) = try trace.next() {
                let event = relative ? replay.timed(read) : read
                if first == nil { first = event.time }
                if !replay.isStarted(index) {
                    if devices.ignored.contains(index) { continue }
                    guard try devices.start(index, of: trace, in: &replay) != nil, let graph = replay.graph(of: index), let assembler = replay.assembler(of: index) else { continue }
                    set.start(device: index, graph: graph, slotCount: PassThroughEncoder.slots(of: trace.devices[index]))
                    encoders[index] = PassThroughEncoder(device: trace.devices[index], geometry: assembler.geometry)
                }
                // Hold bounds and graph deadlines before the frame this event may complete, in
                // time order (the frame's own `feed` would fire the graph's without the planners).
                if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_REPORT {
                    set.advance(&replay, to: event.time, emit: write, output: send)
                }
                let completed = replay.feed(device: index, event, emit: write)
                if completed { set.frame(device: index, replay.assembledFrame(of: index), replay, output: send) }
                reports()
            }
        } catch {
            failure = error
        }
        // The end, as replay's: pending deadlines (and hold bounds) fire, then the clone's
        // contacts still down lift.
        set.advance(&replay, to: nil, emit: write, output: send)
        replay.finish(emit: write)
        for device in set.planners.indices { set.finish(device: device, at: .zero, output: send) }
        reports()
        out.flush()
        if let writeError { throw writeError }
        let described = trace.devices
        if writer == nil && !described.isEmpty { writer = LibinputRecordWriter(devices: described, sink: sink) }
        if var writer {
            if writer.origin == nil { writer.origin = fromOrigin ? .zero : first }
            for device in clone.keys.sorted() {
                for event in clone[device]! { try writer.write(TraceEvent(device: device, event: event)) }
            }
            try writer.finish()
            if let file = writer.sink as? FileByteSink { try file.commit() }
        }
        warn("passthrough: \(path): \(set.counters.summary)")
        if let failure { throw failure }
    }

    /// `{"passthrough":"dropped","time":0.008333,"device":0,"contact":0,"held":0.008333,"distance":3.33}`
    /// (text: `0.008333 passthrough dropped device 0 c0 held 8.3 ms 3.33 mm`).
    static func holdLine(device: Int, _ r: HoldReport, text: Bool) -> String {
        if text {
            return "\(r.time) passthrough \(r.outcome) device \(device) c\(r.contact.raw) held \(formatFixed(Double(r.held.microseconds) / 1000, decimals: 1)) ms \(formatFixed(r.distance, decimals: 2)) mm\n"
        }
        return "{\"passthrough\":\"\(r.outcome)\",\"time\":\(r.time),\"device\":\(device),\"contact\":\(r.contact.raw),\"held\":\(formatFixed(r.held.microseconds, decimals: 6)),\"distance\":\(formatFixed(r.distance, decimals: 2))}\n"
    }
}
