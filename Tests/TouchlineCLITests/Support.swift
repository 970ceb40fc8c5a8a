import Foundation
import Testing
// Every file of these tests sees the shared test support (paths, trace files, counters).
@_exported import TouchlineTestSupport

/// Runs the built `touchline` executable, as a user would, and captures what it prints.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [Substring] { stdout.split(separator: "\n") }
}

/// The package's paths (TouchlineTestSupport's `Paths`), and what only these tests need.
extension Paths {
    /// The `touchline` binary that `swift build` put beside this test bundle.
    static let binary: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("touchline")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir.deleteLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/touchline")
    }()

    static func temporaryDirectory() -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("touchline-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

@discardableResult
func touchline(_ arguments: String..., environment: [String: String]? = nil) throws -> CLIResult {
    try run(Paths.binary.path, arguments, environment: environment)
}

/// `touchline ARGUMENTS` run in `directory`: a report that names the files it was given names
/// them as the test gave them (relative), not under a temporary directory that differs each run,
/// so the report can be compared whole with its golden.
func touchline(in directory: URL, _ arguments: String...) throws -> CLIResult {
    try run(Paths.binary.path, arguments, directory: directory)
}

/// `standardInput`: a file the process reads as fd 0 (`touchline … < FILE`); /dev/null otherwise.
func touchline(arguments: [String], standardInput: String? = nil) throws -> CLIResult {
    try run(Paths.binary.path, arguments, standardInput: standardInput)
}

/// `timeout`: seconds, far above any run's time under load (a bound, not a measurement).
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, standardInput: String? = nil,
         directory: URL? = nil, timeout: Double = 300) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if let environment { process.environment = environment }
    let out = Pipe()
    // stderr goes to a file, so that only one pipe needs draining while the process runs.
    let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("touchline-stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let errHandle = try FileHandle(forWritingTo: errURL)
    defer { try? FileManager.default.removeItem(at: errURL) }
    process.standardOutput = out
    process.standardError = errHandle
    if let standardInput {
        process.standardInput = try #require(FileHandle(forReadingAtPath: standardInput), "cannot open \(standardInput)")
    } else {
        process.standardInput = FileHandle.nullDevice
    }
    try process.run()
    // A hung process must fail its test, not hang the suite: past `timeout` it is killed (the
    // read below then ends, as its end of the pipe closes) and the test records why.
    let pid = process.processIdentifier
    let killer = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    killer.cancel()
    if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL {
        Issue.record("\(executable) \(arguments.joined(separator: " ")): killed after \(timeout) s")
    }
    try errHandle.close()
    let errData = (try? Data(contentsOf: errURL)) ?? Data()
    return CLIResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self)
    )
}

/// `libinput` with the system Python first on PATH: its analyze tools need python3-libevdev,
/// which a pyenv or venv python3 earlier on PATH does not have.
func libinput(_ arguments: String...) throws -> CLIResult {
    var env = ProcessInfo.processInfo.environment
    env["PATH"] = "/usr/bin:/bin:" + (env["PATH"] ?? "")
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/libinput") else {
        Issue.record("/usr/bin/libinput is missing: install libinput-tools and python3-libevdev (scripts/setup.sh does)")
        return CLIResult(status: -1, stdout: "", stderr: "")
    }
    return try run("/usr/bin/libinput", arguments, environment: env)
}

/// A process started as a shell starts one: no signal blocked and every signal at its default
/// action. The test runner blocks several signals (SIGQUIT, SIGXFSZ among them) and Process
/// hands that mask down across exec, which hides what a signal does to touchline.
struct CleanProcess {
    let pid: pid_t
    /// Where standard output and standard error both went.
    let outputPath: String
    /// A daemon's NOTIFY_SOCKET (`init(daemon:)`): what it tells systemd, the test hears.
    private(set) var notify: NotifyListener?

    /// `touchline daemon ARGUMENTS`, returned once it serves: it says READY=1 on a NOTIFY_SOCKET
    /// the test binds in `dir` (as it tells systemd), after its socket listens. No test polls
    /// for the socket to appear. `standardOutput`: as in `init(_:_:outputIn:)`.
    init(daemon arguments: [String], outputIn dir: URL, standardOutput: Int32? = nil) throws {
        let notify = try NotifyListener(name: dir.path + "/notify-" + UUID().uuidString.prefix(8))
        try self.init(Paths.binary.path, ["daemon"] + arguments, outputIn: dir, environment: ["NOTIFY_SOCKET=" + notify.name], standardOutput: standardOutput)
        self.notify = notify
        do {
            _ = try notify.message(containing: "READY=1")
        } catch {
            Issue.record("the daemon did not say READY=1: \(output)")
            throw error
        }
    }

