// The event socket (docs/live.md#the-event-socket): a Unix stream socket where clients subscribe
// to gesture events and receive them as JSON Lines. It never blocks: the listening socket and
// every client are non-blocking and watched by one readiness set whose descriptor
// (`fileDescriptor`) the daemon's one-thread loop watches with the devices; when it is readable
// the loop calls `service()`. `publish` writes each event once into a reused line and hands it to
// the clients whose filter admits it, each with its own bounded queue.
import TouchlineCore
import TouchlineGestures
import TouchlineInput

/// An error of the socket for the user: the path and what is wrong with it.
public struct EventSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

public struct EventSocketOptions: Sendable {
    public enum Group: Sendable, Equatable {
        case name(String)
        case id(UInt32)
    }
    /// The socket file's permission bits.
    public var mode: UInt32 = 0o660
    /// The socket file's group; nil keeps the process's.
    public var group: Group?
    /// The socket file's owner (the user `--user` becomes); nil keeps the process's.
    public var owner: UInt32?
    /// Bytes a client's output queue may hold before its events are dropped.
    public var queueLimit = 256 * 1024
    /// Bytes a client's message line may hold.
    public var lineLimit = ClientMessageParser.maximumLineLength
    /// Connections at once; one more is told so and closed.
    public var maximumClients = 64
    /// The gesture names a subscription may name.
    public var gestures = ClientMessageParser.standardGestures

    public init() {}
}

public final class EventSocketServer {
    public let path: String
    let options: EventSocketOptions
    let listener: Int32
    let readiness: ReadinessSet
    var clients: [SocketClient] = []
    var nextToken: UInt64 = 1
    static let listenerToken: UInt64 = 0
    /// One line, written once per event and sent to every subscriber.
    var line = JSONWriter(capacity: 1024)
    var reply = JSONWriter(capacity: 256)
    /// The strings of the names events carry, so that matching a filter allocates nothing.
    /// Target names are freed once no graph has them (a client's, LiveSession.nameHolds) and
    /// an address may come back for another name: each is checked against its name, and the
    /// cache is emptied when it has grown past `targetNameCacheLimit`.
    var gestureNames: [GestureKind: String] = [:]
    var targetNames: [GestureName: String] = [:]
    static let targetNameCacheLimit = 1024
    var isOpen = true
    /// Register and unregister messages, and connections gone, in arrival order, for the
    /// session to apply to the registered targets it owns (EventSocketServer+Registrations.swift).
    var pendingRegistrations: [PendingRegistration] = []
    /// How many clients subscribed with `"view": true`, read by the session on the frame path
    /// (EventSocketServer+View.swift).
    public let viewTap = ViewTap()
    /// Each open device's `{"view":"device",…}` line, sent to a viewer when it subscribes.
    var viewDevices: [Int: [UInt8]] = [:]
    /// Each open device as it describes itself (the device lines' `native`).
    var viewNatives: [Int: ViewLines.Native] = [:]
    /// One frame line, written once per frame and sent to every viewer.
    var viewLine = JSONWriter(capacity: 1024)

