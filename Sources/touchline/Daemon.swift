// `touchline daemon`: the live session on every touchscreen (or on a recording played in real
// time), its gesture events published on the event socket and, with --stdout, on standard
// output. The session, the sources and the socket are TouchlineLive's; this parses and wires.
import ArgumentParser
import Foundation
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineLive

struct Daemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Recognize gestures on every touchscreen and publish them on the event socket.",
        discussion: """
            Clients connect to the socket (default $XDG_RUNTIME_DIR/touchline.sock, else \
            /run/touchline.sock) and send {"subscribe": []} (or gesture names) to receive events \
            as JSON Lines, as `touchline replay` prints them (docs/live.md). SIGINT/SIGTERM end \
            in-flight gestures as cancelled, remove the socket and exit 0. SIGHUP reads \
            --config again: if valid, gestures in flight end as cancelled and the new graph runs; \
            if not, its error goes to stderr and the old graph keeps running.
            """)

    @Option(help: ArgumentHelp("A graph configuration (TOML; docs/config.md), as `replay --config`, plus [[action]] sections (docs/live.md#actions). Default: the embedded graph, no actions.", valueName: "file.toml"))
    var config: String?

    @Option(help: ArgumentHelp("The event socket's path. Default: $XDG_RUNTIME_DIR/touchline.sock, else /run/touchline.sock.", valueName: "path"))
    var socket: String?

    @Flag(help: "Also write every gesture event to standard output (JSON Lines).")
    var stdout = false

    @Option(help: ArgumentHelp("Where input comes from: evdev (every touchscreen, hotplug) or trace:FILE (a recording played in real time, then quiet until signalled).", valueName: "evdev|trace:FILE"))
    var source = "evdev"

    @Option(help: "With --source trace:FILE, how many times faster than recorded to play it.")
    var speed: Double = 1

    @Option(help: "With --source trace:FILE, seconds to wait before the first event (so clients can connect).")
    var startDelay: Double = 0

    @Option(help: "With --source trace:FILE, play it this many times, each copy one second after the last (for soaks: docs/performance.md).")
    var loop = 1

    /// Hidden: print the in-process latency histogram (docs/performance.md) to stderr at exit.
    @Flag(help: .hidden)
    var measure = false

    @Option(help: ArgumentHelp("Only check a configuration: print \"FILE: ok\" and exit 0, or its error and exit 65. Opens no device and no socket.", valueName: "file.toml"))
    var checkConfig: String?

    @OptionGroup var input: InputOptions

    var tracePath: String? {
        source.hasPrefix("trace:") ? String(source.dropFirst("trace:".count)) : nil
    }

    func validate() throws {
        if source != "evdev" && tracePath == nil {
            throw ValidationError("--source: expected evdev or trace:FILE, found \"\(source)\"")
        }
        if tracePath == "" { throw ValidationError("--source trace: needs a file, as trace:FILE") }
        if !(speed > 0 && speed.isFinite) { throw ValidationError("--speed must be a positive number, found \(speed)") }
        if !(startDelay >= 0 && startDelay.isFinite) { throw ValidationError("--start-delay must not be negative, found \(startDelay)") }
        if tracePath == nil && (speed != 1 || startDelay != 0 || loop != 1) {
            throw ValidationError("--speed, --start-delay and --loop apply to --source trace:FILE")
        }
        if loop < 1 { throw ValidationError("--loop must be at least 1, found \(loop)") }
        if loop > 1 && tracePath == "-" { throw ValidationError("--loop needs a file it can read again, not standard input") }
    }

    func run() throws {
        try reportingErrors {
            if let checkConfig {
                _ = try Daemon.loadConfiguration(checkConfig)
                print("\(checkConfig): ok")
                return
            }
            try daemon()
        }
    }

    /// The configuration in `path` (the graph and the actions); `--check-config` and SIGHUP
    /// read it through this too, so actions are checked as the daemon reads them.
    static func loadConfiguration(_ path: String) throws -> DaemonConfiguration {
        do {
            return try DaemonConfiguration.parse(bytes: try readSmallFile(path), file: path)
        } catch let error as ConfigError {
            throw CLIError.data(error.description)
        }
    }

    func daemon() throws {
        var graphConfiguration = GraphConfiguration.default
        var actions = ActionConfiguration()
        if let config {
            let parsed = try Daemon.loadConfiguration(config)
            graphConfiguration = parsed.graph
            actions = parsed.actions
        }
        var options = input.assemblerOptions
        let path = socket ?? EventSocketServer.defaultPath(environment: ProcessInfo.processInfo.environment)
        if let tracePath {
            // The trace is opened before the socket: a missing file leaves nothing behind.
            var trace = try LoopingTrace(path: tracePath, input: input, copies: loop)
            let source = try TraceLiveSource(
                name: TraceFile.displayName(tracePath), speed: speed, startDelay: Interval(microseconds: Int64(startDelay * 1_000_000)),
                next: { try trace.next() },
                describe: { index in index < trace.devices.count ? trace.devices[index] : nil })
            try serve(source, path: path, clock: source.clock, options: options, graphConfiguration, actions: actions)
        } else {
            // EvdevDevice hands on libevdev's resync deltas after a SYN_DROPPED.
            options.dropRecovery = .syncEventsFollow
            try serve(try EvdevLiveSource(paths: [], grab: false), path: path, clock: MonotonicClock(), options: options, graphConfiguration, actions: actions)
        }
    }

    func serve(_ source: some DaemonSource, path: String, clock: any LiveClock, options: FrameAssembler.Options, _ configuration: GraphConfiguration, actions: ActionConfiguration) throws {
        var source = source
        let server: EventSocketServer
        do {
            server = try EventSocketServer(path: path)
        } catch let error as EventSocketError {
            throw CLIError.output(error.message)
        }
        defer { server.close() }
        try source.watch(server.fileDescriptor) { try server.service() }
        let sink = SocketSink(server: server, copy: stdout ? JSONLinesSink() : nil)
        if !actions.actions.isEmpty {
            let runner = try ActionRunner(actions, warn: { sink.warn($0) })
            try source.watch(runner.fileDescriptor) { runner.service() }
            sink.actions = runner
        }
        // Actions still running at the end get SIGTERM, then SIGKILL: none outlives the daemon.
        defer { sink.actions?.finish() }
        var session = LiveSession(output: .gestures, options: options, sink: sink, clock: clock)
        let probe = measure ? LatencyProbe() : nil
        sink.latencyProbe = probe
        session.latencyProbe = probe
        defer { if let probe { FileHandle.standardError.write(Data((probe.summary + "\n").utf8)) } }
        session.graphConfiguration = configuration
        session.configPath = config
        // SIGHUP reloads the graph; the actions read at start-up stay (their reload is not
        // done yet: docs/live.md).
        if let config { session.reloadConfiguration = { try Daemon.loadConfiguration(config).graph } }
        try session.start(&source)
        try session.run(&source)
    }
}

/// The sources the daemon can serve its socket from (the socket's descriptor in their loop).
protocol DaemonSource: LiveSource {
    mutating func watch(_ fd: Int32, onReadable: @escaping () throws -> Void) throws
}

extension EvdevLiveSource: DaemonSource {}
extension TraceLiveSource: DaemonSource {}
