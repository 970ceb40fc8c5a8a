import Glibc
import Testing
import TouchlineCore
@testable import TouchlineInput

/// Against a real kernel: a uinput device made from a description, read back through libevdev.
/// The host kernel has no uinput; scripts/vm/run.sh runs these inside the VM (docs/live.md).
@Suite(.enabled(if: access("/dev/uinput", W_OK) == 0, "needs /dev/uinput (run scripts/vm/test.sh)"))
struct UInputTests {
    func frame(_ slot: Int32, tracking: Int32, x: Int32, y: Int32) -> [InputEvent] {
        [
            InputEvent(time: .zero, type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_SLOT, value: slot),
            InputEvent(time: .zero, type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_TRACKING_ID, value: tracking),
            InputEvent(time: .zero, type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_POSITION_X, value: x),
            InputEvent(time: .zero, type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_POSITION_Y, value: y),
            InputEvent(time: .zero, type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH, value: tracking >= 0 ? 1 : 0),
            InputEvent(time: .zero, type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0),
        ]
    }

    @Test func descriptionRoundTripsThroughTheKernel() throws {
        let original = Devices.touchscreen()
        let uinput = try UInputDevice(description: original)
        let device = try EvdevDevice(path: uinput.devnode)
        let read = device.description
        #expect(read.name == original.name)
        #expect(read.vendor == original.vendor && read.product == original.product)
        #expect(read.properties == original.properties)
        #expect(read.codes[EventCodes.EV_ABS] == original.codes[EventCodes.EV_ABS])
        for (code, info) in original.absinfo {
            #expect(read.absinfo[code]?.minimum == info.minimum)
            #expect(read.absinfo[code]?.maximum == info.maximum)
            #expect(read.absinfo[code]?.resolution == info.resolution)
        }
        #expect(DeviceVerdict(for: read) == .used)
    }

    @Test func aFrameWrittenIsReadWholeWithKernelTime() throws {
        let uinput = try UInputDevice(description: Devices.touchscreen())
        let device = try EvdevDevice(path: uinput.devnode)
        let before = EventLoop.now()
        try uinput.write(frame(0, tracking: 5, x: 100, y: 200))
        var events: [InputEvent] = []
        #expect(try device.readAvailable { events.append($0) } == .open)
        // The kernel drops ABS_MT_SLOT 0 (slot 0 is already current): repeated values are not
        // delivered.
        #expect(events.map(\.code) == [EventCodes.ABS_MT_TRACKING_ID, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y, EventCodes.BTN_TOUCH, EventCodes.SYN_REPORT])
        #expect(events.map(\.value) == [5, 100, 200, 1, 0])
        // One write, one kernel timestamp, on CLOCK_MONOTONIC (the timerfd's clock).
        #expect(Set(events.map(\.time)).count == 1)
        #expect(events[0].time >= before - .milliseconds(1))
    }

    @Test func grabIsExclusive() throws {
        let uinput = try UInputDevice(description: Devices.touchscreen())
        let first = try EvdevDevice(path: uinput.devnode, grab: true)
        #expect(first.isGrabbed)
        #expect(throws: SystemError("grab (EVIOCGRAB)", path: uinput.devnode, code: EBUSY)) {
            _ = try EvdevDevice(path: uinput.devnode, grab: true)
        }
    }

    @Test func removalIsReportedAsGone() throws {
        let uinput = try UInputDevice(description: Devices.touchscreen())
        let device = try EvdevDevice(path: uinput.devnode)
        uinput.remove()
        #expect(try device.readAvailable { _ in } == .gone)
    }

    @Test func theLoopWakesForADeviceAndNotOtherwise() throws {
        let uinput = try UInputDevice(description: Devices.touchscreen())
        let device = try EvdevDevice(path: uinput.devnode)
        let loop = try EventLoop(handleSignals: false)
        try loop.watch(device.fileDescriptor, token: 3)
        try uinput.write(frame(0, tracking: 1, x: 10, y: 10))
        #expect(try loop.wait() == .readable(3))
        var count = 0
        _ = try device.readAvailable { _ in count += 1 }
        #expect(count > 0)
        #expect(loop.armedDeadline == nil)
    }

    /// A reader that falls behind: the kernel drops its buffer and queues SYN_DROPPED; libevdev
    /// resyncs, and the reader hands on SYN_DROPPED, then the state delta ending in SYN_REPORT.
    /// The assembler then holds the device's real state: one contact at the last position.
    @Test func synDroppedResyncsToTheDeviceState() throws {
        let description = Devices.touchscreen()
        let uinput = try UInputDevice(description: description)
        let device = try EvdevDevice(path: uinput.devnode)
        try uinput.write(frame(0, tracking: 1, x: 0, y: 500))
        // Far more events than the kernel's per-reader buffer holds (a power of two near
        // 8 packets of the device's estimated events per packet).
        for x in Int32(1)...Int32(1500) {
            try uinput.write([
                InputEvent(time: .zero, type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_POSITION_X, value: x),
                InputEvent(time: .zero, type: EventCodes.EV_ABS, code: EventCodes.ABS_X, value: x),
                InputEvent(time: .zero, type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0),
            ])
        }
        var events: [InputEvent] = []
        #expect(try device.readAvailable { events.append($0) } == .open)
        #expect(device.droppedCount == 1)
        let drops = events.indices.filter { events[$0].type == EventCodes.EV_SYN && events[$0].code == EventCodes.SYN_DROPPED }
        #expect(drops.count == 1)
        if let drop = drops.first {
            #expect(events[(drop + 1)...].contains { $0.type == EventCodes.EV_SYN && $0.code == EventCodes.SYN_REPORT })
        }
        var assembler = FrameAssembler(device: description, options: .init(dropRecovery: .syncEventsFollow))
        var last: TouchFrame?
        for e in events where assembler.feed(e) { last = assembler.frame }
        let contacts = last?.contacts.filter { !$0.phase.isFinal } ?? []
        #expect(contacts.count == 1)
        #expect(contacts.first?.position.x == 150.0)
    }
}
