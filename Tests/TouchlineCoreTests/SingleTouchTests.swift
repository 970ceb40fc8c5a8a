// Single touch: BTN_TOUCH + ABS_X/ABS_Y (+ ABS_PRESSURE); pens in proximity are not contacts.
import Testing
@testable import TouchlineCore

@Suite struct SingleTouchTests {
    @Test func fingerDownMoveUp() throws {
        let s = Script()
        s.stAt(100, 200).stPressure(250).touch(true).syn(at: 0.010)
        s.stAt(150, 200).stPressure(500).syn(at: 0.020)
        s.touch(false).stPressure(0).syn(at: 0.030)
        var a = FrameAssembler(device: Devices.single())
        let frames = run(s.events, into: &a)
        #expect(frames.map(describe) == [
            "0.010 c0 began 10.00,20.00",
            "0.020 c0 moved 15.00,20.00",
            "0.030 c0 ended 15.00,20.00",
        ])
        #expect(frames.map { $0.contacts[0].pressure } == [Pressure(0.25), Pressure(0.5), Pressure(0)])
        #expect(frames[0].contacts[0].slot == -1)
        #expect(a.inputProtocol == .singleTouch)
    }

    @Test func aHoveringPenIsNotAContact() {
        let s = Script()
        s.pen(true).stAt(100, 100).abs(E.ABS_DISTANCE, 10).syn(at: 0.010)
        s.stAt(120, 100).syn(at: 0.020)
        s.touch(true).stPressure(300).syn(at: 0.030)
        s.stAt(130, 100).syn(at: 0.040)
        s.touch(false).stPressure(0).syn(at: 0.050)
        s.stAt(140, 100).syn(at: 0.060)
        s.pen(false).syn(at: 0.070)
        let (frames, _) = run(s, device: Devices.single())
        #expect(frames == [
            "0.030 c0 began 12.00,10.00",
            "0.040 c0 moved 13.00,10.00",
            "0.050 c0 ended 13.00,10.00",
        ])
    }

    @Test func mtEventsOnASingleTouchDeviceAreIgnored() {
        let s = Script()
        s.slot(0).track(1).at(100, 100).mtReport().syn(at: 0.010)
        let (frames, a) = run(s, device: Devices.single())
        #expect(frames == [])
        #expect(a.inputProtocol == .singleTouch)
    }
}
