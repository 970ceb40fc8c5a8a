// `daemon --stdout`: standard output as one more subscriber of the daemon's events, one that
// never holds up the input. Written at once, a reader that stopped reading (a stalled pipe, a
// stopped terminal) held the daemon's one thread in write(2): no device read, no socket client
// served (not even its subscribe reply), SIGTERM waiting on the pipe. Here each line goes out
// without blocking; what the reader has not taken waits in a bounded queue, sent when the
// descriptor is writable again (`fileDescriptor`, watched by the daemon's loop as the socket
// server's is); an event that does not fit is dropped and counted, as a socket client's are
// (SocketClient), and the drops are reported on standard error. The pointer code: the writes.
import CLibevdev
import Glibc
import TouchlineCore

public final class NonBlockingOutput: LineOutput {
    enum Mode {
        /// A regular file or a device such as /dev/null: nothing there waits for a reader (and
        /// epoll cannot watch it), so lines are written at once, as FileOutput writes them.
        case direct
        /// A pipe or a terminal, through a non-blocking description of its own.
        case descriptor
        /// A socket (systemd's journal stream): send(2) with MSG_DONTWAIT.
        case socket
    }

    let fd: Int32
    let mode: Mode
    /// Watches `fd` for room while something is queued (and only then: a pipe whose reader is
    /// gone is always "ready", which would wake the loop for nothing).
    let readiness: ReadinessSet?
    var watching = false
    /// Bytes not yet taken: `queue[head...]`; whole lines, but for the first one's rest.
    var queue: [UInt8] = []
    var head = 0
    /// Bytes the queue may hold before events are dropped.
    public let limit: Int
    /// Events dropped since the last report, and since the start.
    var droppedSinceReport = 0
    public private(set) var droppedTotal = 0
    var lastReport: Timestamp?
    /// EPIPE: the reader went away (`| head -1`); the daemon ends, and nothing is reported.
    var readerGone = false
    var closed = false
    let warn: (String) -> Void
    let now: () -> Timestamp
    /// Drops are reported when they begin, then at most once per interval, and at the end.
    public static let reportInterval = Interval(microseconds: 10_000_000)

    /// Output to `fd` (standard output by default). `warn` gets the drop reports.
    public init(fd: Int32 = 1, limit: Int = 256 * 1024, warn: @escaping (String) -> Void, now: @escaping () -> Timestamp = EventLoop.now) {
        self.limit = limit
        self.warn = warn
        self.now = now
        var st = stat()
        let kind = fstat(fd, &st) == 0 ? st.st_mode & S_IFMT : 0
        if kind == S_IFSOCK {
            self.fd = fd
            mode = .socket
        } else if kind == S_IFIFO || (kind == S_IFCHR && isatty(fd) == 1) {
            // O_NONBLOCK belongs to the open file description, which fd 1 shares with whoever
            // started the daemon (a shell's terminal left non-blocking breaks the shell's next
            // read); a description of its own, opened again through /proc, changes nobody's.
            let own = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            if own >= 0 {
                self.fd = own
                mode = .descriptor
            } else {
                // ENXIO: a pipe nobody reads any more; the first write says EPIPE and the
                // daemon ends as with `| head`.
                if touchline_errno() != ENXIO {
                    warn("stdout: cannot be made non-blocking (\(SystemError.last("open", path: "/proc/self/fd/\(fd)"))); a reader that stops reading holds up the daemon")
                }
                self.fd = fd
                mode = .direct
            }
        } else {
            self.fd = fd
            mode = .direct
        }
        readiness = mode == .direct ? nil : try? ReadinessSet()
    }

    deinit {
        if mode == .descriptor && !closed { _ = close(fd) }
    }

    /// Readable when queued bytes can go: watch it in the loop, then call `service()`. nil when
    /// nothing is ever queued (a file).
    public var fileDescriptor: Int32? { readiness?.fileDescriptor }

    var queued: Int { queue.count - head }

