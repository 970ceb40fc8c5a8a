// Raw evdev events, as the kernel delivers them (`struct input_event`) and as traces record them.
// Kernel names stay searchable: `EventCodes.ABS_MT_POSITION_X` is the kernel's ABS_MT_POSITION_X.

/// One raw evdev event: time, type, code, value.
public struct InputEvent: Hashable, Sendable, CustomStringConvertible {
    public var time: Timestamp
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    @inlinable public init(time: Timestamp, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    public var description: String {
        "\(time) \(EventCodes.typeName(type) ?? "type \(type)") \(EventCodes.codeName(type: type, code: code) ?? "code \(code)") \(value)"
    }
}

/// The kernel's event type and code numbers that Touchline itself acts on (a generated table in
/// EventCodeNames.swift holds the names of all of them).
public enum EventCodes {
    // Types (kernel: EV_*)
    public static let EV_SYN: UInt16 = 0x00
    public static let EV_KEY: UInt16 = 0x01
    public static let EV_REL: UInt16 = 0x02
    public static let EV_ABS: UInt16 = 0x03
    public static let EV_MSC: UInt16 = 0x04
    public static let EV_SW: UInt16 = 0x05
    public static let EV_MAX: UInt16 = 0x1f

    // EV_SYN codes
    public static let SYN_REPORT: UInt16 = 0
    public static let SYN_CONFIG: UInt16 = 1
    public static let SYN_MT_REPORT: UInt16 = 2
    public static let SYN_DROPPED: UInt16 = 3

    // EV_KEY codes
    public static let BTN_LEFT: UInt16 = 0x110
    public static let BTN_TOOL_PEN: UInt16 = 0x140
    public static let BTN_TOOL_RUBBER: UInt16 = 0x141
    public static let BTN_TOOL_FINGER: UInt16 = 0x145
    public static let BTN_TOUCH: UInt16 = 0x14a
    public static let BTN_STYLUS: UInt16 = 0x14b
    public static let BTN_TOOL_DOUBLETAP: UInt16 = 0x14d
    public static let BTN_TOOL_TRIPLETAP: UInt16 = 0x14e
    public static let BTN_TOOL_QUADTAP: UInt16 = 0x14f
    public static let BTN_TOOL_QUINTTAP: UInt16 = 0x148

    // EV_ABS codes
    public static let ABS_X: UInt16 = 0x00
    public static let ABS_Y: UInt16 = 0x01
    public static let ABS_PRESSURE: UInt16 = 0x18
    public static let ABS_DISTANCE: UInt16 = 0x19
    public static let ABS_MISC: UInt16 = 0x28
    public static let ABS_MT_SLOT: UInt16 = 0x2f
    public static let ABS_MT_TOUCH_MAJOR: UInt16 = 0x30
    public static let ABS_MT_TOUCH_MINOR: UInt16 = 0x31
    public static let ABS_MT_WIDTH_MAJOR: UInt16 = 0x32
    public static let ABS_MT_WIDTH_MINOR: UInt16 = 0x33
    public static let ABS_MT_ORIENTATION: UInt16 = 0x34
    public static let ABS_MT_POSITION_X: UInt16 = 0x35
    public static let ABS_MT_POSITION_Y: UInt16 = 0x36
    public static let ABS_MT_TOOL_TYPE: UInt16 = 0x37
    public static let ABS_MT_BLOB_ID: UInt16 = 0x38
    public static let ABS_MT_TRACKING_ID: UInt16 = 0x39
    public static let ABS_MT_PRESSURE: UInt16 = 0x3a
    public static let ABS_MT_DISTANCE: UInt16 = 0x3b
    public static let ABS_MAX: UInt16 = 0x3f

    // Input properties (kernel: INPUT_PROP_*)
    public static let INPUT_PROP_POINTER: UInt16 = 0x00
    public static let INPUT_PROP_DIRECT: UInt16 = 0x01
    public static let INPUT_PROP_BUTTONPAD: UInt16 = 0x02
    public static let INPUT_PROP_SEMI_MT: UInt16 = 0x03

    /// The largest code per type, as the kernel defines them (`*_MAX`).
    public static func maxCode(type: UInt16) -> UInt16? {
        switch type {
        case EV_SYN: return 0x0f
        case EV_KEY: return 0x2ff
        case EV_REL: return 0x0f
        case EV_ABS: return 0x3f
        case EV_MSC: return 0x07
        case EV_SW: return 0x11
        case 0x11: return 0x0f  // EV_LED
        case 0x12: return 0x07  // EV_SND
        case 0x14: return 0x01  // EV_REP
        case 0x15: return 0x7f  // EV_FF
        case 0x16: return 0x01  // EV_PWR
        case 0x17: return 0x01  // EV_FF_STATUS
        default: return nil
        }
    }

    /// "EV_ABS" for 3; nil for a type the kernel does not define.
    public static func typeName(_ type: UInt16) -> String? { Names.shared.types[type] }

    /// "ABS_MT_POSITION_X" for (3, 0x35); nil when the kernel names no such code.
    public static func codeName(type: UInt16, code: UInt16) -> String? {
        Names.shared.codes[UInt32(type) << 16 | UInt32(code)]
    }

    /// The type number of a name such as "EV_ABS".
    public static func type(named name: String) -> UInt16? { Names.shared.typesByName[name] }

    /// The (type, code) of a name such as "ABS_MT_POSITION_X" or "BTN_TOUCH", aliases included.
    public static func code(named name: String) -> (type: UInt16, code: UInt16)? {
        guard let packed = Names.shared.codesByName[name] else { return nil }
        return (UInt16(packed >> 16), UInt16(packed & 0xffff))
    }

    /// The property name ("INPUT_PROP_DIRECT") of a property number.
    public static func propertyName(_ property: UInt16) -> String? {
        switch property {
        case 0: return "INPUT_PROP_POINTER"
        case 1: return "INPUT_PROP_DIRECT"
        case 2: return "INPUT_PROP_BUTTONPAD"
        case 3: return "INPUT_PROP_SEMI_MT"
        case 4: return "INPUT_PROP_TOPBUTTONPAD"
        case 5: return "INPUT_PROP_POINTING_STICK"
        case 6: return "INPUT_PROP_ACCELEROMETER"
        default: return nil
        }
    }

    /// Lookup dictionaries built once from the generated tables.
    final class Names: Sendable {
        static let shared = Names()
        let types: [UInt16: String]
        let typesByName: [String: UInt16]
        let codes: [UInt32: String]
        let codesByName: [String: UInt32]

        init() {
            var types: [UInt16: String] = [:]
            var typesByName: [String: UInt16] = [:]
            for (t, n) in EventCodes.typeTable {
                if types[t] == nil { types[t] = n }
                typesByName[n] = t
            }
            var codes: [UInt32: String] = [:]
            for (t, c, n) in EventCodes.codeTable { codes[UInt32(t) << 16 | UInt32(c)] = n }
            var byName: [String: UInt32] = [:]
            for (t, c, n) in EventCodes.aliasTable { byName[n] = UInt32(t) << 16 | UInt32(c) }
            self.types = types
            self.typesByName = typesByName
            self.codes = codes
            self.codesByName = byName
        }
    }
}
