// The daemon's actions as processes: posix_spawn (never a shell unless the argv names one), a
// pidfd per child so that an exit wakes the loop, in an epoll set of its own whose descriptor
// the daemon's loop watches (the runner's timeouts are deadlines of the session's one wait).
// The only unsafe code of actions: C strings for argv and the environment. The file keeps the
// `Unsafe` prefix of the audited files; the API it offers is safe, so its type is `ChildProcess`
// and a child's end is a `Termination` (not a second `ExitStatus`, which is the CLI's table).
import CLibevdev
import Glibc
import TouchlineCore

public enum ChildProcess {
    /// Starts `argv` (PATH search for a first element without a slash) with `environment`
    /// ("NAME=value" strings), in a process group of its own (its pid), standard input
    /// /dev/null and standard output the caller's standard error. Returns the pid.
    public static func spawn(argv: [String], environment: [String]) throws(SystemError) -> Int32 {
        try start(argv: argv, environment: environment, capturing: false).pid
    }

    /// As `spawn`, with the child's standard output and error into a pipe: returns the pid and
    /// the pipe's read end (non-blocking; the caller closes it), so that each line the action
    /// prints reaches the journal prefixed with the action's line in the config.
    public static func spawnCapturingOutput(argv: [String], environment: [String]) throws(SystemError) -> (pid: Int32, output: Int32) {
        try start(argv: argv, environment: environment, capturing: true)
    }

    static func start(argv: [String], environment: [String], capturing: Bool) throws(SystemError) -> (pid: Int32, output: Int32) {
        guard let program = argv.first else { throw SystemError("posix_spawn", code: EINVAL) }
        // strdup'ed so that the pointers outlive the call; freed after it.
        let args = argv.map { strdup($0) }
        let env = environment.map { strdup($0) }
        defer {
            for p in args { free(p) }
            for p in env { free(p) }
        }
        if args.contains(where: { $0 == nil }) || env.contains(where: { $0 == nil }) { throw SystemError("strdup", code: ENOMEM) }
        var pid: Int32 = 0
        var output: Int32 = -1
        let r = (args + [nil]).withUnsafeBufferPointer { a in
            (env + [nil]).withUnsafeBufferPointer { e in
                capturing ? touchline_spawn(a.baseAddress, e.baseAddress, &pid, &output) : touchline_spawn(a.baseAddress, e.baseAddress, &pid, nil)
            }
        }
        if r != 0 { throw SystemError("posix_spawn", path: program, code: r) }
        return (pid, output)
    }

    /// The process's wait status once it exited (reaping it); nil while it runs.
    public static func reap(_ pid: Int32) -> Termination? {
        let status = touchline_reap(pid)
        if status == -1 { return nil }
        // ECHILD: already reaped elsewhere; report it as gone.
        if status == -2 { return Termination(code: -1, signal: 0) }
        return Termination(code: touchline_exit_code(status), signal: touchline_term_signal(status))
    }

    /// SIGTERM (or SIGKILL with `kill`) to the child's process group.
    public static func terminate(_ pid: Int32, kill: Bool = false) {
        _ = touchline_kill_group(pid, kill ? touchline_sigkill() : touchline_sigterm())
    }

    /// Whether the process group `pgid` (a child's, started by `spawn`) still has a process
    /// once its leader has been reaped: what a shell left running in the background.
    public static func groupAlive(_ pgid: Int32) -> Bool {
        touchline_group_alive(pgid) == 1
    }

    /// Appends what `fd` has now to `bytes`, at most `limit` bytes: true while the pipe may
    /// give more later, false at its end (or on an error: the same to the reader).
    public static func readAvailable(_ fd: Int32, into bytes: inout [UInt8], limit: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: min(limit, 4096))
        var total = 0
        while total < limit {
            // In bounds: at most chunk.count bytes are written into chunk's own storage.
            let n = chunk.withUnsafeMutableBytes { touchline_read_available(fd, $0.baseAddress, UInt($0.count)) }
            if n == -1 { return true }
            if n <= 0 { return false }
            bytes.append(contentsOf: chunk[0..<Int(n)])
            total += Int(n)
        }
        return true
    }

    /// The daemon's environment, as "NAME=value" strings.
    public static func currentEnvironment() -> [String] {
        var result: [String] = []
        var p = environ
        while let entry = p.pointee {
            result.append(String(cString: entry))
            p += 1
        }
        return result
    }

    public struct Termination: Hashable, Sendable {
        /// The exit code, or -1 when a signal ended it.
        public var code: Int32
        /// The signal that ended it, or 0.
        public var signal: Int32
    }
}

/// pidfds and output pipes in an epoll set: `fileDescriptor` is readable when a watched child
/// exited or printed. It has no timer: its owner's deadlines join the loop's one wait (the
/// action runner's join the live session's `nextDeadline`).
public final class ChildWatcher {
    public let fileDescriptor: Int32

    public init() throws(SystemError) {
        let ep = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard ep >= 0 else { throw SystemError.last("epoll_create1") }
        fileDescriptor = ep
    }

    deinit {
        close(fileDescriptor)
    }

    /// Watches `pid`'s exit; returns its pidfd (for `unwatch`), or -1 when the kernel has no
    /// pidfd (then exits are seen at the owner's next wake or deadline).
    public func watch(_ pid: Int32) -> Int32 {
        let fd = touchline_pidfd_open(pid)
        guard fd >= 0 else { return -1 }
        if touchline_epoll_add(fileDescriptor, fd, UInt64(pid)) != 0 {
            close(fd)
            return -1
        }
        return fd
    }

    /// Watches `fd` (an action's output pipe) for something to read; `unwatch` closes it.
    public func watchOutput(_ fd: Int32) {
        _ = touchline_epoll_add(fileDescriptor, fd, UInt64(UInt32(bitPattern: fd)) | 1 << 40)
    }

    public func unwatch(_ pidfd: Int32) {
        guard pidfd >= 0 else { return }
        _ = touchline_epoll_remove(fileDescriptor, pidfd)
        close(pidfd)
    }

    /// Waits at most `milliseconds` for a child's exit or output (tests and shutdown).
    public func waitReadable(milliseconds: Int32) -> Bool {
        touchline_poll_readable(fileDescriptor, milliseconds) > 0
    }

    public static func now() -> Timestamp { Timestamp(microseconds: touchline_monotonic_microseconds()) }
}
