// The daemon's actions (docs/live.md#actions): each gesture event is matched against the
// `[[action]]`s and a match runs its command as a child process, without a shell unless the
// config wrote `shell = true`, with the event in its environment. The loop never waits for a
// child: exits and output wake it through `fileDescriptor` (pidfds and pipes in TouchlineInput's
// ChildWatcher), and timeouts are deadlines on the session's clock that join the session's one
// wait (`nextDeadline`, a `SessionTimer`); `service()` reaps and kills. On a virtual clock a
// test moves time past a timeout instead of waiting for it. Each command runs in a
// process group of its own, and the group is what is waited for and ended: what a shell left
// in the background goes at the action's timeout, or with the daemon, as the command would.
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineInput

public final class ActionRunner {
    public private(set) var configuration: ActionConfiguration
    let watcher: ChildWatcher
    /// The daemon's environment without TOUCHLINE_* (an inherited one must not pass for the event's).
    let baseEnvironment: [String]
    let warn: (String) -> Void
    /// The clock timeouts are measured on: the session's (CLOCK_MONOTONIC live, the trace's
    /// time with `--source trace:FILE`, a test's virtual clock).
    let clock: any LiveClock

    /// A command's process group: the process started (its leader, whose pid is the group's
    /// id) and whatever it starts there. The group is the action: it runs, holding its place
    /// under `maxRunning`, until the group is empty, and its timeout ends the whole group.
    struct Child {
        var pid: Int32
        var pidfd: Int32
        /// Its action as it was when started (a reload may replace the list meanwhile).
        var action: ActionSpec
        /// When its group is sent SIGTERM, then (once `terminated`) SIGKILL.
        var deadline: Timestamp
        var terminated = false
        /// The leader exited (and was reaped) while processes it started stay in the group (a
        /// shell's `cmd &`): no pidfd tells when those end, so the group is checked every
        /// `lingerCheck` (next at `nextCheck`) until it is empty or its deadline comes.
        var leaderExited = false
        var nextCheck = Timestamp(microseconds: .max)
        /// The read end of the pipe its standard output and error write to (-1 once closed),
        /// and what it gave after its last complete line.
        var output: Int32 = -1
        var pending: [UInt8] = []
        /// When the session's wait must wake the runner for this child.
        var wake: Timestamp { leaderExited ? min(deadline, nextCheck) : deadline }
    }
    var children: [Child] = []
    /// Per action: the event time it last ran at (for `repeat`).
    var lastRun: [Timestamp?]
    var line = JSONWriter()
    /// Where `keys` and `button` actions write (the daemon's uinput device), or nil when the
    /// configuration has none.
    let input: InputEventWriter?
    /// Each open device's surface in mm (as its graph sees it), for a click's position.
    var surfaces: [Int: Size] = [:]
    /// `daemon --dry-run`: each action an event matches is a line, `dry run: would run …`, and
    /// nothing runs (an input action's frames go to `input`, the dry run's InputEventLog).
    public var dryRun = false

    /// Actions started (commands, and input actions written), commands skipped at the cap, and
    /// commands killed at their timeout, since the start.
    public private(set) var started = 0
    public private(set) var skipped = 0
    public private(set) var killed = 0
    /// Skips said once and counted since, per action line (ActionRunner+Skips.swift).
    var skipReports: [Int: SkipReport] = [:]
    public var running: Int { children.count }
    /// How often a group whose leader has exited is checked for processes left in it.
    static let lingerCheck = Interval(microseconds: 200_000)
    /// An action's output line longer than this is passed on in pieces of this size; at most
    /// `outputPerService` bytes of one action are read per wake, so that a chatty action cannot
    /// hold the daemon's loop.
    static let outputLineLimit = 4096
    static let outputPerService = 65536

    /// Readable when a child exited or printed: call `service()`.
    public var fileDescriptor: Int32 { watcher.fileDescriptor }
    /// The earliest timeout, group check or skip count due (on `clock`), kept as `rearm`
    /// computes it: the session's wait reads it on every wake, without allocating.
    public private(set) var nextDeadline: Timestamp?

    public init(_ configuration: ActionConfiguration, environment: [String] = ChildProcess.currentEnvironment(),
                input: InputEventWriter? = nil,
                warn: @escaping (String) -> Void, clock: any LiveClock = MonotonicClock()) throws(SystemError) {
        self.configuration = configuration
        self.input = input
        watcher = try ChildWatcher()
        baseEnvironment = environment.filter { !$0.hasPrefix("TOUCHLINE_") }
        self.warn = warn
        self.clock = clock
        lastRun = Array(repeating: nil, count: configuration.actions.count)
    }

    deinit { finish(grace: 0) }

    /// SIGHUP's new actions: matched from the next event on. Children running keep running
    /// (and keep their timeouts); `repeat` starts afresh.
    public func replace(_ configuration: ActionConfiguration) {
        self.configuration = configuration
        lastRun = Array(repeating: nil, count: configuration.actions.count)
    }

    /// Device `index` opened with a surface of `surface` mm (its graph's): where a click lands.
    public func deviceOpened(_ index: Int, surface: Size) {
        surfaces[index] = surface
    }

