// systemd's readiness protocol (sd_notify(3)) without libsystemd: one datagram per state change
// to the socket named by NOTIFY_SOCKET (a path, or "@name" for an abstract socket). The address
// is built here, its length checked against `sun_path` before the copy.
import Glibc

/// Where the daemon's state changes go: systemd's socket, or a list in the tests.
public protocol NotifySocket: AnyObject {
    /// Sends `state` (newline-separated assignments); false when it did not go.
    @discardableResult
    func send(_ state: String) -> Bool
}

public final class SystemdNotifier: NotifySocket {
    let fd: Int32
    var address = sockaddr_un()
    let length: socklen_t
    public let target: String

    /// The notifier NOTIFY_SOCKET names, or nil without one (not started by systemd). The
    /// variable is removed from the environment, as sd_notify's unset_environment does, so that
    /// actions (children) cannot speak for the daemon.
    public static func fromEnvironment(warn: (String) -> Void) -> SystemdNotifier? {
        guard let value = Environment.value("NOTIFY_SOCKET"), !value.isEmpty else { return nil }
        Environment.unset("NOTIFY_SOCKET")
        guard let notifier = SystemdNotifier(value) else {
            warn("warning: NOTIFY_SOCKET=\(value.prefix(120)): expected an absolute path or @abstract name that fits a Unix socket address; not notifying systemd")
            return nil
        }
        return notifier
    }

    public init?(_ value: String) {
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

    /// Failing to notify is not a reason to stop serving touches: systemd then times the start
    /// out and says so in its own log.
    @discardableResult
    public func send(_ state: String) -> Bool {
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
}
