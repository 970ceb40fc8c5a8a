// `touchline view` (docs/view.md): one page in a browser that shows what the screen reports
// (contacts to scale, each device on its own) and what the recognizers decide (a lane each,
// the explain line of each decision, the gestures with their fields). Two sources, one page:
// `view FILE` replays a recording once, through replay's own loop (Replay.replay with an
// observer), and serves the frames, the events and the explain lines as one timeline the page
// plays, pauses and scrubs; `view` alone follows the running daemon through its socket,
// subscribed with "view", and passes each line on as a Server-Sent Event. The HTTP server is
// TouchlineView's (SwiftNIO), in a process of its own, `touchline-view`, beside this binary
// (docs/view.md "Two executables"): this binary does not link NIO. This file only wires: it
// starts the host (PageHost), says what to serve through its standard input, and prints the
// address it answers.
import ArgumentParser
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineLive
import TouchlineSettings

struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "See in a browser what the screen reports and what the recognizers decide: a recording, or the running daemon.",
        discussion: """
            Serves one page and prints its address. With FILE, the page plays the recording \
            (play, pause, speed, scrub, one frame at a time); its events are what `touchline \
            replay --explain FILE` prints, byte for byte. Without FILE, it follows the running \
            daemon through its socket (as `listen`): contacts as they move, each recognizer's \
            decisions (the daemon's explain lines, with `daemon --explain`), gestures, drops. \
            Listens on 127.0.0.1 unless --host says otherwise; any other address needs \
            --token (view refuses to start without one, and prints a random one to use). Read-only: \
            nothing the page asks changes the daemon (docs/view.md).
            """)

    @Argument(help: "A recording to play in the page (libinput record YAML, evemu, getevent -lt). Without it: follow the running daemon.")
    var file: String?

    @Option(help: ArgumentHelp("With FILE: a graph configuration, as replay --config.", valueName: "file.toml"))
    var config: String?

    @Option(help: ArgumentHelp("Without FILE: the daemon's socket. Default: as `listen`.", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("The address to listen on. Anything but loopback (127.0.0.1, ::1, localhost) needs a token.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on; 0: a free one (printed).", valueName: "n"))
    var port = 0

    @Option(help: ArgumentHelp("The token every request must carry (?token=…, printed with the address): 16 or more of A-Z a-z 0-9 - _. Needed off loopback: without it view stops and prints a random one to use.", valueName: "token"))
    var token: String?

    @Option(help: ArgumentHelp("Seconds a connection may take to send its request before it is closed.", valueName: "seconds"))
    var idle = 10

    @OptionGroup var input: InputOptions

    /// The recording's timeline is held in memory for the page: past this it is refused.
    static let timelineLimit = 128 << 20

    func validate() throws {
        if file == nil && config != nil {
            throw ValidationError("--config applies to a recording (view FILE); the daemon runs its own configuration.")
        }
        if file != nil && socket != nil {
            throw ValidationError("--socket follows the daemon (view without FILE); a recording is played by view itself.")
        }
        if !(0...65535 ~= port) { throw ValidationError("--port takes 0 to 65535, found \(port).") }
        if !(1...3600 ~= idle) { throw ValidationError("--idle takes 1 to 3600 seconds, found \(idle).") }
    }

    func run() throws {
        // SIGINT and SIGTERM end view, even when a parent left them blocked (a blocked mask is
        // inherited across exec).
        TemporaryCleanup.install(unblock: true)
        try reportingErrors {
            // The host checks the address and the token first (off loopback: only with a token
            // given on purpose), before anything is replayed or read from the daemon.
            var arguments = ["view", "--host", host, "--port", String(port), "--idle", String(idle)]
            if let token { arguments += ["--token", token] }
            let host = try Self.startHost(arguments)
            if let file {
                let timeline: [UInt8]
                do {
                    timeline = try Self.timeline(file, config: config, input: input)
                } catch {
                    _ = host.wait()
                    throw error
                }
                try Self.send(host, Array("resource /timeline application/x-ndjson;charset=utf-8 \(timeline.count)\n".utf8) + timeline)
                try Self.started(host, stream: false)
                // Served until the host ends (SIGINT, SIGTERM); its lines are not for view.
                while host.readLine() != nil {}
                try Self.ended(host)
            } else {
                try follow(host)
            }
        }
    }

    /// `touchline-view` (beside this binary) started with `arguments`.
    static func startHost(_ arguments: [String]) throws -> PageHost {
        guard let path = PageHost.sibling("touchline-view") else {
            throw CLIError.io("cannot find this binary's own path (/proc/self/exe), where touchline-view is")
        }
        do {
            return try PageHost(argv: [path] + arguments)
        } catch {
            throw CLIError.noInput("\(path): cannot start the page's server (\(error.message)); touchline view needs touchline-view installed beside touchline (scripts/install.sh does)")
        }
    }

    /// A message to the host; when it is gone, its exit status (it said why on standard error).
    static func send(_ host: PageHost, _ bytes: [UInt8]) throws {
        do {
            try host.write(bytes)
        } catch {
            try ended(host)
        }
    }

    /// Starts serving; prints the address the host answers (`touchline view: URL`, or the
    /// command's own `label`), at once: a script (or a person) opens it.
    static func started(_ host: PageHost, stream: Bool, label: String = "touchline view") throws {
        try send(host, Array((stream ? "start stream\n" : "start\n").utf8))
        guard let line = host.readLine(), line.starts(with: Array("address ".utf8)) else {
            try ended(host)
            return
        }
        var out = OutputStream(fd: 1)
        out.write("\(label): \(String(decoding: line.dropFirst(8), as: UTF8.self))\n")
        out.flush()
    }

    /// The host's end, as this command's: its status (a failure was said by the host).
    static func ended(_ host: PageHost) throws {
        let status = host.wait()
        if status.signal != 0 { throw ExitCode(128 + status.signal) }
        if status.code != 0 { throw ExitCode(status.code) }
        throw ExitCode(ExitStatus.internalError)
    }

    /// The recording replayed once, as `replay --explain` replays it, into the page's
    /// timeline: a `{"view":"device",…}` line per device as it starts, a frame line per frame
    /// (ViewLines), and each event line exactly as replay writes it, in replay's order.
    static func timeline(_ file: String, config: String?, input: InputOptions) throws -> [UInt8] {
        var replay = try Replay.parse([file, "--explain"])
        replay.input = input
        replay.config = config
        let configuration = try config.map(loadReplayConfiguration) ?? (.default, DeviceConfiguration())
        let timeline = ViewTimeline(limit: timelineLimit)
        let observer = ReplayObserver(
            event: { timeline.event($0) },
            started: { index, pipeline in timeline.started(index, pipeline) },
            frame: { index, pipeline in timeline.frame(index, pipeline) })
        do {
            try replay.replay(file, configuration, to: OutputStream(fd: 1), color: false, observer: observer)
        } catch {
            // What was read before a bad line is shown, as replay prints it; the error is said.
            guard let (message, _) = userReport(of: error) else { throw error }
            warn(message)
        }
        if timeline.overflowed {
            throw CLIError.data("\(file): its timeline is over \(timelineLimit >> 20) MiB; view a shorter recording (`touchline convert` can cut one)")
        }
        return timeline.bytes
    }

    /// Follows the daemon: its lines to the page's stream until the daemon closes.
    func follow(_ host: PageHost) throws {
        let path = socket ?? Listen.defaultSocket(environment: Environment.all())
        let client: SocketConnection
        do {
            client = try Listen.connect(path)
        } catch {
            _ = host.wait()
            throw error
        }
        defer { client.close() }
        do {
            try client.send(Array("{\"subscribe\":{\"view\":true}}\n".utf8))
        } catch {
            throw CLIError.io("\(path): cannot send the subscription: \(error.message)")
        }
        try Self.started(host, stream: true)
        let deviceLine = Array("{\"view\":\"device\"".utf8)
        let send = Array("send ".utf8)
        var message: [UInt8] = []
        try Listen.readSubscribed(client, path: path, refused: "the daemon refused the view subscription (is it older than view?)") { line in
            message.removeAll(keepingCapacity: true)
            if line.starts(with: deviceLine), let index = Self.device(of: line) {
                // Kept: a page that opens later is told the devices first.
                message.append(contentsOf: "keep \(index) ".utf8)
            } else {
                message.append(contentsOf: send)
            }
            message.append(contentsOf: line)
            message.append(0x0A)
            try Self.send(host, message)
        }
        try Self.send(host, Array("send {\"view\":\"closed\"}\n".utf8))
        warn("\(path): the daemon closed the connection")
        _ = host.wait()
    }

    /// The `device` number of a `{"view":"device",…}` line.
    static func device(of line: ArraySlice<UInt8>) -> Int? {
        guard case .object(let members)? = try? JSONReader.read(line), case .integer(let n)? = members.value("device") else { return nil }
        return Int(exactly: n)
    }
}

/// The timeline `view FILE` serves, made as replay runs.
final class ViewTimeline {
    var bytes: [UInt8] = []
    var line = JSONWriter(capacity: 1024)
    let limit: Int
    var overflowed = false

    init(limit: Int) { self.limit = limit }

    func event(_ event: GestureEvent) {
        guard !overflowed else { return }
        // As OutputStream.writeLine writes it for replay: the same writer, the same bytes.
        line.reset()
        event.writeJSON(into: &line)
        line.newline()
        append()
    }

    func started(_ index: Int, _ pipeline: GesturePipeline) {
        guard let graph = pipeline.graph(of: index) else { return }
        line.reset()
        ViewLines.device(index, surface: graph.surface, configuration: graph.configuration, into: &line)
        append()
    }

    func frame(_ index: Int, _ pipeline: GesturePipeline) {
        guard !overflowed else { return }
        line.reset()
        ViewLines.frame(pipeline.frame(of: index), raw: pipeline.assembledFrame(of: index), device: index, into: &line)
        append()
    }

    func append() {
        if bytes.count + line.bytes.count > limit {
            overflowed = true
            return
        }
        bytes.append(contentsOf: line.bytes)
    }
}
