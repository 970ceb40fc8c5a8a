// One connection to the event socket: what it subscribed to, the bytes of its partial input
// line, and its output queue. The queue is one reused buffer, bounded in bytes: an event that
// does not fit is dropped and counted, never waited for, so a client that does not read cannot
// hold up the input or the other clients; the count is reported when it has caught up.
import TouchlineInput

final class SocketClient {
    let fd: Int32
    let token: UInt64
    /// Nothing until the client subscribes.
    var filter: SubscriptionFilter?

    /// The input line being assembled: `input[0..<inputCount]`; one byte more than a line may
    /// hold, so that a line over the limit is seen without reading further.
    var input: [UInt8]
    var inputCount = 0
    /// A line went over the limit: its bytes are skipped up to its newline, which gets the error.
    var discarding = false

    /// Output not yet sent: `queue[head...]`.
    var queue: [UInt8] = []
    var head = 0
    let queueLimit: Int
    /// Events dropped since the last report, and since the connection began.
    var droppedSinceReport = 0
    var droppedTotal = 0

    /// What the readiness set watches it for; input pauses while its queue is full (so replies
    /// to a flood of messages are bounded too), output while there is something queued.
    var watchingInput = true
    var watchingOutput = false
    var closed = false
    /// A register or unregister message of it waits for the session (its next lines wait too).
    var awaiting = false
    /// The targets it holds, as the session answered.
    var targetsHeld = 0
    /// The client shut down its writing side (`shutdown(SHUT_WR)`, end of input): it says
    /// nothing more, but it still reads, so its replies and events still go to it until it
    /// closes (a send fails, or a hang-up wakes it).
    var inputClosed = false

    init(fd: Int32, token: UInt64, lineLimit: Int, queueLimit: Int) {
        self.fd = fd
        self.token = token
        self.queueLimit = queueLimit
        input = [UInt8](repeating: 0, count: lineLimit + 1)
    }

    var queued: Int { queue.count - head }
    var isFull: Bool { queued >= queueLimit }

    /// Sends `bytes` now as far as the socket takes them and queues the rest. An event
    /// (`droppable`) that does not fit the queue is dropped and counted; a reply is always
    /// queued (input pauses while the queue is full, which bounds them). A line is never cut:
    /// the rest of one that went out in part is always queued.
    func deliver(_ bytes: [UInt8], droppable: Bool) {
        if closed { return }
        var sent = 0
        if queued == 0 {
            guard let n = send(bytes, 0..<bytes.count) else { return }
            sent = n
            if sent == bytes.count { return }
        } else if droppable && queued + bytes.count > queueLimit {
            droppedSinceReport += 1
            droppedTotal += 1
            return
        }
        queue.append(contentsOf: bytes[sent...])
    }

    /// Queues `bytes` without sending them now: a viewer's copy of a line made while a frame's
    /// events are still going out (EventSocketServer.publish), sent when the server is next
    /// serviced (it watches the client for output while anything is queued). Dropped and
    /// counted, as `deliver` drops an event, when the queue has no room.
    func enqueue(_ bytes: [UInt8]) {
        if closed { return }
        if queued + bytes.count > queueLimit {
            droppedSinceReport += 1
            droppedTotal += 1
            return
        }
        queue.append(contentsOf: bytes)
    }

    /// Sends what is queued as far as the socket takes it; once all of it went, the drops
    /// since the last report are reported.
    func flush(_ report: (Int, Int) -> [UInt8]) {
        while !closed && queued > 0 {
            guard let n = send(queue, head..<queue.count) else { return }
            if n == 0 { break }
            head += n
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
                if droppedSinceReport > 0 {
                    queue.append(contentsOf: report(droppedSinceReport, droppedTotal))
                    droppedSinceReport = 0
                }
            }
        }
        // Sent bytes are moved out once they are most of the buffer, so it does not grow with
        // a client that keeps up only in part.
        if head > 0 && head >= queue.count / 2 {
            queue.removeSubrange(0..<head)
            head = 0
        }
    }

    /// nil: the peer is gone (the client is marked closed).
    private func send(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        do {
            if let n = try UnixSocket.send(fd, bytes, range) { return n }
        } catch {}
        closed = true
        return nil
    }
}