    /// Sends `bytes` (one event's line) as far as the reader takes them now and queues the
    /// rest; an event that does not fit the queue is dropped and counted. A line is never cut:
    /// the rest of one that went out in part is always queued. EPIPE is thrown (the daemon
    /// ends with 0, as `replay | head` does).
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        // After `finish` the descriptor is closed (and its number may be another file's).
        guard !bytes.isEmpty, !closed else { return }
        if mode == .direct {
            do {
                try FileOutput(fd: fd).write(bytes)
            } catch {
                if error.isBrokenPipe { readerGone = true }
                throw error
            }
            return
        }
        // Without a readiness set nothing wakes us when there is room: try at each line.
        if queued > 0 && readiness == nil { try flush() }
        if queued > 0 {
            if queued + bytes.count > limit {
                droppedSinceReport += 1
                droppedTotal += 1
                reportDrops()
            } else {
                queue.append(contentsOf: bytes)
            }
            return
        }
        let n = try send(bytes, from: 0)
        if n < bytes.count {
            queue.append(contentsOf: bytes[n...])
            try watch(true)
        }
    }

    /// The descriptor has room (or an error to tell): sends what is queued.
    public func service() throws(SystemError) {
        try flush()
        reportDrops()
    }

    /// At the end: up to `grace` ms for the reader to take what is queued; each line it did
    /// not take whole is counted as dropped, and the drops not yet reported are.
    public func finish(grace milliseconds: Int32 = 250) {
        guard !closed else { return }
        closed = true
        if mode != .direct && !readerGone {
            let end = now() + .milliseconds(Int64(milliseconds))
            while queued > 0 {
                do { try flush() } catch { break }
                let left = (end - now()).microseconds / 1000
                if queued == 0 || left <= 0 { break }
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, Int32(left))
            }
            let lost = queue[head...].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            droppedSinceReport += lost
            droppedTotal += lost
        }
        queue.removeAll()
        head = 0
        try? watch(false)
        lastReport = nil
        reportDrops()
        if mode == .descriptor { _ = close(fd) }
    }

    func flush() throws(SystemError) {
        while queued > 0 {
            let n = try send(queue, from: head)
            if n == 0 { break }
            head += n
        }
        if queued == 0 {
            queue.removeAll(keepingCapacity: true)
            head = 0
            try watch(false)
        } else if head > 0 && head >= queue.count / 2 {
            // Sent bytes are moved out once they are most of the buffer, so that it does not
            // grow with a reader that keeps up only in part.
            queue.removeSubrange(0..<head)
            head = 0
        }
    }

    /// How many of `bytes[offset...]` went (0: no room now). EPIPE marks the reader gone.
    func send(_ bytes: [UInt8], from offset: Int) throws(SystemError) -> Int {
        guard offset < bytes.count else { return 0 }
        while true {
            let n = bytes.withUnsafeBytes { raw in
                // `offset < raw.count`, so the pointer and length stay inside the array.
                mode == .socket
                    ? touchline_send(fd, raw.baseAddress! + offset, UInt(raw.count - offset))
                    : Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n >= 0 { return n }
            let code = touchline_errno()
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return 0 }
            if code == EPIPE || code == ECONNRESET { readerGone = true }
            throw SystemError("write", code: code == ECONNRESET ? EPIPE : code)
        }
    }

    func watch(_ on: Bool) throws(SystemError) {
        guard let readiness, on != watching else { return }
        if on {
            try readiness.set(fd, token: 0, input: false, output: true, added: true)
        } else {
            readiness.remove(fd)
        }
        watching = on
    }

    /// Reports the drops since the last report, at once for the first ones, then at most once
    /// per `reportInterval` (a reader that keeps falling behind is not a line per event).
    func reportDrops() {
        guard droppedSinceReport > 0, !readerGone else { return }
        let t = now()
        if let lastReport, (t - lastReport) < Self.reportInterval { return }
        lastReport = t
        let n = droppedSinceReport
        droppedSinceReport = 0
        warn("stdout: \(n) \(n == 1 ? "event" : "events") dropped (reader too slow)" + (droppedTotal > n ? "; \(droppedTotal) since the start" : ""))
    }
}
