// Test support: scripted evdev events, device fixtures, frame descriptions and the invariants
// every frame sequence must keep.
import AllocationWorkloads
import Testing
@testable import TouchlineCore
// Every file of these tests sees the shared test support (paths, trace files, counters).
@_exported import TouchlineTestSupport

typealias E = EventCodes

/// Scripts raw evdev events the way a driver sends them. Events take the time of the
/// `syn(at:)` that ends their frame, as the kernel stamps a whole frame with one time.
final class Script {
    private(set) var events: [InputEvent] = []
    private var frameStart = 0

    @discardableResult func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> Script {
        events.append(InputEvent(time: .zero, type: type, code: code, value: value))
        return self
    }
    @discardableResult func abs(_ code: UInt16, _ value: Int32) -> Script { event(E.EV_ABS, code, value) }
    @discardableResult func key(_ code: UInt16, _ value: Int32) -> Script { event(E.EV_KEY, code, value) }

    @discardableResult func slot(_ s: Int32) -> Script { abs(E.ABS_MT_SLOT, s) }
    @discardableResult func track(_ id: Int32) -> Script { abs(E.ABS_MT_TRACKING_ID, id) }
    @discardableResult func lift() -> Script { abs(E.ABS_MT_TRACKING_ID, -1) }
    /// MT position (ABS_MT_POSITION_X/Y).
    @discardableResult func x(_ v: Int32) -> Script { abs(E.ABS_MT_POSITION_X, v) }
    @discardableResult func y(_ v: Int32) -> Script { abs(E.ABS_MT_POSITION_Y, v) }
    @discardableResult func at(_ x: Int32, _ y: Int32) -> Script { self.x(x).y(y) }
    @discardableResult func pressure(_ v: Int32) -> Script { abs(E.ABS_MT_PRESSURE, v) }
    @discardableResult func major(_ v: Int32) -> Script { abs(E.ABS_MT_TOUCH_MAJOR, v) }
    @discardableResult func minor(_ v: Int32) -> Script { abs(E.ABS_MT_TOUCH_MINOR, v) }
    /// Single-touch position (ABS_X/Y) and pressure (ABS_PRESSURE).
    @discardableResult func stAt(_ x: Int32, _ y: Int32) -> Script { abs(E.ABS_X, x).abs(E.ABS_Y, y) }
    @discardableResult func stPressure(_ v: Int32) -> Script { abs(E.ABS_PRESSURE, v) }
    @discardableResult func touch(_ down: Bool) -> Script { key(E.BTN_TOUCH, down ? 1 : 0) }
    @discardableResult func pen(_ inProximity: Bool) -> Script { key(E.BTN_TOOL_PEN, inProximity ? 1 : 0) }
    @discardableResult func mscTimestamp(_ v: Int32) -> Script { event(E.EV_MSC, 0x05, v) }
    @discardableResult func mtReport() -> Script { event(E.EV_SYN, E.SYN_MT_REPORT, 0) }
    @discardableResult func dropped() -> Script { event(E.EV_SYN, E.SYN_DROPPED, 0) }

    /// Ends the frame with SYN_REPORT at `seconds`.
    @discardableResult func syn(at seconds: Double) -> Script {
        let t = Timestamp(microseconds: Int64((seconds * 1_000_000).rounded()))
        event(E.EV_SYN, E.SYN_REPORT, 0)
        for i in frameStart..<events.count { events[i].time = t }
        frameStart = events.count
        return self
    }
}

enum Devices {
    /// A protocol-B touchscreen 100 × 50 mm (1000 × 500 units at 10 units/mm), pressure 0..200,
    /// touch major/minor: the allocation workloads' (one definition, AllocationWorkloads).
    static func slotted(slots: Int32 = 5, slotValue: Int32 = 0, properties: [UInt16] = [E.INPUT_PROP_DIRECT]) -> DeviceDescription {
        workloadDevice(protocolA: false, slots: slots, slotValue: slotValue, properties: properties)
    }

    /// Same surface, protocol A (no ABS_MT_SLOT), no pressure.
    static func unslotted() -> DeviceDescription { workloadDevice(protocolA: true) }