    /// Runs every action `event` matches (at most `maxRunning` commands at once; input actions
    /// are written at once and do not count).
    public func handle(_ event: GestureEvent) {
        var environment: [String]?
        for (index, action) in configuration.actions.enumerated() where configuration.runs(action, for: event) {
            if let interval = action.repeatInterval, event.phase == .changed, let last = lastRun[index],
               event.time.microseconds - last.microseconds < interval.microseconds {
                continue
            }
            if dryRun {
                warn("dry run: would run \(Self.describe(action.command, at: event.position)) (action line \(action.line); \(event.gesture) \(event.phase) on \(Self.quoted(event.target.description)), device \(event.device))")
                lastRun[index] = event.time
                if action.command.isInput { writeInput(action, for: event) }
                continue
            }
            if action.command.isInput {
                writeInput(action, for: event)
                lastRun[index] = event.time
                continue
            }
            if children.count >= configuration.maxRunning {
                skipped += 1
                reportSkip(action, reason: "\(configuration.maxRunning) \(configuration.maxRunning == 1 ? "action" : "actions") already running ([actions] maxRunning)")
                continue
            }
            if environment == nil { environment = self.environment(for: event) }
            let argv: [String]
            switch action.command {
            case let .argv(words): argv = words
            case let .shell(command): argv = ["/bin/sh", "-c", command]
            case .keys, .button: continue
            }
            do {
                let (pid, output) = try ChildProcess.spawnCapturingOutput(argv: argv, environment: environment ?? baseEnvironment)
                let pidfd = watcher.watch(pid)
                watcher.watchOutput(output)
                children.append(Child(pid: pid, pidfd: pidfd, action: action, deadline: clock.now() + action.timeout, output: output))
                lastRun[index] = event.time
                started += 1
            } catch {
                warn("action (line \(action.line)): \(error)")
            }
        }
        rearm()
    }

    /// What a command runs, for a dry run's line: the argv as a list, a shell command with its
    /// shell, a chord by its keys' kernel names, a click with its place in mm.
    static func describe(_ command: ActionSpec.Command, at position: Point) -> String {
        switch command {
        case let .argv(words): return "[" + words.map(quoted).joined(separator: ", ") + "]"
        case let .shell(text): return "/bin/sh -c " + quoted(text)
        case let .keys(codes): return "keys " + codes.map { EventCodes.codeName(type: EventCodes.EV_KEY, code: $0) ?? "code \($0)" }.joined(separator: " + ")
        case let .button(button): return "click \(button.rawValue) at \(formatFixed(position.x, decimals: 2)), \(formatFixed(position.y, decimals: 2)) mm"
        }
    }

