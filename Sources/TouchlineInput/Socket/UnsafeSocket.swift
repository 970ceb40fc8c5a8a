// The event socket's system calls: a Unix stream socket, its file's mode and group, and an epoll
// set of its own (so the whole server is one descriptor in the daemon's EventLoop, as libinput's
// context is). The unsafe code of the socket is here and in the C shim (the address, whose path
// length is checked there); every buffer's bounds are checked here before the call.
import CLibevdev
import Glibc

/// What a path names, without following a link.
public enum SocketPathKind: Sendable, Equatable {
    case missing, socket, other
}

/// What a non-blocking read of a connection gave.
public enum SocketRead: Sendable, Equatable {
    /// `n` bytes (n > 0) were read.
    case bytes(Int)
    /// Nothing to read now.
    case wouldBlock
    /// The peer closed (or reset) the connection.
    case closed
}

public enum UnixSocket {
    /// A listening, non-blocking socket at `path`, its file given `mode` (and `owner` and
    /// `group`) before it listens, so no client connects while the umask's mode is on it.
    public static func listen(path: String, mode: UInt32, owner: UInt32? = nil, group: UInt32?, backlog: Int32 = 16) throws(SystemError) -> Int32 {
        let fd = touchline_unix_bind(path)
        guard fd >= 0 else { throw SystemError.last("bind", path: path) }
        func fail(_ operation: String) -> SystemError {
            let error = SystemError.last(operation, path: path)
            _ = Glibc.close(fd)
            _ = Glibc.unlink(path)
            return error
        }
        if chmod(path, mode_t(mode)) != 0 { throw fail("chmod") }
        if owner != nil || group != nil, chown(path, owner.map { uid_t($0) } ?? uid_t.max, group.map { gid_t($0) } ?? gid_t.max) != 0 { throw fail("chown") }
        if Glibc.listen(fd, backlog) != 0 { throw fail("listen") }
        return fd
    }

    /// A client connection (blocking unless `nonblocking`).
    public static func connect(path: String, nonblocking: Bool = false) throws(SystemError) -> Int32 {
        let fd = touchline_unix_connect(path, nonblocking ? 1 : 0)
        guard fd >= 0 else { throw SystemError.last("connect", path: path) }
        return fd
    }

    public enum Probe: Sendable, Equatable {
        /// Something accepts connections there (or would: its backlog is full).
        case listening
        /// A socket nobody listens on (ECONNREFUSED): left by a process that is gone.
        case stale
    }

    /// Whether a process listens on the socket at `path`.
    public static func probe(path: String) throws(SystemError) -> Probe {
        let fd = touchline_unix_connect(path, 1)
        if fd >= 0 {
            _ = Glibc.close(fd)
            return .listening
        }
        let code = touchline_errno()
        if code == ECONNREFUSED { return .stale }
        if code == EAGAIN { return .listening }
        throw SystemError("connect", path: path, code: code)
    }

    /// A pending connection (non-blocking); nil when none is pending.
    public static func accept(_ fd: Int32) throws(SystemError) -> Int32? {
        while true {
            let client = touchline_accept(fd)
            if client >= 0 { return client }
            let code = touchline_errno()
            if code == EINTR { continue }
            // The client gave up between its connect and our accept: nothing to accept.
            if code == EAGAIN || code == EWOULDBLOCK || code == ECONNABORTED { return nil }
            throw SystemError("accept", code: code)
        }
    }

