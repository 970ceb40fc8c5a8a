// Input actions (`keys`, `button`; docs/live.md#input-actions): what the daemon's one virtual
// uinput device declares and the events an action writes to it. Kept apart from the device so
// that a test can check the sequences on the host with a recorder; the kernel's side is checked
// in the VM (scripts/vm/e2e.sh).
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineInput

/// Where input actions write their events: the daemon's UInputDevice, or a test's recorder.
public protocol InputEventWriter: AnyObject {
    /// One frame, ending with SYN_REPORT, written at once.
    func write(_ events: [InputEvent]) throws(SystemError)
}

extension UInputDevice: InputEventWriter {
    public func write(_ events: [InputEvent]) throws(SystemError) {
        try write(events[...])
    }
}

public enum InputActions {
    public static let deviceName = "Touchline virtual input"
    /// The pointer's ABS_X/ABS_Y range. A desktop maps an absolute pointer without
    /// INPUT_PROP_DIRECT over the whole screen (as a VM's USB tablet), so a fraction of the
    /// touchscreen's surface lands on the same fraction of the screen when the panel covers it.
    public static let pointerMaximum: Int32 = 32767

    /// The device `configuration`'s input actions need, or nil when it has none: EV_KEY for the
    /// named keys, and for buttons an absolute pointer (ABS_X/ABS_Y, BTN_LEFT/RIGHT/MIDDLE).
    /// No INPUT_PROP_DIRECT (that would make it a touchscreen, which libinput maps to one output
    /// and which a desktop treats as touch, not as a mouse click), no BTN_TOUCH: udev tags it
    /// ID_INPUT_MOUSE (and ID_INPUT_KEY for keys), and the daemon's own evdev source ignores it.
    public static func description(for configuration: ActionConfiguration) -> DeviceDescription? {
        var keys: Set<UInt16> = []
        var pointer = false
        for action in configuration.actions {
            switch action.command {
            case let .keys(codes): keys.formUnion(codes)
            case .button: pointer = true
            case .argv, .shell: break
            }
        }
        guard pointer || !keys.isEmpty else { return nil }
        var codes: [UInt16: [UInt16]] = [:]
        var absinfo: [UInt16: AbsInfo] = [:]
        if pointer {
            keys.formUnion(PointerButton.allCases.map(\.code))
            codes[EventCodes.EV_ABS] = [EventCodes.ABS_X, EventCodes.ABS_Y]
            absinfo[EventCodes.ABS_X] = AbsInfo(minimum: 0, maximum: pointerMaximum)
            absinfo[EventCodes.ABS_Y] = AbsInfo(minimum: 0, maximum: pointerMaximum)
        }
        codes[EventCodes.EV_KEY] = keys.sorted()
        // BUS_VIRTUAL, as uinput devices are.
        return DeviceDescription(name: deviceName, bus: 0x06, vendor: 0, product: 0, version: 1,
                                 properties: [], codes: codes, absinfo: absinfo)
    }

    /// A chord: each key pressed in order, then released in reverse, a SYN_REPORT after each
    /// (one frame per change, as a keyboard sends them, so that a modifier is down before the key).
    public static func chord(_ keys: [UInt16]) -> [[InputEvent]] {
        keys.map { frame([(EventCodes.EV_KEY, $0, 1)]) } + keys.reversed().map { frame([(EventCodes.EV_KEY, $0, 0)]) }
    }

    /// A click at `position` (mm) on a surface of `surface` (mm): the pointer moved there, then
    /// the button pressed and released, one frame each. Positions outside the surface are clamped.
    public static func click(_ button: PointerButton, at position: Point, surface: Size) -> [[InputEvent]] {
        func axis(_ value: Double, _ span: Double) -> Int32 {
            guard span > 0, value.isFinite else { return pointerMaximum / 2 }
            let fraction = min(1, max(0, value / span))
            return Int32((fraction * Double(pointerMaximum)).rounded())
        }
        return [
            frame([(EventCodes.EV_ABS, EventCodes.ABS_X, axis(position.x, surface.width)),
                   (EventCodes.EV_ABS, EventCodes.ABS_Y, axis(position.y, surface.height))]),
            frame([(EventCodes.EV_KEY, button.code, 1)]),
            frame([(EventCodes.EV_KEY, button.code, 0)]),
        ]
    }