    /// `text` in double quotes, `"` and `\` escaped (the warning escapes control characters).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for c in text {
            if c == "\"" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out + "\""
    }

    /// A chord or a click on the uinput device, in-process: no child, nothing to wait for.
    func writeInput(_ action: ActionSpec, for event: GestureEvent) {
        guard let input else {
            warn("action (line \(action.line)): no uinput device to write to")
            return
        }
        let frames: [[InputEvent]]
        switch action.command {
        case let .keys(codes): frames = InputActions.chord(codes)
        case let .button(button):
            // Unknown device (a test's event): its position is taken over a zero surface, the
            // pointer's middle, rather than a guess.
            frames = InputActions.click(button, at: event.position, surface: surfaces[event.device] ?? Size(width: 0, height: 0))
        case .argv, .shell: return
        }
        do {
            for frame in frames { try input.write(frame) }
            started += 1
        } catch {
            warn("action (line \(action.line)): \(error)")
        }
    }

    func environment(for event: GestureEvent) -> [String] {
        line.reset()
        event.writeJSON(into: &line)
        let json = String(decoding: line.bytes, as: UTF8.self)
        return baseEnvironment + [
            "TOUCHLINE_GESTURE=\(event.gesture)",
            "TOUCHLINE_PHASE=\(event.phase)",
            "TOUCHLINE_TARGET=\(event.target)",
            "TOUCHLINE_DEVICE=\(event.device)",
            "TOUCHLINE_X=\(formatFixed(event.position.x, decimals: 2))",
            "TOUCHLINE_Y=\(formatFixed(event.position.y, decimals: 2))",
            "TOUCHLINE_FINGERS=\(event.fingers)",
            "TOUCHLINE_EVENT=\(json)",
        ]
    }

    /// Reaps the children that exited, drops the groups left empty, terminates the groups past
    /// their timeout (SIGTERM, then SIGKILL after `ActionConfiguration.killGrace`), and says
    /// its next deadline. Never blocks. Called when `fileDescriptor` is readable and when the
    /// session's wait reaches `nextDeadline`.
    public func service() {
        let t = clock.now()
        reportSkips(at: t)
        var index = 0
        while index < children.count {
            var child = children[index]
            passOnOutput(&child)
            if !child.leaderExited, let status = ChildProcess.reap(child.pid) {
                watcher.unwatch(child.pidfd)
                child.pidfd = -1
                child.leaderExited = true
                let action = child.action
                if !child.terminated, status.code != 0 {
                    warn("action (line \(action.line)) " + (status.signal != 0 ? "ended by signal \(status.signal)" : "exited with \(status.code)"))
                }
            }
            if child.leaderExited {
                if !ChildProcess.groupAlive(child.pid) {
                    closeOutput(&child)
                    children.remove(at: index)
                    continue
                }
                // Stored, not taken from each rearm: events re-arm all the time.
                child.nextCheck = t + Self.lingerCheck
            }
            if t >= child.deadline {
                let action = child.action
                if !child.terminated {
                    let timeout = action.timeout.microseconds / 1000
                    warn("action (line \(action.line)) " + (child.leaderExited
                        ? "left processes running after its timeout of \(timeout) ms: terminated"
                        : "still running after its timeout of \(timeout) ms: terminated"))
                    ChildProcess.terminate(child.pid)
                    child.terminated = true
                    child.deadline = t + ActionConfiguration.killGrace
                    killed += 1
                } else {
                    ChildProcess.terminate(child.pid, kill: true)
                    // Reaped when its pidfd says so; checked again after another grace.
                    child.deadline = t + ActionConfiguration.killGrace
                }
            }
            children[index] = child
            index += 1
        }
        rearm()
    }

    /// Passes on the lines the action's processes printed, each on the daemon's stderr (the
    /// journal) as `action (line N): TEXT`, so that a line says which action printed it and an
    /// action's output never mixes into `--stdout` (docs/live.md#actions).
    func passOnOutput(_ child: inout Child) {
        guard child.output >= 0 else { return }
        let open = ChildProcess.readAvailable(child.output, into: &child.pending, limit: Self.outputPerService)
        if open { passOnLines(&child, last: false) } else { closeOutput(&child) }
    }

    /// The rest of the output (a last line without a newline too), then the pipe closed.
    func closeOutput(_ child: inout Child) {
        guard child.output >= 0 else { return }
        _ = ChildProcess.readAvailable(child.output, into: &child.pending, limit: Self.outputPerService)
        watcher.unwatch(child.output)
        child.output = -1
        passOnLines(&child, last: true)
    }

    /// Each complete line of `pending` (a piece of `outputLineLimit` bytes counts as one), and
    /// with `last` what remains after them.
    func passOnLines(_ child: inout Child, last: Bool) {
        var start = 0
        for i in child.pending.indices where child.pending[i] == UInt8(ascii: "\n") || i + 1 - start >= Self.outputLineLimit {
            let end = child.pending[i] == UInt8(ascii: "\n") ? i : i + 1
            warn("action (line \(child.action.line)): " + String(decoding: child.pending[start..<end], as: UTF8.self))
            start = i + 1
        }
        if last && start < child.pending.count {
            warn("action (line \(child.action.line)): " + String(decoding: child.pending[start...], as: UTF8.self))
            start = child.pending.count
        }
        child.pending.removeFirst(start)
    }

    /// `nextDeadline` from the children and the skip counts (after each change to them).
    func rearm() {
        var next = skipReportDeadline
        for child in children where next.map({ child.wake < $0 }) ?? true { next = child.wake }
        nextDeadline = next
    }

    /// Waits at most `milliseconds` (wall time) for an exit or output, then services (tests,
    /// shutdown); a timeout is serviced when the clock has passed it.
    public func wait(milliseconds: Int32) {
        _ = watcher.waitReadable(milliseconds: milliseconds)
        service()
    }

    /// At shutdown: SIGTERM to every running action's group (a leader gone or not), up to
    /// `grace` ms for them to exit, then SIGKILL.
    public func finish(grace: Int32 = 500) {
        reportSkips(at: clock.now(), all: true)
        guard !children.isEmpty else { return }
        for child in children where !child.terminated { ChildProcess.terminate(child.pid) }
        var waited: Int32 = 0
        while !children.isEmpty, waited < grace {
            _ = watcher.waitReadable(milliseconds: 20)
            waited += 20
            reapAll()
        }
        for child in children { ChildProcess.terminate(child.pid, kill: true) }
        // SIGKILL cannot be refused: the exits come at once.
        var tries = 0
        while !children.isEmpty, tries < 50 {
            _ = watcher.waitReadable(milliseconds: 20)
            tries += 1
            reapAll()
        }
    }

    /// Reaps the leaders that exited and drops the groups left empty.
    func reapAll() {
        for index in children.indices where !children[index].leaderExited {
            guard ChildProcess.reap(children[index].pid) != nil else { continue }
            watcher.unwatch(children[index].pidfd)
            children[index].pidfd = -1
            children[index].leaderExited = true
        }
        for index in children.indices { passOnOutput(&children[index]) }
        for index in children.indices where children[index].leaderExited && !ChildProcess.groupAlive(children[index].pid) {
            closeOutput(&children[index])
        }
        children.removeAll { $0.leaderExited && $0.output < 0 && !ChildProcess.groupAlive($0.pid) }
    }
}

/// The action runner's deadlines are the session's: its timeouts join the one wait.
extension ActionRunner: SessionTimer {}
