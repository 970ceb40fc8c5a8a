import TouchlineCore

/// Turns pass-through frames into the evdev events the clone of `device` sends: for each
/// changed slot `ABS_MT_SLOT`, `ABS_MT_TRACKING_ID` (−1 on a lift), the positions and, when the
/// device has them, pressure and touch size; then the legacy single-touch state the device
/// declares (`BTN_TOUCH`, `BTN_TOOL_FINGER`…`QUINTTAP`, `ABS_X`/`ABS_Y` and `ABS_PRESSURE`
/// following the lowest slot down); then `SYN_REPORT`. Only what changed is written, as a
/// kernel driver's input core filters it, and only codes the device has: the clone must look
/// exactly like the device (an extra `BTN_LEFT` makes it a mouse to udev).
///
/// Values go back to device units from the assembled contact: positions from the normalized
/// ones (exact: the assembler divided integers by the axis span), pressure and size as the
/// assembler scaled them (`FrameAssembler.contact`).
public struct PassThroughEncoder: Sendable {
    public let device: DeviceDescription
    let geometry: SurfaceGeometry
    let multitouch: Bool
    /// Multi-touch without slots (protocol A: N-Trig, old eGalax): every frame lists every
    /// contact down, each ended by `SYN_MT_REPORT`.
    let protocolA: Bool
    let unitsPerMillimetreForSize: Double

    private struct Slot: Equatable {
        var trackingID: Int32 = -1
        var x: Int32? = nil, y: Int32? = nil, pressure: Int32? = nil, major: Int32? = nil, minor: Int32? = nil
    }

    private var slots: [Slot]
    private var currentSlot: Int32 = -1
    private var touch = false
    private var tool: UInt16? = nil
    private var legacy = Slot()

