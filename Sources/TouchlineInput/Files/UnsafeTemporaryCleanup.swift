// The temporary `convert` and `record` write before it replaces their output, removed when a
// signal ends the process: its path in a static C buffer a signal handler can read.
import Glibc

/// The one temporary in flight, kept where a signal handler can reach it: SIGINT, SIGTERM,
/// SIGHUP or SIGQUIT while a temporary exists removes it, then ends the process by the same
/// signal (so the caller still sees "killed by SIGINT"). SIGXFSZ is ignored instead: past a
/// file-size limit (`ulimit -f`) write(2) then fails with EFBIG, and the error path removes
/// the temporary and says why. The path lives in a static C buffer because a handler
/// may call only async-signal-safe functions: unlink(2) of a buffer, no allocation, no locks.
public enum TemporaryCleanup {
    private static let capacity = Int(PATH_MAX) + 1
    /// Allocated once, before any handler is installed; the handler reads it, the main thread
    /// writes it with the signals blocked, so they never race.
    nonisolated(unsafe) private static let path: UnsafeMutablePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        p.initialize(repeating: 0, count: capacity)
        return p
    }()
    nonisolated(unsafe) private static var installed = false
    /// SIGQUIT too: its default action would end the process (the Swift runtime's backtracer,
    /// if enabled, catches it first) and leave the temporary behind.
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    private static let handler: @convention(c) (Int32) -> Void = { signo in
        if TemporaryCleanup.path[0] != 0 { unlink(TemporaryCleanup.path) }
        signal(signo, SIG_DFL)
        raise(signo)
    }

    /// Runs `body` with the signals held back, so the buffer and the file agree whenever
    /// a handler could run.
    public static func withSignalsBlocked<T>(_ body: () -> T) -> T {
        var set = sigset_t(), old = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        return body()
    }

    /// Installs the handlers once, leaving alone a signal the user set to be ignored (nohup).
    /// With `unblock`, also unblocks the signals, which a parent may have left blocked
    /// (a blocked mask is inherited across exec): a command that handles them itself through
    /// a signalfd (record, run) must not ask for that.
    public static func install(unblock: Bool) {
        if !installed {
            installed = true
            // Allocates the buffer before any handler can read it.
            path[0] = 0
            for s in signals {
                // SIG_IGN is the handler value 1 (signal.h); a C function pointer has no `==`.
                let previous = signal(s, handler)
                if let previous, unsafeBitCast(previous, to: Int.self) == 1 { signal(s, previous) }
            }
            signal(SIGXFSZ, SIG_IGN)
        }
        if unblock {
            var set = sigset_t()
            sigemptyset(&set)
            for s in signals { sigaddset(&set, s) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
    }

    /// Records the temporary (signals blocked by the caller, handlers installed).
    public static func register(_ temporary: String) {
        let bytes = Array(temporary.utf8)
        // A path too long for the buffer is not registered: it is still removed on every error
        // path, only not on a signal.
        guard bytes.count < capacity else { return }
        for (i, b) in bytes.enumerated() { path[i] = CChar(bitPattern: b) }
        path[bytes.count] = 0
    }

    /// The temporary is gone (renamed or removed): a signal now removes nothing.
    public static func forget(_ temporary: String) {
        if String(cString: path) == temporary { path[0] = 0 }
    }

    /// Removes the temporary and forgets it.
    public static func remove(_ temporary: String) {
        withSignalsBlocked {
            unlink(temporary)
            forget(temporary)
        }
    }
}
