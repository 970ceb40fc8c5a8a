// The steady-state workloads whose heap allocations the allocation tests count: the frame
// assembler fed N moving contacts and writing each frame as JSON, and the default graph fed N
// circling fingers. One definition, used by the single-threaded `allocation-probe` executable
// (which counts) and by the in-process tests (which check that storage is reserved once).
//
// No Foundation and no Testing here: the probe must start no thread of its own (see
// Tests/AllocationProbe/main.swift for why).
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

private typealias E = EventCodes

/// A protocol-B touchscreen 100 × 50 mm (1000 × 500 units at 10 units/mm) with `slots` slots
/// (the current one `slotValue`), pressure 0..200 and touch major/minor; or the same surface as
/// protocol A (no slots, no pressure). The core's tests use it too (their `Devices`).
public func workloadDevice(protocolA: Bool, slots: Int32 = 10, slotValue: Int32 = 0, properties: [UInt16] = [EventCodes.INPUT_PROP_DIRECT]) -> DeviceDescription {
    if protocolA {
        return DeviceDescription(
            name: "test A",
            absinfo: [
                E.ABS_MT_POSITION_X: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                E.ABS_MT_POSITION_Y: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
            ])
    }
    return DeviceDescription(
        name: "test B", properties: properties,
        codes: [E.EV_KEY: [E.BTN_TOUCH], E.EV_ABS: [E.ABS_MT_SLOT, E.ABS_MT_POSITION_X, E.ABS_MT_POSITION_Y]],
        absinfo: [
            E.ABS_X: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            E.ABS_Y: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
            E.ABS_MT_SLOT: AbsInfo(minimum: 0, maximum: slots - 1, value: slotValue),
            E.ABS_MT_TRACKING_ID: AbsInfo(minimum: 0, maximum: 65535),
            E.ABS_MT_POSITION_X: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            E.ABS_MT_POSITION_Y: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
            E.ABS_MT_PRESSURE: AbsInfo(minimum: 0, maximum: 200),
            E.ABS_MT_TOUCH_MAJOR: AbsInfo(minimum: 0, maximum: 100),
            E.ABS_MT_TOUCH_MINOR: AbsInfo(minimum: 0, maximum: 100),
        ])
}

/// `frames` frames of `n` contacts moving 0.1 mm per frame at 125 Hz, as a protocol-B or -A
/// device sends them.
public func movingContacts(_ n: Int, frames: Int, protocolA: Bool) -> [InputEvent] {
    var events: [InputEvent] = []
    for f in 0..<frames {
        let time = Timestamp(microseconds: Int64(f) * 8000)
        func abs(_ code: UInt16, _ value: Int32) { events.append(InputEvent(time: time, type: E.EV_ABS, code: code, value: value)) }
        for i in 0..<n {
            let x = Int32(50 + 90 * i + f % 40)
            let y = Int32(100 + 20 * i + f % 30)
            if protocolA {
                abs(E.ABS_MT_POSITION_X, x)
                abs(E.ABS_MT_POSITION_Y, y)
                events.append(InputEvent(time: time, type: E.EV_SYN, code: E.SYN_MT_REPORT, value: 0))
            } else {
                abs(E.ABS_MT_SLOT, Int32(i))
                if f == 0 { abs(E.ABS_MT_TRACKING_ID, Int32(i)) }
                abs(E.ABS_MT_POSITION_X, x)
                abs(E.ABS_MT_POSITION_Y, y)
                abs(E.ABS_MT_PRESSURE, Int32(f % 200))
                abs(E.ABS_MT_TOUCH_MAJOR, Int32(5 + f % 7))
            }
        }
        events.append(InputEvent(time: time, type: E.EV_SYN, code: E.SYN_REPORT, value: 0))
    }
    return events
}

/// The assembler's scenarios the tests count: (contacts, protocol A).
public let assemblerScenarios = [(2, false), (10, false), (2, true), (10, true)]

