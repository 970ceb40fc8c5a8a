// SIGHUP in the daemon: the configuration is read again and, if valid, every device's graph is
// rebuilt with it. The session does not read files itself; its owner says how to obtain the
// new configuration (`reloadConfiguration`), so a test can script a reload without a file.
import TouchlineCore
import TouchlineGestures
import TouchlineSettings

extension LiveSession {
    /// SIGHUP: asks `reloadConfiguration` for the configuration to run from now on. When that
    /// fails (an invalid file), or a device's graph refuses the new one, the error is reported
    /// through the sink and the running configuration stays, untouched. When it succeeds,
    /// gestures in flight end as `cancelled` at the time of the signal (as on SIGTERM) and every
    /// device goes on with a graph built from the new configuration; fingers still down then
    /// begin nothing until lifted, as after a SIGTERM's cancel. Settings applied only at start
    /// (`startupSettings`) keep their running values, and the line says which the file changes:
    /// "reloaded; [socket] group change needs a restart (FILE:LINE); …". Without
    /// `reloadConfiguration` (`touchline run`) SIGHUP changes nothing.
    public mutating func reload() throws {
        // Graphs are what a reload changes: the daemon's session, whose output is gestures.
        guard let reloadConfiguration, output == .gestures else { return }
        let configuration: DaemonConfiguration
        do {
            configuration = try reloadConfiguration()
        } catch {
            sink.warn("reload: \(error); keeping the running configuration")
            return
        }
        let previous = (graphConfiguration, deviceConfiguration)
        graphConfiguration = configuration.graph
        deviceConfiguration = configuration.devices
        // Every device is matched again and every new graph built before any old one is
        // touched, so a refusal changes nothing.
        var fresh: [Int: (BuiltGraph, DeviceSetup)] = [:]
        var dropped: [Int] = []
        for (id, device) in devices {
            guard let assembler = pipeline.assembler(of: device.index) else { continue }
            let settings = settings(name: device.name, path: device.path)
            if settings?.ignore == true {
                dropped.append(id)
                continue
            }
            let sizeApplied = settings?.size.map { $0 == assembler.geometry.size } ?? true
            let setup = setup(settings, native: assembler.geometry.size, sizeApplied: sizeApplied, default: configuration.graph)
            do {
                fresh[id] = (try makeDriver(device.index, setup), setup)
            } catch {
                (graphConfiguration, deviceConfiguration) = previous
                sink.warn("reload: \(configPath ?? "the configuration"): \(error.message); keeping the running configuration")
                return
            }
        }
        let now = outputTime(clock.now())
        for id in dropped.sorted(by: { (devices[$0]?.index ?? 0) < (devices[$1]?.index ?? 0) }) {
            guard let device = devices.removeValue(forKey: id) else { continue }
            sink.warn("\(device.path) (\(device.name)): ignored from now on ([[device]])")
            try end(device.index, at: now)
        }
        for id in fresh.keys.sorted(by: { (devices[$0]?.index ?? 0) < (devices[$1]?.index ?? 0) }) {
            guard let (built, setup) = fresh[id], let device = devices[id] else { continue }
            let index = device.index
            // The assembler stays (its slots and tracking ids are the device's state); its
            // contacts end as cancelled, and the old graph sees that (in the old transform's
            // coordinates) and finishes.
            try passingThrough { pipeline, set, emit, send in
                // A pass-through clone lifts the cancelled contacts too.
                if pipeline.cancelContacts(device: index, at: now, emit: emit) {
                    set.frame(device: index, pipeline.assembledFrame(of: index), pipeline, output: send)
                }
                pipeline.replaceGraph(device: index, with: built.driver, transform: setup.transform, surface: setup.surface, emit: emit)
            }
            passThroughGraphChanged(index)
            nameHolds[index] = built.names
            setups[index] = setup
            sink.deviceOpened(index, surface: setup.surface)
        }
        reloadActions?(configuration.actions)
        actionTargets = configuration.actions.targets
        let file = configPath ?? "the configuration"
        // What only a restart applies stays as it runs, and is named rather than dropped.
        let next = configuration.startupSettings
        let restart = startupSettings.compactMap { running in
            next.first { $0.name == running.name }.flatMap { running.restartNeeded(by: $0, file: file) }
        }
        sink.warn("reload: \(file): reloaded" + restart.map { "; " + $0 }.joined())
    }
}
