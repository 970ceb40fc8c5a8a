// Registered targets have one owner, the session (docs/live.md#registered-targets): the server
// reads a client's `register` and `unregister` messages and notes when a connection goes, but
// does not apply them; the session takes them on its next wake (`LiveSession.run`, before the
// graphs are caught up), applies each to its `ClientTargets`, and hands the server the outcome,
// which the server turns into the reply. Until then the connection's next lines wait (it is
// not read), so its replies keep the order of its messages.
import TouchlineGestures

/// One message for the registered targets, from connection `owner`.
public struct PendingRegistration: Sendable {
    public enum Message: Sendable {
        case register(ClientTargetRequest)
        case unregister(String)
        /// The connection closed: its targets go with it.
        case gone
    }
    public var owner: UInt64
    public var message: Message
}

extension EventSocketServer {
    /// Whether messages wait for the session (one load per wake).
    public var hasPendingRegistrations: Bool { !pendingRegistrations.isEmpty }

    /// Hands each waiting message to `apply` (the session's, on the targets it owns) in arrival
    /// order, replies with what it says, then reads on the connections that waited.
    /// `apply` returns nil for `.gone`, else the error of a refused message.
    public func answerRegistrations(_ apply: (PendingRegistration) -> Result<Void, ClientMessageError>?) throws {
        while !pendingRegistrations.isEmpty {
            let pending = pendingRegistrations.removeFirst()
            let outcome = apply(pending)
            guard let client = clients.first(where: { $0.token == pending.owner }), let outcome else { continue }
            reply.reset()
            switch (pending.message, outcome) {
            case (.register(let request), .success):
                // {"ok":{"registered":NAME,"recognizers":[…]}}: the names its events carry.
                reply.bytes.append(contentsOf: #"{"ok":"#.utf8)
                reply.beginObject()
                reply.field("registered", request.name)
                reply.beginArray("recognizers")
                for recognizer in request.spec.recognizers { reply.element(recognizer.name) }
                reply.endArray()
                reply.beginArray("devices")
                for device in request.devices.sorted() { reply.element(Double(device), decimals: 0) }
                reply.endArray()
                reply.endObject()
                reply.bytes.append(contentsOf: "}".utf8)
                client.targetsHeld += 1
            case (.unregister(let name), .success):
                reply.bytes.append(contentsOf: #"{"ok":"#.utf8)
                reply.beginObject()
                reply.field("unregistered", name)
                reply.endObject()
                reply.bytes.append(contentsOf: "}".utf8)
                client.targetsHeld -= 1
            case (_, .failure(let error)):
                reply.beginObject()
                reply.field("error", error.message)
                reply.endObject()
            case (.gone, .success):
                continue
            }
            reply.newline()
            client.deliver(reply.bytes, droppable: false)
            client.awaiting = false
            // Its lines read meanwhile, up to the next message that waits.
            if client.inputCount > 0 { lines(client, scanningFrom: 0) }
            client.flush(dropReport)
        }
        try sweep()
    }
}
