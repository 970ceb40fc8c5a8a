// The server in a process of its own (`touchline-view`, docs/view.md "Two executables"): the
// `touchline` binary does not link SwiftNIO, so that `replay`, `daemon` and the rest keep their
// size and memory (issue 33: replay's RSS ≤ 14 MiB). `touchline view` (or `calibrate`) starts
// `touchline-view MODE …` beside itself and talks to it through two pipes: on the host's
// standard input, what to serve; on its standard output, the address and anything a page says
// back. This file is that protocol, one message a line:
//
//   resource PATH TYPE LENGTH\n<LENGTH bytes>   a fixed resource, before `start`
//   start\n | start stream\n                     listen (with a `/stream` of Server-Sent Events);
//                                                the host answers `address URL\n`
//   send LINE\n                                  a line to every page on the stream
//   keep KEY LINE\n                              as send, and kept under KEY (an integer) for a
//                                                page that opens later (a device's description)
//
// And on the host's standard output: `address URL\n` once listening, then, for a page that
// answers (calibrate's), `answer QUERY\n` for each answer the page's own rules accepted
// (PageAnswers: the page's secret, its origin, the mode's parser).
//
// The end of the input ends the host: a parent that exits or dies takes its server with it.
// The parent is Touchline's own binary, but its bytes are still read as hostile: a message that
// does not parse is an error that says which and where, never a trap.

/// One message of the parent.
public enum ViewHostMessage: Equatable, Sendable {
    case resource(path: String, contentType: String, bytes: [UInt8])
    case start(stream: Bool)
    case send([UInt8])
    case keep(Int, [UInt8])
}

/// The parent's bytes, fed as they come, to messages.
public struct ViewHostReader: Sendable {
    /// A line (a message's head, or a streamed line) longer than this is refused.
    public var lineLimit = 4 << 20
    /// A resource longer than this is refused (`view FILE` refuses a timeline over 128 MiB first).
    public var resourceLimit = 256 << 20
    var buffer: [UInt8] = []
    var start = 0
    /// Messages read so far (for the error's "message N").
    var count = 0
    /// The resource whose bytes are awaited: its head, then LENGTH bytes.
    var pending: (path: String, contentType: String, length: Int)?

    public init() {}

    public mutating func feed(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Bytes fed and not yet read as a message (non-zero at the end of input: a message cut).
    public var unread: Int { buffer.count - start }

    /// The next whole message, nil until more bytes come.
    public mutating func next() throws(ViewServerError) -> ViewHostMessage? {
        if let resource = pending {
            guard buffer.count - start >= resource.length else { return nil }
            let bytes = Array(buffer[start..<(start + resource.length)])
            start += resource.length
            pending = nil
            return .resource(path: resource.path, contentType: resource.contentType, bytes: bytes)
        }
        guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
            if buffer.count - start > lineLimit { throw error("a line over \(lineLimit) bytes") }
            return nil
        }
        let line = buffer[start..<newline]
        start = newline + 1
        count += 1
        guard line.count <= lineLimit else { throw error("a line over \(lineLimit) bytes") }
        let verbEnd = line.firstIndex(of: 0x20) ?? line.endIndex
        let verb = String(decoding: line[line.startIndex..<verbEnd], as: UTF8.self)
        let rest = verbEnd < line.endIndex ? line[(verbEnd + 1)...] : line[line.endIndex...]
        switch verb {
        case "send":
            return .send(Array(rest))
        case "keep":
            guard let space = rest.firstIndex(of: 0x20), let key = Int(String(decoding: rest[rest.startIndex..<space], as: UTF8.self)) else {
                throw error("keep needs a key (an integer) and a line")
            }
            return .keep(key, Array(rest[(space + 1)...]))
        case "start":
            let argument = String(decoding: rest, as: UTF8.self)
            guard argument.isEmpty || argument == "stream" else { throw error("start takes nothing or `stream`, found \(argument.debugDescription)") }
            return .start(stream: argument == "stream")
        case "resource":
            let parts = rest.split(separator: 0x20, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard parts.count == 3, parts[0].hasPrefix("/"), !parts[1].isEmpty, let length = Int(parts[2]), length >= 0 else {
                throw error("resource needs PATH (from /) TYPE LENGTH")
            }
            guard length <= resourceLimit else { throw error("resource \(parts[0]) of \(length) bytes, over \(resourceLimit)") }
            pending = (parts[0], parts[1], length)
            return try next()
        default:
            throw error("unknown message \(verb.debugDescription)")
        }
    }

    func error(_ what: String) -> ViewServerError {
        ViewServerError("the parent's message \(count): \(what)")
    }
}

/// `touchline-view`'s loop: read the parent's messages, serve, until the input ends.
public enum ViewHost {
    /// Runs the host over `input` (reads: bytes, empty at the end) with `page` at `/`; the
    /// address (and, later, a page's messages) to `output`. Returns when the input ends; throws
    /// on a message that does not parse or a server that cannot listen.
    public static func run(
        page: [UInt8], answers: PageAnswers? = nil, options: ViewServerOptions, input: () -> [UInt8], output: ([UInt8]) -> Void
    ) throws(ViewServerError) {
        var reader = ViewHostReader()
        var resources: [String: (contentType: String, bytes: [UInt8])] = [:]
        var server: ViewServer?
        var stream: ViewStream?
        defer { server?.stop() }
        while true {
            let bytes = input()
            if bytes.isEmpty { break }
            reader.feed(bytes)
            while let message = try reader.next() {
                switch message {
                case .resource(let path, let contentType, let bytes):
                    guard server == nil else { throw ViewServerError("resource \(path) after start: the content is fixed once served") }
                    resources[path] = (contentType, bytes)
                case .start(let withStream):
                    guard server == nil else { throw ViewServerError("start twice") }
                    if withStream { stream = ViewStream(backlog: options.streamBacklogBytes) }
                    let started = try ViewServer(options: options, content: ViewContent(page: page, resources: resources, stream: stream, answers: answers))
                    server = started
                    resources = [:]
                    output(Array("address \(started.address)\n".utf8))
                case .send(let line):
                    stream?.send(line)
                case .keep(let key, let line):
                    stream?.keep(key, line)
                }
            }
        }
        if reader.unread > 0 { throw ViewServerError("the parent's input ended within a message (\(reader.unread) bytes)") }
    }
}
