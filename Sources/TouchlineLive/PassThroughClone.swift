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
