import ArgumentParser
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineSettings

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

            Several files are replayed one after the other, each on its own (its devices, its \
            clock), on --jobs threads: the output is the files' outputs in file order, the same \
            bytes for any --jobs. A file that fails keeps its output and the others'; its error \
            is reported after its output, and the exit status is the first failing file's, as \
            if it had been replayed alone.
            """
    )

    @Argument(help: "Trace files (libinput record YAML, evemu, getevent -lt); - for standard input.")
    var files: [String]

    @Option(help: ArgumentHelp("How many files are replayed at once (default: the number of cores). The output is the same bytes for any N.", valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Write each file's output to DIR/NAME.jsonl (NAME.txt with --format text), NAME being the input's file name, instead of standard output.", valueName: "DIR"))
    var outputDir: String?

    @OptionGroup var input: InputOptions

    @Flag(help: "Print frames of contacts (time, ids, phases, mm, pressure) instead of gestures.")
    var frames = false

    @Flag(help: "Add a line per arena decision: which recognizer won or failed, and why.")
    var explain = false

    @OptionGroup var format: FormatOptions

    @Option(help: ArgumentHelp("A graph configuration (TOML: targets, recognizers, relations; docs/config.md), and [[device]] sections matched by the trace's device name (rotation, calibration, size, graph; docs/live.md#devices). Default: the embedded graph.", valueName: "file.toml"))
    var config: String?

    @Option(help: ArgumentHelp("Also write, as a libinput record file, what an application on the daemon's pass-through clone would receive: every touch but those a consume = true recognizer won (docs/live.md#pass-through). One trace file.", valueName: "OUT.yml"))
    var passthrough: String?

    func validate() throws {
        if let passthrough {
            if passthrough.isEmpty { throw ValidationError("--passthrough needs a file name for the clone's libinput record.") }
            if files.count != 1 || outputDir != nil || frames {
                throw ValidationError("--passthrough replays one trace file (no --output-dir, no --frames).")
            }
        }
        if files.isEmpty {
            throw ValidationError("Missing expected argument '<files> ...': a trace file to replay.")
        }
        if let jobs, jobs < 1 {
            throw ValidationError("--jobs takes a number of threads, 1 or more; got \(jobs).")
        }
        if files.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("'-' (standard input) can be replayed once; it is named \(files.filter({ $0 == "-" }).count) times.")
        }
        if outputDir != nil {
            var seen: [String: String] = [:]
            for file in files {
                let name = outputName(file)
                if let other = seen[name] {
                    throw ValidationError("--output-dir: '\(other)' and '\(file)' would both be written to \(name); give the files different names.")
                }
                seen[name] = file
            }
        }
        if frames && (explain || config != nil) {
            throw ValidationError("--frames prints frames before recognition; --explain and --config apply to gestures only.")
        }
        if frames && format.isText {
            throw ValidationError("--format text prints gesture events (and --explain's decisions); --frames is JSON Lines only.")
        }
    }

    func run() throws {
        try reportingErrors {
            let configuration = try config.map(loadReplayConfiguration) ?? (.default, DeviceConfiguration())
            if let passthrough {
                try replayPassThrough(files[0], configuration, to: OutputStream(fd: 1), color: format.colorsStandardOutput, record: passthrough)
            } else if files.count == 1 && outputDir == nil {
                try replay(files[0], configuration, to: OutputStream(fd: 1), color: format.colorsStandardOutput, progress: true)
            } else {
                try replayCorpus(configuration)
            }
        }
    }

    /// One file's replay, to `output` (flushed before this returns or throws). `progress`: the
    /// terminal's progress line (a single file only; a corpus's threads would fight over it).
    /// `observer`: `touchline view FILE`'s (View.swift): it takes the events instead of
    /// `output`, and each device's start and frames; the loop is the pipeline's (`run`).
    func replay(_ file: String, _ configuration: (GraphConfiguration, DeviceConfiguration), to output: OutputStream, color: Bool, progress showsProgress: Bool = false, observer: ReplayObserver? = nil) throws {
        let (graphConfiguration, deviceConfiguration) = configuration
        let trace: TraceFile
        do {
            trace = try TraceFile.open(file, input: input)
        } catch {
            var out = output
            out.flush()
            throw error
        }
        // --relative-time at the input, so frames, gestures and deadlines all count from the
        // first event of the trace (of any device), as live `run --relative-time` does.
        var replay = GesturePipeline(
            configuration: graphConfiguration, assemblerOptions: input.assemblerOptions, recognizes: !frames, explain: explain,
            relativeTime: format.relativeTime)
        var source = TraceInput(trace: trace, devices: TraceDevices(deviceConfiguration, configPath: config))
        var sink = ReplayOutput(out: output, color: color, isText: format.isText, frames: frames, observer: observer)
        sink.progress = showsProgress ? ProgressLine.forStandardError(file: trace.displayName) : nil
        defer {
            sink.progress?.clear()
            sink.out.flush()
        }
        try replay.run(&source, into: &sink)
    }
}

/// Replay's outputs, as the pipeline makes them: gesture events as JSON Lines (or text rows),
/// `--frames`' frames, the progress line; `view FILE`'s observer instead of the output; with
/// `--passthrough`, the clone's record and `--explain`'s hold lines.
struct ReplayOutput: PipelineSink {
    var out: OutputStream
    var json = JSONWriter(capacity: 4096)
    var text: TextEventWriter
    let isText: Bool
    let frames: Bool
    let observer: ReplayObserver?
    var progress: ProgressLine?
    /// `--passthrough`'s record (Replay+PassThrough.swift).
    private(set) var clone: CloneRecord?
    /// Asked per event and per gesture instead of the optionals themselves: testing a large
    /// optional struct (or taking a copy of the observer's closures) there cost 150
    /// instructions per event.
    private var passesThrough = false
    private let observes: Bool

    init(out: OutputStream, color: Bool, isText: Bool, frames: Bool = false, observer: ReplayObserver? = nil) {
        self.out = out
        text = TextEventWriter(color: color)
        self.isText = isText
        self.frames = frames
        self.observer = observer
        observes = observer != nil
    }

    mutating func event(_ event: GestureEvent) {
        if observes { return observer!.event(event) }
        if isText {
            text.reset()
            text.write(event)
            out.write(text.bytes)
        } else {
            out.writeLine(event)
        }
    }

    /// `--passthrough`: the clone's frames go to `record`.
    mutating func record(to record: CloneRecord) {
        clone = record
        passesThrough = true
    }

    mutating func input(device: Int, _ event: InputEvent) {
        progress?.count(time: event.time)
        if passesThrough { clone!.input(event) }
    }

    mutating func started(device: Int, _ pipeline: GesturePipeline) {
        if observes { observer!.started(device, pipeline) }
        if passesThrough { clone!.started(device, pipeline) }
    }

    mutating func frame(device: Int, _ pipeline: GesturePipeline) {
        if observes { observer!.frame(device, pipeline) }
        guard frames else { return }
        json.reset()
        pipeline.frame(of: device).writeJSON(device: device, into: &json)
        out.write(json.bytes)
    }

    mutating func clone(device: Int, _ frame: PassThroughFrame) { if passesThrough { clone!.write(device, frame) } }

    /// `--explain` with `--passthrough`: a line per contact when its hold is decided.
    mutating func hold(device: Int, _ report: HoldReport) { out.write(Replay.holdLine(device: device, report, text: isText)) }
}

/// What `touchline view FILE` takes from `Replay.replay`: the events (instead of the output),
/// each device as it starts and each frame it completes, with the pipeline to read them from.
struct ReplayObserver {
    var event: (GestureEvent) -> Void
    var started: (Int, GesturePipeline) -> Void
    var frame: (Int, GesturePipeline) -> Void
}
