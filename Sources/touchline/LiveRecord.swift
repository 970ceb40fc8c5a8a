// `touchline record DEVICE… -o FILE`: live devices to a libinput-record YAML file that
// libinput's own tools read (`libinput analyze`, `libinput replay`) and `touchline replay`
// turns into the same frames and gestures `touchline run` printed.
import ArgumentParser
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineTrace

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
        let graphConfiguration = try loadGraphConfiguration(config)
        let loop = try EventLoop()
        var open: [(EvdevDevice, Bool)] = []
        for (i, path) in devices.enumerated() {
            let device = try EvdevDevice(path: path, grab: grab)
            open.append((device, true))
            try loop.watch(device.fileDescriptor, token: UInt64(i))
        }
        let descriptions = open.map { $0.0.description }
        // Shares its state (descriptor, temporary) with the writer's copy.
        let sink = try FileByteSink(path: output, inputs: devices)
        var frames = try framesOutput.map { path throws(SystemError) in try FileOutput(creating: path) }
        var options = input.assemblerOptions
        // The live frames see libevdev's resync deltas after a SYN_DROPPED. The file keeps the
        // SYN_DROPPED and the deltas, but a reader of it (replay, libinput) discards until the
        // next SYN_REPORT as for any kernel stream: after a drop, replay of the file and the
        // live frames can differ until the contacts lift (docs/live.md).
        options.dropRecovery = .syncEventsFollow
        var assemblers = descriptions.map { FrameAssembler(device: $0, options: options) }
        for (index, assembler) in assemblers.enumerated() {
            for warning in assembler.warnings { warn("\(devices[index]) (\(descriptions[index].name)): \(warning)") }
        }
        var line = JSONWriter()
        let gestureFile = try gesturesOutput.map { path throws(SystemError) in try FileOutput(creating: path) }
        var drivers = try assemblers.enumerated().map { index, assembler in
            var driver = try makeDriver(graphConfiguration, surface: assembler.geometry.size, source: config)
            driver.graph.device = index
            return driver
        }
        var gestureLine = JSONWriter()
        var gestureFailure: Error?
        func emit(_ event: GestureEvent) {
            guard let gestureFile, gestureFailure == nil else { return }
            gestureLine.reset()
            event.writeJSON(into: &gestureLine)
            gestureLine.newline()
            do { try gestureFile.write(gestureLine.bytes) } catch { gestureFailure = error }
        }
        // libinput record lists each device's events after its header: device 0 streams to the
        // file, the others wait until the end, each in a bounded buffer that spills to a
        // temporary file (EventSpill), so a long recording of several devices does not grow.
        let later = open.indices.map { _ in EventSpill() }
        var writer = LibinputRecordWriter(devices: descriptions, sink: sink, nodes: devices)
        var origin: Timestamp?
        var live = open.count
        if let readyFile { try FileOutput(creating: readyFile).close() }
        func take(_ index: Int, _ event: InputEvent) throws {
            let first = origin ?? event.time
            origin = first
            if index == 0 { try writer.write(TraceEvent(device: 0, event: event)) } else { try later[index].append(event) }
            if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_DROPPED {
                // A reader of the file discards up to the next SYN_REPORT after a SYN_DROPPED,
                // as the kernel's documentation says for a raw stream. An empty SYN_REPORT right
                // after it ends that torn frame, so what follows, libevdev's resync deltas, is
                // applied on replay as it was live.
                let report = InputEvent(time: event.time, type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0)
                if index == 0 { try writer.write(TraceEvent(device: 0, event: report)) } else { try later[index].append(report) }
            }
            guard frames != nil || gestureFile != nil, assemblers[index].feed(event) else { return }
            var frame = assemblers[index].frame
            frame.time = Timestamp(microseconds: max(0, (frame.time - first).microseconds))
            if let out = frames {
                line.reset()
                frame.writeJSON(device: index, into: &line)
                try out.write(line.bytes)
            }
            if gestureFile != nil {
                // Deadlines fire at their own time when the next frame comes or at the end,
                // as in replay: the recorder has no timer (its output is a file, not a UI).
                drivers[index].feed(frame, emit: emit)
                if let gestureFailure { throw gestureFailure }
            }
        }
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
            reading: while live > 0 {
                switch try loop.wait() {
                case .readable(let token):
                    let index = Int(token)
                    var failure: Error?
                    let status = try open[index].0.readAvailable { event in
                        if failure != nil { return }
                        do { try take(index, event) } catch { failure = error }
                    }
                    if let failure { throw failure }
                    if status == .gone {
                        loop.unwatch(open[index].0.fileDescriptor)
                        open[index].1 = false
                        live -= 1
                        warn("\(devices[index]) was removed")
                    }
                case .deadline:
                    continue
                case .signal(let signo):
                    if signo == 1 { continue }
                    break reading
                }
            }
            if gestureFile != nil {
                for index in drivers.indices { drivers[index].finish(emit: emit) }
                gestureFile?.close()
                if let gestureFailure { throw gestureFailure }
            }
            for (device, _) in open where device.droppedCount > 0 {
                warn("\(device.path): the kernel dropped events \(device.droppedCount) time(s) (SYN_DROPPED: this reader fell behind); libevdev resynced")
            }
            try writeHeldAndFinish()
            try sink.commit()
        } catch {
            // Nothing already read is lost: the held devices go in too (as far as the file
            // takes them), and the file is kept beside the output as convert keeps one.
            guard origin != nil else { throw error }
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
        withExtendedLifetime(open) {}
    }
}