    /// `$XDG_RUNTIME_DIR/touchline.sock` when that is set to an absolute path (the XDG spec
    /// says to ignore a relative one), else `/run/touchline.sock`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let dir = environment["XDG_RUNTIME_DIR"], dir.hasPrefix("/") {
            return (dir.hasSuffix("/") ? String(dir.dropLast()) : dir) + "/touchline.sock"
        }
        return "/run/touchline.sock"
    }

    /// Listens at `path`. A socket left there by a daemon that is gone (nothing accepts on it)
    /// is replaced; one a live daemon listens on, or a file that is not a socket, is refused.
    public init(path: String, options: EventSocketOptions = EventSocketOptions()) throws {
        self.path = path
        self.options = options
        var group: UInt32?
        switch options.group {
        case .name(let name)?:
            guard let id = try UnixSocket.groupID(named: name) else {
                throw EventSocketError("\(path): no group named \"\(name)\" for the socket (see /etc/group)")
            }
            group = id
        case .id(let id)?: group = id
        case nil: group = nil
        }
        switch try UnixSocket.kind(of: path) {
        case .missing: break
        case .other:
            throw EventSocketError("\(path) exists and is not a socket; refusing to replace it (remove it, or choose another path)")
        case .socket:
            switch try UnixSocket.probe(path: path) {
            case .listening:
                throw EventSocketError("\(path): another daemon is listening on this socket; refusing to take it over")
            case .stale:
                // Nobody listens: a socket left by a daemon that ended without removing it.
                try UnixSocket.unlink(path)
            }
        }
        listener = try UnixSocket.listen(path: path, mode: options.mode, owner: options.owner, group: group)
        do {
            readiness = try ReadinessSet()
            try readiness.set(listener, token: Self.listenerToken, input: true, output: false, added: true)
        } catch {
            UnixSocket.close(listener)
            try? UnixSocket.unlink(path)
            throw error
        }
    }

    deinit { close() }

    /// Readable when a connection or a client is ready: watch it in the loop, then `service()`.
    public var fileDescriptor: Int32 { readiness.fileDescriptor }

    public var clientCount: Int { clients.count }

    /// Each client's events dropped since it connected, in connection order.
    public var dropped: [Int] { clients.map(\.droppedTotal) }

    /// Waits up to `timeout` ms (0: not at all) for the socket or a client, then services them.
    public func step(timeout: Int32 = 0) throws {
        guard isOpen else { return }
        _ = try readiness.ready(timeout: timeout)
        try service()
    }

    /// Accepts connections, reads and answers messages, sends what is queued; never blocks.
    public func service() throws {
        guard isOpen else { return }
        // Level-triggered: what is ready now is taken in full below, so the set is drained.
        for token in try readiness.ready(timeout: 0) {
            if token == Self.listenerToken {
                try acceptAll()
            } else if let client = clients.first(where: { $0.token == token }) {
                if client.inputClosed && client.queued == 0 {
                    // Watched for nothing (its input ended, nothing to send): only a hang-up
                    // or an error wakes it, so it closed its reading side too.
                    client.closed = true
                    continue
                }
                // Sending first makes room, so that messages kept while the queue was full are
                // answered now (nothing more may come to wake us for them).
                client.flush(dropReport)
                read(client)
                client.flush(dropReport)
            }
        }
        try sweep()
    }

    /// Sends `event` to every client whose subscription admits it.
    public func publish(_ event: GestureEvent) throws {
        guard isOpen, !clients.isEmpty else { return }
        let gesture = name(of: event.gesture)
        let target = name(of: event.target)
        var written = false
        for client in clients {
            guard let filter = client.filter, filter.admits(gesture: gesture, target: target, device: event.device) else { continue }
            if !written {
                line.reset()
                event.writeJSON(into: &line)
                line.newline()
                written = true
            }
            // A viewer's copy waits in its queue until the server is next serviced, after the
            // frame: its send(2), which wakes `touchline view`, would otherwise come before the
            // other clients' next line (issue 33: 20-200 µs on the shared 2-core host).
            if filter.view { client.enqueue(line.bytes) } else { client.deliver(line.bytes, droppable: true) }
        }
        try sweep()
    }

    /// Whether a connected client still has output queued.
    public var isSending: Bool { clients.contains { !$0.closed && $0.queued > 0 } }

    /// Keeps serving until every client has taken what is queued for it, for at most `limit`
    /// on `clock`: the end of a played trace, where the last events were queued a moment ago
    /// and a client still reading them would otherwise lose them to `close`. A client that
    /// never reads cannot hold the exit longer than `limit`.
    public func drain(within limit: Interval, clock: any LiveClock) throws {
        let end = clock.now() + limit
        while isOpen && isSending {
            let left = (end - clock.now()).microseconds
            guard left > 0 else { return }
            try step(timeout: Int32(min(left / 1000 + 1, 1000)))
        }
    }

    /// Sends what each client has queued as far as it takes it, closes every connection and
    /// removes the socket file.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        for client in clients {
            client.flush(dropReport)
            readiness.remove(client.fd)
            UnixSocket.close(client.fd)
        }
        clients.removeAll()
        readiness.remove(listener)
        UnixSocket.close(listener)
        try? UnixSocket.unlink(path)
    }

    func acceptAll() throws {
        while let fd = try UnixSocket.accept(listener) {
            // Full: the idle connection connected longest makes room (docs/live.md, "Idle
            // clients"), so that connections that never say anything cannot lock everyone out.
            if clients.count >= options.maximumClients {
                // A message may be waiting that makes a connection busy: read it first.
                for client in clients where isIdle(client) { read(client) }
            }
            if clients.count >= options.maximumClients, let idle = clients.firstIndex(where: isIdle) {
                reply.reset()
                reply.beginObject()
                reply.field("error", "closed: idle (neither subscribed nor registered) while the daemon's \(options.maximumClients) connections were taken")
                reply.endObject()
                reply.newline()
                _ = try? UnixSocket.send(clients[idle].fd, reply.bytes, 0..<reply.bytes.count)
                remove(at: idle)
            }
            if clients.count >= options.maximumClients {
                reply.reset()
                reply.beginObject()
                reply.field("error", "too many clients (\(options.maximumClients)); try again later")
                reply.endObject()
                reply.newline()
                _ = try? UnixSocket.send(fd, reply.bytes, 0..<reply.bytes.count)
                UnixSocket.close(fd)
                continue
            }
            let client = SocketClient(fd: fd, token: nextToken, lineLimit: options.lineLimit, queueLimit: options.queueLimit)
            nextToken += 1
            do {
                try readiness.set(fd, token: client.token, input: true, output: false, added: true)
            } catch {
                UnixSocket.close(fd)
                throw error
            }
            clients.append(client)
            // Data may have come with the connection.
            read(client)
        }
    }

    /// Reads the client's input and answers each complete line, until its socket has no more
    /// or its queue is full (the rest waits: a client that sends without reading its replies
    /// is not read either).
    func read(_ client: SocketClient) {
        // Lines left when its queue filled come first.
        if client.inputCount > 0 { lines(client, scanningFrom: 0) }
        while !client.closed && !client.inputClosed && !client.isFull && !client.awaiting {
            let result: SocketRead
            do {
                result = try UnixSocket.read(client.fd, into: &client.input, at: client.inputCount)
            } catch {
                client.closed = true
                return
            }
            switch result {
            case .closed:
                if UnixSocket.peerHungUp(client.fd) {
                    client.closed = true
                    return
                }
                // The end of its input, not of the connection: a client that shut down its
                // writing side after subscribing still reads (issue 24, item 11: on 8d7af8f
                // it was closed and got nothing, not even its reply). A last line may end
                // at the end of input instead of a newline.
                client.inputClosed = true
                if client.inputCount > 0 && !client.discarding && client.inputCount < client.input.count {
                    client.input[client.inputCount] = UInt8(ascii: "\n")
                    client.inputCount += 1
                    lines(client, scanningFrom: client.inputCount - 1)
                }
                return
            case .wouldBlock: return
            case .bytes(let n):
                let start = client.inputCount
                client.inputCount += n
                lines(client, scanningFrom: start)
            }
        }
    }

    /// Answers the complete lines in the client's input and keeps the partial one.
    func lines(_ client: SocketClient, scanningFrom start: Int) {
        var lineStart = 0
        var i = start
        while i < client.inputCount && !client.isFull && !client.awaiting {
            if client.input[i] == UInt8(ascii: "\n") {
                if client.discarding {
                    client.discarding = false
                    answer(client, .failure(ClientMessageError("message longer than the limit of \(options.lineLimit) bytes; discarded up to its newline")))
                } else {
                    var end = i
                    if end > lineStart && client.input[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                    if end > lineStart {
                        answer(client, ClientMessageParser.parse(client.input[lineStart..<end], gestures: options.gestures))
                    }
                }
                lineStart = i + 1
            }
            i += 1
        }
        // Keep the rest (a partial line, or lines left while the queue is full) at the front.
        let rest = client.inputCount - lineStart
        if lineStart > 0 {
            for j in 0..<rest { client.input[j] = client.input[lineStart + j] }
            client.inputCount = rest
        }
        // A line that fills the buffer with no newline is over the limit: skip to its end.
        if client.inputCount == client.input.count && !client.isFull {
            client.discarding = true
            client.inputCount = 0
        }
    }

    func answer(_ client: SocketClient, _ message: Result<ClientMessage, ClientMessageError>) {
        reply.reset()
        switch message {
        case .success(.subscribe(let filter)):
            client.filter = filter
            // {"ok":{"subscribe":FILTER}}: the filter as the server understood it, sorted.
            reply.bytes.append(contentsOf: #"{"ok":{"subscribe":"#.utf8)
            reply.beginObject()
            reply.beginArray("gestures")
            for name in filter.gestures.sorted() { reply.element(name) }
            reply.endArray()
            reply.beginArray("targets")
            for name in filter.targets.sorted() { reply.element(name) }
            reply.endArray()
            reply.beginArray("devices")
            for device in filter.devices.sorted() { reply.element(Double(device), decimals: 0) }
            reply.endArray()
            if filter.view { reply.field("view", true) }
            reply.endObject()
            reply.bytes.append(contentsOf: "}}".utf8)
            reply.newline()
            client.deliver(reply.bytes, droppable: false)
            subscribed(client)
            return
        case .success(.register(let request)):
            // The session applies it and the reply goes then (answerRegistrations); the
            // connection's next lines wait, so that its replies keep their order.
            pendingRegistrations.append(PendingRegistration(owner: client.token, message: .register(request)))
            client.awaiting = true
            return
        case .success(.unregister(let name)):
            pendingRegistrations.append(PendingRegistration(owner: client.token, message: .unregister(name)))
            client.awaiting = true
            return
        case .failure(let error):
            reply.beginObject()
            reply.field("error", error.message)
            reply.endObject()
        }
        reply.newline()
        client.deliver(reply.bytes, droppable: false)
    }

    func dropReport(_ count: Int, _ total: Int) -> [UInt8] {
        var w = JSONWriter(capacity: 48)
        w.beginObject()
        w.field("dropped", count)
        w.field("total", total)
        w.endObject()
        w.newline()
        return w.bytes
    }

    /// A connection that has neither subscribed nor registered a target.
    func isIdle(_ client: SocketClient) -> Bool {
        client.filter == nil && client.targetsHeld == 0 && !client.awaiting
    }

    /// Closes `clients[i]`; its targets go with it.
    func remove(at i: Int) {
        let client = clients[i]
        if client.targetsHeld > 0 || client.awaiting { pendingRegistrations.append(PendingRegistration(owner: client.token, message: .gone)) }
        readiness.remove(client.fd)
        UnixSocket.close(client.fd)
        clients.remove(at: i)
        if client.filter?.view == true { countViewers() }
    }

    /// Removes closed clients and watches the others for what they now wait for.
    func sweep() throws {
        var i = 0
        while i < clients.count {
            let client = clients[i]
            // Input ended and nothing subscribed nor registered: nothing will ever go to it.
            if client.inputClosed && client.queued == 0 && isIdle(client) { client.closed = true }
            if client.closed {
                remove(at: i)
                continue
            }
            let input = !client.isFull && !client.inputClosed && !client.awaiting
            let output = client.queued > 0
            if input != client.watchingInput || output != client.watchingOutput {
                try readiness.set(client.fd, token: client.token, input: input, output: output, added: false)
                client.watchingInput = input
                client.watchingOutput = output
            }
            i += 1
        }
    }

    func name(of kind: GestureKind) -> String {
        if let s = gestureNames[kind] { return s }
        let s = kind.description
        gestureNames[kind] = s
        return s
    }

    func name(of target: GestureName) -> String {
        if let s = targetNames[target], target.interned.hasUTF8(of: s) { return s }
        if targetNames.count >= Self.targetNameCacheLimit { targetNames.removeAll(keepingCapacity: true) }
        let s = target.description
        targetNames[target] = s
        return s
    }
}
