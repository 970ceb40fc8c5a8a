// `touchline view`'s HTTP server (docs/view.md): HTTP/1.1 from SwiftNIO's NIOHTTP1 (no parser of
// our own), one page, a few fixed resources and one Server-Sent Events stream. It knows no
// Touchline type: it serves the bytes it is given, so that another page (a calibration page)
// can reuse it by giving other bytes.
//
// Read-only: GET and HEAD, nothing else (but a calibration page's answers, a bodiless POST to
// /answer, when the content has `answers`: CalibratePage.swift). Every request is bounded before it is read whole (the
// decoder's buffer, its header limits, a body refused), every connection that has not finished
// its request in `idleSeconds` is closed, and no more than `maximumConnections` are open at
// once. Off loopback, every request carries the token (`?token=`), compared in constant time;
// on loopback, the Host header must name loopback too, so that a page elsewhere cannot reach
// the server through a DNS name rebound to 127.0.0.1.
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

public struct ViewServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

public struct ViewServerOptions: Sendable {
    /// The address to listen on: loopback by default; another needs a token.
    public var host = "127.0.0.1"
    /// 0: a free port, chosen by the kernel (`ViewServer.port` says which).
    public var port = 0
    /// Required on every request when set (and always set off loopback).
    public var token: String?
    /// Connections at once; one more is closed as soon as it is accepted.
    public var maximumConnections = 32
    /// The request line and headers together, in bytes; a body is refused.
    public var maximumRequestBytes = 8 * 1024
    /// A connection that has not sent a whole request within this many seconds is closed (a
    /// stream's connection, once answered, is not: it only receives).
    public var idleSeconds: Int64 = 10
    /// Bytes a stream's connection may have unsent before its lines are dropped (and counted).
    public var streamBacklogBytes = 1 << 20

    public init() {}
}

/// What is served: the page at `/` (its `{{nonce}}` replaced by each response's nonce, which its
/// Content-Security-Policy allows), fixed resources by path, and a stream at `/stream`.
public struct ViewContent: Sendable {
    public var page: [UInt8]
    public var resources: [String: (contentType: String, bytes: [UInt8])]
    public var stream: ViewStream?
    /// The one way in, for a page that answers (calibrate's): `POST /answer` (CalibratePage.swift).
    /// nil (view's): the server is read-only.
    public var answers: PageAnswers?

    public init(page: [UInt8], resources: [String: (contentType: String, bytes: [UInt8])] = [:], stream: ViewStream? = nil, answers: PageAnswers? = nil) {
        self.page = page
        self.resources = resources
        self.stream = stream
        self.answers = answers
    }

    static let noncePlaceholder = Array("{{nonce}}".utf8)

    /// The page with every placeholder replaced.
    func page(nonce: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(page.count + 64)
        let marker = Self.noncePlaceholder
        var i = 0
        while i < page.count {
            if page[i] == marker[0] && i + marker.count <= page.count && page[i..<(i + marker.count)].elementsEqual(marker) {
                out.append(contentsOf: nonce.utf8)
                i += marker.count
            } else {
                out.append(page[i])
                i += 1
            }
        }
        return out
    }
}

public final class ViewServer: Sendable {
    public let options: ViewServerOptions
    let content: ViewContent
    let group: MultiThreadedEventLoopGroup
    let channel: Channel
    /// Connections open now, against `maximumConnections`.
    let connections: NIOLockedValueBox<Int>

