// systemd's readiness protocol as the daemon's loop sees it: the source the daemon serves
// from, wrapped so that each state change becomes a notification (TouchlineInput's
// SystemdNotifier sends them; the tests pass a list). The unit is Type=notify, so systemd
// starts the units ordered after touchline only once READY=1 came, that is once the devices
// and the socket are open and privileges dropped.
import TouchlineCore
import TouchlineInput

/// The sources the daemon can serve its socket from (the socket's descriptor in their loop).
public protocol DaemonSource: LiveSource {
    mutating func watch(_ fd: Int32, onReadable: @escaping () throws -> Void) throws
}

extension EvdevLiveSource: DaemonSource {}
extension TraceLiveSource: DaemonSource {}
extension LibinputLiveSource: DaemonSource {}

/// A daemon source that tells systemd what the loop does: READY=1 once started (the owner calls
/// `ready()` after the privilege drop), RELOADING=1 when SIGHUP arrives and READY=1 when the
/// next wait begins (the reload is done by then), STOPPING=1 on SIGINT/SIGTERM, and STATUS= with
/// the number of open devices whenever it changes.
public struct NotifyingSource<Base: DaemonSource>: DaemonSource {
    var base: Base
    let notifier: (any NotifySocket)?
    let socketPath: String
    /// Monotonic microseconds, for RELOADING's MONOTONIC_USEC (a fake clock in the tests).
    let clock: () -> Int64
    var devices = 0
    var reported = -1
    var reloading = false

    public init(_ base: Base, notifier: (any NotifySocket)?, socketPath: String,
                clock: @escaping () -> Int64 = { MonotonicNanoseconds.now() / 1000 }) {
        self.base = base
        self.notifier = notifier
        self.socketPath = socketPath
        self.clock = clock
    }

    public mutating func watch(_ fd: Int32, onReadable: @escaping () throws -> Void) throws {
        try base.watch(fd, onReadable: onReadable)
    }

    /// The wrapped source's numbering (a trace's devices keep the trace's numbers).
    public var numbersDevices: Bool { base.numbersDevices }

    public mutating func start(_ deliver: (SourceEvent) throws -> Void) throws {
        var count = devices
        try base.start { event in
            Self.count(event, &count)
            try deliver(event)
        }
        devices = count
    }

    public mutating func wait(deadline: Timestamp?, _ deliver: (SourceEvent) throws -> Void) throws -> SourceWake {
        if reloading {
            reloading = false
            notifier?.send("READY=1\n\(status)")
            reported = devices
        }
        var count = devices
        let wake = try base.wait(deadline: deadline) { event in
            Self.count(event, &count)
            try deliver(event)
        }
        devices = count
        switch wake {
        case .hangup:
            reloading = true
            notifier?.send("RELOADING=1\nMONOTONIC_USEC=\(clock())\nSTATUS=reloading the configuration")
        case .stop:
            notifier?.send("STOPPING=1\nSTATUS=stopping")
        default:
            if devices != reported {
                notifier?.send(status)
                reported = devices
            }
        }
        return wake
    }

    public var grabs: Bool { base.grabs }

    /// The session's requests go to the wrapped source (a device it closes is counted out).
    public mutating func request(_ request: SourceRequest, _ deliver: (SourceEvent) throws -> Void) throws {
        var count = devices
        try base.request(request) { event in
            Self.count(event, &count)
            try deliver(event)
        }
        devices = count
    }

    /// After start and the privilege drop: the daemon serves.
    public mutating func ready() {
        notifier?.send("READY=1\n\(status)")
        reported = devices
    }

    public var status: String {
        "STATUS=\(devices) device\(devices == 1 ? "" : "s"); events on \(socketPath)"
    }

    static func count(_ event: SourceEvent, _ count: inout Int) {
        switch event {
        case .added: count += 1
        case .removed: count = max(0, count - 1)
        default: break
        }
    }
}
