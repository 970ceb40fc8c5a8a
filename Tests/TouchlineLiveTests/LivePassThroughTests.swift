// Pass-through in the live session (docs/live.md#pass-through): a scripted touchscreen on a
// virtual clock, its clone a recorder of every write(2) the session makes to it, with the
// clock's time of each write. What the clone receives is compared whole. (The scripted screen
// declares ABS_X/Y's ranges but not the codes: the clone writes only the codes a device has.)
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineLive

/// A clone that keeps each frame written to it: the clock's time, then its events by name.
final class RecordingClone: PassThroughClone {
    let clock: VirtualClock
    var frames: [String] = []
    var closed = false
    init(clock: VirtualClock) { self.clock = clock }
    var node: String { "/dev/input/event99" }
    func write(_ events: [InputEvent]) throws {
        precondition(!closed, "a write after close")
        frames.append("\(clock.now()) " + events.map { "\(EventCodes.codeName(type: $0.type, code: $0.code) ?? "?") \($0.value)" }.joined(separator: ", "))
    }
    func close() { closed = true }
}

@Suite struct LivePassThroughTests {
    /// The default graph with a consuming edge swipe.
    static var kiosk: GraphConfiguration {
        var configuration = GraphConfiguration.default
        for i in configuration.recognizers.indices where configuration.recognizers[i].name == "edgeSwipe" { configuration.recognizers[i].consume = true }
        return configuration
    }

    /// A scripted screen added at the start and passed through at once to a recording clone.
    static func passedThrough() -> (ScriptedSource, RecordingClone) {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        let clone = RecordingClone(clock: clock)
        source.clone(0, to: clone, at: .zero)
        return (source, clone)
    }

    static func play(_ source: ScriptedSource) throws -> LogSink {
        var source = source
        let sink = LogSink(clock: source.clock)
        var session = LiveSession(output: .gestures, sink: sink, clock: source.clock)
        session.settings.graphConfiguration = kiosk
        try session.start(&source)
        try session.run(&source)
        return sink
    }

    /// A left edge swipe is kept (the clone sees nothing of it, the gesture goes out); a tap in
    /// the middle reaches the clone in the frames it arrives, written at their own times; a
    /// finger resting on the edge is released by the hold bound at 150 ms, with no frame; and
    /// SIGTERM lifts it on the clone and closes the clone.
    @Test func theCloneReceivesEverythingButTheConsumedEdgeSwipe() throws {
        var (source, clone) = Self.passedThrough()
        var edge = Finger(slot: 0, trackingID: 10)
        edge.down(at: ms(1000), x: 0.5, y: 25)
        for k in 1...5 { edge.move(at: ms(1000 + 10 * Int64(k)), x: 0.5 + 4 * Double(k), y: 25) }
        edge.up(at: ms(1060))
        var tap = Finger(slot: 0, trackingID: 11)
        tap.down(at: ms(2000), x: 50, y: 25)
        tap.up(at: ms(2080))
        var rest = Finger(slot: 0, trackingID: 12)
        rest.down(at: ms(3000), x: 0.5, y: 40)
        source.events(0, edge.events + tap.events + rest.events)
        source.stop(at: ms(3400))
        let sink = try Self.play(source)
        #expect(sink.log.first == "1.010000 edgeSwipe began f1 (4.50,25.00) left d=(4.00,0.00)")
        expectLog(clone.frames, [
            "2.000000 ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 250, BTN_TOUCH 1, SYN_REPORT 0",
            "2.080000 ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
            // The resting finger, released by the bound on the session's timer.
            "3.150000 ABS_MT_TRACKING_ID 1, ABS_MT_POSITION_X 5, ABS_MT_POSITION_Y 400, BTN_TOUCH 1, SYN_REPORT 0",
            // SIGTERM: lifted, then the clone goes.
            "3.400000 ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
        ])
        #expect(clone.closed)
        #expect(sink.warnings.contains("/dev/input/event5 (scripted screen): passed through to /dev/input/event99"))
    }

    /// An unplug mid-touch: the clone's contact lifts at the removal, and the clone goes.
    @Test func anUnplugLiftsTheClonesContactsAndRemovesIt() throws {
        var (source, clone) = Self.passedThrough()
        var pan = Finger()
        pan.down(at: ms(1000), x: 50, y: 25)
        pan.move(at: ms(1020), x: 60, y: 25)
        source.events(0, pan.events)
        source.remove(0, at: ms(1100))
        _ = try Self.play(source)
        expectLog(clone.frames, [
            "1.000000 ABS_MT_TRACKING_ID 0, ABS_MT_POSITION_X 500, ABS_MT_POSITION_Y 250, BTN_TOUCH 1, SYN_REPORT 0",
            "1.020000 ABS_MT_POSITION_X 600, SYN_REPORT 0",
            "1.100000 ABS_MT_TRACKING_ID -1, BTN_TOUCH 0, SYN_REPORT 0",
        ])
        #expect(clone.closed)
    }
}