    /// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost), where no token is
    /// needed.
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in UInt8(part) != nil }
    }

    /// A token of 128 random bits (the system's generator), as 32 hexadecimal digits.
    public static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex(generator.next()) + hex(generator.next())
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Starts listening (one event-loop thread). Off loopback without a token is refused.
    public init(options: ViewServerOptions, content: ViewContent) throws(ViewServerError) {
        guard Self.isLoopback(options.host) || options.token != nil else {
            throw ViewServerError("\(options.host) is not a loopback address: pass --token (or let view make one) so that only who has the address with its token can see the page")
        }
        if let token = options.token, token.utf8.count < 16 || !token.utf8.allSatisfy(Self.isTokenByte) {
            throw ViewServerError("--token: at least 16 characters of A-Z, a-z, 0-9, '-', '_' (it goes in the page's address)")
        }
        self.options = options
        self.content = content
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let core = RequestRouter(options: options, content: content)
        let connections = NIOLockedValueBox(0)
        self.connections = connections
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 256 * 1024))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let limits = options
                    var decoderLimits = NIOHTTPDecoderLimitConfiguration()
                    decoderLimits.maxHeaderFieldSize = limits.maximumRequestBytes
                    decoderLimits.maxHeaderListSize = limits.maximumRequestBytes
                    decoderLimits.maxHeaderFieldCount = 64
                    try channel.pipeline.syncOperations.addHandlers([
                        IdleStateHandler(readTimeout: .seconds(limits.idleSeconds)),
                        ByteToMessageHandler(
                            HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: decoderLimits),
                            maximumBufferSize: limits.maximumRequestBytes),
                        HTTPResponseEncoder(),
                        ViewHTTPHandler(router: core, connections: connections),
                    ])
                }
            }
        do {
            channel = try bootstrap.bind(host: options.host, port: options.port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw ViewServerError("cannot listen on \(options.host) port \(options.port): \(error)")
        }
    }

    /// The port listened on (the kernel's choice for port 0).
    public var port: Int { channel.localAddress?.port ?? options.port }

    /// The page's address, with the token when there is one.
    public var address: String {
        let host = options.host.contains(":") && !options.host.hasPrefix("[") ? "[\(options.host)]" : options.host
        return "http://\(host):\(port)/" + (options.token.map { "?token=\($0)" } ?? "")
    }

    /// Connections open now.
    public var connectionCount: Int { connections.withLockedValue { $0 } }

    /// Blocks until `stop()`.
    public func wait() {
        try? channel.closeFuture.wait()
    }

    public func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    static func isTokenByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
    }
}

/// What a request gets: decided from its head alone (the server is read-only).
struct RequestRouter: Sendable {
    let options: ViewServerOptions
    let content: ViewContent

    enum Answer {
        case bytes(HTTPResponseStatus, contentType: String, [UInt8], nonce: String?)
        case stream(ViewStream)
    }

    func answer(_ head: HTTPRequestHead) -> Answer {
        let (path, query) = Self.split(head.uri)
        let answering = head.method == .POST && path == "/answer" && content.answers != nil
        guard head.method == .GET || head.method == .HEAD || answering else {
            return .bytes(.methodNotAllowed, contentType: "text/plain; charset=utf-8", Array("read-only: GET and HEAD only\n".utf8), nonce: nil)
        }
        if let token = options.token {
            guard let given = Self.parameter("token", in: query), Self.constantTimeEqual(Array(given.utf8), Array(token.utf8)) else {
                return .bytes(.forbidden, contentType: "text/plain; charset=utf-8", Array("forbidden: this address needs its token (?token=…, as view printed it)\n".utf8), nonce: nil)
            }
        } else if !Self.isLoopbackHost(head.headers.first(name: "host")) {
            return .bytes(.forbidden, contentType: "text/plain; charset=utf-8", Array("forbidden: the Host header does not name a loopback address\n".utf8), nonce: nil)
        }
        if answering, let answers = content.answers {
            let (status, text) = answers.post(head, query: query)
            return .bytes(status, contentType: "text/plain; charset=utf-8", Array(text.utf8), nonce: nil)
        }
        switch path {
        case "/", "/index.html":
            let nonce = ViewServer.makeToken()
            return .bytes(.ok, contentType: "text/html; charset=utf-8", content.page(nonce: nonce), nonce: nonce)
        case "/stream":
            if let stream = content.stream { return .stream(stream) }
        default:
            if let resource = content.resources[String(path)] { return .bytes(.ok, contentType: resource.contentType, resource.bytes, nonce: nil) }
        }
        return .bytes(.notFound, contentType: "text/plain; charset=utf-8", Array("not found\n".utf8), nonce: nil)
    }