    /// Standard input is /dev/null; standard output and error go to a new file in `dir`, or
    /// standard output to the descriptor `standardOutput` (a pipe the test holds) when given;
    /// `environment` ("NAME=value") is added to the test's own.
    init(_ executable: String, _ arguments: [String], outputIn dir: URL, environment: [String] = [], standardOutput: Int32? = nil) throws {
        outputPath = dir.appendingPathComponent("output-\(UUID().uuidString).txt").path
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let standardOutput {
            posix_spawn_file_actions_addopen(&actions, 2, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid = pid_t()
        let names = Set(environment.compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        let inherited = ProcessInfo.processInfo.environment.filter { !names.contains($0.key) }.map { "\($0.key)=\($0.value)" }
        let envp: [UnsafeMutablePointer<CChar>?] = (inherited + environment).map { strdup($0) } + [nil]
        defer { for entry in envp { free(entry) } }
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EINVAL) }
        self.pid = pid
    }

    /// How it ended: (exit status, nil) or (nil, signal); nil if still running after 10 s,
    /// when it is killed (a test must fail, not hang the suite).
    func wait() -> (status: Int32?, signal: Int32?)? {
        guard let status = waitForExit(pid, timeout: 10) else { return nil }
        return status & 0x7f == 0 ? ((status >> 8) & 0xff, nil) : (nil, status & 0x7f)
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
}

/// systemd's side of NOTIFY_SOCKET: a datagram socket bound at a path or an abstract name.
final class NotifyListener {
    let fd: Int32
    /// What NOTIFY_SOCKET says.
    let name: String

    init(name: String) throws {
        self.name = name
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        try #require(rc == 0, "bind \(name): \(String(cString: strerror(errno)))")
        // The daemon may have dropped to nobody by the time it sends.
        if !abstract { chmod(name, 0o777) }
    }
    deinit { close(fd) }

    /// The next datagram, waiting up to `timeout` s.
    func message(timeout: Double = 10) throws -> String {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        try #require(poll(&ready, 1, Int32(timeout * 1000)) == 1, "no notification within \(timeout) s")
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        try #require(n > 0)
        return String(decoding: buffer[0..<n], as: UTF8.self)
    }

    /// Messages until one with `line` among its lines (which it returns), up to `timeout` s.
    func message(containing line: String, timeout: Double = 10) throws -> String {
        while true {
            let message = try message(timeout: timeout)
            if message.split(separator: "\n").contains(Substring(line)) { return message }
        }
    }
}

/// Waits for the child `pid` to end, up to `timeout` s, and reaps it: its wait status, or nil
/// when it was still running (it is then killed and reaped) or was not this process's child. A
/// thread blocks in waitpid and hands the status over, so the test waits on the process itself
/// and never polls it.
func waitForExit(_ pid: pid_t, timeout: Double) -> Int32? {
    final class Ended: @unchecked Sendable {
        var status: Int32? = nil
        let done = DispatchSemaphore(value: 0)
    }
    let ended = Ended()
    let waiter = Thread {
        var status: Int32 = 0
        var rc: pid_t
        repeat { rc = waitpid(pid, &status, 0) } while rc == -1 && errno == EINTR
        if rc == pid { ended.status = status }
        ended.done.signal()
    }
    waiter.start()
    if ended.done.wait(timeout: .now() + timeout) == .success { return ended.status }
    kill(pid, SIGKILL)
    ended.done.wait()
    return nil
}

/// Waits up to `timeout` s for `check` to give a value, checking again each time something in
/// `directory` is created, written, closed or renamed (an inotify watch, set before the first
/// check so that no change is missed): a file a process writes is waited for, never polled.
func whenChanged<T>(_ directory: String, timeout: Double = 10, _ check: () throws -> T?) throws -> T? {
    let fd = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
    try #require(fd >= 0, "inotify_init1: \(String(cString: strerror(errno)))")
    defer { close(fd) }
    let mask = UInt32(IN_CREATE) | UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_ATTRIB)
    try #require(inotify_add_watch(fd, directory, mask) >= 0, "inotify_add_watch \(directory): \(String(cString: strerror(errno)))")
    let limit = DispatchTime.now() + timeout
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        if let value = try check() { return value }
        let now = DispatchTime.now()
        guard now < limit else { return nil }
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(min((limit.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000 + 1, 60_000))
        _ = poll(&ready, 1, milliseconds)
        while read(fd, &buffer, buffer.count) > 0 {}  // the changes themselves: the check reads the state
    }
}

/// Waits up to `timeout` s for `condition` about files in `directory` (a process's output, a
/// file an action writes), checking again each time something there changes; false when it
/// never held.
func eventually(in directory: String, timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    (try? whenChanged(directory, timeout: timeout) { condition() ? true : nil }) == true
}

/// Waits up to `timeout` s for a Foundation `process` to end (a thread blocks in its wait and
/// signals); false when it was still running.
func ended(_ process: Process, timeout: Double = 10) -> Bool {
    final class Exit: @unchecked Sendable { let done = DispatchSemaphore(value: 0) }
    let exit = Exit()
    nonisolated(unsafe) let watched = process
    let waiter = Thread { watched.waitUntilExit(); exit.done.signal() }
    waiter.start()
    return exit.done.wait(timeout: .now() + timeout) == .success
}
