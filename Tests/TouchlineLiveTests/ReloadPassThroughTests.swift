// SIGHUP and pass-through (issue 31, item 1): a reload applies `passthrough` on and off to every
// device, open and plugged in later, and `ignore = true` gives the device back and closes it.
// The scripted source grabs and releases as the evdev source does (once no contact is down);
// its clones are recorders that also keep the grab they hold, so that every path (reload,
// a failed write, unplug, exit) shows the device is never grabbed without a live clone.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineLive

/// A clone that holds its device's grab as UInputClone does (taken when made, given back on
/// close) and keeps each frame written to it, and its close, with the clock's time.
final class GrabbingClone: PassThroughClone {
    let clock: VirtualClock
    let node: String
    var frames: [String] = []
    var grabbed = true
    var failsToWrite = false
    init(clock: VirtualClock, node: String) {
        self.clock = clock
        self.node = node
    }
    struct Broken: Error {}
    func write(_ events: [InputEvent]) throws {
        precondition(grabbed, "a write after close")
        if failsToWrite { throw Broken() }
        frames.append("\(clock.now()) " + events.map { "\(EventCodes.codeName(type: $0.type, code: $0.code) ?? "?") \($0.value)" }.joined(separator: ", "))
    }
    func close() {
        precondition(grabbed, "closed twice")
        grabbed = false
        frames.append("\(clock.now()) closed, device given back")
    }
}

@Suite struct ReloadPassThroughTests {
    static func section(_ setting: String) -> String {
        "[[device]]\nmatch.name = \"scripted screen\"\n\(setting)\n"
    }

    /// A session on `source` that starts with `sections` and reloads `reloads` in turn; its
    /// source clones each device it is asked to into a GrabbingClone (`clones`, in order made).
    final class Run {
        var clones: [(device: Int, clone: GrabbingClone)] = []
        var sink: LogSink
        var source: ScriptedSource
        init(_ source: ScriptedSource, _ sections: String, reloads: [String], made: @escaping (GrabbingClone) -> Void = { _ in }) throws {
            var source = source
            let clock = source.clock
            let sink = LogSink(clock: clock)
            self.sink = sink
            self.source = source
            source.makeClone = { [unowned self] device in
                let clone = GrabbingClone(clock: clock, node: "/dev/input/event\(90 + self.clones.count)")
                self.clones.append((device, clone))
                made(clone)
                return clone
            }
            var session = LiveSession(sink: sink, clock: clock)
            session.settings.configPath = "daemon.toml"
            session.settings.deviceConfiguration = try DaemonConfiguration.parse(bytes: Array(sections.utf8), file: "daemon.toml").devices
            var next = reloads.makeIterator()
            session.hooks.reloadConfiguration = { try DaemonConfiguration.parse(bytes: Array(next.next()!.utf8), file: "daemon.toml") }
            try session.start(&source)
            try session.run(&source)
            self.source = source
        }
        var reloadLines: [String] { sink.warnings.filter { $0.hasPrefix("reload:") } }
    }

    static func tap(_ id: Int32, at t: Int64, x: Double = 50) -> [InputEvent] {
        var tap = Finger(trackingID: id)
        tap.down(at: ms(t), x: x, y: 25)
        tap.up(at: ms(t + 60))
        return tap.events
    }

    /// Off at start, on by SIGHUP while nothing is down: grabbed and cloned at the reload, and
    /// the next tap reaches the clone. (bead128: the source's predicate, built at start, never
    /// passed the device through.)
    @Test func aReloadTurningPassThroughOnClonesAnOpenDevice() throws {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        source.events(0, Self.tap(1, at: 1000))
        source.hangup(at: ms(1500))
        source.events(0, Self.tap(2, at: 2000))
        source.stop(at: ms(3000))
        let run = try Run(source, Self.section("passthrough = false"), reloads: [Self.section("passthrough = true")])
        #expect(run.reloadLines == ["reload: daemon.toml: reloaded; /dev/input/event5 (scripted screen): pass-through on (grabbed, clone /dev/input/event90)"])
        #expect(run.clones.count == 1)
        expectLog(run.clones.first?.clone.frames ?? [], [
            "2.000000 ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 250, BTN_TOUCH 1, SYN_REPORT 0",
            "2.060000 ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            "3.000000 closed, device given back",
        ])
    }

