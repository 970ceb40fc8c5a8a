// What a source knows about a device: the same facts a libinput-record or evemu header carries
// (name, ids, properties, event bits, absinfo), plus what Touchline derives from them.

/// One axis's range, as the kernel reports it (`struct input_absinfo`). Resolution is in units
/// per millimetre for position axes (0 when the driver does not say).
public struct AbsInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32
    /// The axis's value when the description was taken (libinput record and libevdev know it;
    /// evemu does not).
    public var value: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0, value: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
        self.value = value
    }

    /// maximum - minimum, never negative, as a Double.
    @inlinable public var span: Double { Double(max(0, Int64(maximum) - Int64(minimum))) }
}

/// What kind of device a description is, for routing and for `inspect`.
public enum DeviceKind: String, Sendable, CaseIterable {
    case touchscreen
    case touchpad
    case pen
    case keyboard
    case pointer
    case other
}

/// A device as a source describes it.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// Input property numbers (kernel: `INPUT_PROP_*`), ascending.
    public var properties: [UInt16]
    /// The codes the device can send, per event type, ascending.
    public var codes: [UInt16: [UInt16]]
    /// Absolute axis ranges by ABS code.
    public var absinfo: [UInt16: AbsInfo]
    /// udev properties where the source knows them (libinput record), e.g. ID_INPUT_TOUCHSCREEN.
    public var udevProperties: [String: String]
    /// ABS codes the source described more than once (two evemu `A:` lines, or twice in a
    /// libinput record header), in the order seen; `absinfo` holds the last description. The
    /// frame assembler warns about each (docs/frame-assembly.md, "Device descriptions").
    public var duplicateAbsinfo: [UInt16] = []

    public init(
        name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
        properties: [UInt16] = [], codes: [UInt16: [UInt16]] = [:], absinfo: [UInt16: AbsInfo] = [:],
        udevProperties: [String: String] = [:]
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.absinfo = absinfo
        self.udevProperties = udevProperties
    }

    public func hasProperty(_ property: UInt16) -> Bool { properties.contains(property) }
    public func has(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
    public func has(type: UInt16) -> Bool { !(codes[type]?.isEmpty ?? true) }

    /// Multitouch slots (kernel: `ABS_MT_SLOT` maximum + 1); 0 for protocol A and single touch.
    public var slotCount: Int {
        guard let slot = absinfo[EventCodes.ABS_MT_SLOT] else { return 0 }
        return max(0, Int(slot.maximum) + 1)
    }

    public var isMultitouch: Bool { absinfo[EventCodes.ABS_MT_POSITION_X] != nil && absinfo[EventCodes.ABS_MT_POSITION_Y] != nil }

    /// The x and y axes positions come from: the MT axes where the device has them, else ABS_X/Y.
    public var xAxis: AbsInfo? { absinfo[EventCodes.ABS_MT_POSITION_X] ?? absinfo[EventCodes.ABS_X] }
    public var yAxis: AbsInfo? { absinfo[EventCodes.ABS_MT_POSITION_Y] ?? absinfo[EventCodes.ABS_Y] }

    /// The pressure axis, MT first.
    public var pressureAxis: AbsInfo? { absinfo[EventCodes.ABS_MT_PRESSURE] ?? absinfo[EventCodes.ABS_PRESSURE] }
    public var touchMajorAxis: AbsInfo? { absinfo[EventCodes.ABS_MT_TOUCH_MAJOR] }
    public var touchMinorAxis: AbsInfo? { absinfo[EventCodes.ABS_MT_TOUCH_MINOR] }

    /// Whether both position axes report a resolution, so that mm are exact.
    public var hasResolution: Bool { (xAxis?.resolution ?? 0) > 0 && (yAxis?.resolution ?? 0) > 0 }

    /// The kind, decided as libinput and udev's input_id builtin do: a pen tool makes a pen; a
    /// direct device with touch makes a touchscreen; an indirect one with finger tools a
    /// touchpad. Old drivers (N-Trig, for one) set no INPUT_PROP_DIRECT on a real screen, so a
    /// device with MT axes, BTN_TOUCH and no BTN_TOOL_FINGER also counts as a touchscreen, as
    /// udev's builtin decides too.
    public var kind: DeviceKind {
        if udevProperties["ID_INPUT_TOUCHSCREEN"] == "1" { return .touchscreen }
        if udevProperties["ID_INPUT_TOUCHPAD"] == "1" { return .touchpad }
        if udevProperties["ID_INPUT_TABLET"] == "1" && has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOOL_PEN) { return .pen }
        let hasPosition = xAxis != nil && yAxis != nil
        if has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOOL_PEN) && hasPosition { return .pen }
        if hasPosition {
            if hasProperty(EventCodes.INPUT_PROP_DIRECT) { return .touchscreen }
            // udev's input_id tests BTN_TOOL_FINGER alone: N-Trig screens send
            // BTN_TOOL_DOUBLETAP without it and are touchscreens.
            let fingerTool = has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOOL_FINGER)
            if fingerTool || hasProperty(EventCodes.INPUT_PROP_POINTER) || hasProperty(EventCodes.INPUT_PROP_BUTTONPAD) {
                return .touchpad
            }
            if isMultitouch || has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH) { return .touchscreen }
            return .other
        }
        if has(type: EventCodes.EV_REL) { return .pointer }
        if let keys = codes[EventCodes.EV_KEY], keys.contains(where: { $0 < EventCodes.BTN_LEFT && $0 > 0 }) { return .keyboard }
        return .other
    }
}
