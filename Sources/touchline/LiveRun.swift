// `touchline run [DEVICE…]`: live recognition. The session and its loop are TouchlineLive's
// (LiveSession on an EvdevLiveSource or a LibinputLiveSource); this parses, wires and reports.
import ArgumentParser
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineLive

enum LiveBackend: String, ExpressibleByArgument, CaseIterable {
    case evdev
    case libinput
}

/// What `run` prints.
enum LiveOutput: String, ExpressibleByArgument, CaseIterable {
    /// Gesture events (schema v1), as `touchline replay` prints them.
    case gestures
    /// Frames of contacts, as `touchline replay --frames` prints them.
    case frames
    /// Raw evdev events as the kernel delivered them (diagnostics, round-trip tests).
    case events
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Recognize gestures on live devices; JSON Lines (or --format text) on standard output.",
        discussion: """
            Without DEVICE arguments, uses every touchscreen (see `touchline devices`); with the \
            libinput backend, follows the udev seat (hotplug). With explicit devices, exits when \
            the last one is removed. SIGINT/SIGTERM end in-flight gestures as cancelled and exit.
            """)

    @Argument(help: "Event nodes (/dev/input/eventN) to use.")
    var devices: [String] = []

    @Option(help: "Where input comes from: evdev (libevdev; pressure and touch size) or libinput (udev seat, hotplug, calibration; no pressure).")
    var backend: LiveBackend = .evdev

    @Flag(help: "Take the devices exclusively (EVIOCGRAB), so no other program sees their events.")
    var grab = false

    @Option(help: "What to print: \(LiveOutput.allCases.map(\.rawValue).joined(separator: ", ")).")
    var output: LiveOutput = .gestures

    @Option(help: "Write each SYN_REPORT's latency (kernel time to output written, µs) to this file, and a p50/p99 summary to standard error on exit.")
    var latency: String?

    @Option(help: "Create this file once the devices are open and being read (a readiness signal for scripts and `play --wait-for`).")
    var readyFile: String?

    @Option(help: "libinput udev seat (with no DEVICE arguments).")
    var seat = "seat0"

    @Flag(help: "Add a line per arena decision: which recognizer won or failed, and why.")
    var explain = false

    @Option(help: ArgumentHelp("A graph configuration (TOML; docs/config.md). Default: the embedded graph.", valueName: "file.toml"))
    var config: String?

    @OptionGroup var input: InputOptions

    @OptionGroup var format: FormatOptions

    func validate() throws {
        if output != .gestures && (explain || config != nil) {
            throw ValidationError("--explain and --config apply to --output gestures only")
        }
        if format.isText && output != .gestures {
            throw ValidationError("--format text prints gesture events; --output \(output.rawValue) is JSON Lines only")
        }
        if backend == .libinput && grab { throw ValidationError("--grab applies to the evdev backend (libinput grabs nothing)") }
    }

    func run() throws {
        try reportingErrors { try live() }
    }

    func live() throws {
        let graphConfiguration = try loadGraphConfiguration(config)
        var options = input.assemblerOptions
        // EvdevDevice hands on libevdev's resync deltas after a SYN_DROPPED (libinput resyncs
        // internally and never passes one on).
        options.dropRecovery = .syncEventsFollow
        let latencyFile = try latency.map { path throws(SystemError) in try FileOutput(creating: path) }
        var session = LiveSession(
            output: LiveSession.Output(rawValue: output.rawValue) ?? .gestures, options: options,
            sink: format.isText ? TextLinesSink(color: format.colorsStandardOutput) as any LiveSink : JSONLinesSink(), clock: MonotonicClock())
        // Then the output equals `touchline replay` of a recording made alongside.
        session.relativeTime = format.relativeTime
        session.settings.graphConfiguration = graphConfiguration
        session.settings.configPath = config
        session.settings.explain = explain
        session.latency.measures = latencyFile != nil
        switch backend {
        case .evdev:
            // The udev rule `calibrate` writes, as libinput applies it (docs/calibrate.md).
            session.settings.honoursUdevCalibration = true
            session.hooks.udevProperties = { UdevDatabase.properties(ofNode: $0) }
            var source = try EvdevLiveSource(paths: devices, grab: grab)
            try session.start(&source)
            try signalReady()
            try session.run(&source)
        case .libinput:
            var source = try LibinputLiveSource(paths: devices, seat: seat)
            try session.start(&source)
            try signalReady()
            try session.run(&source)
        }
        if let latencyFile { try report(session.latency.latencies, to: latencyFile) }
    }

    func signalReady() throws {
        guard let readyFile else { return }
        try FileOutput(creating: readyFile).close()
    }

    func report(_ latencies: [Int64], to file: FileOutput) throws {
        var text = ""
        for l in latencies { text += "\(l)\n" }
        try file.write(text)
        file.close()
        let sorted = latencies.sorted()
        func pct(_ p: Double) -> Int64 { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        try FileOutput.standardError.write("latency: \(counted(sorted.count, "frame")), p50 \(pct(0.50)) µs, p99 \(pct(0.99)) µs, max \(sorted.last ?? 0) µs\n")
    }
}
