import ArgumentParser
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlinePlot
import TouchlineSettings
import TouchlineTrace

struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a trace as one SVG: the surface with targets and contact paths, and a timeline of the gestures.",
        discussion: """
            The gestures are the events `touchline replay` prints for the same trace and \
            configuration (the same replay runs; docs/plot.md explains the picture). The SVG is \
            self-contained and the same bytes on every run. Without -o it is written to FILE's \
            name with .svg for its extension, in the current directory (standard output when \
            FILE is -); `-o -` writes to standard output. A trace with several devices gives one \
            panel per device, or only device N's with --device N. If the trace has a bad line, \
            no picture is written and the error names the line.
            """
    )

    @Argument(help: "A trace file (libinput record YAML, evemu, getevent -lt); - for standard input.")
    var file: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The SVG to write, or - for standard output. Default: FILE's base name with .svg, in the current directory.", valueName: "out.svg"))
    var output: String?

    @Option(help: ArgumentHelp("A graph configuration (TOML; docs/config.md), as for replay: its targets are drawn, its recognizers give the timeline.", valueName: "file.toml"))
    var config: String?

    @Option(help: ArgumentHelp("Draw from S seconds after the trace's first frame.", valueName: "S"))
    var from: Double?

    @Option(help: ArgumentHelp("Draw until S seconds after the trace's first frame.", valueName: "S"))
    var to: Double?

    @Option(help: ArgumentHelp("Draw only device N of a trace with several (numbered as `touchline inspect` lists them); all devices are still replayed, as replay does.", valueName: "N"))
    var device: Int?

    @OptionGroup var input: InputOptions

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, !(value.isFinite && value >= 0) {
                throw ValidationError("\(name) takes seconds from the trace's first frame, 0 or more; got \(value).")
            }
        }
        if let from, let to, to <= from {
            throw ValidationError("--to (\(to)) must be after --from (\(from)).")
        }
        if let device, device < 0 {
            throw ValidationError("--device takes a device number, 0 or more (as `touchline inspect` lists them); got \(device).")
        }
    }

    func run() throws {
        try reportingErrors { try plot() }
    }

    /// Where the SVG goes: -o, else the trace's base name with .svg here (stdout for stdin).
    var outputPath: String {
        if let output { return output }
        if file == "-" { return "-" }
        return TraceFile.baseName(file) + ".svg"
    }

    func plot() throws {
        TemporaryCleanup.install(unblock: true)
        let (graphConfiguration, deviceConfiguration) = try config.map(loadReplayConfiguration) ?? (.default, DeviceConfiguration())
        var trace = try TraceFile.open(file, input: input)
        var replay = GesturePipeline(configuration: graphConfiguration, assemblerOptions: input.assemblerOptions)
        var plot = TracePlot(options: .init(from: from, to: to))
        var devices = TraceDevices(deviceConfiguration, configPath: config)
        // As `replay` starts a device, and the device's panel with it.
        func start(_ index: Int) throws -> Bool {
            guard let settings = try devices.start(index, of: trace, in: &replay) else { return false }
            let description = trace.devices[index]
            guard device == nil || device == index, let geometry = replay.assembler(of: index)?.geometry else { return true }
            // The surface the graph sees (rotated when [[device]] says so), as GesturePipeline makes it.
            let surface = settings?.transform?.surface(geometry.size) ?? geometry.size
            let targets = (settings?.graphConfiguration ?? graphConfiguration).targets.map {
                TracePlot.Target(name: $0.name, rect: $0.millimetreRect(on: surface))
            }
            plot.add(.init(index: index, name: description.name, size: surface, sizeSource: geometry.source.rawValue, targets: targets))
            return true
        }
        let chosen = device
        let emit: (GestureEvent) -> Void = { event in
            if chosen == nil || chosen == event.device { plot.record(event) }
        }
        do {
            while let (index, event) = try trace.next() {
                if !replay.isStarted(index) {
                    if devices.ignored.contains(index) { continue }
                    guard try start(index) else { continue }
                }
                guard replay.feed(device: index, event, emit: emit), chosen == nil || chosen == index else { continue }
                plot.record(replay.frame(of: index), device: index)
            }
        } catch {
            replay.finish(emit: { _ in })
            throw error
        }
        replay.finish(emit: emit)
        if let chosen, !replay.isStarted(chosen) {
            throw CLIError.usage("\(trace.displayName): --device \(chosen): the trace has no events of device \(chosen) (it describes \(trace.devices.count) device(s)); expected one `touchline inspect` lists")
        }
        var inputs = [file]
        if let config { inputs.append(config) }
        if let desc = input.desc { inputs.append(desc) }
        inputs += TraceReader.descriptionCandidates(forEventsPath: file)
        let sink = try FileByteSink(path: outputPath, inputs: inputs)
        var writer = sink
        try writer.write(plot.svg(file: trace.displayName))
        try sink.commit()
        // The picture says so in its header too; a person running it learns it here.
        if let note = plot.leftOutNote { warn("\(trace.displayName): \(note)") }
    }
}
