// `touchline record DEVICE… -o FILE`: live devices to a libinput-record YAML file that
// libinput's own tools read (`libinput analyze`, `libinput replay`) and `touchline replay`
// turns into the same frames and gestures `touchline run` printed.
import ArgumentParser
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineLive
import TouchlineTrace
import TouchlineTuning

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record live devices to a libinput record YAML file.",
        discussion: """
            Records until SIGINT/SIGTERM, or until every device is removed. Times in the file are \
            relative to the first event, as libinput record writes them. The file appears only \
            once complete; after an error (a device that fails, a full disk), what was recorded \
            is kept as OUT.partial.
            """)

    @Argument(help: "Event nodes (/dev/input/eventN) to record.")
    var devices: [String]

    @Option(name: .shortAndLong, help: "The file to write.")
    var output: String

    @Flag(help: "Take the devices exclusively (EVIOCGRAB) while recording.")
    var grab = false

    @Option(help: "Also write the frames recognized live, as JSON Lines (times relative to the first event, as in the recording), to this file.")
    var framesOutput: String?

    @Option(help: "Also write the gestures recognized live, as JSON Lines with times relative to the first event, to this file: what `touchline replay` (with the same --config) of the recording prints.")
    var gesturesOutput: String?

    @Option(help: ArgumentHelp("The graph configuration for --gestures-output (TOML; docs/config.md). Default: the embedded graph.", valueName: "file.toml"))
    var config: String?

    @Option(help: "Create this file once the devices are open (for scripts and `play --wait-for`).")
    var readyFile: String?

    @Option(help: ArgumentHelp("Prompt on standard error for the gestures of PLAN, one attempt at a time, say after each whether its gesture was recognized and, if not, why, and write each attempt's window as a label to OUT.labels.json (docs/labels.md, docs/tuning.md); the recording ends when the plan is done. PLAN is a file of `GESTURE COUNT [FIELD=VALUE…] [PROMPT]` lines, each followed by any `none GESTURE [FIELD=VALUE…]` lines (what must not happen), or a list such as edgeSwipe:10:edge=left,none:pan,tap:10.", valueName: "PLAN"))
    var guided: String?

    @OptionGroup var input: InputOptions

    func validate() throws {
        if devices.isEmpty { throw ValidationError("name at least one device to record (see `touchline devices`)") }
        if config != nil && gesturesOutput == nil {
            throw ValidationError("--config is the graph of --gestures-output; give --gestures-output FILE too (the recording itself holds events, not gestures)")
        }
    }

    func run() throws {
        try reportingErrors { try record() }
    }

    func record() throws {
        // Read and validated before any device is opened: a bad file costs no recording.
        // --guided recognizes too: each attempt is told whether its gesture was recognized.
        let graphConfiguration = gesturesOutput == nil && guided == nil ? nil : try loadGraphConfiguration(config)
        var options = input.assemblerOptions
        // The live frames see libevdev's resync deltas after a SYN_DROPPED. The file keeps the
        // SYN_DROPPED and the deltas, but a reader of it (replay, libinput) discards until the
        // next SYN_REPORT as for any kernel stream: after a drop, replay of the file and the
        // live frames can differ until the contacts lift (docs/live.md).
        options.dropRecovery = .syncEventsFollow
        // The loop is TouchlineLive's (RecordSession, through the pipeline replay runs); this
        // writes the file.
        var plan = try guided.map { try guidedSession($0, graphConfiguration ?? .default) }
        plan?.feedbackConfiguration = graphConfiguration
        var source = try EvdevLiveSource(paths: devices, grab: grab)
        var session = RecordSession(
            options: options, configuration: graphConfiguration, configPath: config, explain: guided != nil, warn: { warn($0) })
        try session.start(&source)
        // Shares its state (descriptor, temporary) with the writer's copy.
        let sink = try FileByteSink(path: output, inputs: devices)
        var frames = try framesOutput.map { path throws(SystemError) in try FileOutput(creating: path) }
        let gestureFile = try gesturesOutput.map { path throws(SystemError) in try FileOutput(creating: path) }
        session.frames = frames.map { JSONLinesSink(output: $0) }
        let gestureLines = gestureFile.map { JSONLinesSink(output: $0) }
        let guide = plan.map { GuidedGestures(guide: $0, file: gestureLines) }
        session.gestures = guide ?? gestureLines
        // libinput record lists each device's events after its header: device 0 streams to the
        // file, the others wait until the end, each in a bounded buffer that spills to a
        // temporary file (EventSpill), so a long recording of several devices does not grow.
        let later = session.descriptions.indices.map { _ in EventSpill() }
        var writer = LibinputRecordWriter(devices: session.descriptions, sink: sink, nodes: devices)
        if let readyFile { try FileOutput(creating: readyFile).close() }
        if let prompt = guide?.guide.prompt { StandardError.write(prompt + "\n") }
        session.isDone = { guide?.guide.isFinished ?? false }
        // Devices 1… stream to the file after the recording, the one before `nextHeld` done.
        var nextHeld = 1
        var writerFinished = false
        func writeHeldAndFinish() throws {
            while nextHeld < later.count {
                let index = nextHeld
                nextHeld += 1
                try later[index].forEach { event in try writer.write(TraceEvent(device: index, event: event)) }
            }
            writerFinished = true
            try writer.finish()
        }
        do {
            try session.run(&source) { index, event in
                // Times in the file count from the recording's first event, of any device, as
                // the frames and gestures do (device 0's are written first, but another
                // device may have sent first).
                if writer.origin == nil { writer.origin = event.time }
                if index == 0 { try writer.write(TraceEvent(device: 0, event: event)) } else { try later[index].append(event) }
                if let guide {
                    if guide.guide.feed(device: index, event) {
                        StandardError.write((guide.guide.prompt ?? "done: \(guide.guide.attempts.count) attempts recorded") + "\n")
                    }
                    guide.say(guide.guide.verdicts(after: event))
                }
            }
            gestureFile?.close()
            for notice in source.dropNotices { warn(notice) }
            if let guide { guide.say(guide.guide.finishVerdicts()) }
            try writeHeldAndFinish()
            try sink.commit()
            if let guide { try writeLabels(guide.guide) }
        } catch {
            // Nothing already read is lost: the held devices go in too (as far as the file
            // takes them), and the file is kept beside the output as convert keeps one.
            guard session.origin != nil else { throw error }
            if !writerFinished { try? writeHeldAndFinish() }
            if sink.writesInPlace {
                warn("\(output): the recording up to the error is written there")
            } else if let reason = sink.keep(as: output + ".partial", inputs: devices) {
                warn("\(output).partial: not written: \(reason); the recording is lost")
            } else {
                warn("\(output).partial: the recording up to the error")
            }
            throw error
        }
        frames?.close()
        frames = nil
    }

    /// The plan of --guided: a file, else the argument itself as a list.
    func guidedSession(_ plan: String, _ graph: GraphConfiguration) throws -> GuidedSession {
        // Anything at that path is a plan file, read only if it is a regular file: a folder or
        // a FIFO is refused, not taken as the text of a plan (nor waited on).
        let text = FileByteSource.isPresent(plan) ? String(decoding: try readSmallFile(plan, limit: GuidedPlan.maximumBytes, what: "a guided plan"), as: UTF8.self) : plan
        var gestures: [String] = []
        for spec in graph.recognizers where !gestures.contains(spec.kind.gesture.description) { gestures.append(spec.kind.gesture.description) }
        do {
            return GuidedSession(plan: try GuidedPlan.parse(text, gestures: gestures))
        } catch {
            throw CLIError.usage("--guided: \(error.description)")
        }
    }

    /// OUT.labels.json beside the recording, naming it by its file name.
    func writeLabels(_ guide: GuidedSession) throws {
        let path = output + ".labels.json"
        let sink = try FileByteSink(path: path, inputs: devices + [output])
        var writer = sink
        try writer.write(Array(guide.labels(file: output.split(separator: "/").last.map(String.init) ?? output).utf8))
        try sink.commit()
        StandardError.write("labels: \(path) (\(guide.attempts.count) attempts; touchline score \(path))\n")
    }
}

/// `record --guided`'s gestures: each goes to the guide, which says on standard error, attempt
/// by attempt, whether the attempt's gesture was recognized and, when not, why (the nearest
/// failed attempt's explain reason, as `touchline score` says it); the gestures themselves,
/// without explain lines, go on to `--gestures-output` when given.
final class GuidedGestures: LiveSink {
    var guide: GuidedSession
    let file: JSONLinesSink?

    init(guide: GuidedSession, file: JSONLinesSink?) {
        self.guide = guide
        self.file = file
    }

    func say(_ verdicts: [String]) {
        for line in verdicts { StandardError.write(line + "\n") }
    }

    func gesture(_ event: GestureEvent) throws {
        say(guide.observe(event))
        if event.gesture != .explain { try file?.gesture(event) }
    }

    func frame(_ frame: TouchFrame, device: Int) throws { try file?.frame(frame, device: device) }
    func rawEvent(_ event: InputEvent, deviceName: String) throws { try file?.rawEvent(event, deviceName: deviceName) }
    func warn(_ message: String) { file?.warn(message) }
}
