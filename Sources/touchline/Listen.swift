// `touchline listen`: a client of the daemon's event socket that prints what it receives, for
// users and scripts (`touchline listen --subscribe tap | while read -r line; …`). Each batch of
// complete lines is written as it arrives, so SIGINT (which ends it, as it ends `cat`) loses
// nothing already received.
import ArgumentParser
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineLive

struct Listen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the gesture events the daemon publishes on its socket (JSON Lines, or text rows with --format text).",
        discussion: """
            Connects to the daemon's socket, subscribes (every gesture, or those named with \
            --subscribe) and prints each event line until the daemon closes the connection \
            (exit 0) or SIGINT. No daemon listening on the socket: exit 66. A subscription the \
            daemon refuses (an unknown gesture name): its error on stderr, exit 64.
            """)

    @Option(help: ArgumentHelp("The event socket's path. Default: the first that exists of $XDG_RUNTIME_DIR/touchline.sock (a user's daemon), /run/touchline/touchline.sock (the systemd unit's) and /run/touchline.sock.", valueName: "path"))
    var socket: String?

    /// Where a daemon listens when --socket is not given: a user's own daemon first, then the
    /// packaged service's (packaging/touchline.service), then the daemon's root default.
    static func defaultSocket(environment: [String: String]) -> String {
        let candidates = [EventSocketServer.defaultPath(environment: environment), "/run/touchline/touchline.sock", "/run/touchline.sock"]
        return candidates.first { FilePath.exists($0) } ?? candidates[0]
    }

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Only these gestures (names as in the events, e.g. tap pinch). Default: every gesture.", valueName: "gesture"))
    var subscribe: [String] = []

    @Flag(help: "Also print the explain lines of a daemon run with --explain (why each recognizer won or failed). Without it they are left out.")
    var explain = false

    @OptionGroup var format: FormatOptions

    func run() throws {
        try reportingErrors { try listen() }
    }

    func listen() throws {
        let path = socket ?? Listen.defaultSocket(environment: Environment.all())
        let client = try Listen.connect(path)
        defer { client.close() }
        do {
            // A list of gestures leaves `explain` out unless asked for; no list takes every line.
            try client.send(Listen.subscription(subscribe.isEmpty || !explain ? subscribe : subscribe + ["explain"]))
        } catch {
            throw CLIError.io("\(path): cannot send the subscription: \(error.message)")
        }

        var out = OutputStream(fd: 1)
        var text = TextEventWriter(color: format.colorsStandardOutput)
        // --relative-time: the first event's time, in µs (listen sees events, not input).
        var origin: Int64?
        try Listen.readSubscribed(client, path: path, refused: "the daemon refused the subscription", afterEachRead: { out.flush() }) { line in
            if !explain && line.starts(with: Array(#"{"v":1"#.utf8)) && Listen.isExplain(line) { return }
            let shown = format.relativeTime ? ListenText.relativeTime(line, origin: &origin)[...] : line
            text.reset()
            if format.isText && ListenText.row(shown, into: &text) {
                out.write(text.bytes)
            } else {
                out.write(Array(shown) + [UInt8(ascii: "\n")])
            }
        }
        out.flush()
    }

    /// Reads the daemon's lines on `client` until it closes: the first is its reply to the
    /// subscription (an error reply is thrown, after `refused`), each later one goes to `line`;
    /// `afterEachRead` runs once the lines of one read are handled (`listen` flushes there).
    /// What `listen` and `view` share.
    static func readSubscribed(_ client: SocketConnection, path: String, refused: String, afterEachRead: () -> Void = {},
                               _ line: (ArraySlice<UInt8>) throws -> Void) throws {
        var lines = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var replied = false
        while true {
            let n: Int
            do {
                n = try client.receive(into: &buffer)
            } catch {
                throw CLIError.io("\(path): cannot read: \(error.message)")
            }
            if n == 0 { break }
            lines.append(buffer[0..<n])
            while let next = lines.nextLine() {
                if !replied {
                    // The daemon's reply to the subscription: not an event.
                    replied = true
                    if next.starts(with: Array("{\"error\"".utf8)) {
                        throw CLIError.usage("\(path): \(refused): \(String(decoding: next, as: UTF8.self))")
                    }
                    continue
                }
                try line(next)
            }
            afterEachRead()
        }
    }

    /// A connection to the daemon at `path`; no daemon there (no file, nothing listening) is an
    /// input that cannot be opened (66).
    static func connect(_ path: String) throws(CLIError) -> SocketConnection {
        let length = path.utf8.count
        guard length <= SocketConnection.maximumPathLength, !path.utf8.contains(0) else {
            throw CLIError.usage("--socket: a socket path holds at most \(SocketConnection.maximumPathLength) bytes, found \(length)")
        }
        do {
            return try SocketConnection(path: path)
        } catch {
            throw CLIError.noInput("\(path): cannot connect: \(error.message); is `touchline daemon` running with this --socket?")
        }
    }

    /// `{"subscribe":["tap"]}` and its newline, as the daemon reads it.
    /// Whether an event line is an explain line: `"gesture":"explain"` comes after v, seq,
    /// time and device (docs/events.md's key order), well within the line's first 128 bytes.
    static func isExplain(_ line: ArraySlice<UInt8>) -> Bool {
        let key = Array(#","gesture":"explain","#.utf8)
        let head = line.prefix(128)
        guard head.count >= key.count else { return false }
        return (head.startIndex...(head.endIndex - key.count)).contains { head[$0..<($0 + key.count)].elementsEqual(key) }
    }

    static func subscription(_ gestures: [String]) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.beginArray("subscribe")
        for gesture in gestures { w.element(gesture) }
        w.endArray()
        w.endObject()
        w.newline()
        return w.bytes
    }
}
