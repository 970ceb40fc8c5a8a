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
            everything before it is printed, then one error names file:line. Times are the \
            trace's own (from 0 in a libinput recording, absolute in evemu and getevent traces) \
            unless --relative-time. A replay that takes more than 2 s shows a progress line on \
            standard error when that is a terminal (and standard output is not the same one).
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
        let (graphConfiguration, deviceConfiguration) = try config.map(loadReplayConfiguration) ?? (.default, DeviceConfiguration())
        var trace = try TraceFile.open(file, input: input)
        var replay = TraceReplay(
            configuration: graphConfiguration, assemblerOptions: input.assemblerOptions, recognizes: !frames, explain: explain)
        var devices = TraceDevices(deviceConfiguration, configPath: config)
        var out = OutputStream(fd: 1)
        var json = JSONWriter(capacity: 4096)
        var text = TextEventWriter(color: format.colorsStandardOutput)
        let emit: (GestureEvent) -> Void = format.isText ? { event in
            text.reset()
            text.write(event)
            out.write(text.bytes)
        } : { event in out.writeLine(event) }
        var failure: Error?
        var origin: Timestamp?
        // Read once: an option's wrapper is not free, and this runs per event.
        let relative = format.relativeTime
        var progress = ProgressLine.forStandardError(file: trace.displayName)
        do {
            while let (index, read) = try trace.next() {
                var event = read
                if relative {
                    // At the input, so frames, gestures and deadlines all count from the first
                    // event of the trace (of any device), as live `run --relative-time` does.
                    let first = origin ?? event.time
                    origin = first
                    event.time = Timestamp(microseconds: max(0, (event.time - first).microseconds))
                }
                progress?.count(time: event.time)
                if !replay.isStarted(index) {
                    if devices.ignored.contains(index) { continue }
                    guard try devices.start(index, of: trace, in: &replay) != nil else { continue }
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
        progress?.clear()
        out.flush()
        if let failure { throw failure }
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
