// The live session on the host: a scripted touchscreen on a virtual clock stands in for the
// kernel, so deadlines, unplugs and stops are tested where they are decided, without devices
// and without sleeping. Logs are whole; times are the script's.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineLive
import TouchlineTesting

@Suite struct LiveSessionTests {
    @Test func aTapIsRecognizedAtItsLift() throws {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        var finger = Finger()
        finger.down(at: ms(1000), x: 50, y: 25)
        finger.up(at: ms(1080))
        source.events(0, finger.events)
        let (sink, end) = try play(source)
        expectLog(sink.log, [
            "1.080000 tap recognized f1 (50.00,25.00) count=1",
        ])
        #expect(sink.warnings.isEmpty)
        #expect(end == ms(1080))
    }

    @Test func aLongPressFiresFromTheClockWithNoEventAfterIt() throws {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        var finger = Finger()
        finger.down(at: ms(1000), x: 50, y: 25)
        source.events(0, finger.events)
        // The finger stays down: no event comes after the down; the session must be woken by
        // its deadline alone. The stop comes long after.
        source.stop(at: ms(5000))
        let (sink, end) = try play(source)
        expectLog(sink.log, [
            "1.500000 longPress began f1 (50.00,25.00) duration=500ms",
            "5.000000 longPress cancelled f1 (50.00,25.00) duration=4000ms",
        ])
        // The began was written when the clock reached its deadline, not at the stop (which
        // would fire the pending deadline first and print the same lines).
        #expect(sink.writtenAt == [ms(1500), ms(5000)])
        #expect(end == ms(5000))
    }

    @Test func anUnplugMidGestureCancelsAndTheSessionGoesOn() throws {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        source.add(1, path: "/dev/input/event6", description: screen)
        var a = Finger()
        a.down(at: ms(1000), x: 20, y: 20)
        a.move(at: ms(1020), x: 30, y: 20)
        a.move(at: ms(1040), x: 40, y: 20)
        source.events(0, a.events)
        source.remove(0, at: ms(1050))
        // The other screen goes on, and sees a whole tap after the unplug.
        var b = Finger()
        b.down(at: ms(1100), x: 50, y: 25)
        b.up(at: ms(1160))
        source.events(1, b.events)
        let (sink, _) = try play(source)
        expectLog(sink.log, [
            "1.020000 pan began f1 (30.00,20.00) d=(10.00,0.00)",
            "1.040000 pan changed f1 (40.00,20.00) d=(20.00,0.00)",
            "1.050000 pan cancelled f1 (40.00,20.00) d=(20.00,0.00)",
            "1.160000 tap recognized f1 (50.00,25.00) count=1",
        ])
        #expect(sink.warnings == ["/dev/input/event5 (scripted screen) was removed"])
    }

    @Test func aStopEndsOpenGesturesAsCancelled() throws {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        var finger = Finger()
        finger.down(at: ms(1000), x: 20, y: 20)
        finger.move(at: ms(1020), x: 30, y: 20)
        finger.move(at: ms(1040), x: 40, y: 20)
        source.events(0, finger.events)
        // SIGHUP reloads in the daemon; here it changes nothing.
        source.hangup(at: ms(1060))
        source.stop(at: ms(1100))
        // What comes after the stop is never read.
        var late = Finger(trackingID: 2)
        late.down(at: ms(1200), x: 50, y: 25)
        source.events(0, late.events)
        let (sink, end) = try play(source)
        expectLog(sink.log, [
            "1.020000 pan began f1 (30.00,20.00) d=(10.00,0.00)",
            "1.040000 pan changed f1 (40.00,20.00) d=(20.00,0.00)",
            "1.100000 pan cancelled f1 (40.00,20.00) d=(20.00,0.00)",
        ])
        #expect(end == ms(1100))
    }
}

@Suite struct LiveSessionOutputTests {
    /// A screen plugged in after the start gets the next output number, and frames of a removed
    /// device end with its contact cancelled, as `run --output frames` prints them.
    @Test func framesOfAHotpluggedScreenEndCancelledAtTheUnplug() throws {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        source.add(7, path: "/dev/input/event9", description: screen, at: ms(500))
        var finger = Finger()
        finger.down(at: ms(1000), x: 10, y: 20)
        source.events(7, finger.events)
        source.remove(7, at: ms(1010))
        let (sink, _) = try play(source, output: .frames)
        expectLog(sink.log, [
            #"{"time":1.000000,"device":1,"contacts":[{"id":0,"phase":"began","slot":0,"x":10.00,"y":20.00,"nx":0.1000,"ny":0.4000}]}"#,
            #"{"time":1.010000,"device":1,"contacts":[{"id":0,"phase":"cancelled","slot":0,"x":10.00,"y":20.00,"nx":0.1000,"ny":0.4000}]}"#,
        ])
        #expect(sink.warnings == ["/dev/input/event9 (scripted screen) was removed"])
    }

    /// Input for a device the source never added (or already removed) is ignored, not a trap.
    @Test func inputForAnUnknownDeviceIsIgnored() throws {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        var finger = Finger()
        finger.down(at: ms(1000), x: 10, y: 20)
        finger.up(at: ms(1050))
        source.events(3, finger.events)
        let (sink, _) = try play(source)
        expectLog(sink.log, [])
    }
}