    /// What to do when /dev/uinput cannot be opened (the daemon's exit 73 says it): without
    /// permission, how the daemon gets it (the system service opens it as root before it drops;
    /// a desktop session's daemon needs the opt-in rule packaging/70-touchline-uinput.rules.disabled,
    /// whose risk is said with it); otherwise the module. --dry-run needs neither.
    public static func fix(for error: SystemError) -> String {
        if error.isPermissionDenied {
            return "this user may not write /dev/uinput. The system service (touchline.service) opens it as root before it drops; "
                + "for the daemon in a desktop session, enable the opt-in udev rule installed beside 70-touchline.rules: "
                + "copy 70-touchline-uinput.rules.disabled to /etc/udev/rules.d/70-touchline-uinput.rules and restart the machine "
                + "(any program of the seat's user can then inject input: docs/live.md#input-actions). --dry-run prints the actions instead"
        }
        return "load the uinput module (sudo modprobe uinput; docs/live.md#input-actions). --dry-run prints the actions instead"
    }

    static func frame(_ body: [(UInt16, UInt16, Int32)]) -> [InputEvent] {
        body.map { InputEvent(time: .zero, type: $0.0, code: $0.1, value: $0.2) }
            + [InputEvent(time: .zero, type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0)]
    }
}

/// `touchline daemon --dry-run`: input actions written as lines for a person instead of through
/// uinput, so a configuration with `keys` and `button` actions can be tried on a machine
/// without `/dev/uinput` (or without clicking on it). One line per frame, each event by its
/// kernel names: `dry run: uinput frame: EV_KEY BTN_RIGHT 1, EV_SYN SYN_REPORT 0`.
public final class InputEventLog: InputEventWriter {
    let line: (String) -> Void

    public init(line: @escaping (String) -> Void) {
        self.line = line
    }

    public func write(_ events: [InputEvent]) throws(SystemError) {
        line("dry run: uinput frame: " + Self.text(events))
    }

    /// Each event by its kernel names, `EV_KEY BTN_RIGHT 1, EV_SYN SYN_REPORT 0`.
    public static func text(_ events: [InputEvent]) -> String {
        events.map { e in
            let type = EventCodes.typeName(e.type) ?? "type \(e.type)"
            let code = EventCodes.codeName(type: e.type, code: e.code) ?? "code \(e.code)"
            return "\(type) \(code) \(e.value)"
        }.joined(separator: ", ")
    }
}

/// `touchline daemon --dry-run --source trace:FILE` with `[[device]] passthrough = true`: the
/// pass-through clone as lines instead of a uinput device, so that a configuration's
/// pass-through is previewed on a recording on any machine. The session's planner decides, as
/// for a real clone and as `replay --passthrough` (the same PassThroughSet); each frame the
/// clone would receive is a line with its time: `dry run: pass-through (FILE device 0) at
/// 1.234567: EV_ABS ABS_MT_SLOT 0, …, EV_SYN SYN_REPORT 0`.
public final class PassThroughLog: PassThroughClone {
    let device: String
    let line: (String) -> Void

    /// The clone of the device at `path` (the trace source's name for it).
    public init(of path: String, line: @escaping (String) -> Void) {
        device = path
        self.line = line
    }

    public var node: String { "lines on standard error (dry run)" }

    public func write(_ events: [InputEvent]) throws {
        let time = events.last.map { formatFixed($0.time.microseconds, decimals: 6) } ?? "?"
        line("dry run: pass-through (\(device)) at \(time): " + InputEventLog.text(events))
    }

    public func close() {}
}
