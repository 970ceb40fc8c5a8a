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
        let trace = try TraceFile.open(file, input: input)
        let sink = try FileByteSink(path: path, inputs: [file] + (config.map { [$0] } ?? []))
        // The pass-through stage of the pipeline, every device's; reports only for --explain.
        var replay = GesturePipeline(
            configuration: graphConfiguration, assemblerOptions: input.assemblerOptions, recognizes: true, explain: explain,
            relativeTime: format.relativeTime, passThrough: PassThroughSet(keepsReports: explain))
        var source = TraceInput(trace: trace, devices: TraceDevices(deviceConfiguration, configPath: config), passesThrough: true)
        var output = ReplayOutput(out: output, color: color, isText: format.isText)
        output.record(to: CloneRecord(trace: trace, sink: sink, fromOrigin: format.relativeTime || trace.format == "libinput-record"))
        var failure: Error?
        do {
            try replay.run(&source, into: &output)
        } catch {
            failure = error
        }
        output.out.flush()
        var record = output.clone!
        try record.commit(devices: source.trace.devices)
        warn("passthrough: \(path): \(replay.passThrough.counters.summary)")
        if let failure { throw failure }
    }
}

/// What an application on each device's clone would have read, as a libinput record file.
/// Device 0's clone streams to the record as it is made (libinput record lists each device's
/// events together, device 0's first): memory stays replay's, however long the trace (main
/// kept all of it: 50 MB for 400,000 frames). The devices are known when the trace opens,
/// except a getevent trace's, which may add one mid-file: its clone output, and any other
/// device's, waits for the end.
struct CloneRecord {
    var writer: LibinputRecordWriter?
    let sink: FileByteSink
    /// The input's clock: a tap 1.2 s into the trace is 1.2 s into the clone's record. A
    /// libinput recording's times count from its own start already.
    let fromOrigin: Bool
    var first: Timestamp?
    var encoders: [Int: PassThroughEncoder] = [:]
    var held: [Int: [InputEvent]] = [:]
    var scratch: [InputEvent] = []
    var writeError: Error?

    init(trace: TraceFile, sink: FileByteSink, fromOrigin: Bool) {
        self.sink = sink
        self.fromOrigin = fromOrigin
        let streams = trace.format != "getevent" && !trace.devices.isEmpty
        writer = streams ? LibinputRecordWriter(devices: trace.devices, sink: sink) : nil
    }

    /// Every event of the input: the first one's time is the record's origin.
    mutating func input(_ event: InputEvent) {
        if first == nil { first = event.time }
    }

    /// A device passed through started: its encoder.
    mutating func started(_ device: Int, _ pipeline: GesturePipeline) {
        guard let assembler = pipeline.assembler(of: device) else { return }
        encoders[device] = PassThroughEncoder(device: assembler.device, geometry: assembler.geometry)
    }

    mutating func write(_ device: Int, _ frame: PassThroughFrame) {
        guard device == 0, writer != nil else {
            encoders[device]?.encode(frame, into: &held[device, default: []])
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

    /// The held devices' clones after device 0's, then the file in place.
    mutating func commit(devices described: [DeviceDescription]) throws {
        if let writeError { throw writeError }
        if writer == nil && !described.isEmpty { writer = LibinputRecordWriter(devices: described, sink: sink) }
        guard var writer else { return }
        if writer.origin == nil { writer.origin = fromOrigin ? .zero : first }
        for device in held.keys.sorted() {
            for event in held[device]! { try writer.write(TraceEvent(device: device, event: event)) }
        }
        try writer.finish()
        if let file = writer.sink as? FileByteSink { try file.commit() }
    }
}

extension Replay {
    /// `{"passthrough":"dropped","time":0.008333,"device":0,"contact":0,"held":0.008333,"distance":3.33}`
    /// (text: `0.008333 passthrough dropped device 0 c0 held 8.3 ms 3.33 mm`).
    static func holdLine(device: Int, _ r: HoldReport, text: Bool) -> String {
        if text {
            return "\(r.time) passthrough \(r.outcome) device \(device) c\(r.contact.raw) held \(formatFixed(Double(r.held.microseconds) / 1000, decimals: 1)) ms \(formatFixed(r.distance, decimals: 2)) mm\n"
        }
        return "{\"passthrough\":\"\(r.outcome)\",\"time\":\(r.time),\"device\":\(device),\"contact\":\(r.contact.raw),\"held\":\(formatFixed(r.held.microseconds, decimals: 6)),\"distance\":\(formatFixed(r.distance, decimals: 2))}\n"
    }
}
