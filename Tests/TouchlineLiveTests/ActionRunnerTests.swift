// The daemon's actions with real processes: each test parses `[[action]]`s as the daemon does,
// hands the runner gesture events and waits, bounded (the runner's own descriptor, at most a few
// seconds), for the children to exit; what they did is read from files they wrote. Timeouts are
// on a virtual clock the test moves: no test waits for one to pass.
import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineLive

/// The runner for `toml`, with its warnings collected.
final class ActionHarness {
    let runner: ActionRunner
    let box: WarningBox
    /// The session's clock, as the daemon gives the runner its session's.
    let clock: VirtualClock

    init(_ toml: String, clock: VirtualClock = VirtualClock(start: Timestamp(microseconds: 1_000_000))) throws {
        let configuration = try DaemonConfiguration.parse(bytes: Array(toml.utf8), file: "daemon.toml")
        let box = WarningBox()
        runner = try ActionRunner(configuration.actions, warn: { box.lines.append($0) }, clock: clock)
        self.box = box
        self.clock = clock
    }

    /// `interval` of the clock passes; the runner does what is due, as the session's wait
    /// reaching its deadline makes it.
    func pass(_ interval: Interval) {
        clock.advance(to: clock.time + interval)
        runner.service()
    }

    /// Waits on the runner's descriptor (exits, output) until no action runs, at most `seconds`
    /// of wall time; returns whether that happened.
    func settle(seconds: Double = 5) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while runner.running > 0, Date() < end { runner.wait(milliseconds: 50) }
        return runner.running == 0
    }
}

/// The runner's warnings, in order.
final class WarningBox { var lines: [String] = [] }

func event(_ kind: GestureKind, _ phase: GesturePhase, at ms: Int64, target: GestureName = "surface", fingers: Int = 1) -> GestureEvent {
    let detail: GestureDetail = kind == PinchRecognizer.gesture
        ? .pinch(scale: 1.5, velocity: 0.2, span: 40) : .tap(count: 1, duration: .milliseconds(80))
    return GestureEvent(
        seq: Int(ms), time: Timestamp(microseconds: ms * 1000), device: 0, gesture: kind, phase: phase, target: target,
        recognizer: "r", fingers: fingers, position: Point(x: 10.5, y: 20.25), contacts: ContactList(), detail: detail)
}

/// A TOML basic string holding `text`.
func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

@Suite struct ActionRunnerTests {
    @Test func anArgvActionRunsWithTheEventInItsEnvironment() throws {
        let dir = try SocketDirectory()
        let script = #"printf '%s|%s|%s|%s|%s|%s' "$TOUCHLINE_GESTURE" "$TOUCHLINE_PHASE" "$TOUCHLINE_TARGET" "$TOUCHLINE_X" "$TOUCHLINE_Y" "$TOUCHLINE_FINGERS" > "$1/fields"; printf %s "$TOUCHLINE_EVENT" > "$1/event""#
        let harness = try ActionHarness("""
            [[action]]
            gesture = "tap"
            fingers = 2
            argv = ["/bin/sh", "-c", \(quoted(script)), "sh", \(quoted(dir.path))]
            """)
        // One finger: not this action's.
        harness.runner.handle(event(TapRecognizer.gesture, .recognized, at: 1))
        #expect(harness.runner.started == 0)
        let tap = event(TapRecognizer.gesture, .recognized, at: 2, fingers: 2)
        harness.runner.handle(tap)
        #expect(harness.runner.started == 1)
        #expect(harness.settle())
        #expect(try String(contentsOfFile: dir.path + "/fields", encoding: .utf8) == "tap|recognized|surface|10.50|20.25|2")
        var line = JSONWriter()
        tap.writeJSON(into: &line)
        #expect(try String(contentsOfFile: dir.path + "/event", encoding: .utf8) == String(decoding: line.bytes, as: UTF8.self))
        #expect(harness.box.lines.isEmpty)
    }

