// Test support: a scripted touchscreen (raw evdev events, protocol B) and a sink that keeps
// what the session wrote, as log lines.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineLive
import TouchlineTesting

typealias E = EventCodes

/// A protocol-B touchscreen 100 × 50 mm (1000 × 500 units at 10 units/mm).
let screen = DeviceDescription(
    name: "scripted screen", properties: [E.INPUT_PROP_DIRECT],
    codes: [E.EV_KEY: [E.BTN_TOUCH], E.EV_ABS: [E.ABS_MT_SLOT, E.ABS_MT_POSITION_X, E.ABS_MT_POSITION_Y]],
    absinfo: [
        E.ABS_X: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
        E.ABS_Y: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
        E.ABS_MT_SLOT: AbsInfo(minimum: 0, maximum: 4),
        E.ABS_MT_TRACKING_ID: AbsInfo(minimum: 0, maximum: 65535),
        E.ABS_MT_POSITION_X: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
        E.ABS_MT_POSITION_Y: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
    ])

func ms(_ milliseconds: Int64) -> Timestamp { Timestamp(microseconds: milliseconds * 1000) }

/// Raw events as a touchscreen's driver sends them; each frame is stamped with its SYN_REPORT's
/// time, as the kernel stamps a whole frame. Positions in mm (10 units/mm).
struct Finger {
    private(set) var events: [InputEvent] = []
    let slot: Int32
    let trackingID: Int32

    init(slot: Int32 = 0, trackingID: Int32 = 1) {
        self.slot = slot
        self.trackingID = trackingID
    }

    private mutating func frame(at time: Timestamp, _ body: [(UInt16, UInt16, Int32)]) {
        for (type, code, value) in body { events.append(InputEvent(time: time, type: type, code: code, value: value)) }
        events.append(InputEvent(time: time, type: E.EV_SYN, code: E.SYN_REPORT, value: 0))
    }

    mutating func down(at time: Timestamp, x: Double, y: Double) {
        frame(at: time, [
            (E.EV_ABS, E.ABS_MT_SLOT, slot), (E.EV_ABS, E.ABS_MT_TRACKING_ID, trackingID),
            (E.EV_ABS, E.ABS_MT_POSITION_X, Int32(x * 10)), (E.EV_ABS, E.ABS_MT_POSITION_Y, Int32(y * 10)),
            (E.EV_KEY, E.BTN_TOUCH, 1),
        ])
    }

    mutating func move(at time: Timestamp, x: Double, y: Double) {
        frame(at: time, [
            (E.EV_ABS, E.ABS_MT_SLOT, slot),
            (E.EV_ABS, E.ABS_MT_POSITION_X, Int32(x * 10)), (E.EV_ABS, E.ABS_MT_POSITION_Y, Int32(y * 10)),
        ])
    }

    mutating func up(at time: Timestamp) {
        frame(at: time, [(E.EV_ABS, E.ABS_MT_SLOT, slot), (E.EV_ABS, E.ABS_MT_TRACKING_ID, -1), (E.EV_KEY, E.BTN_TOUCH, 0)])
    }
}

/// Keeps the session's output: gesture events as log lines (GestureEvent.logLine), frames as
/// their JSON, warnings as written.
final class LogSink: LiveSink {
    var log: [String] = []
    var warnings: [String] = []
    /// The clock's time when each gesture event was written.
    var writtenAt: [Timestamp] = []
    let clock: VirtualClock?
    init(clock: VirtualClock? = nil) { self.clock = clock }
    func gesture(_ event: GestureEvent) throws {
        log.append(event.logLine)
        if let clock { writtenAt.append(clock.now()) }
    }
    func frame(_ frame: TouchFrame, device: Int) throws {
        var w = JSONWriter()
        frame.writeJSON(device: device, into: &w)
        // One line: the writer ends it with a newline.
        log.append(String(w.string.dropLast()))
    }
    func rawEvent(_ event: InputEvent, deviceName: String) throws { log.append("\(event.time) \(deviceName) \(event.type) \(event.code) \(event.value)") }
    func warn(_ message: String) { warnings.append(message) }
}

/// Runs a session over a script on a virtual clock; returns the sink and the clock's end time.
func play(_ source: ScriptedSource, output: LiveSession.Output = .gestures) throws -> (LogSink, Timestamp) {
    var source = source
    let sink = LogSink(clock: source.clock)
    var session = LiveSession(output: output, sink: sink, clock: source.clock)
    try session.start(&source)
    try session.run(&source)
    return (sink, source.clock.time)
}

/// Compares the whole log; on a mismatch prints the actual log as Swift source to review.
func expectLog(_ actual: [String], _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    if actual != expected {
        print("ACTUAL \(sourceLocation.fileName):\(sourceLocation.line)\n" + actual.map { "            \"\($0)\"," }.joined(separator: "\n") + "\nEND")
    }
    #expect(actual == expected, sourceLocation: sourceLocation)
}
