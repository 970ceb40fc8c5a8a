// `[[device]] passthrough = true` (docs/live.md#pass-through): only the evdev source can grab a
// device and make its clone.
import TouchlineCore
import TouchlineInput
import TouchlineLive
import TouchlineSettings

extension Daemon {
    /// Refuses pass-through on a source that cannot do it (libinput reads through the
    /// compositor's library and cannot grab; a trace has no device), before anything opens.
    static func checkPassThrough(_ configuration: DaemonConfiguration, source: String, config: String?) throws {
        guard let section = configuration.devices.devices.first(where: { $0.passthrough }) else { return }
        throw CLIError.usage("\(config ?? "the configuration"):\(section.line): [[device]] passthrough = true needs the evdev source (--source evdev, the default); --source \(source) cannot grab a device nor give the system its clone")
    }

    /// Which devices the evdev source passes through: those whose section says so (and does
    /// not ignore them: an ignored device is not read, so its clone would receive nothing).
    static func passThroughPredicate(_ devices: DeviceConfiguration) -> ((String, DeviceDescription) -> Bool)? {
        guard devices.devices.contains(where: { $0.passthrough }) else { return nil }
        return { path, description in
            let udev = devices.needsUdev ? UdevDatabase.properties(ofNode: path) : nil
            guard let settings = devices.settings(name: description.name, path: path, udev: udev) else { return false }
            return settings.passthrough && !settings.ignore
        }
    }
}
