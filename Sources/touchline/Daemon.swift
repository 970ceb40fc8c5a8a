// `touchline daemon`: the live session on every touchscreen (or on a recording played in real
// time), its gesture events published on the event socket and, with --stdout, on standard
// output. The session, the sources and the socket are TouchlineLive's; this parses and wires.
import ArgumentParser
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
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
            --config again: if valid, gestures in flight end as cancelled and the new graph, \
            device settings and actions apply; if not, its error goes to stderr and the old \
            configuration keeps running.
            """)

    @Option(help: ArgumentHelp("A graph configuration (TOML; docs/config.md), as `replay --config`, plus [[action]] sections (docs/live.md#actions) and [[device]] sections (rotation, calibration, size, graph, ignore; docs/live.md#devices). Default: the embedded graph, no actions, no device settings.", valueName: "file.toml"))
    var config: String?

    @Option(help: ArgumentHelp("The event socket's path. Default: $XDG_RUNTIME_DIR/touchline.sock, else /run/touchline.sock.", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("The socket file's group (a name or number; mode stays 0660), so that its members may connect. Default: the daemon's group.", valueName: "group"))
    var socketGroup: String?

    @Option(help: ArgumentHelp("Once the devices, the socket and uinput are open, become this user (and group; default: the user's), with the user's supplementary groups. Needs root; an unknown user exits 67.", valueName: "name[:group]"))
    var user: String?

    @Flag(help: "Also write every gesture event to standard output (JSON Lines, or text rows with --format text). A reader too slow loses events (counted on stderr); it never holds up the daemon.")
    var stdout = false

    @Flag(help: "Also publish why each recognizer won or failed, as replay --explain does: lines with \"gesture\":\"explain\" on the socket (and --stdout), which `listen --explain` shows. Off by default: most clients want gestures only.")
    var explain = false

    @Flag(help: "Run no action: each one a gesture would run is a line on stderr, \"dry run: would run …\" (argv, shell, keys, click), with the frames an input action would write through uinput. With --source trace:FILE, [[device]] passthrough is previewed as lines too (what the application on the clone would receive). A configuration is checked on a recording, on any machine.")
    var dryRun = false

    @Option(help: ArgumentHelp("Where input comes from: evdev (every touchscreen through libevdev, hotplug by inotify; pressure and touch size), libinput (the udev seat through libinput, hotplug by udev; no pressure) or trace:FILE (a recording played in real time; at its end, once its gestures and actions are done, the daemon exits 0).", valueName: "evdev|libinput|trace:FILE"))
    var source = "evdev"

    @Option(help: "With --source libinput, the udev seat.")
    var seat = "seat0"

    @Option(help: "With --source trace:FILE, how many times faster than recorded to play it.")
    var speed: Double = 1

    @Option(help: "With --source trace:FILE, seconds to wait before the first event (so clients can connect).")
    var startDelay: Double = 0

    @Option(help: "With --source trace:FILE, play it this many times, each copy one second after the last (for soaks: docs/performance.md).")
    var loop = 1

    @Flag(help: "With --source trace:FILE, keep serving once the trace has played (quiet, as a touchscreen nobody touches) until SIGTERM, instead of exiting 0: for clients that connect or act after it.")
    var stay = false

    /// Hidden: print the in-process latency histogram (docs/performance.md) to stderr at exit.
    @Flag(help: .hidden)
    var measure = false

    /// Hidden, for measuring pass-through where there is no uinput (docs/live.md#pass-through):
    /// with --source trace:FILE, each device a `[[device]]` section passes through gets a clone
    /// that is this file (a pipe): the binary input_event records a uinput clone receives, one
    /// write(2) per frame (PassThroughFile).
    @Option(help: .hidden)
    var passthroughTo: String?

    @Option(help: ArgumentHelp("Only check a configuration: print \"FILE: ok\" and exit 0, or its error and exit 65. Opens no device and no socket.", valueName: "file.toml"))
    var checkConfig: String?

    @OptionGroup var input: InputOptions

    @OptionGroup var format: FormatOptions

    /// `--speed`: a thousandth of real time to the soak's million times (docs/performance.md).
    static let speedRange = 0.001...1_000_000.0
    /// `--start-delay`, in seconds.
    static let startDelayRange = 0.0...86_400.0

    var tracePath: String? {
        source.hasPrefix("trace:") ? String(source.dropFirst("trace:".count)) : nil
    }

    func validate() throws {
        if format.isText && !stdout { throw ValidationError("--format text applies to --stdout (the socket always carries JSON Lines)") }
        if format.relativeTime && !stdout { throw ValidationError("--relative-time applies to --stdout (the socket always carries the kernel's times)") }
        if source != "evdev" && source != "libinput" && tracePath == nil {
            throw ValidationError("--source: expected evdev, libinput or trace:FILE, found \"\(source)\"")
        }
        if source != "libinput" && seat != "seat0" { throw ValidationError("--seat applies to --source libinput") }
        if tracePath == "" { throw ValidationError("--source trace: needs a file, as trace:FILE") }
        // Bounded so that the trace clock's arithmetic (microseconds in Int64) cannot overflow:
        // 1e-15 or 1e308 reached a trap converting Double to Int64.
        if !(Daemon.speedRange ~= speed) {
            throw ValidationError("--speed must be between \(Daemon.speedRange.lowerBound) and \(Int(Daemon.speedRange.upperBound)), found \(speed)")
        }
        if !(Daemon.startDelayRange ~= startDelay) {
            throw ValidationError("--start-delay must be between 0 and \(Int(Daemon.startDelayRange.upperBound)) seconds (a day), found \(startDelay)")
        }
        if tracePath == nil && (speed != 1 || startDelay != 0 || loop != 1 || stay) {
            throw ValidationError("--speed, --start-delay, --loop and --stay apply to --source trace:FILE")
        }
        if passthroughTo != nil && tracePath == nil { throw ValidationError("--passthrough-to applies to --source trace:FILE") }
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

    func daemon() throws {
        // Before anything is opened: an unknown user leaves no socket behind.
        let drop = try user.map { spec throws(CLIError) in try PrivilegeDrop.resolve(spec) }
        try drop?.checkPermitted()
        drop?.adjustEnvironment()
        let notifier = SystemdNotifier.fromEnvironment(warn: { warn($0) })
        let configuration = try config.map { try Daemon.loadConfiguration($0) } ?? DaemonConfiguration()
        // Without a device passed through, nothing would ever be written to the file: said, not
        // left to a measurement that reads an empty pipe.
        if passthroughTo != nil && Daemon.passThroughPredicate(configuration.devices) == nil {
            throw CLIError.usage("--passthrough-to: no [[device]] in \(config ?? "the configuration (none given: --config FILE)") has passthrough = true, so no frame would be written")
        }
        var options = input.assemblerOptions
        let path = socket ?? EventSocketServer.defaultPath(environment: Environment.all())
        try Daemon.checkSocketPath(path)
        // A dry run on a recording previews pass-through as lines (PassThroughLog) instead.
        if (tracePath != nil && !dryRun && passthroughTo == nil) || source == "libinput" {
            try Daemon.checkPassThrough(configuration, source: tracePath != nil ? "trace:\(tracePath!)" : "libinput", config: config)
        }
        let actions = RunningActions()
        if let tracePath {
            // The trace is opened before the socket: a missing file leaves nothing behind.
            var trace = try LoopingTrace(path: tracePath, input: input, copies: loop)
            var source = try TraceLiveSource(
                name: TraceFile.displayName(tracePath), speed: speed, startDelay: Interval(microseconds: Int64(startDelay * 1_000_000)),
                next: { try trace.next() },
                describe: { index in index < trace.devices.count ? trace.devices[index] : nil })
            source.stopsAtEnd = !stay
            // The end waits for the actions still running (their timeouts bound it).
            source.busy = { actions.runner.map { $0.running > 0 } ?? false }
            source.playedToEnd = { actions.playedToEnd = true }
            if let file = passthroughTo, let passes = Daemon.passThroughPredicate(configuration.devices) {
                // Opened per device as it is added; one that cannot be opened is said, and that
                // device is played without a clone.
                source.passThrough = { path, description in
                    guard passes(path, description) else {
                        // A [[device]] passes through, but not this one: said, as the case of none.
                        StandardError.warn("\(path): --passthrough-to: no [[device]] with passthrough = true matches \(description.name); nothing of it is written to \(file)")
                        return nil
                    }
                    do { return try PassThroughFile(path: file) } catch {
                        StandardError.warn("\(path): --passthrough-to: \(error)")
                        return nil
                    }
                }
            } else if dryRun, let passes = Daemon.passThroughPredicate(configuration.devices) {
                source.passThrough = { path, description in
                    passes(path, description) ? PassThroughLog(of: path, line: { StandardError.warn($0) }) : nil
                }
            }
            try serve(NotifyingSource(source, notifier: notifier, socketPath: path), path: path, clock: source.clock, options: options, configuration, drop: drop, actions: actions)
        } else if source == "libinput" {
            // libinput resyncs internally after a SYN_DROPPED and never passes one on.
            try serve(NotifyingSource(try LibinputLiveSource(paths: [], seat: seat), notifier: notifier, socketPath: path), path: path, clock: MonotonicClock(), options: options, configuration, drop: drop, actions: actions)
        } else {
            // EvdevDevice hands on libevdev's resync deltas after a SYN_DROPPED.
            options.dropRecovery = .syncEventsFollow
            // Pass-through: the session asks it per device, from the sections it runs (a reload's too).
            let evdev = try EvdevLiveSource(paths: [], grab: false)
            try serve(NotifyingSource(evdev, notifier: notifier, socketPath: path), path: path, clock: MonotonicClock(), options: options, configuration, drop: drop, actions: actions)
        }
    }

    func serve<Base>(_ source: NotifyingSource<Base>, path: String, clock: any LiveClock, options: FrameAssembler.Options, _ configuration: DaemonConfiguration, drop: PrivilegeDrop?, actions: RunningActions) throws {
        var source = source
        // Before the socket: without /dev/uinput the daemon stops at once, naming the action.
        let input = try Daemon.inputDevice(for: configuration.actions, config: config, dryRun: dryRun, log: { StandardError.warn($0) })
        let server: EventSocketServer
        do {
            server = try EventSocketServer(path: path, options: try socketOptions(configured: configuration.devices.socketGroup, drop: drop))
        } catch let error as EventSocketError {
            throw CLIError.output(error.message)
        }
        defer { server.close() }
        try source.watch(server.fileDescriptor) { try server.service() }
        // --stdout is one more subscriber: a reader that stops reading loses events (counted on
        // stderr), never holds up the input, the socket's clients or SIGTERM.
        let standardOutput = stdout ? NonBlockingOutput(warn: { StandardError.warn($0) }) : nil
        if let standardOutput, let fd = standardOutput.fileDescriptor {
            try source.watch(fd) { try standardOutput.service() }
        }
        defer { standardOutput?.finish() }
        var copy: (any LiveSink)? = standardOutput.map { output in
            format.isText ? TextLinesSink(output: output, color: format.colorsStandardOutput) as any LiveSink : JSONLinesSink(output: output)
        }
        if format.relativeTime { copy = copy.map { RelativeTimeSink($0) } }
        let sink = SocketSink(server: server, copy: copy)
        // With a file, a runner even without actions: SIGHUP may bring some.
        if config != nil || !configuration.actions.actions.isEmpty {
            // On the session's clock: its timeouts join the session's wait (hooks.timers).
            let runner = try ActionRunner(configuration.actions, input: input, warn: { sink.warn($0) }, clock: clock)
            runner.dryRun = dryRun
            try source.watch(runner.fileDescriptor) { runner.service() }
            sink.actions = runner
            actions.runner = runner
        }
        // Actions still running at the end get SIGTERM, then SIGKILL: none outlives the daemon.
        defer { sink.actions?.finish() }
        var session = LiveSession(output: .gestures, options: options, sink: sink, clock: clock)
        let probe = measure ? LatencyProbe() : nil
        sink.latencyProbe = probe
        session.latency.probe = probe
        let cloneProbe = measure ? LatencyProbe.passThrough() : nil
        session.latency.passThroughProbe = cloneProbe
        defer {
            if let probe { StandardError.write(probe.summary + "\n" + probe.buckets + "\n") }
            if let cloneProbe, cloneProbe.samples > 0 { StandardError.write(cloneProbe.summary + "\n" + cloneProbe.buckets + "\n") }
        }
        Daemon.configure(&session, configuration, path: config, runner: sink.actions, socketGroupOption: socketGroup != nil)
        // The udev rule `calibrate` writes calibrates the evdev source as libinput (which
        // applies it itself) (docs/calibrate.md).
        session.settings.honoursUdevCalibration = tracePath == nil && self.source == "evdev"
        session.settings.explain = explain
        // Registered targets are the session's: it applies the socket's messages to them.
        session.clients.targets = ClientTargets()
        session.clients.socket = server
        // `touchline view`'s frames go only to clients that subscribe with "view" (docs/view.md).
        session.clients.viewTap = server.viewTap
        sink.explainsForAll = explain
        try session.start(&source)
        // Pass-through clones of touchscreens plugged in after the drop are made through
        // /dev/uinput as the dropped user: the udev rule gives it to `touchline`, once uinput is
        // loaded (docs/live.md#pass-through, issue 35).
        if drop != nil && tracePath == nil && self.source == "evdev" { UInputDevice.loadModule() }
        try drop?.apply()
        source.ready()
        // Said once, on stderr (the journal): where clients connect, what is open, what runs.
        let devices = session.devices.values.sorted { $0.index < $1.index }.map { "\($0.path) (\($0.name))" }
        StandardError.warn("listening on \(path); \(devices.count) device\(devices.count == 1 ? "" : "s")\(devices.isEmpty ? " (waiting for one)" : ": " + devices.joined(separator: ", ")); \(config.map { "config " + $0 } ?? "the embedded graph, no actions")\(explain ? "; explain on" : "")\(dryRun ? "; dry run: actions as lines, none runs" : "")")
        do {
            try session.run(&source)
            // Played to its end (not a signal): what is queued for clients still reading goes
            // out first (bounded), as a replay's last lines reach its reader.
            if actions.playedToEnd { try server.drain(within: Interval(microseconds: 2_000_000), clock: MonotonicClock()) }
        } catch let error as SystemError where stdout && error.operation == "write" && error.isBrokenPipe {
            // --stdout's reader went away (`| head -1`): end as `replay | head` does, with 0,
            // the socket removed and actions ended by the defers above.
        }
    }

    /// What the trace source's closures and `serve` share: the daemon's action runner, once
    /// made (after the trace source that asks whether actions still run, before the trace's
    /// end can come), and whether the trace played to its end.
    final class RunningActions {
        var runner: ActionRunner?
        /// The trace source said it played to its end (not a signal's stop).
        var playedToEnd = false
    }

    /// A socket path that cannot be bound is a usage error (64) named before anything opens:
    /// bind(2)'s ENOENT or ENAMETOOLONG exited 70, as if the daemon had failed.
    static func checkSocketPath(_ path: String) throws(CLIError) {
        guard !path.isEmpty else { throw CLIError.usage("--socket needs a path") }
        let length = path.utf8.count
        guard length <= SocketConnection.maximumPathLength else {
            throw CLIError.usage("\(path): a socket path holds at most \(SocketConnection.maximumPathLength) bytes, found \(length)")
        }
        let directory = FilePath.directory(of: path)
        guard directory.isEmpty || FilePath.isDirectory(directory) else {
            throw CLIError.usage("\(path): no directory \(directory) to make the socket in")
        }
    }
}