    /// Issue 26: an action's output (standard output and error, in the order printed) reaches
    /// the journal line by line, each prefixed with the action's line in the config; a last
    /// line without a newline too (on 8d7af8f it went to the daemon's streams without a prefix).
    @Test func anActionsOutputIsPrefixedWithItsLine() throws {
        let script = #"echo one; echo two >&2; printf 'tab\there\n\033[31mred\n'; printf last"#
        let harness = try ActionHarness("""
            [[action]]
            gesture = "tap"
            argv = ["/bin/sh", "-c", \(quoted(script))]
            """)
        harness.runner.handle(event(TapRecognizer.gesture, .recognized, at: 1))
        #expect(harness.settle())
        #expect(harness.box.lines == [
            "action (line 1): one",
            "action (line 1): two",
            "action (line 1): tab\there",
            "action (line 1): \u{1B}[31mred",
            "action (line 1): last",
        ])
    }

    @Test func shellMetacharactersInFieldsAndArgumentsAreNeverInterpreted() throws {
        let dir = try SocketDirectory()
        let target = "$(touch \(dir.path)/pwned); touch \(dir.path)/pwned2 `touch \(dir.path)/pwned3`"
        let harness = try ActionHarness("""
            [[action]]
            gesture = "tap"
            target = \(quoted(target))
            argv = ["touch", \(quoted(dir.path + "/$(id);`id` && x"))]

            [[action]]
            gesture = "tap"
            target = "*"
            argv = ["/bin/sh", "-c", "printf %s \\"$TOUCHLINE_TARGET\\" > \\"$1/target\\"", "sh", \(quoted(dir.path))]
            """)
        harness.runner.handle(event(TapRecognizer.gesture, .recognized, at: 1, target: GestureName(target)))
        #expect(harness.runner.started == 2)
        #expect(harness.settle())
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        // The argument is a file name, byte for byte; nothing the target's text names was run.
        #expect(files == ["$(id);`id` && x", "target"])
        #expect(try String(contentsOfFile: dir.path + "/target", encoding: .utf8) == target)
    }

    @Test func repeatRunsAContinuousGestureAtMostEveryIntervalOfEventTime() throws {
        let dir = try SocketDirectory()
        let harness = try ActionHarness("""
            [actions]
            maxRunning = 32

            [[action]]
            gesture = "pinch"
            repeat = 100
            argv = ["/bin/sh", "-c", "echo \\"$TOUCHLINE_EVENT\\" >> \\"$1/runs\\"", "sh", \(quoted(dir.path))]
            """)
        let pinch = PinchRecognizer.gesture
        harness.runner.handle(event(pinch, .began, at: 0))
        // 101 changed events, one every 10 ms of event time: runs at 0, 100, …, 1000 ms.
        for ms in stride(from: Int64(0), through: 1000, by: 10) { harness.runner.handle(event(pinch, .changed, at: ms)) }
        harness.runner.handle(event(pinch, .ended, at: 1005))
        #expect(harness.runner.started == 11)
        #expect(harness.settle())
        let runs = try String(contentsOfFile: dir.path + "/runs", encoding: .utf8).split(separator: "\n")
        #expect(runs.count == 11)
        let seqs = runs.compactMap { field(String($0), "seq") as? Int }.sorted()
        #expect(seqs == Array(stride(from: 0, through: 1000, by: 100)))
    }

    /// The timeout is a deadline on the session's clock: nothing happens 1 ms before it, the
    /// group is terminated at it, and its exit then comes through the runner's descriptor.
    @Test func aHangingActionIsKilledAtItsTimeout() throws {
        let harness = try ActionHarness("""
            [[action]]
            gesture = "tap"
            timeout = "200ms"
            shell = true
            argv = "sleep 60; sleep 60"
            """)
        harness.runner.handle(event(TapRecognizer.gesture, .recognized, at: 1))
        #expect(harness.runner.running == 1)
        #expect(harness.runner.nextDeadline == harness.clock.time + .milliseconds(200))
        harness.pass(.milliseconds(199))
        #expect(harness.runner.running == 1 && harness.runner.killed == 0)
        harness.pass(.milliseconds(1))
        #expect(harness.runner.killed == 1)
        #expect(harness.settle(seconds: 5))
        #expect(harness.box.lines == ["action (line 1) still running after its timeout of 200 ms: terminated"])
    }

    @Test func theCapSkipsRatherThanQueues() throws {
        let harness = try ActionHarness("""
            [actions]
            maxRunning = 1

            [[action]]
            gesture = "tap"
            timeout = 100
            argv = ["sleep", "60"]
            """)
        harness.runner.handle(event(TapRecognizer.gesture, .recognized, at: 1))
        harness.runner.handle(event(TapRecognizer.gesture, .recognized, at: 2))
        #expect(harness.runner.started == 1)
        #expect(harness.runner.skipped == 1)
        // Its 100 ms timeout ends the sleep.
        harness.pass(.milliseconds(100))
        #expect(harness.settle())
    }

    @Test func aMissingProgramIsAWarningNotAnError() throws {
        let harness = try ActionHarness("""
            [[action]]
            gesture = "tap"
            argv = ["/nonexistent/touchline-action"]
            """)
        harness.runner.handle(event(TapRecognizer.gesture, .recognized, at: 1))
        #expect(harness.runner.started == 0)
        #expect(harness.box.lines.count == 1)
        #expect(harness.box.lines.first?.contains("/nonexistent/touchline-action: posix_spawn failed: No such file or directory") == true)
    }

    /// In a session the runner's timeout is a deadline of the session's one wait (`hooks.timers`):
    /// on a scripted source the virtual clock reaches it and the session services the runner,
    /// with no timer of the runner's own.
    @Test func theTimeoutIsADeadlineOfTheSessionsWait() throws {
        var source = ScriptedSource(clock: VirtualClock())
        let harness = try ActionHarness("""
            [[action]]
            gesture = "tap"
            timeout = "200ms"
            argv = ["sleep", "60"]
            """, clock: source.clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        source.perform(at: ms(100)) { harness.runner.handle(event(TapRecognizer.gesture, .recognized, at: 100)) }
        var session = LiveSession(output: .gestures, sink: TargetSink(), clock: source.clock)
        session.hooks.timers = [harness.runner]
        try session.start(&source)
        try session.run(&source)
        // The script ended at 100 ms; the session's wait went on to the runner's deadlines
        // (its timeout at 300 ms, then the kill's grace) until the action was gone.
        #expect(harness.runner.killed == 1)
        #expect(harness.runner.running == 0 || harness.settle())
        #expect(harness.box.lines == ["action (line 1) still running after its timeout of 200 ms: terminated"])
    }
}
