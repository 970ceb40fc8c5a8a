// SYN_DROPPED: discarding the torn frame, the resync frame, cancelled contacts, no invented
// contacts, stale contacts; and cancelAll.
import Testing
@testable import TouchlineCore

@Suite struct ResyncTests {
    @Test func eventsUpToTheNextReportAreDiscardedAndVanishedContactsAreCancelled() {
        let s = Script()
        s.slot(0).track(1).at(100, 100).slot(1).track(2).at(300, 100).syn(at: 0.010)
        s.slot(0).x(110).dropped().slot(1).lift().slot(2).track(3).at(900, 400).syn(at: 0.020)  // torn: ignored
        s.slot(0).lift().slot(1).x(320).syn(at: 0.030)  // the resync frame
        s.slot(1).x(330).syn(at: 0.040)
        s.slot(1).lift().syn(at: 0.050)
        let (frames, a) = run(s, device: Devices.slotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00 | c1 began s1 30.00,10.00",
            // c0's x 110 came before the drop, in the torn frame: it is the slot's value now.
            "0.030 DROP c0 cancelled s0 11.00,10.00 | c1 moved s1 32.00,10.00",
            "0.040 c1 moved s1 33.00,10.00",
            "0.050 c1 ended s1 33.00,10.00",
        ])
        #expect(a.counters.droppedResyncs == 1)
    }

    @Test func theResyncFrameInventsNoContact() {
        // Slot 2's tracking id was lost in the drop; its data alone begins nothing.
        let s = Script()
        s.slot(0).track(1).at(100, 100).syn(at: 0.010)
        s.dropped().slot(2).track(3).syn(at: 0.020)
        s.slot(2).at(500, 200).slot(0).x(120).syn(at: 0.030)
        s.slot(2).x(510).syn(at: 0.040)
        let (frames, _) = run(s, device: Devices.slotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00",
            "0.030 DROP c0 moved s0 12.00,10.00",
            "0.040 c0 stationary s0 12.00,10.00",
        ])
    }

    @Test func aLiftLostInTheDropIsCaughtByBTNTouch() {
        let s = Script()
        s.slot(0).track(1).at(100, 100).slot(1).track(2).at(300, 100).touch(true).syn(at: 0.010)
        s.dropped().slot(1).lift().syn(at: 0.020)  // slot 1's lift is lost
        s.slot(0).x(120).syn(at: 0.030)
        s.slot(0).lift().touch(false).syn(at: 0.040)  // the kernel says nothing is down
        s.slot(1).x(400).syn(at: 0.050)  // stale slot data begins nothing
        let (frames, _) = run(s, device: Devices.slotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00 | c1 began s1 30.00,10.00",
            "0.030 DROP c0 moved s0 12.00,10.00 | c1 stationary s1 30.00,10.00",
            "0.040 DROP c0 ended s0 12.00,10.00 | c1 cancelled s1 30.00,10.00",
        ])
    }

    @Test func withLibevdevTheSyncEventsAreTheResyncFrame() {
        // libevdev's sync events after SYN_DROPPED describe the real state as deltas.
        let s = Script()
        s.slot(0).track(1).at(100, 100).slot(1).track(2).at(300, 100).syn(at: 0.010)
        s.dropped().slot(1).lift().slot(2).track(9).at(700, 300).slot(0).x(105).syn(at: 0.020)
        s.slot(0).x(110).syn(at: 0.030)
        let (frames, a) = run(s, device: Devices.slotted(), options: .init(dropRecovery: .syncEventsFollow))
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00 | c1 began s1 30.00,10.00",
            "0.020 DROP c0 moved s0 10.50,10.00 | c1 cancelled s1 30.00,10.00 | c2 began s2 70.00,30.00",
            "0.030 c0 moved s0 11.00,10.00 | c2 stationary s2 70.00,30.00",
        ])
        #expect(a.counters.droppedResyncs == 1)
    }

    @Test func protocolAResyncFramesAreFullState() {
        let s = Script()
        s.at(100, 100).mtReport().at(300, 100).mtReport().syn(at: 0.010)
        s.at(100, 100).dropped().mtReport().syn(at: 0.020)
        s.at(101, 100).mtReport().syn(at: 0.030)
        let (frames, _) = run(s, device: Devices.unslotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00 | c1 began s1 30.00,10.00",
            "0.030 DROP c0 moved s0 10.10,10.00 | c1 cancelled s1 30.00,10.00",
        ])
    }

    @Test func singleTouchLiftInTheResyncFrameIsACancel() {
        let s = Script()
        s.stAt(100, 100).touch(true).syn(at: 0.010)
        s.dropped().stAt(200, 200).syn(at: 0.020)
        s.touch(false).syn(at: 0.030)
        let (frames, _) = run(s, device: Devices.single())
        #expect(frames == [
            "0.010 c0 began 10.00,10.00",
            // The position events in the torn frame were discarded.
            "0.030 DROP c0 cancelled 10.00,10.00",
        ])
    }

    @Test func dropsWhileDiscardingAreCountedAndADropWithNothingDownMakesNoFrame() {
        let s = Script()
        s.dropped().dropped().syn(at: 0.010)
        s.mscTimestamp(1).syn(at: 0.020)
        s.slot(0).track(1).at(100, 100).syn(at: 0.030)
        let (frames, a) = run(s, device: Devices.slotted())
        #expect(frames == ["0.030 c0 began s0 10.00,10.00"])
        #expect(a.counters.droppedResyncs == 2)
    }

    @Test func cancelAllCancelsEveryLiveContactInOneFrame() {
        let s = Script()
        s.slot(0).track(1).at(100, 100).slot(1).track(2).at(300, 100).syn(at: 0.010)
        s.slot(0).lift().syn(at: 0.020)
        var a = FrameAssembler(device: Devices.slotted())
        var frames = run(s.events, into: &a).map(describe)
        let cancelled801 = a.cancelAll(at: Timestamp(microseconds: 25_000))
        #expect(cancelled801)
        frames.append(describe(a.frame))
        let cancelled353 = a.cancelAll(at: Timestamp(microseconds: 26_000))
        #expect(!cancelled353)
        // The finger still in slot 1 does not come back without a new tracking id.
        frames += run(Script().slot(1).x(310).syn(at: 0.030).slot(1).lift().syn(at: 0.040).events, into: &a).map(describe)
        frames += run(Script().slot(1).track(5).syn(at: 0.050).events, into: &a).map(describe)
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00 | c1 began s1 30.00,10.00",
            "0.020 c0 ended s0 10.00,10.00 | c1 stationary s1 30.00,10.00",
            "0.025 c1 cancelled s1 30.00,10.00",
            "0.050 c2 began s1 31.00,10.00",
        ])
        #expect(a.frame.afterDrop == false)
    }

    @Test func cancelAllForSingleTouchAndProtocolA() {
        var st = FrameAssembler(device: Devices.single())
        _ = run(Script().stAt(100, 100).touch(true).syn(at: 0.010).events, into: &st)
        let cancelled368 = st.cancelAll(at: Timestamp(microseconds: 20_000))
        #expect(cancelled368)
        #expect(describe(st.frame) == "0.020 c0 cancelled 10.00,10.00")
        #expect(run(Script().stAt(110, 100).syn(at: 0.030).events, into: &st).isEmpty)

        var mt = FrameAssembler(device: Devices.unslotted())
        _ = run(Script().at(100, 100).mtReport().syn(at: 0.010).events, into: &mt)
        let cancelled274 = mt.cancelAll(at: Timestamp(microseconds: 5_000))  // earlier: clamped
        #expect(cancelled274)
        #expect(describe(mt.frame) == "0.010 c0 cancelled s0 10.00,10.00")
        #expect(mt.counters.timeWentBackwards == 1)
    }
}