/// One steady-state assembler run: 100 frames to warm up, then `measured` frames fed and
/// written as JSON.
public struct AssemblerSteadyRun {
    public var assembler: FrameAssembler
    public var writer = JSONWriter(capacity: 4096)
    public let events: [InputEvent]
    /// The first event after the warm-up.
    public let split: Int
    public private(set) var frames = 0
    public private(set) var contactsSeen = 0

    public init(contacts: Int, protocolA: Bool, measured: Int = 10_000) {
        let warmUp = 100
        assembler = FrameAssembler(device: workloadDevice(protocolA: protocolA))
        events = movingContacts(contacts, frames: warmUp + measured, protocolA: protocolA)
        split = events.firstIndex { $0.time >= Timestamp(microseconds: Int64(warmUp) * 8000) } ?? events.count
        for e in events[..<split] where assembler.feed(e) { write() }
    }

    mutating func write() {
        writer.reset()
        assembler.frame.writeJSON(device: 0, into: &writer)
    }

    /// Feeds the measured frames, writing each.
    public mutating func measure() {
        for i in split..<events.count where assembler.feed(events[i]) {
            frames += 1
            contactsSeen += assembler.frame.contacts.count
            write()
        }
    }

    /// Feeds the measured frames and keeps each one in `kept`: the assembler must then copy the
    /// frame's storage, one array per frame (what a counter must see: its self-test).
    public mutating func measureKeeping(into kept: inout [TouchFrame]) {
        for i in split..<events.count where assembler.feed(events[i]) {
            kept.append(assembler.frame)
        }
    }
}

/// `n` fingers down, then circling forever at 120 Hz: the default graph's pan (and pinch and
/// rotate, which the circling spread and turn) emit `changed` on every frame.
public func circlingFrames(_ n: Int, count: Int) -> [TouchFrame] {
    var s = TouchScript(rate: 120)
    s.down((0..<n).map { ($0, Point(x: 40 + 12 * Double($0), y: 50 + 5 * Double($0))) })
    for k in 0..<(count / 60 + 1) {
        s.turn(about: Point(x: 100, y: 60), by: 0.6, scale: k % 2 == 0 ? 1.2 : 1 / 1.2, over: 500)
    }
    return s.frames
}

/// One steady-state run of the default graph over circling fingers: 100 frames to warm up, then
/// 2,000 measured, each event written as JSON (or as `--format text` with colours).
public struct GraphSteadyRun {
    public var driver: GraphDriver
    var writer = JSONWriter(capacity: 4096)
    /// `--format text`'s writer instead of the JSON one, when set.
    var text: TextEventWriter?
    public let frames: [TouchFrame]
    public private(set) var lines = 0
    /// A `[[device]]` rotation and calibration, applied into `turned` as GesturePipeline does.
    var transform: DeviceTransform?
    var turned = TouchFrame(time: .zero)

    public init(contacts: Int, explain: Bool, text: Bool = false, rotated: Bool = false) throws {
        if text { self.text = TextEventWriter(color: true, capacity: 4096) }
        frames = circlingFrames(contacts, count: 2100)
        transform = rotated ? DeviceTransform(rotation: .quarter, calibration: [1, 0, 0.01, 0, 1, 0]) : nil
        driver = try GraphDriver(configuration: .default, surface: transform?.surface(TouchScript.defaultSurface) ?? TouchScript.defaultSurface)
        driver.graph.explain = explain
        for f in frames.prefix(100) { feed(f) }
    }

    mutating func feed(_ frame: TouchFrame) {
        var w = writer
        var t = text
        var n = 0
        writer = JSONWriter(capacity: 0)
        text = nil
        var frame = frame
        if let transform {
            transform.apply(frame, surface: transform.surface(TouchScript.defaultSurface), into: &turned)
            frame = turned
        }
        driver.feed(frame) { event in
            if t != nil {
                t!.reset()
                t!.write(event)
            } else {
                w.reset()
                event.writeJSON(into: &w)
            }
            n += 1
        }
        writer = w
        text = t
        lines += n
    }

    /// Feeds the frames after the warm-up.
    public mutating func measure() {
        for i in 100..<frames.count { feed(frames[i]) }
    }
}
