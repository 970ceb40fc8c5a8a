// The output of pass-through (docs/live.md#pass-through): where the session writes a grabbed
// device's clone frames. Production: a uinput device made from the device's description
// (UInputClone); tests: a recorder of the frames written.
import TouchlineCore
import TouchlineInput

/// A pass-through clone: frames in (each one write, `SYN_REPORT` last), closed when its device
/// ends (after its contacts were lifted).
public protocol PassThroughClone: AnyObject {
    /// The clone's node, for messages.
    var node: String { get }
    func write(_ events: [InputEvent]) throws
    /// Removes the clone (its readers see it unplugged).
    func close()
}

/// A uinput device with the grabbed device's name, ids, properties, codes and absinfo, and a
/// `phys` of its own (`PassThroughClonePhys`), so that Touchline never opens it.
public final class UInputClone: PassThroughClone {
    let device: UInputDevice

    public init(cloning description: DeviceDescription, of path: String) throws(SystemError) {
        device = try UInputDevice(description: description, phys: PassThroughClonePhys.of(path: path))
    }

    public var node: String { device.devnode }
    public func write(_ events: [InputEvent]) throws { try device.write(events) }
    public func close() { device.remove() }
}
