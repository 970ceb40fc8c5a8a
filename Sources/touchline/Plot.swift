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
        var source = TraceInput(trace: try TraceFile.open(file, input: input), devices: TraceDevices(deviceConfiguration, configPath: config))
        var replay = GesturePipeline(configuration: graphConfiguration, assemblerOptions: input.assemblerOptions)
        var output = PlotOutput(plot: TracePlot(options: .init(from: from, to: to)), chosen: device)
        try replay.run(&source, into: &output)
        let trace = source.trace
        let plot = output.plot
        if let chosen = device, !replay.isStarted(chosen) {
            throw CLIError.usage("\(trace.displayName): --device \(chosen): the trace has no events of device \(chosen) (it describes \(counted(trace.devices.count, "device"))); expected one `touchline inspect` lists")
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

/// The plot's part of the pipeline's outputs: each device's panel as it starts (the surface and
/// targets its graph sees, rotated when its `[[device]]` says so), its frames and its events;
/// only device `chosen`'s when given.
struct PlotOutput: PipelineSink {
    var plot: TracePlot
    let chosen: Int?

    mutating func started(device: Int, _ pipeline: GesturePipeline) {
        guard chosen == nil || chosen == device, let assembler = pipeline.assembler(of: device), let graph = pipeline.graph(of: device) else { return }
        let targets = graph.configuration.targets.map { TracePlot.Target(name: $0.name, rect: $0.millimetreRect(on: graph.surface)) }
        plot.add(.init(index: device, name: assembler.device.name, size: graph.surface, sizeSource: assembler.geometry.source.rawValue, targets: targets))
    }

    mutating func event(_ event: GestureEvent) {
        if chosen == nil || chosen == event.device { plot.record(event) }
    }

    mutating func frame(device: Int, _ pipeline: GesturePipeline) {
        if chosen == nil || chosen == device { plot.record(pipeline.frame(of: device), device: device) }
    }
}