    /// Reads what is available into `buffer[offset...]` (at most its free space).
    public static func read(_ fd: Int32, into buffer: inout [UInt8], at offset: Int) throws(SystemError) -> SocketRead {
        guard offset >= 0, offset < buffer.count else { return .wouldBlock }
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress! + offset, raw.count - offset) }
            if n > 0 { return .bytes(n) }
            if n == 0 { return .closed }
            let code = touchline_errno()
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            if code == ECONNRESET || code == EPIPE { return .closed }
            throw SystemError("read", code: code)
        }
    }

    /// Sends `bytes[range]` without blocking and without SIGPIPE: how many bytes went (0 when the
    /// peer's buffer is full), or nil when the peer is gone.
    public static func send(_ fd: Int32, _ bytes: [UInt8], _ range: Range<Int>) throws(SystemError) -> Int? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, !range.isEmpty else { return 0 }
        while true {
            let n = bytes.withUnsafeBytes { raw in touchline_send(fd, raw.baseAddress! + range.lowerBound, UInt(range.count)) }
            if n >= 0 { return n }
            let code = touchline_errno()
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return 0 }
            if code == EPIPE || code == ECONNRESET { return nil }
            throw SystemError("send", code: code)
        }
    }

    public static func kind(of path: String) throws(SystemError) -> SocketPathKind {
        switch touchline_path_kind(path) {
        case 0: return .missing
        case 1: return .socket
        case 2: return .other
        default: throw SystemError.last("lstat", path: path)
        }
    }

    /// The permission bits and group of `path`.
    public static func mode(of path: String) throws(SystemError) -> (mode: UInt32, group: UInt32) {
        var mode: UInt32 = 0, group: UInt32 = 0
        guard touchline_path_mode(path, &mode, &group) == 0 else { throw SystemError.last("lstat", path: path) }
        return (mode, group)
    }

    /// A group's id by name; nil when there is no such group.
    public static func groupID(named name: String) throws(SystemError) -> UInt32? {
        var gid: UInt32 = 0
        switch touchline_group_id(name, &gid) {
        case 0: return gid
        case 1: return nil
        default: throw SystemError.last("getgrnam", path: name)
        }
    }

    public static func unlink(_ path: String) throws(SystemError) {
        if Glibc.unlink(path) != 0 { throw SystemError.last("unlink", path: path) }
    }

    public static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    /// Shuts a connection's writing side (a test client saying it has no more to send).
    public static func shutdownOutput(_ fd: Int32) { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// After a read saw the end of a connection's input: whether the peer is gone altogether
    /// (closed, or shut down both ways: POLLHUP) rather than done sending only (`SHUT_WR`: it
    /// still reads). Does not wait.
    public static func peerHungUp(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: 0, revents: 0)
        let n = poll(&entry, 1, 0)
        return n != 0 && entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }
}

/// An epoll set of its own: the server's listening socket and clients, each with a token. Its
/// descriptor is readable whenever one of them is ready, so an outer loop watches just that.
public final class ReadinessSet {
    public let fileDescriptor: Int32
    private var tokens = [UInt64](repeating: 0, count: 64)

    public init() throws(SystemError) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw SystemError.last("epoll_create1") }
        fileDescriptor = fd
    }

    deinit { _ = Glibc.close(fileDescriptor) }

    /// Watches `fd` (or changes what it is watched for: `added` false).
    public func set(_ fd: Int32, token: UInt64, input: Bool, output: Bool, added: Bool) throws(SystemError) {
        let op = added ? touchline_epoll_ctl_add() : touchline_epoll_ctl_mod()
        if touchline_epoll_set(fileDescriptor, op, fd, token, input ? 1 : 0, output ? 1 : 0) != 0 {
            throw SystemError.last("epoll_ctl")
        }
    }

    public func remove(_ fd: Int32) { _ = touchline_epoll_remove(fileDescriptor, fd) }

    /// The tokens of the descriptors ready within `timeout` ms (0: now, without waiting).
    public func ready(timeout: Int32) throws(SystemError) -> ArraySlice<UInt64> {
        let capacity = Int32(tokens.count)
        let n = tokens.withUnsafeMutableBufferPointer { touchline_epoll_wait_tokens(fileDescriptor, $0.baseAddress!, capacity, timeout) }
        if n < 0 { throw SystemError.last("epoll_wait") }
        return tokens[0..<Int(n)]
    }
}

/// A blocking client connection (`touchline listen`, the tests' subscribers).
public struct SocketConnection: Sendable {
    public let fd: Int32

    /// The longest path a Unix socket address holds (sun_path less its terminator).
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    public init(path: String) throws(SystemError) {
        fd = try UnixSocket.connect(path: path)
    }

    /// Sends all of `bytes`, without SIGPIPE (a closed peer is EPIPE).
    public func send(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            // `offset < bytes.count`, so the pointer and length stay inside the array.
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if touchline_errno() == EINTR { continue }
                throw SystemError.last("send")
            }
            offset += n
        }
    }

    /// Waits for bytes and reads them into the start of `buffer`: how many (0: the peer closed).
    public func receive(into buffer: inout [UInt8]) throws(SystemError) -> Int {
        guard !buffer.isEmpty else { return 0 }
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n >= 0 { return n }
            if touchline_errno() == EINTR { continue }
            throw SystemError.last("read")
        }
    }

    public func close() { _ = Glibc.close(fd) }
}
