// Per-device settings (`[[device]]`, docs/live.md#devices) in a live session: a device opened
// is matched against the configuration's sections (name, path, udev properties); the first
// that matches gives its rotation, calibration, size and graph, or says to ignore it. A device
// without settings gets no transform, so its frames go to the graph as the assembler made them.
import TouchlineCore
import TouchlineGestures
import TouchlineSettings

extension LiveSession {
    /// What a device runs with: its settings (nil: none matched) and what follows from them.
    struct DeviceSetup {
        var settings: DeviceSpec?
        var transform: DeviceTransform?
        /// The surface the graph sees (rotated; the configured size when one is given).
        var surface: Size
        var configuration: GraphConfiguration
    }

    /// The first matching section's settings for a device, nil for none.
    func deviceSpec(name: String, path: String) -> DeviceSpec? {
        let devices = settings.deviceConfiguration
        let honoursUdevCalibration = settings.honoursUdevCalibration
        guard !devices.devices.isEmpty || honoursUdevCalibration else { return nil }
        let udev = devices.needsUdev || honoursUdevCalibration ? hooks.udevProperties?(path) : nil
        var spec = devices.devices.isEmpty ? nil : devices.settings(name: name, path: path, udev: udev)
        // The udev rule's calibration, as libinput applies it, unless a section gives one (which
        // replaces it, as libinput's configuration call replaces the property's default).
        if honoursUdevCalibration, spec?.ignore != true, spec?.calibration == nil,
           let text = udev?[UdevCalibration.property], let matrix = UdevCalibration.parse(text) {
            var calibrated = spec ?? DeviceSpec()
            calibrated.calibration = matrix
            spec = calibrated
        }
        return spec
    }

    /// The setup for a device with `settings` whose sensor measures `native` (the assembler's
    /// size). `sizeApplied`: the assembler already measures in the configured size.
    func setup(_ settings: DeviceSpec?, native: Size, sizeApplied: Bool, default configuration: GraphConfiguration) -> DeviceSetup {
        var transform = DeviceTransform(rotation: settings?.rotation ?? .none, calibration: settings?.calibration)
        var sensor = native
        if let size = settings?.size, !sizeApplied, size != native {
            // A size changed on reload: the assembler stays (its slots are the device's state),
            // and positions are rescaled from normalized coordinates instead.
            sensor = size
            if transform == nil { transform = DeviceTransform(rotation: .none, calibration: nil, always: true) }
        }
        return DeviceSetup(settings: settings, transform: transform, surface: transform?.surface(sensor) ?? sensor,
                           configuration: settings?.graphConfiguration ?? configuration)
    }

    /// A device's graph and the hold on its names, which the session keeps while that graph
    /// runs (`DeviceTable.nameHolds`).
    struct BuiltGraph {
        var driver: GraphDriver
        var names: InternedString.Hold
    }

    /// The one place a device's graph is built (open, a registration, reload).
    func makeDriver(_ index: Int, _ setup: DeviceSetup) throws(GraphConfigurationError) -> BuiltGraph {
        // Registered targets (LiveSession+Clients) join whichever graph the device runs.
        let configuration = configuration(setup.configuration, device: index)
        // Held before the graph takes them (GestureName(sharing:)): the names of registered
        // targets are freed once no running graph has them (issue 24, item 7).
        let names = InternedString.Hold(configuration.targets.map(\.name) + configuration.recognizers.map(\.name))
        var driver = try GraphDriver(configuration: configuration, surface: setup.surface, sharingNames: true)
        driver.graph.device = index
        driver.graph.explain = settings.explain
        return BuiltGraph(driver: driver, names: names)
    }
}