    /// A single-touch pen display 100 × 50 mm, ABS_PRESSURE 0..1000.
    static func single() -> DeviceDescription {
        DeviceDescription(
            name: "test pen", properties: [E.INPUT_PROP_DIRECT],
            codes: [E.EV_KEY: [E.BTN_TOOL_PEN, E.BTN_TOUCH]],
            absinfo: [
                E.ABS_X: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                E.ABS_Y: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
                E.ABS_PRESSURE: AbsInfo(minimum: 0, maximum: 1000),
            ])
    }
}

/// "0.010 c0 began s0 10.00,20.00 | c1 …", one line per frame: what a test compares.
func describe(_ f: TouchFrame) -> String {
    var s = formatFixed(f.time.microseconds / 1000, decimals: 3)
    if f.afterDrop { s += " DROP" }
    var first = true
    for c in f.contacts {
        s += first ? " " : " | "
        first = false
        s += "\(c.id) \(c.phase)"
        if c.slot >= 0 { s += " s\(c.slot)" }
        s += " \(formatFixed(c.position.x, decimals: 2)),\(formatFixed(c.position.y, decimals: 2))"
    }
    return s
}

/// Feeds `events`, returns every emitted frame (copied) and checks the invariants on the way.
func run(
    _ events: [InputEvent], into assembler: inout FrameAssembler, sourceLocation: SourceLocation = #_sourceLocation
) -> [TouchFrame] {
    var frames: [TouchFrame] = []
    var checker = InvariantChecker()
    for e in events where assembler.feed(e) {
        checker.check(assembler.frame, sourceLocation: sourceLocation)
        frames.append(assembler.frame)
    }
    return frames
}

func run(
    _ script: Script, device: DeviceDescription, options: FrameAssembler.Options = .init(),
    sourceLocation: SourceLocation = #_sourceLocation
) -> (frames: [String], assembler: FrameAssembler) {
    var a = FrameAssembler(device: device, options: options)
    let frames = run(script.events, into: &a, sourceLocation: sourceLocation)
    return (frames.map(describe), a)
}

/// What every frame sequence promises: ids sorted and unique in a frame, time never going
/// backwards, a contact's first frame `began`, its last `ended`/`cancelled`, nothing after it,
/// ids never reused, no contact missing from a frame while it is live, and no empty frame.
struct InvariantChecker {
    var live: Set<UInt32> = []
    var finished: Set<UInt32> = []
    var lastTime: Timestamp?
    var maxID: Int64 = -1

    mutating func check(_ f: TouchFrame, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!f.contacts.isEmpty, "empty frame emitted", sourceLocation: sourceLocation)
        if let last = lastTime { #expect(f.time >= last, "time went backwards", sourceLocation: sourceLocation) }
        lastTime = f.time
        var seen: Set<UInt32> = []
        var previous: ContactID?
        for c in f.contacts {
            if let p = previous { #expect(p < c.id, "contacts not sorted by id", sourceLocation: sourceLocation) }
            previous = c.id
            seen.insert(c.id.raw)
            #expect(!finished.contains(c.id.raw), "\(c.id) after its last frame", sourceLocation: sourceLocation)
            #expect(c.normalized.x >= 0 && c.normalized.x <= 1 && c.normalized.y >= 0 && c.normalized.y <= 1, sourceLocation: sourceLocation)
            if let p = c.pressure { #expect(p.value >= 0 && p.value <= 1, sourceLocation: sourceLocation) }
            if c.phase == .began {
                #expect(!live.contains(c.id.raw), "\(c.id) began twice", sourceLocation: sourceLocation)
                #expect(Int64(c.id.raw) > maxID, "\(c.id) reused or out of order", sourceLocation: sourceLocation)
                maxID = Int64(c.id.raw)
                live.insert(c.id.raw)
            } else {
                #expect(live.contains(c.id.raw), "\(c.id) \(c.phase) without began", sourceLocation: sourceLocation)
            }
            if c.phase.isFinal {
                live.remove(c.id.raw)
                finished.insert(c.id.raw)
            }
        }
        #expect(live.isSubset(of: seen), "a live contact is missing from a frame", sourceLocation: sourceLocation)
    }
}
