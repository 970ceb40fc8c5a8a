// systemd's readiness protocol (sd_notify(3)) without libsystemd: one datagram per state change
// to the socket named by NOTIFY_SOCKET (a path, or "@name" for an abstract socket). The unit is
// Type=notify, so systemd starts the units ordered after touchline only once READY=1 came, that
// is once the devices and the socket are open and privileges dropped.
import Foundation
import TouchlineCore
import TouchlineLive
#if canImport(Glibc)
import Glibc
#endif

final class SystemdNotifier {
    let fd: Int32
    var address = sockaddr_un()
    let length: socklen_t
    let target: String

    /// The notifier NOTIFY_SOCKET names, or nil without one (not started by systemd). The
    /// variable is removed from the environment, as sd_notify's unset_environment does, so that
    /// actions (children) cannot speak for the daemon.
    static func fromEnvironment(warn: (String) -> Void) -> SystemdNotifier? {
        guard let value = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"], !value.isEmpty else { return nil }
        unsetenv("NOTIFY_SOCKET")
        guard let notifier = SystemdNotifier(value) else {
            warn("warning: NOTIFY_SOCKET=\(value.prefix(120)): expected an absolute path or @abstract name that fits a Unix socket address; not notifying systemd")
            return nil
        }
        return notifier
    }

    init?(_ value: String) {
        var bytes = Array(value.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let abstract = bytes.first == UInt8(ascii: "@")
        guard abstract || bytes.first == UInt8(ascii: "/"), bytes.count >= 2 else { return nil }
        // Abstract: a leading NUL, and the length says where the name ends (no terminator).
        if abstract { bytes[0] = 0 }
        guard bytes.count + (abstract ? 0 : 1) <= capacity, !bytes.dropFirst().contains(0) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        self.fd = fd
        target = value
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            raw.copyBytes(from: bytes)
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        length = socklen_t(offset + bytes.count + (abstract ? 0 : 1))
    }

    deinit { close(fd) }

    /// Sends `state` (newline-separated assignments). Failing to notify is not a reason to
    /// stop serving touches: systemd then times the start out and says so in its own log.
    @discardableResult
    func send(_ state: String) -> Bool {
        let bytes = Array(state.utf8)
        let sent = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        return sent == bytes.count
    }

    static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }
}

/// A daemon source that tells systemd what the loop does: READY=1 once started (the owner calls
/// `ready()` after the privilege drop), RELOADING=1 when SIGHUP arrives and READY=1 when the
/// next wait begins (the reload is done by then), STOPPING=1 on SIGINT/SIGTERM, and STATUS= with
/// the number of open devices whenever it changes.
struct NotifyingSource<Base: DaemonSource>: DaemonSource {
    var base: Base
    let notifier: SystemdNotifier?
    let socketPath: String
    var devices = 0
    var reported = -1
    var reloading = false

    init(_ base: Base, notifier: SystemdNotifier?, socketPath: String) {
        self.base = base
        self.notifier = notifier
        self.socketPath = socketPath
    }

    mutating func watch(_ fd: Int32, onReadable: @escaping () throws -> Void) throws {
        try base.watch(fd, onReadable: onReadable)
    }

    /// The wrapped source's numbering (a trace's devices keep the trace's numbers).
    var numbersDevices: Bool { base.numbersDevices }

    mutating func start(_ deliver: (SourceEvent) throws -> Void) throws {
        var count = devices
        try base.start { event in
            Self.count(event, &count)
            try deliver(event)
        }
        devices = count
    }

    mutating func wait(deadline: Timestamp?, _ deliver: (SourceEvent) throws -> Void) throws -> SourceWake {
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
            notifier?.send("RELOADING=1\nMONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())\nSTATUS=reloading the configuration")
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

    /// After start and the privilege drop: the daemon serves.
    mutating func ready() {
        notifier?.send("READY=1\n\(status)")
        reported = devices
    }

    var status: String {
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