    /// On at start, off by SIGHUP mid-touch: the clone's contact lifts at the reload (the
    /// gesture is cancelled), but the device stays grabbed, and its clone live, until the
    /// finger lifts; then the clone goes with the grab, and later taps reach no clone.
    /// (bead128: the clone stayed until the exit.)
    @Test func aReloadTurningItOffReleasesTheDeviceOnceTheFingerLifts() throws {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        var pan = Finger(trackingID: 1)
        pan.down(at: ms(1000), x: 50, y: 25)
        pan.move(at: ms(1020), x: 60, y: 25)
        source.events(0, pan.events)
        source.hangup(at: ms(1030))
        let before = pan.events.count
        pan.move(at: ms(1040), x: 70, y: 25)
        pan.up(at: ms(1100))
        source.events(0, Array(pan.events[before...]))
        source.events(0, Self.tap(2, at: 2000))
        source.stop(at: ms(3000))
        let run = try Run(source, Self.section("passthrough = true"), reloads: [Self.section("passthrough = false")])
        #expect(run.reloadLines == ["reload: daemon.toml: reloaded; /dev/input/event5 (scripted screen): pass-through off (released once no finger is down)"])
        #expect(run.clones.count == 1)
        expectLog(run.clones.first?.clone.frames ?? [], [
            "1.000000 ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 250, BTN_TOUCH 1, SYN_REPORT 0",
            "1.020000 ABS_MT_POSITION_X 600, SYN_REPORT 0",
            "1.030000 ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            "1.100000 closed, device given back",
        ])
        #expect(run.source.requests == [.passThrough(device: 0), .release(device: 0)])
        #expect(run.sink.log.contains { $0.hasPrefix("2.060000 tap recognized") }, "\(run.sink.log)")
    }

    /// On → off → on, with a device plugged in before the first reload, one between the two and
    /// one after: each open device follows each reload, and each plugged in later follows the
    /// sections running when it opens. (bead128: the predicate built at start cloned device 1
    /// after the reload turned pass-through off, and no reload cloned device 0 again.)
    @Test func onOffOnFollowsEveryDeviceOpenAndPluggedInLater() throws {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        source.events(0, Self.tap(1, at: 1000))
        source.hangup(at: ms(1500))
        source.add(1, path: "/dev/input/event6", description: screen, at: ms(1600))
        source.events(1, Self.tap(2, at: 1700))
        source.hangup(at: ms(2000))
        source.add(2, path: "/dev/input/event7", description: screen, at: ms(2100))
        source.events(2, Self.tap(3, at: 2200))
        source.stop(at: ms(3000))
        let on = Self.section("passthrough = true")
        let run = try Run(source, on, reloads: [Self.section("passthrough = false"), on])
        expectLog(run.reloadLines, [
            "reload: daemon.toml: reloaded; /dev/input/event5 (scripted screen): pass-through off (released)",
            "reload: daemon.toml: reloaded; /dev/input/event5 (scripted screen): pass-through on (grabbed, clone /dev/input/event91); /dev/input/event6 (scripted screen): pass-through on (grabbed, clone /dev/input/event92)",
        ])
        #expect(run.clones.map(\.device) == [0, 0, 1, 2])
        // The first clone: the first tap, then released at the first reload.
        expectLog(run.clones[0].clone.frames, [
            "1.000000 ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 250, BTN_TOUCH 1, SYN_REPORT 0",
            "1.060000 ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            "1.500000 closed, device given back",
        ])
        // Device 1's tap (pass-through off) reached no clone; device 2's reached its own.
        expectLog(run.clones[1].clone.frames, ["3.000000 closed, device given back"])
        expectLog(run.clones[2].clone.frames, ["3.000000 closed, device given back"])
        expectLog(run.clones[3].clone.frames, [
            "2.200000 ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 250, BTN_TOUCH 1, SYN_REPORT 0",
            "2.260000 ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            "3.000000 closed, device given back",
        ])
        // The exit: no device stays grabbed.
        #expect(run.clones.allSatisfy { !$0.clone.grabbed })
    }

