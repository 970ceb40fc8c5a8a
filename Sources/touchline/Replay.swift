import ArgumentParser
import TouchlineCore
import TouchlineGestures

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recognize gestures in a recorded trace and print them as JSON Lines (or text rows with --format text).",
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

    @OptionGroup var format: FormatOptions

    @Option(help: ArgumentHelp("A graph configuration (TOML: targets, recognizers, relations; docs/config.md), and [[device]] sections matched by the trace's device name (rotation, calibration, size, graph; docs/live.md#devices). Default: the embedded graph.", valueName: "file.toml"))
    var config: String?

    func validate() throws {
        if frames && (explain || config != nil) {
            throw ValidationError("--frames prints frames before recognition; --explain and --config apply to gestures only.")
        }
        if frames && format.isText {
            throw ValidationError("--format text prints gesture events (and --explain's decisions); --frames is JSON Lines only.")
        }
    }

    func run() throws {
        try reportingErrors { try replay() }
    }

    func replay() throws {
        let (graphConfiguration, deviceConfiguration) = try config.map(loadConfiguration) ?? (.default, DeviceConfiguration())
        var trace = try TraceFile.open(file, input: input)
        var replay = TraceReplay(
            configuration: graphConfiguration, assemblerOptions: input.assemblerOptions, recognizes: !frames, explain: explain)
        // Each device starts at its first event: a trace may describe a device only when it
        // reaches it (getevent paths, libinput record devices), and a getevent trace may list
        // thousands of devices that send nothing.
        var ignored: Set<Int> = []
        func start(_ device: Int) throws {
            guard device < trace.devices.count else {
                throw CLIError.data("\(trace.displayName): an event of device \(device), but the trace describes \(trace.devices.count) device(s)")
            }
            // Matched by the trace's device name (and the path the daemon's trace source gives it).
            let settings = deviceConfiguration.settings(
                name: trace.devices[device].name, path: "\(trace.displayName) device \(device)", udev: nil)
            if settings?.ignore == true {
                ignored.insert(device)
                warn("\(trace.displayName): device \(device) (\(trace.devices[device].name)): ignored ([[device]] at line \(settings?.line ?? 0))")
                return
            }
            let warnings: [String]
            do {
                warnings = try replay.start(device: device, trace.devices[device], settings: settings)
            } catch {
                throw CLIError.data("\(config ?? "the embedded graph configuration"): \(error.message)")
            }
            for warning in warnings { warn("\(trace.displayName): device \(device) (\(trace.devices[device].name)): \(warning)") }
        }
        var out = OutputStream(fd: 1)
        var json = JSONWriter(capacity: 4096)
        var text = TextEventWriter(color: format.colorsStandardOutput)
        let emit: (GestureEvent) -> Void = format.isText ? { event in
            text.reset()
            text.write(event)
            out.write(text.bytes)
        } : { event in out.writeLine(event) }
        var failure: Error?
        do {
            while let (index, event) = try trace.next() {
                if !replay.isStarted(index) {
                    if ignored.contains(index) { continue }
                    try start(index)
                    if ignored.contains(index) { continue }
                }
                guard replay.feed(device: index, event, emit: emit), frames else { continue }
                json.reset()
                replay.frame(of: index).writeJSON(device: index, into: &json)
                out.write(json.bytes)
            }
        } catch {
            failure = error
        }
        // Also before reporting a bad line: what was read is recognized to its end.
        replay.finish(emit: emit)
        out.flush()
        if let failure { throw failure }
    }

    func loadConfiguration(_ path: String) throws -> (GraphConfiguration, DeviceConfiguration) {
        // `parse` validates (docs/config.md#validation), naming the line.
        let bytes = try readSmallFile(path)
        do {
            var (graph, devices) = try DeviceConfiguration.parseForReplay(bytes: bytes, file: path)
            try loadDeviceGraphs(&devices, config: path)
            return (graph, devices)
        } catch let error as ConfigError {
            throw CLIError.data(error.description)
        }
    }
}

/// A driver for a device's graph; an invalid configuration (which `GraphConfiguration.parse`
/// has already rejected with its line, so this is a second line of defence) exits 65.
func makeDriver(_ configuration: GraphConfiguration, surface: Size, source: String?) throws -> ReplayDriver {
    do {
        return try ReplayDriver(configuration: configuration, surface: surface)
    } catch {
        throw CLIError.data("\(source ?? "the embedded graph configuration"): \(error.message)")
    }
}