    /// `geometry`: the device's assembler's (a `[[device]] size` changes millimetres).
    public init(device: DeviceDescription, geometry: SurfaceGeometry) {
        self.device = device
        self.geometry = geometry
        multitouch = device.isMultitouch
        protocolA = device.isMultitouch && !device.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_SLOT)
        unitsPerMillimetreForSize = (geometry.xUnitsPerMillimetre * geometry.yUnitsPerMillimetre).squareRoot()
        slots = Array(repeating: Slot(), count: PassThroughEncoder.slots(of: device))
        if let slot = device.absinfo[EventCodes.ABS_MT_SLOT] { currentSlot = slot.value }
    }

    /// The clone's slots (the planner's `slotCount`): the device's, or for a protocol A device,
    /// which has none, as many contacts as the graph tracks.
    public static func slots(of device: DeviceDescription) -> Int {
        device.isMultitouch && !device.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_SLOT) ? GestureGraph.contactCapacity : max(1, device.slotCount)
    }

    /// The events of one frame, `SYN_REPORT` last, appended to `events`; nothing when nothing
    /// changed.
    public mutating func encode(_ frame: PassThroughFrame, into events: inout [InputEvent]) {
        let start = events.count
        let time = frame.time
        func abs(_ code: UInt16, _ value: Int32) { events.append(InputEvent(time: time, type: EventCodes.EV_ABS, code: code, value: value)) }
        func key(_ code: UInt16, _ value: Int32) { events.append(InputEvent(time: time, type: EventCodes.EV_KEY, code: code, value: value)) }
        for pc in frame.contacts {
            let s = Int(pc.slot)
            guard s >= 0 && s < slots.count else { continue }
            var next = slots[s]
            if pc.contact.phase == .ended {
                next = Slot()
            } else {
                next.trackingID = pc.trackingID
                next.x = raw(pc.contact.normalized.x, device.xAxis)
                next.y = raw(pc.contact.normalized.y, device.yAxis)
                if let p = pc.contact.pressure, let axis = device.pressureAxis { next.pressure = axis.minimum + Int32((p.value * (Double(axis.maximum) - Double(axis.minimum))).rounded()) }
                if let m = pc.contact.touchMajor, device.touchMajorAxis != nil { next.major = Int32((m.value * unitsPerMillimetreForSize).rounded()) }
                if let m = pc.contact.touchMinor, device.touchMinorAxis != nil { next.minor = Int32((m.value * unitsPerMillimetreForSize).rounded()) }
            }
            guard next != slots[s], multitouch, !protocolA else {
                slots[s] = next
                continue
            }
            let before = events.count
            if device.absinfo[EventCodes.ABS_MT_SLOT] != nil && currentSlot != pc.slot { abs(EventCodes.ABS_MT_SLOT, pc.slot) }
            if next.trackingID != slots[s].trackingID { abs(EventCodes.ABS_MT_TRACKING_ID, next.trackingID) }
            if next.trackingID >= 0 {
                if let x = next.x, x != slots[s].x || slots[s].trackingID < 0 { abs(EventCodes.ABS_MT_POSITION_X, x) }
                if let y = next.y, y != slots[s].y || slots[s].trackingID < 0 { abs(EventCodes.ABS_MT_POSITION_Y, y) }
                if let p = next.pressure, p != slots[s].pressure, device.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_PRESSURE) { abs(EventCodes.ABS_MT_PRESSURE, p) }
                if let m = next.major, m != slots[s].major { abs(EventCodes.ABS_MT_TOUCH_MAJOR, m) }
                if let m = next.minor, m != slots[s].minor { abs(EventCodes.ABS_MT_TOUCH_MINOR, m) }
            }
            if events.count > before { currentSlot = pc.slot }
            slots[s] = next
        }
        var downCount = 0, firstDown = -1
        for s in slots.indices where slots[s].trackingID >= 0 {
            if firstDown < 0 { firstDown = s }
            downCount += 1
        }
        if protocolA && (downCount > 0 || touch) {
            // Protocol A: the whole set of contacts, each with SYN_MT_REPORT; none: one empty
            // SYN_MT_REPORT (the lift).
            for s in slots.indices where slots[s].trackingID >= 0 {
                if device.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_TRACKING_ID) { abs(EventCodes.ABS_MT_TRACKING_ID, slots[s].trackingID) }
                if let x = slots[s].x { abs(EventCodes.ABS_MT_POSITION_X, x) }
                if let y = slots[s].y { abs(EventCodes.ABS_MT_POSITION_Y, y) }
                if let p = slots[s].pressure, device.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_PRESSURE) { abs(EventCodes.ABS_MT_PRESSURE, p) }
                if let m = slots[s].major { abs(EventCodes.ABS_MT_TOUCH_MAJOR, m) }
                if let m = slots[s].minor { abs(EventCodes.ABS_MT_TOUCH_MINOR, m) }
                events.append(InputEvent(time: time, type: EventCodes.EV_SYN, code: EventCodes.SYN_MT_REPORT, value: 0))
            }
            if downCount == 0 { events.append(InputEvent(time: time, type: EventCodes.EV_SYN, code: EventCodes.SYN_MT_REPORT, value: 0)) }
        }
        // The legacy state: what a single-touch reader (and libinput's BTN_TOUCH) sees.
        let touching = downCount > 0
        if device.has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH) && touching != touch { key(EventCodes.BTN_TOUCH, touching ? 1 : 0) }
        touch = touching
        let tools = PassThroughEncoder.fingerTools
        let wanted: UInt16? = touching ? tools[min(downCount, tools.count) - 1] : nil
        let available = wanted.flatMap { w in device.has(type: EventCodes.EV_KEY, code: w) ? w : (device.has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOOL_FINGER) ? EventCodes.BTN_TOOL_FINGER : nil) }
        if available != tool {
            if let old = tool { key(old, 0) }
            if let new = available { key(new, 1) }
            tool = available
        }
        if firstDown >= 0 {
            let s = slots[firstDown]
            if let x = s.x, x != legacy.x, device.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_X) { abs(EventCodes.ABS_X, x) }
            if let y = s.y, y != legacy.y, device.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_Y) { abs(EventCodes.ABS_Y, y) }
            if let p = s.pressure, p != legacy.pressure, device.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_PRESSURE) { abs(EventCodes.ABS_PRESSURE, p) }
            legacy = s
        }
        if events.count > start { events.append(InputEvent(time: time, type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0)) }
    }

    /// Lifts every contact the clone still has down (the daemon's exit): the events, with
    /// their `SYN_REPORT`, or none when nothing is down.
    public mutating func liftAll(at time: Timestamp, into events: inout [InputEvent]) {
        var frame = PassThroughFrame(time: time, contacts: [])
        for s in slots.indices where slots[s].trackingID >= 0 {
            frame.contacts.append(PassThroughContact(slot: Int32(s), trackingID: -1, contact: Contact(id: ContactID(0), phase: .ended, position: .zero, normalized: .zero)))
        }
        encode(frame, into: &events)
    }

    /// The finger-count tools, by count (1 to 5).
    static let fingerTools = [EventCodes.BTN_TOOL_FINGER, EventCodes.BTN_TOOL_DOUBLETAP, EventCodes.BTN_TOOL_TRIPLETAP, EventCodes.BTN_TOOL_QUADTAP, EventCodes.BTN_TOOL_QUINTTAP]

    /// A normalized coordinate back in the axis's units.
    private func raw(_ v: Double, _ axis: AbsInfo?) -> Int32 {
        guard let axis else { return 0 }
        return axis.minimum + Int32((v * axis.span).rounded())
    }
}
