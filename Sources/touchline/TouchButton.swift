// What a getevent trace leaves out and libinput's tools need, added as `convert` writes it as a
// libinput record. `getevent -lt` prints the events a program read, and Android hides none, but
// the traces in the wild are filtered (`getevent -lt /dev/input/eventN | grep ABS_MT`), so
// BTN_TOUCH, which the kernel sends on the first finger down and the last up (input_mt's pointer
// emulation for a direct device), is missing. `libinput analyze touch-down-state` and libinput
// itself read a touchscreen by it. A protocol-B trace that only ever used slot 0 prints no
// ABS_MT_SLOT either, which touch-down-state needs to find the slots (docs/traces.md#libinput).
import TouchlineCore
import TouchlineTrace

struct TouchButton {
    /// Whether the device lacked BTN_TOUCH, so that this adds it.
    let adds: Bool
    var assembler: FrameAssembler
    var down = false

    /// `device` as the converted file describes it: with BTN_TOUCH, and with ABS_MT_SLOT 0..0
    /// when its contacts have tracking ids and no SYN_MT_REPORT separates them (protocol B on
    /// slot 0: the kernel device has the axis; the trace never printed it).
    static func describe(_ device: DeviceDescription) -> DeviceDescription {
        var d = device
        guard d.kind == .touchscreen, !d.has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH) else { return d }
        d.codes[EventCodes.EV_KEY, default: []].append(EventCodes.BTN_TOUCH)
        d.codes[EventCodes.EV_KEY]?.sort()
        let protocolB = d.isMultitouch && d.absinfo[EventCodes.ABS_MT_TRACKING_ID] != nil
            && d.absinfo[EventCodes.ABS_MT_SLOT] == nil && !d.has(type: EventCodes.EV_SYN, code: EventCodes.SYN_MT_REPORT)
        if protocolB {
            d.absinfo[EventCodes.ABS_MT_SLOT] = AbsInfo(minimum: 0, maximum: 0)
            d.codes[EventCodes.EV_ABS, default: []].append(EventCodes.ABS_MT_SLOT)
            d.codes[EventCodes.EV_ABS]?.sort()
        }
        return d
    }

    /// For the trace's own description (before `describe`).
    init(device: DeviceDescription, options: FrameAssembler.Options) {
        adds = device.kind == .touchscreen && !device.has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH)
        assembler = FrameAssembler(device: device, options: options)
    }

    /// Writes `event`, preceded by a BTN_TOUCH in the frame it ends when a SYN_REPORT finds
    /// the first finger down or the last one up.
    mutating func write(_ event: InputEvent, to write: (InputEvent) throws -> Void) rethrows {
        guard adds else { return try write(event) }
        if assembler.feed(event) {
            let touching = assembler.frame.contacts.contains { !$0.phase.isFinal }
            if touching != down {
                down = touching
                try write(InputEvent(time: event.time, type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH, value: touching ? 1 : 0))
            }
        }
        try write(event)
    }
}
