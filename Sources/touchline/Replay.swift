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

    @Argument(help: "A trace file (libinput record YAML, evemu, getevent -lt).")
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
        // One assembler and one graph per device. A trace may name a device after its first
        // event (a getevent trace names each path as it comes), so they are added as needed.
        var assemblers: [FrameAssembler] = []
        var drivers: [ReplayDriver] = []
        func addDevices(upTo index: Int) throws {
            while assemblers.count <= index && assemblers.count < trace.devices.count {
                let device = assemblers.count
                let assembler = FrameAssembler(device: trace.devices[device], options: input.assemblerOptions)
                for warning in assembler.warnings {
                    warn("\(file): device \(device) (\(trace.devices[device].name)): \(warning)")
                }
                var driver = try makeDriver(graphConfiguration, surface: assembler.geometry.size, source: config)
                driver.graph.device = device
                driver.graph.explain = explain
                assemblers.append(assembler)
                drivers.append(driver)
            }
        }
        try addDevices(upTo: trace.devices.count - 1)
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
                if index >= assemblers.count {
                    try addDevices(upTo: index)
                    guard index < assemblers.count else {
                        throw CLIError.data("\(file): an event of device \(index), but the trace describes \(trace.devices.count) device(s)")
                    }
                }
                guard assemblers[index].feed(event) else { continue }
                if frames {
                    json.reset()
                    assemblers[index].frame.writeJSON(device: index, into: &json)
                    out.write(json.bytes)
                } else {
                    // As if live: every device's deadlines before this frame fire first, in time order.
                    if drivers.count > 1 { fireDeadlines(&drivers, before: assemblers[index].frame.time, emit: emit) }
                    drivers[index].feed(assemblers[index].frame, emit: emit)
                }
            }
        } catch {
            failure = error
        }
        // At the end of the input (or before reporting a bad line) pending deadlines still fire
        // and fingers still down are cancelled, so every began has its end.
        if !frames {
            if drivers.count > 1 { fireDeadlines(&drivers, before: nil, emit: emit) }
            // Each device ends at its own last time: the earliest first, so the output stays in time order.
            let order = drivers.indices.sorted { (drivers[$0].time ?? .zero, $0) < (drivers[$1].time ?? .zero, $1) }
            for index in order { drivers[index].finish(emit: emit) }
        }
        out.flush()
        if let failure { throw failure }
    }

    /// Fires the deadlines of all devices' graphs before `time` (all of them for nil) in time
    /// order, the earlier device first on a tie, so that several devices replay as one live run.
    func fireDeadlines(_ drivers: inout [ReplayDriver], before time: Timestamp?, emit: (GestureEvent) -> Void) {
        while true {
            var earliest: (index: Int, time: Timestamp)?
            for index in drivers.indices {
                guard let d = drivers[index].graph.nextDeadline, time.map({ d < $0 }) ?? true else { continue }
                if earliest == nil || d < earliest!.time { earliest = (index, d) }
            }
            guard let earliest else { return }
            drivers[earliest.index].advance(to: earliest.time, emit: emit)
        }
    }

    func loadConfiguration(_ path: String) throws -> GraphConfiguration {
        // `parse` validates (docs/config.md#validation), naming the line.
        let bytes = try readSmallFile(path)
        do {
            return try GraphConfiguration.parse(bytes: bytes, file: path)
        } catch {
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