    /// `ignore = true` by SIGHUP mid-touch: the clone's contact lifts, the clone goes with the
    /// grab at once, and the source closes the device. (bead128: the clone went, the grab
    /// stayed: another reader of the node got nothing until a restart.)
    @Test func ignoreGivesTheDeviceBackAndClosesIt() throws {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        var pan = Finger(trackingID: 1)
        pan.down(at: ms(1000), x: 50, y: 25)
        source.events(0, pan.events)
        source.hangup(at: ms(1030))
        let before = pan.events.count
        pan.up(at: ms(1100))
        source.events(0, Array(pan.events[before...]))
        source.events(0, Self.tap(2, at: 2000))
        source.stop(at: ms(3000))
        let run = try Run(source, Self.section("passthrough = true"), reloads: [Self.section("ignore = true")])
        #expect(run.reloadLines == ["reload: daemon.toml: reloaded; /dev/input/event5 (scripted screen): ignored from now on (released)"])
        expectLog(run.clones.first?.clone.frames ?? [], [
            "1.000000 ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 250, BTN_TOUCH 1, SYN_REPORT 0",
            "1.030000 ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            "1.030000 closed, device given back",
        ])
        #expect(run.source.requests == [.passThrough(device: 0), .close(device: 0)])
        #expect(!run.sink.log.contains { $0.contains("tap") }, "\(run.sink.log)")
    }

    /// A clone that fails to write is closed, which gives its device back (bead128: the device
    /// stayed grabbed, its clone gone, until the exit); the source forgets it, and a reload that
    /// says `passthrough = true` again passes the device through anew.
    @Test func aCloneThatFailsGivesTheDeviceBackAndAReloadTriesAgain() throws {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        source.events(0, Self.tap(1, at: 1000))
        source.hangup(at: ms(1500))
        source.events(0, Self.tap(2, at: 2000))
        source.stop(at: ms(3000))
        let on = Self.section("passthrough = true")
        // The first clone made breaks.
        let run = try Run(source, on, reloads: [on]) { clone in clone.failsToWrite = clone.node == "/dev/input/event90" }
        let clones = run.clones
        #expect(clones.count == 2)
        expectLog(clones[0].clone.frames, ["1.000000 closed, device given back"])
        #expect(run.sink.warnings.contains("pass-through clone /dev/input/event90: Broken(); removed, the device is given back"), "\(run.sink.warnings)")
        #expect(run.reloadLines == ["reload: daemon.toml: reloaded; /dev/input/event5 (scripted screen): pass-through on (grabbed, clone /dev/input/event91)"])
        #expect(clones[1].clone.frames.first == "2.000000 ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 250, BTN_TOUCH 1, SYN_REPORT 0")
        #expect(clones.allSatisfy { !$0.clone.grabbed })
    }

    /// An unplug of a passed-through device: the clone's contact lifts and the clone goes with
    /// the grab; the exit leaves nothing grabbed either.
    @Test func unplugAndExitLeaveNothingGrabbed() throws {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        source.add(1, path: "/dev/input/event6", description: screen)
        var pan = Finger(trackingID: 1)
        pan.down(at: ms(1000), x: 50, y: 25)
        source.events(0, pan.events)
        source.remove(0, at: ms(1100))
        var held = Finger(trackingID: 2)
        held.down(at: ms(1200), x: 50, y: 25)
        source.events(1, held.events)
        source.stop(at: ms(1300))
        let run = try Run(source, Self.section("passthrough = true"), reloads: [])
        expectLog(run.clones.flatMap(\.clone.frames), [
            "1.000000 ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 250, BTN_TOUCH 1, SYN_REPORT 0",
            "1.100000 ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            "1.100000 closed, device given back",
            "1.200000 ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 250, BTN_TOUCH 1, SYN_REPORT 0",
            "1.300000 ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            "1.300000 closed, device given back",
        ])
        #expect(run.clones.allSatisfy { !$0.clone.grabbed })
    }
}
