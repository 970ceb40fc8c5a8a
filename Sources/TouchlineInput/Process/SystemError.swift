// Environment errors (style principle 9): the operation, the path it was on, and the errno, so
// that a person can act on "permission denied" or "no such device" without a debugger.
import CLibevdev
import Glibc

public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was attempted: "open", "read", "grab", "create uinput device", "epoll_wait"…
    public var operation: String
    /// The file it was attempted on, when there is one.
    public var path: String?
    /// The errno value (positive).
    public var code: Int32

    public init(_ operation: String, path: String? = nil, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// A write whose reader went away (EPIPE: `touchline … | head`).
    public var isBrokenPipe: Bool { code == EPIPE }

    /// The error for the errno the last failed libc call left.
    static func last(_ operation: String, path: String? = nil) -> SystemError {
        SystemError(operation, path: path, code: touchline_errno())
    }

    public var isPermissionDenied: Bool { code == EACCES || code == EPERM }
    /// The node, or the driver behind it, is not there (/dev/uinput without the uinput module).
    public var isNodeMissing: Bool { code == ENOENT || code == ENODEV || code == ENXIO }
    /// The device went away (unplugged, uinput device destroyed).
    public var isDeviceGone: Bool { code == ENODEV }

    public var message: String { String(cString: strerror(code)) }

    public var description: String {
        if let path { return "\(path): \(operation) failed: \(message) (errno \(code))" }
        return "\(operation) failed: \(message) (errno \(code))"
    }
}