    /// The headers every response carries: no framing, no script or style but the page's own
    /// (by its nonce), no sniffing, no caching, no referrer (the address may hold the token).
    static func headers(contentType: String, length: Int?, nonce: String?) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        if let length { headers.add(name: "Content-Length", value: String(length)) }
        let scripts = nonce.map { "'nonce-\($0)'" } ?? "'none'"
        headers.add(
            name: "Content-Security-Policy",
            value: "default-src 'self'; script-src \(scripts); style-src \(scripts); img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        headers.add(name: "X-Frame-Options", value: "DENY")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "Cache-Control", value: "no-store")
        return headers
    }

    /// "/stream?token=x" → ("/stream", "token=x").
    static func split(_ uri: String) -> (Substring, Substring) {
        guard let q = uri.firstIndex(of: "?") else { return (uri[...], ""[...]) }
        return (uri[..<q], uri[uri.index(after: q)...])
    }

    static func parameter(_ name: String, in query: Substring) -> Substring? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 && parts[0] == name { return parts[1] }
        }
        return nil
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// `127.0.0.1:8080`, `localhost`, `[::1]:80`: a Host header naming loopback.
    static func isLoopbackHost(_ host: String?) -> Bool {
        guard let host else { return false }
        var name = Substring(host)
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = name[name.index(after: name.startIndex)..<close]
        } else if let colon = name.lastIndex(of: ":") {
            name = name[..<colon]
        }
        return ViewServer.isLoopback(String(name))
    }
}

/// One connection: counted against the limit, its request answered, or its stream joined.
final class ViewHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let router: RequestRouter
    let connections: NIOLockedValueBox<Int>
    var counted = false
    var head: HTTPRequestHead?
    var answered = false
    var stream: ViewStream?

    init(router: RequestRouter, connections: NIOLockedValueBox<Int>) {
        self.router = router
        self.connections = connections
    }

    func channelActive(context: ChannelHandlerContext) {
        let limit = router.options.maximumConnections
        let admitted = connections.withLockedValue { count -> Bool in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else {
            // Over the limit: closed before anything is read.
            context.close(promise: nil)
            return
        }
        counted = true
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if counted {
            connections.withLockedValue { $0 -= 1 }
            counted = false
        }
        stream?.remove(context.channel)
        stream = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            // Read-only: anything but a read is refused at its head, its body never read (an
            // answer, too, is answered at its head: it has no body).
            guard head.method == .GET || head.method == .HEAD else { return answer(context, head) }
            self.head = head
        case .body:
            // Read-only: a request has no body.
            respond(context, .payloadTooLarge, "a request has no body here\n")
        case .end:
            guard let head else { return }
            self.head = nil
            answer(context, head)
        }
    }

    func answer(_ context: ChannelHandlerContext, _ head: HTTPRequestHead) {
        answered = true
        switch router.answer(head) {
        case .bytes(let status, let contentType, let bytes, let nonce):
            var headers = RequestRouter.headers(contentType: contentType, length: bytes.count, nonce: nonce)
            headers.add(name: "Connection", value: "close")
            context.write(Self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            if head.method != .HEAD {
                context.write(Self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: bytes)))), promise: nil)
            }
            close(context)
        case .stream(let stream):
            var headers = RequestRouter.headers(contentType: "text/event-stream; charset=utf-8", length: nil, nonce: nil)
            headers.add(name: "Connection", value: "keep-alive")
            context.write(Self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            // A comment line: the browser sees the stream open before the first line comes.
            context.writeAndFlush(Self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: ": touchline view\n\n")))), promise: nil)
            if head.method == .HEAD {
                close(context)
                return
            }
            self.stream = stream
            stream.add(context.channel)
        }
    }

    /// Ends the response, then the connection once the bytes are out.
    func close(_ context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ text: String) {
        guard !answered else { return }
        answered = true
        var headers = RequestRouter.headers(contentType: "text/plain; charset=utf-8", length: text.utf8.count, nonce: nil)
        headers.add(name: "Connection", value: "close")
        context.write(Self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(Self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))), promise: nil)
        close(context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Idle before its request was whole: closed. A stream only receives, and stays.
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read, stream == nil {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // The decoder's: a request over the limits (an endless request line, too many headers)
        // or not HTTP. Answered when nothing was, then closed.
        if error is ByteToMessageDecoderError.PayloadTooLargeError || error is HTTPParserError {
            respond(context, error is HTTPParserError ? .badRequest : .init(statusCode: 431, reasonPhrase: "Request Header Fields Too Large"), "bad or oversized request\n")
        } else {
            context.close(promise: nil)
        }
    }
}

