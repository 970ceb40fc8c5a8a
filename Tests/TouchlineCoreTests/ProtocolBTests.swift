// MT protocol B: slots, tracking ids, reuse, out-of-range slots, capacity, BTN_TOUCH.
import Testing
@testable import TouchlineCore

@Suite struct ProtocolBTests {
    @Test func twoFingersDownMoveHoldLift() {
        let s = Script()
        s.slot(0).track(10).at(100, 200).touch(true).syn(at: 0.010)
        s.slot(1).track(11).at(500, 300).syn(at: 0.020)
        s.slot(0).x(110).syn(at: 0.030)
        s.mscTimestamp(40).syn(at: 0.040)  // nothing changed: a frame of stationary contacts
        s.slot(0).lift().syn(at: 0.050)
        s.slot(1).lift().touch(false).syn(at: 0.060)
        s.mscTimestamp(70).syn(at: 0.070)  // no contact: no frame
        let (frames, a) = run(s, device: Devices.slotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,20.00",
            "0.020 c0 stationary s0 10.00,20.00 | c1 began s1 50.00,30.00",
            "0.030 c0 moved s0 11.00,20.00 | c1 stationary s1 50.00,30.00",
            "0.040 c0 stationary s0 11.00,20.00 | c1 stationary s1 50.00,30.00",
            "0.050 c0 ended s0 11.00,20.00 | c1 stationary s1 50.00,30.00",
            "0.060 c1 ended s1 50.00,30.00",
        ])
        #expect(a.counters == FrameAssembler.Counters())
        #expect(a.inputProtocol == .slotted)
    }

    @Test func idsAreNeverReusedWhenSlotsAndTrackingIDsAre() {
        let s = Script()
        s.slot(0).track(1).at(100, 100).syn(at: 0.010)
        s.lift().syn(at: 0.020)
        s.track(1).syn(at: 0.030)  // same slot, same kernel tracking id, new finger
        s.lift().syn(at: 0.040)
        let (frames, _) = run(s, device: Devices.slotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00",
            "0.020 c0 ended s0 10.00,10.00",
            // The kernel does not resend an unchanged position: the new contact inherits it.
            "0.030 c1 began s0 10.00,10.00",
            "0.040 c1 ended s0 10.00,10.00",
        ])
    }

    @Test func newTrackingIDWithoutLiftEndsTheOldContact() {
        let s = Script()
        s.slot(0).track(5).at(100, 100).syn(at: 0.010)
        s.slot(1).track(6).at(300, 100).syn(at: 0.020)
        s.slot(0).track(7).at(900, 400).syn(at: 0.030)
        s.slot(0).lift().slot(1).lift().syn(at: 0.040)
        let (frames, _) = run(s, device: Devices.slotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00",
            "0.020 c0 stationary s0 10.00,10.00 | c1 began s1 30.00,10.00",
            "0.030 c0 ended s0 10.00,10.00 | c1 stationary s1 30.00,10.00 | c2 began s0 90.00,40.00",
            "0.040 c1 ended s1 30.00,10.00 | c2 ended s0 90.00,40.00",
        ])
    }

    @Test func initialSlotComesFromAbsinfo() {
        let s = Script()
        s.track(3).at(100, 100).syn(at: 0.010)  // no ABS_MT_SLOT: the device's current slot, 2
        s.slot(0).track(4).at(200, 100).syn(at: 0.020)
        let (frames, _) = run(s, device: Devices.slotted(slotValue: 2))
        #expect(frames == [
            "0.010 c0 began s2 10.00,10.00",
            "0.020 c0 stationary s2 10.00,10.00 | c1 began s0 20.00,10.00",
        ])
    }

    @Test func outOfRangeSlotsAreIgnoredAndCounted() {
        let s = Script()
        s.slot(0).track(1).at(100, 100).syn(at: 0.010)
        s.slot(7).track(2).at(500, 500).syn(at: 0.020)  // 5 slots: 7 is out of range
        s.slot(-3).track(3).x(600).syn(at: 0.030)
        s.slot(Int32.max).lift().syn(at: 0.040)
        s.slot(0).x(120).syn(at: 0.050)
        let (frames, a) = run(s, device: Devices.slotted(slots: 5))
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00",
            "0.020 c0 stationary s0 10.00,10.00",
            "0.030 c0 stationary s0 10.00,10.00",
            "0.040 c0 stationary s0 10.00,10.00",
            "0.050 c0 moved s0 12.00,10.00",
        ])
        #expect(a.counters.slotsOutOfRange == 3)
    }

    @Test func contactsBeyondCapacityAreIgnoredUntilTheirSlotLifts() {
        let s = Script()
        s.slot(0).track(1).at(100, 100).slot(1).track(2).at(200, 100).slot(2).track(3).at(300, 100).syn(at: 0.010)
        s.slot(2).x(310).syn(at: 0.020)
        s.slot(0).lift().syn(at: 0.030)
        s.slot(2).x(320).syn(at: 0.040)  // capacity is free again, but slot 2's finger began while full
        s.slot(2).lift().syn(at: 0.050)
        s.slot(2).track(4).syn(at: 0.060)  // a new finger in slot 2 is taken
        let (frames, a) = run(s, device: Devices.slotted(), options: .init(maxContacts: 2))
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00 | c1 began s1 20.00,10.00",
            "0.020 c0 stationary s0 10.00,10.00 | c1 stationary s1 20.00,10.00",
            "0.030 c0 ended s0 10.00,10.00 | c1 stationary s1 20.00,10.00",
            "0.040 c1 stationary s1 20.00,10.00",
            "0.050 c1 stationary s1 20.00,10.00",
            "0.060 c1 stationary s1 20.00,10.00 | c2 began s2 32.00,10.00",
        ])
        #expect(a.counters.contactsOverCapacity == 1)
    }

    @Test func btnTouchAndToolsAreInformationalOnly() {
        let s = Script()
        s.slot(0).track(1).at(100, 100).syn(at: 0.010)
        s.touch(false).key(E.BTN_TOOL_FINGER, 0).syn(at: 0.020)  // a lying BTN_TOUCH ends nothing
        s.touch(true).lift().syn(at: 0.030)
        let (frames, _) = run(s, device: Devices.slotted())
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00",
            "0.020 c0 stationary s0 10.00,10.00",
            "0.030 c0 ended s0 10.00,10.00",
        ])
    }

    @Test func unitsPressureAndSize() throws {
        let s = Script()
        s.slot(0).track(1).at(250, 125).pressure(100).major(30).minor(10).syn(at: 0.010)
        s.pressure(200).syn(at: 0.020)
        var a = FrameAssembler(device: Devices.slotted())
        let frames = run(s.events, into: &a)
        try #require(frames.count == 2)
        let c = frames[0].contacts[0]
        #expect(c.position == Point(x: 25, y: 12.5))
        #expect(c.normalized == Point(x: 0.25, y: 0.25))
        #expect(c.pressure == Pressure(0.5))
        #expect(c.touchMajor == Millimetres(3))
        #expect(c.touchMinor == Millimetres(1))
        #expect(frames[1].contacts[0].pressure == Pressure(1))
        // A pressure change alone is not motion.
        #expect(frames[1].contacts[0].phase == .stationary)
        #expect(a.geometry.source == .resolution)
        #expect(a.geometry.warning == nil)
    }

    @Test func wildValuesAreClampedToTheAxes() throws {
        let s = Script()
        s.slot(0).track(1).at(Int32.min, Int32.max).pressure(Int32.max).major(Int32.min).syn(at: 0.010)
        s.x(Int32.max).y(Int32.min).pressure(Int32.min).syn(at: 0.020)
        var a = FrameAssembler(device: Devices.slotted())
        let frames = run(s.events, into: &a)
        try #require(frames.count == 2)
        #expect(frames.map(describe) == [
            "0.010 c0 began s0 0.00,50.00",
            "0.020 c0 moved s0 100.00,0.00",
        ])
        #expect(frames[0].contacts[0].pressure == Pressure(1))
        #expect(frames[0].contacts[0].touchMajor == Millimetres(0))
        #expect(frames[1].contacts[0].pressure == Pressure(0))
    }

    @Test func deviceWithoutResolutionUsesTheFallbackAndWarns() throws {
        let device = DeviceDescription(
            name: "no resolution",
            absinfo: [
                E.ABS_MT_SLOT: AbsInfo(minimum: 0, maximum: 9),
                E.ABS_MT_POSITION_X: AbsInfo(minimum: 0, maximum: 3000),
                E.ABS_MT_POSITION_Y: AbsInfo(minimum: 0, maximum: 4000),
            ])
        var a = FrameAssembler(device: device)
        #expect(a.geometry.source == .assumed)
        #expect(a.geometry.warning != nil)
        // 5000 units of diagonal over 256.5 mm.
        let frames = run(Script().slot(0).track(1).at(3000, 4000).syn(at: 0.01).events, into: &a)
        try #require(frames.count == 1)
        #expect(abs(frames[0].contacts[0].position.x - 153.9) < 0.001)
        #expect(abs(frames[0].contacts[0].position.y - 205.2) < 0.001)

        let sized = FrameAssembler(device: device, options: .init(userSize: Size(width: 150, height: 200)))
        #expect(sized.geometry.source == .userSize)
        #expect(sized.geometry.warning == nil)
    }

    @Test func semiMTIsTreatedAsProtocolB() {
        // INPUT_PROP_SEMI_MT: the two slots are the corners of a bounding box (docs say so).
        let s = Script()
        s.slot(0).track(1).at(100, 100).slot(1).track(2).at(400, 300).syn(at: 0.010)
        s.slot(0).lift().slot(1).lift().syn(at: 0.020)
        let (frames, a) = run(s, device: Devices.slotted(slots: 2, properties: [E.INPUT_PROP_SEMI_MT]))
        #expect(frames == [
            "0.010 c0 began s0 10.00,10.00 | c1 began s1 40.00,30.00",
            "0.020 c0 ended s0 10.00,10.00 | c1 ended s1 40.00,30.00",
        ])
        #expect(a.inputProtocol == .slotted)
    }

    @Test func aSlotThatBeginsAndLiftsInOneFrameMakesNoContact() {
        let s = Script()
        s.slot(0).track(1).at(100, 100).lift().syn(at: 0.010)
        s.mscTimestamp(1).syn(at: 0.020)
        let (frames, _) = run(s, device: Devices.slotted())
        #expect(frames == [])
    }
}
