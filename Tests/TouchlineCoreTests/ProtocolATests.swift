// MT protocol A: SYN_MT_REPORT, matching without tracking ids, lifts, Android tracking ids, and
// devices whose description cannot tell A from B.
import Testing
@testable import TouchlineCore

@Suite struct ProtocolATests {
    @Test func contactsAreMatchedByNearestNeighbourWhateverTheReportOrder() {
        let s = Script()
        s.at(100, 100).mtReport().touch(true).syn(at: 0.010)
        s.at(102, 101).mtReport().at(800, 400).mtReport().syn(at: 0.020)
        s.at(790, 400).mtReport().at(104, 101).mtReport().syn(at: 0.030)  // order swapped, as N-Trig does
        s.at(790, 400).mtReport().syn(at: 0.040)
        s.mtReport().syn(at: 0.050)  // an empty report: nothing is down
        let (frames, a) = run(s, device: Devices.unslotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00",
            "0.020 c0 moved s0 10.20,10.10 | c1 began s1 80.00,40.00",
            "0.030 c0 moved s1 10.40,10.10 | c1 moved s0 79.00,40.00",
            "0.040 c0 ended s1 10.40,10.10 | c1 stationary s0 79.00,40.00",
            "0.050 c1 ended s0 79.00,40.00",
        ])
        #expect(a.inputProtocol == .unslotted)
    }

    @Test func aJumpBeyondMaxJumpIsANewContact() {
        let s = Script()
        s.at(100, 100).mtReport().syn(at: 0.010)
        s.at(390, 100).mtReport().syn(at: 0.020)  // 29 mm: the same finger
        s.at(700, 100).mtReport().syn(at: 0.030)  // 31 mm: lifted and another put down
        s.syn(at: 0.040)  // a frame without MT data: nothing is down
        let (frames, _) = run(s, device: Devices.unslotted(), options: .init(maxJump: Millimetres(30)))
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00",
            "0.020 c0 moved s0 39.00,10.00",
            "0.030 c0 ended s0 39.00,10.00 | c1 began s0 70.00,10.00",
            "0.040 c1 ended s0 70.00,10.00",
        ])
    }

    @Test func btnTouchZeroLiftsAll() {
        let s = Script()
        s.at(100, 100).mtReport().at(300, 300).mtReport().touch(true).syn(at: 0.010)
        s.at(100, 100).mtReport().at(300, 300).mtReport().touch(false).syn(at: 0.020)
        let (frames, _) = run(s, device: Devices.unslotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00 | c1 began s1 30.00,30.00",
            "0.020 c0 ended s0 10.00,10.00 | c1 ended s1 30.00,30.00",
        ])
    }

    @Test func assignmentIsOptimalNotGreedyForFewContacts() {
        // Tracks at 0 and 10 mm; reports at 4 and -5 mm (shifted right by 10 mm to stay on the
        // axis). Greedy would pair the closest pair first (c0–14 mm, 4 mm) and leave c1 15 mm
        // from 5 mm: total 19 mm. The optimal assignment costs 5 + 6 = 11 mm.
        let s = Script()
        s.at(100, 100).mtReport().at(200, 100).mtReport().syn(at: 0.010)
        s.at(140, 100).mtReport().at(50, 100).mtReport().syn(at: 0.020)
        let (frames, _) = run(s, device: Devices.unslotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00 | c1 began s1 20.00,10.00",
            "0.020 c0 moved s1 5.00,10.00 | c1 moved s0 14.00,10.00",
        ])
    }

    @Test func manyContactsAreMatchedGreedily() {
        // Six fingers moving right by 5 mm per frame, reported in reverse order each time.
        let s = Script()
        for frame in 0..<3 {
            let order = frame % 2 == 0 ? Array(0..<6) : Array((0..<6).reversed())
            for i in order { s.at(Int32(100 + 50 * frame), Int32(50 + 60 * i)).mtReport() }
            s.syn(at: 0.010 * Double(frame + 1))
        }
        let (frames, _) = run(s, device: Devices.unslotted())
        #expect(frames.count == 3)
        #expect(frames[2] == "0.030 c0 moved s0 20.00,5.00 | c1 moved s1 20.00,11.00 | c2 moved s2 20.00,17.00 | c3 moved s3 20.00,23.00 | c4 moved s4 20.00,29.00 | c5 moved s5 20.00,35.00")
        #expect(frames[1].hasPrefix("0.020 c0 moved s5 15.00,5.00 | c1 moved s4 15.00,11.00"))
    }

    @Test func androidTrackingIDsWinOverDistance() {
        // Two fingers crossing: by distance they would swap; their tracking ids say not.
        let s = Script()
        s.at(100, 100).track(0).mtReport().at(200, 100).track(1).mtReport().syn(at: 0.010)
        s.at(190, 100).track(0).mtReport().at(110, 100).track(1).mtReport().syn(at: 0.020)
        s.at(190, 100).track(0).mtReport().syn(at: 0.030)
        s.mtReport().syn(at: 0.040)
        let (frames, a) = run(s, device: Devices.unslotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00 | c1 began s1 20.00,10.00",
            "0.020 c0 moved s0 19.00,10.00 | c1 moved s1 11.00,10.00",
            "0.030 c0 stationary s0 19.00,10.00 | c1 ended s1 11.00,10.00",
            "0.040 c0 ended s0 19.00,10.00",
        ])
        #expect(a.inputProtocol == .unslotted)
    }

    @Test func aReportWithANegativeTrackingIDIsNoContact() {
        let s = Script()
        s.at(100, 100).mtReport().syn(at: 0.010)  // no tracking id: the contact's id is unknown
        s.at(100, 100).track(-1).mtReport().syn(at: 0.020)
        let (frames, _) = run(s, device: Devices.unslotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00",
            "0.020 c0 ended s0 10.00,10.00",
        ])
    }

    @Test func reportsBeyondCapacityAreIgnoredAndCounted() {
        let s = Script()
        for i in 0..<5 { s.at(Int32(100 * i + 100), 100).mtReport() }
        s.syn(at: 0.010)
        let (frames, a) = run(s, device: Devices.unslotted(), options: .init(maxContacts: 3))
        #expect(frames == ["0.010 c0 began s0 10.00,10.00 | c1 began s1 20.00,10.00 | c2 began s2 30.00,10.00"])
        #expect(a.counters.contactsOverCapacity == 2)
    }

    @Test func aLastReportWithoutSynMTReportStillCounts() {
        let s = Script()
        s.at(100, 100).mtReport().at(300, 100).syn(at: 0.010)
        let (frames, _) = run(s, device: Devices.unslotted())
        #expect(frames == ["0.010 c0 began s0 10.00,10.00 | c1 began s1 30.00,10.00"])
    }

    @Test func mtDataWithoutSynMTReportOrSlotsIsProtocolBInSlotZero() {
        // MonkeyHelper galaxys-paint: tracking ids, no ABS_MT_SLOT, no SYN_MT_REPORT, ABS_MISC noise.
        let s = Script()
        s.abs(E.ABS_MISC, 247).syn(at: 0.005)
        s.track(637).major(12).at(118, 300).syn(at: 0.010)
        s.x(120).syn(at: 0.020)
        s.lift().syn(at: 0.030)
        s.abs(E.ABS_MISC, 245).syn(at: 0.040)
        s.track(638).at(50, 100).syn(at: 0.050)
        let (frames, a) = run(s, device: Devices.unslotted())
        #expect(frames == [
            "0.010 c0 began s0 11.80,30.00",
            "0.020 c0 moved s0 12.00,30.00",
            "0.030 c0 ended s0 12.00,30.00",
            "0.050 c1 began s0 5.00,10.00",
        ])
        #expect(a.inputProtocol == .slotted)
    }

    @Test func anAbsMTSlotEventDecidesProtocolB() {
        let s = Script()
        s.slot(1).track(3).at(100, 100).syn(at: 0.010)
        let device = DeviceDescription(name: "no header")  // nothing declared at all
        let (frames, a) = run(s, device: device)
        #expect(a.inputProtocol == .slotted)
        #expect(frames.count == 1)
        #expect(frames.first?.contains("c0 began s1") == true)
        #expect(a.counters.slotsOutOfRange == 0)
    }
}
