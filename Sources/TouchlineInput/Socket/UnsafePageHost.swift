// `touchline view`'s server process (`touchline-view`, beside this binary; docs/view.md "Two
// executables"): started with posix_spawn, its standard input and output two pipes to this
// process. What goes through them is TouchlineView's ViewHost protocol; this file only starts
// the process, writes, reads lines and waits. The unsafe code: C strings for argv, buffers'
// pointers for read(2) and write(2), readlink(2) of /proc/self/exe.
import CLibevdev
import Glibc
import TouchlineCore

public final class PageHost {
    public let pid: Int32
    /// The host's standard input (this end writes).
    let input: Int32
    /// The host's standard output (this end reads).
    let output: Int32
    var inputOpen = true
    var pending: [UInt8] = []
    public let path: String

    /// The executable named `name` in the directory of this process's own (/proc/self/exe):
    /// installed together, found together, whatever PATH says.
    public static func sibling(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        // In bounds: readlink writes at most count - 1 bytes, and the buffer stays terminated.
        let n = buffer.withUnsafeMutableBufferPointer { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
        guard n > 0 else { return nil }
        let bytes = buffer[0..<n].map { UInt8(bitPattern: $0) }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return String(decoding: bytes[...slash], as: UTF8.self) + name
    }

    /// Starts `argv` (argv[0] a path), signals unblocked and at their defaults, in this
    /// process's group (a ^C at the terminal reaches both), its standard error this one's.
    public init(argv: [String]) throws(SystemError) {
        guard let program = argv.first else { throw SystemError("posix_spawn", code: EINVAL) }
        path = program
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        // Close-on-exec (set before any other thread of view exists): only the host gets them,
        // as its standard input and output.
        guard pipe(&toChild) == 0 else { throw SystemError.last("pipe") }
        guard pipe(&fromChild) == 0 else {
            let e = SystemError.last("pipe")
            close(toChild[0]); close(toChild[1])
            throw e
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let args = argv.map { strdup($0) }
        defer { for p in args { free(p) } }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        // dup2 clears close-on-exec on the copies; the originals close at exec.
        var r = posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        if r == 0 { r = posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1) }
        if r == 0 { r = posix_spawnattr_setsigmask(&attributes, &none) }
        if r == 0 { r = posix_spawnattr_setsigdefault(&attributes, &all) }
        if r == 0 { r = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)) }
        var child: pid_t = 0
        if r == 0 {
            r = (args + [nil]).withUnsafeBufferPointer { a in
                posix_spawn(&child, program, &actions, &attributes, a.baseAddress!, environ)
            }
        }
        close(toChild[0])
        close(fromChild[1])
        if r != 0 {
            close(toChild[1])
            close(fromChild[0])
            throw SystemError("posix_spawn", path: program, code: r)
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
    }

    deinit {
        if inputOpen { close(input) }
        close(output)
    }

    /// Writes `bytes` whole (blocking while the host is busy: its pages' backlogs are bounded
    /// and counted, not this pipe's).
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // `offset < raw.count`, so the pointer and length stay inside the array.
                let n = Glibc.write(input, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    failure = n < 0 ? errno : EPIPE
                    return
                }
                offset += n
            }
        }
        if failure != 0 { throw SystemError("write", path: path, code: failure) }
    }

    /// The host's next line (without its newline), waiting for it; nil at the end of its
    /// output (it exited). A line over `limit` bytes is cut there.
    public func readLine(limit: Int = 1 << 20) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<newline])
                pending.removeFirst(newline + 1)
                return line
            }
            if pending.count >= limit {
                defer { pending.removeAll() }
                return pending
            }
            // In bounds: read(2) writes at most chunk.count bytes into chunk's own storage.
            let n = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if pending.isEmpty { return nil }
                defer { pending.removeAll() }
                return pending
            }
            pending.append(contentsOf: chunk[0..<n])
        }
    }

    /// The host's whole lines that arrive within `milliseconds` (0: those already there, without
    /// blocking), each without its newline; nil once its output ended (it exited) with nothing
    /// left. For a page that answers (calibrate's `answer QUERY` lines), read between frames.
    public func lines(within milliseconds: Int32, limit: Int = 1 << 20) -> [[UInt8]]? {
        var ended = false
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        var chunk = [UInt8](repeating: 0, count: 4096)
        var timeout = milliseconds
        while !pending.contains(0x0A) && pending.count < limit {
            let ready = poll(&descriptor, 1, timeout)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            // In bounds: read(2) writes at most chunk.count bytes into chunk's own storage.
            let n = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                ended = true
                break
            }
            pending.append(contentsOf: chunk[0..<n])
            timeout = 0
        }
        var found: [[UInt8]] = []
        while let newline = pending.firstIndex(of: 0x0A) {
            found.append(Array(pending[..<newline]))
            pending.removeFirst(newline + 1)
        }
        if pending.count >= limit {
            found.append(pending)
            pending.removeAll()
        }
        if ended && found.isEmpty {
            if pending.isEmpty { return nil }
            defer { pending.removeAll() }
            return [pending]
        }
        return found
    }

    /// No more input: the host stops its server and exits.
    public func closeInput() {
        if inputOpen {
            inputOpen = false
            close(input)
        }
    }

    /// Waits for the host's exit (reaping it).
    public func wait() -> ChildProcess.Termination {
        closeInput()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return ChildProcess.Termination(code: -1, signal: 0) }
        }
        return ChildProcess.Termination(code: touchline_exit_code(status), signal: touchline_term_signal(status))
    }
}
