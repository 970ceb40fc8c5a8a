// `touchline view` (docs/view.md): one page in a browser that shows what the screen reports
// (contacts to scale, each device on its own) and what the recognizers decide (a lane each,
// the explain line of each decision, the gestures with their fields). Two sources, one page:
// `view FILE` replays a recording once, through replay's own loop (Replay.replay with an
// observer), and serves the frames, the events and the explain lines as one timeline the page
// plays, pauses and scrubs; `view` alone follows the running daemon through its socket,
// subscribed with "view", and passes each line on as a Server-Sent Event. The HTTP server is
// TouchlineView's (SwiftNIO); this file only wires.
import ArgumentParser
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineLive
import TouchlineSettings
import TouchlineView

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
        // inherited across exec): before the server's thread starts, which inherits the mask.
        TemporaryCleanup.install(unblock: true)
        try reportingErrors {
            var options = ViewServerOptions()
            options.host = host
            options.port = port
            options.idleSeconds = Int64(idle)
            // Off loopback the page is open to the network: only with a token given on
            // purpose. One is made here for the user to pass, not used on their behalf.
            if token == nil && !ViewServer.isLoopback(host) {
                throw CLIError.usage("--host \(host) is not a loopback address: anyone who can reach it could watch the screen; run again with --token (this one was just made: --token \(ViewServer.makeToken()))")
            }
            options.token = token
            if let file {
                let timeline = try Self.timeline(file, config: config, input: input)
                let server = try start(options, ViewContent(page: ViewPage.html, resources: ["/timeline": ("application/x-ndjson; charset=utf-8", timeline)]))
                server.wait()
            } else {
                try follow(options)
            }
        }
    }

    func start(_ options: ViewServerOptions, _ content: ViewContent) throws -> ViewServer {
        let server: ViewServer
        do {
            server = try ViewServer(options: options, content: content)
        } catch {
            throw CLIError.usage(error.message)
        }
        // The address on standard output, at once: a script (or a person) opens it.
        var out = OutputStream(fd: 1)
        out.write("touchline view: \(server.address)\n")
        out.flush()
        return server
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
    func follow(_ options: ViewServerOptions) throws {
        let path = socket ?? Listen.defaultSocket(environment: Environment.all())
        let client = try Listen.connect(path)
        defer { client.close() }
        do {
            try client.send(Array("{\"subscribe\":{\"view\":true}}\n".utf8))
        } catch {
            throw CLIError.io("\(path): cannot send the subscription: \(error.message)")
        }
        let stream = ViewStream(backlog: options.streamBacklogBytes)
        let server = try start(options, ViewContent(page: ViewPage.html, stream: stream))
        defer { server.stop() }
        let deviceLine = Array("{\"view\":\"device\"".utf8)
        try Listen.readSubscribed(client, path: path, refused: "the daemon refused the view subscription (is it older than view?)") { line in
            if line.starts(with: deviceLine), let index = Self.device(of: line) {
                // Kept: a page that opens later is told the devices first.
                stream.keep(index, Array(line))
            } else {
                stream.send(Array(line))
            }
        }
        stream.send(Array("{\"view\":\"closed\"}".utf8))
        warn("\(path): the daemon closed the connection")
    }

    /// The `device` number of a `{"view":"device",…}` line.
    static func device(of line: ArraySlice<UInt8>) -> Int? {
        guard case .object(let members)? = try? JSONReader.read(line), case .integer(let n)? = members.first(where: { $0.key == "device" })?.value else { return nil }
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
