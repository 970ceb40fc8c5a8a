// Time running backwards, and device nonsense that must never crash.
import Testing
@testable import TouchlineCore

@Suite struct RobustnessTests {
    @Test func timeGoingBackwardsIsClampedAndCounted() {
        let s = Script()
        s.slot(0).track(1).at(100, 100).syn(at: 1.000)
        s.x(110).syn(at: 0.500)
        s.x(120).syn(at: 0.999)
        s.x(130).syn(at: 1.002)
        let (frames, a) = run(s, device: Devices.slotted())
        #expect(frames == [
            "1.000 c0 began s0 10.00,10.00",
            "1.000 c0 moved s0 11.00,10.00",
            "1.000 c0 moved s0 12.00,10.00",
            "1.002 c0 moved s0 13.00,10.00",
        ])
        #expect(a.counters.timeWentBackwards == 2)
    }

    @Test func fortyContactsOnATenSlotDevice() {
        let s = Script()
        for i in 0..<40 { s.slot(Int32(i)).track(Int32(i)).at(Int32(20 * i), 100) }
        s.syn(at: 0.010)
        for i in 0..<40 { s.slot(Int32(i)).lift() }
        s.syn(at: 0.020)
        var a = FrameAssembler(device: Devices.slotted(slots: 10), options: .init(maxContacts: 8))
        let frames = run(s.events, into: &a)
        #expect(frames.count == 2)
        #expect(frames.map { $0.contacts.count } == [8, 8])
        #expect(a.counters.slotsOutOfRange == 60)  // 30 selections of slots 10...39, twice
        #expect(a.counters.contactsOverCapacity == 2)
    }

    @Test func absurdDescriptionsDoNotCrash() {
        let huge = DeviceDescription(
            name: "absurd",
            absinfo: [
                E.ABS_MT_SLOT: AbsInfo(minimum: 0, maximum: Int32.max),
                E.ABS_MT_POSITION_X: AbsInfo(minimum: Int32.max, maximum: Int32.min),
                E.ABS_MT_POSITION_Y: AbsInfo(minimum: Int32.min, maximum: Int32.max, resolution: -5),
                E.ABS_MT_PRESSURE: AbsInfo(minimum: 5, maximum: 5),
            ])
        let s = Script()
        s.slot(Int32.max).track(1).slot(255).track(Int32.min).slot(3).track(Int32.max).at(Int32.min, Int32.max).pressure(7)
        s.syn(at: 0.010)
        var a = FrameAssembler(device: huge)
        let frames = run(s.events, into: &a)
        #expect(frames.count == 1)
        #expect(frames.first?.contacts.first?.pressure == nil)  // a zero-width pressure axis
        #expect(a.counters.slotsOutOfRange == 1)
    }

    /// Seeded random events on every kind of device: no crash, every invariant holds.
    @Test(arguments: ["B", "A", "single", "empty"])
    func randomEventsKeepTheInvariants(kind: String) {
        let device: DeviceDescription
        switch kind {
        case "B": device = Devices.slotted(slots: 10)
        case "A": device = Devices.unslotted()
        case "single": device = Devices.single()
        default: device = DeviceDescription(name: "nothing declared")
        }
        var rng = SplitMix64(seed: 0x7ac4)
        let types: [UInt16] = [E.EV_SYN, E.EV_SYN, E.EV_ABS, E.EV_ABS, E.EV_ABS, E.EV_KEY, E.EV_MSC]
        let abs: [UInt16] = [
            E.ABS_X, E.ABS_Y, E.ABS_PRESSURE, E.ABS_MT_SLOT, E.ABS_MT_TRACKING_ID, E.ABS_MT_POSITION_X,
            E.ABS_MT_POSITION_Y, E.ABS_MT_PRESSURE, E.ABS_MT_TOUCH_MAJOR, E.ABS_MT_TOUCH_MINOR,
        ]
        let wild: [Int32] = [Int32.min, -1, 0, 1, 3, 9, 11, 500, 1000, Int32.max]
        var a = FrameAssembler(device: device, options: .init(maxContacts: 6))
        var checker = InvariantChecker()
        var time: Int64 = 0
        for _ in 0..<100_000 {
            let type = types[Int(rng.next() % UInt64(types.count))]
            var code: UInt16 = 0
            var value = rng.next() % 3 == 0 ? wild[Int(rng.next() % 10)] : Int32(truncatingIfNeeded: rng.next() % 1100) - 50
            switch type {
            case E.EV_SYN: code = [E.SYN_REPORT, E.SYN_REPORT, E.SYN_REPORT, E.SYN_MT_REPORT, E.SYN_DROPPED][Int(rng.next() % 5)]
            case E.EV_ABS:
                code = abs[Int(rng.next() % UInt64(abs.count))]
                if code == E.ABS_MT_SLOT || code == E.ABS_MT_TRACKING_ID { value = Int32(truncatingIfNeeded: rng.next() % 14) - 2 }
            case E.EV_KEY: code = [E.BTN_TOUCH, E.BTN_TOOL_PEN, E.BTN_TOOL_FINGER][Int(rng.next() % 3)]; value = Int32(rng.next() % 2)
            default: code = 5
            }
            time += Int64(rng.next() % 5000) - 500  // sometimes backwards
            if a.feed(InputEvent(time: Timestamp(microseconds: time), type: type, code: code, value: value)) {
                checker.check(a.frame)
                #expect(a.frame.activeCount <= 6)
            }
            if rng.next() % 20_000 == 0, a.cancelAll(at: Timestamp(microseconds: time)) { checker.check(a.frame) }
        }
        #expect(a.counters.timeWentBackwards > 0)
    }
}

/// A tiny seeded generator, so that the random test is the same on every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
