// The output of pass-through (docs/live.md#pass-through): where the session writes a grabbed
// device's clone frames. Production: a uinput device made from the device's description, which
// holds the device's grab (UInputClone); tests: a recorder of the frames written.
import TouchlineCore
import TouchlineInput

/// A pass-through clone: frames in (each one write, `SYN_REPORT` last), closed when its device
/// ends or stops being passed through (after its contacts were lifted).
public protocol PassThroughClone: AnyObject {
    /// The clone's node, for messages.
    var node: String { get }
    func write(_ events: [InputEvent]) throws
    /// Gives the device back to its other readers, then removes the clone (its readers see it
    /// unplugged).
    func close()
}

/// A uinput device with the grabbed device's name, ids, properties, codes and absinfo, and a
/// `phys` of its own (`PassThroughClonePhys`), so that Touchline never opens it.
///
/// It is the one place a device is grabbed for pass-through, and the grab lives exactly as
/// long as the clone: made after the clone, given back before it goes (`close`, whoever calls
/// it: a reload, a failed write, an unplug, the exit). So a device is never grabbed without a
/// live clone, on any path (issue 31): its other readers are never left with nothing.
public final class UInputClone: PassThroughClone {
    let device: UInputDevice
    let grabbed: EvdevDevice
    var closed = false

    init(_ device: UInputDevice, grabbing grabbed: EvdevDevice) {
        self.device = device
        self.grabbed = grabbed
    }

    /// Clones `source` and then grabs it (EVIOCGRAB), when no contact is down on it: nil when
    /// one is (a reader that had the touch would never see it lift; try again after a read).
    /// A clone that cannot be made leaves the device ungrabbed; a grab that fails removes the
    /// clone just made.
    public static func grabbing(_ source: EvdevDevice) throws(SystemError) -> UInputClone? {
        if source.hasContactDown { return nil }
        let device = try UInputDevice(description: source.description, phys: PassThroughClonePhys.of(path: source.path))
        do throws(SystemError) {
            guard try source.grabWhenIdle() else {
                device.remove()
                return nil
            }
        } catch {
            device.remove()
            throw error
        }
        return UInputClone(device, grabbing: source)
    }

    /// What the log says when device `path` (`name`) gets no clone: which device, that it is
    /// not grabbed either (never grabbed without a live clone: every program reads it as
    /// before, consumed gestures included), the system's error, and the fix for that error. The
    /// daemon runs as `user` then ("touchline (uid 998)"). Issue 35: a touchscreen plugged in
    /// after the system service had dropped to `touchline` was told "load the uinput module"
    /// when /dev/uinput was only not that user's.
    public static func refusal(path: String, name: String, error: SystemError, user: String) -> String {
        let fix = if error.isPermissionDenied {
            "the daemon runs as \(user), who may not write /dev/uinput: the packaged udev rule 70-touchline.rules makes the user touchline its owner (`ls -l /dev/uinput`; "
                + "if it is still root's, `sudo udevadm trigger --action=change /dev/uinput`, or restart the machine); a daemon in a desktop session needs the opt-in rule "
                + "70-touchline-uinput.rules.disabled (docs/live.md#pass-through); then replug the device"
        } else if error.isNodeMissing {
            "load the uinput module (sudo modprobe uinput), then replug the device (docs/live.md#pass-through)"
        } else {
            "docs/live.md#pass-through"
        }
        return "\(path) (\(name)): no pass-through clone, so not grabbed (every program reads it as before, consumed gestures included): \(error); \(fix)"
    }

    /// Whether the device is still grabbed by this clone (tests: the invariant).
    public var holdsGrab: Bool { grabbed.isGrabbed }

    public var node: String { device.devnode }
    public func write(_ events: [InputEvent]) throws { try device.write(events) }

    /// Ungrab first, then the clone goes: no moment where the device is grabbed and its clone
    /// gone (an unplugged device's ungrab fails quietly: the kernel dropped it).
    public func close() {
        guard !closed else { return }
        closed = true
        grabbed.ungrab()
        device.remove()
    }

    deinit { close() }
}

/// A clone that is a file (a pipe, /dev/null) instead of a uinput device: `daemon --source
/// trace:FILE --passthrough-to PATH`, for measuring pass-through on a host without uinput
/// (docs/live.md#pass-through). It writes what UInputClone writes, through the same encoding
/// and the same one write(2) per frame (UInputDevice.swift's `writeFrame`): the kernel's binary
/// `input_event` records, whose times are zero (uinput stamps its own). Nothing is grabbed.
public final class PassThroughFile: PassThroughClone {
    let file: EvdevInjector

    /// Opens `path` for writing, non-blocking (a full pipe fails the write, which removes the
    /// clone with its error, as a failing uinput write does).
    public init(path: String) throws(SystemError) {
        file = try EvdevInjector(path: path)
    }

    public var node: String { file.path }
    public func write(_ events: [InputEvent]) throws { try file.write(events) }
    public func close() {}
}