/// Lines to every connection on `/stream`, as Server-Sent Events (`data: LINE`). Each
/// connection may have `backlog` bytes unsent; past that its lines are dropped and counted,
/// and a `{"dropped":N,"total":T}` line tells it before the next one it gets: a slow page
/// never holds up the sender. Lines kept with `keep` (what a page needs first: the devices) go
/// to every connection as it joins.
public final class ViewStream: Sendable {
    struct Subscriber: Sendable {
        let channel: Channel
        var unsent = 0
        var dropped = 0
        var total = 0
    }
    struct State: Sendable {
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        var kept: [Int: [UInt8]] = [:]
    }
    let state = NIOLockedValueBox(State())
    let backlog: Int

    public init(backlog: Int = 1 << 20) { self.backlog = backlog }

    public var subscriberCount: Int { state.withLockedValue { $0.subscribers.count } }

    /// Keeps `line` under `key` (replacing the one kept there), for connections to come, and
    /// sends it to those open.
    public func keep(_ key: Int, _ line: [UInt8]) {
        state.withLockedValue { $0.kept[key] = line }
        send(line)
    }

    /// Sends one line (no newline inside) to every connection.
    public func send(_ line: [UInt8]) {
        let event = Self.event(line)
        let channels: [(ObjectIdentifier, Channel, [UInt8]?)] = state.withLockedValue { state in
            var out: [(ObjectIdentifier, Channel, [UInt8]?)] = []
            for (id, var subscriber) in state.subscribers {
                if subscriber.unsent + event.count > backlog {
                    subscriber.dropped += 1
                    subscriber.total += 1
                    state.subscribers[id] = subscriber
                    continue
                }
                var report: [UInt8]?
                if subscriber.dropped > 0 {
                    report = Self.event(Array("{\"dropped\":\(subscriber.dropped),\"total\":\(subscriber.total),\"by\":\"view\"}".utf8))
                    subscriber.dropped = 0
                }
                subscriber.unsent += event.count + (report?.count ?? 0)
                state.subscribers[id] = subscriber
                out.append((id, subscriber.channel, report))
            }
            return out
        }
        for (id, channel, report) in channels {
            var buffer = channel.allocator.buffer(capacity: event.count + (report?.count ?? 0))
            if let report { buffer.writeBytes(report) }
            buffer.writeBytes(event)
            let size = buffer.readableBytes
            let promise = channel.eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { [state] _ in
                state.withLockedValue { state in
                    if var s = state.subscribers[id] {
                        s.unsent -= size
                        state.subscribers[id] = s
                    }
                }
            }
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: promise)
        }
    }

    func add(_ channel: Channel) {
        let kept = state.withLockedValue { state -> [[UInt8]] in
            state.subscribers[ObjectIdentifier(channel)] = Subscriber(channel: channel)
            return state.kept.keys.sorted().map { state.kept[$0]! }
        }
        guard !kept.isEmpty else { return }
        var buffer = channel.allocator.buffer(capacity: 1024)
        for line in kept { buffer.writeBytes(Self.event(line)) }
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
    }

    func remove(_ channel: Channel) {
        _ = state.withLockedValue { $0.subscribers.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// `data: LINE\n\n`, the line's own newline left out.
    static func event(_ line: [UInt8]) -> [UInt8] {
        var end = line.count
        while end > 0 && (line[end - 1] == UInt8(ascii: "\n") || line[end - 1] == UInt8(ascii: "\r")) { end -= 1 }
        var out = Array("data: ".utf8)
        out.reserveCapacity(end + 8)
        for b in line[..<end] where b != UInt8(ascii: "\n") && b != UInt8(ascii: "\r") { out.append(b) }
        out.append(contentsOf: [UInt8(ascii: "\n"), UInt8(ascii: "\n")])
        return out
    }
}
