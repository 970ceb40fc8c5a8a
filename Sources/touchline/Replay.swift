import ArgumentParser
import TouchlineCore
import TouchlineGestures

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recognize gestures in a recorded trace and print them as JSON Lines.",
        discussion: """
            Prints one event per line (schema v1, docs/events.md). Deadlines (long press, \
            multi-tap) fire at their own time between frames, so the output equals a live run \
            and is the same bytes on every run, at any speed. If the trace has a bad line, \
            everything before it is printed, then one error names file:line.
            """
    )

    @Argument(help: "A trace file (libinput record YAML, evemu, getevent -lt); - for standard input.")
    var file: String

    @OptionGroup var input: InputOptions

    @Flag(help: "Print frames of contacts (time, ids, phases, mm, pressure) instead of gestures.")
    var frames = false

    @Flag(help: "Add a line per arena decision: which recognizer won or failed, and why.")
    var explain = false

    @Option(help: ArgumentHelp("A graph configuration (TOML: targets, recognizers, relations; docs/config.md). Default: the embedded graph.", valueName: "file.toml"))
    var config: String?

    func validate() throws {
        if frames && (explain || config != nil) {
            throw ValidationError("--frames prints frames before recognition; --explain and --config apply to gestures only.")
        }
    }

    func run() throws {
        try reportingErrors { try replay() }
    }

    func replay() throws {
        let graphConfiguration = try config.map(loadConfiguration) ?? .default
        var trace = try TraceFile.open(file, input: input)
        // Each device gets its assembler (and graph) at its first event: a trace may describe a
        // device only when it reaches it (getevent paths, libinput record devices), and a
        // getevent trace may list thousands of devices that send nothing.
        // `state[device]` indexes `assemblers` and `drivers`, or is -1.
        var state: [Int] = []
        var assemblers: [FrameAssembler] = []
        var drivers: [ReplayDriver] = []
        func start(_ index: Int) -> Int {
            if state.count < trace.devices.count { state += repeatElement(-1, count: trace.devices.count - state.count) }
            let assembler = FrameAssembler(device: trace.devices[index], options: input.assemblerOptions)
            if let warning = assembler.geometry.warning {
                warn("\(trace.displayName): device \(index) (\(trace.devices[index].name)): \(warning)")
            }
            state[index] = assemblers.count
            assemblers.append(assembler)
            // --frames needs no recognizers.
            if !frames {
                var driver = ReplayDriver(configuration: graphConfiguration, surface: assembler.geometry.size)
                driver.graph.device = index
                driver.graph.explain = explain
                drivers.append(driver)
            }
            return state[index]
        }
        var out = OutputStream(fd: 1)
        var json = JSONWriter(capacity: 4096)
        let emit: (GestureEvent) -> Void = { event in
            json.reset()
            event.writeJSON(into: &json)
            json.newline()
            out.write(json.bytes)
        }
        var failure: Error?
        do {
            while let (index, event) = try trace.next() {
                var k = index < state.count ? state[index] : -1
                if k < 0 { k = start(index) }
                guard assemblers[k].feed(event) else { continue }
                if frames {
                    json.reset()
                    assemblers[k].frame.writeJSON(device: index, into: &json)
                    out.write(json.bytes)
                } else {
                    drivers[k].feed(assemblers[k].frame, emit: emit)
                }
            }
        } catch {
            failure = error
        }
        // At the end of the input (or before reporting a bad line) pending deadlines still fire
        // and fingers still down are cancelled, so every began has its end.
        if !frames {
            for k in state where k >= 0 { drivers[k].finish(emit: emit) }
        }
        out.flush()
        if let failure { throw failure }
    }

    func loadConfiguration(_ path: String) throws -> GraphConfiguration {
        let text = try readTextFile(path)
        do {
            return try GraphConfiguration.parse(toml: text, file: path)
        } catch {
            throw CLIError.data(error.description)
        }
    }
}
