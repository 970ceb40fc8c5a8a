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
    ///
    /// Pass-through follows the new sections on every open device (and on those plugged in
    /// later, matched when they open): turned on, the source grabs the device and makes its
    /// clone once no finger is down; turned off, the clone is closed (the device given back
    /// first) once no finger is down; `ignore = true` closes the clone and the device at once.
    /// The line names each device whose pass-through changed:
    /// "reloaded; /dev/input/event5 (Name): pass-through on (grabbed, clone /dev/input/event7)".
    public mutating func reload(_ source: inout some LiveSource) throws {
        // Graphs are what a reload changes: the daemon's session, whose output is gestures.
        guard let reloadConfiguration = hooks.reloadConfiguration, output == .gestures else { return }
        let configuration: DaemonConfiguration
        do {
            configuration = try reloadConfiguration()
        } catch {
            sink.warn("reload: \(error); keeping the running configuration")
            return
        }
        let previous = settings
        settings.graphConfiguration = configuration.graph
        settings.deviceConfiguration = configuration.devices
        // The new graphs take registered targets as the new file places them (clientZ).
        clients.share(settings, setups: table.setups)
        // Every device is matched again and every new graph built before any old one is
        // touched, so a refusal changes nothing.
        var fresh: [Int: (BuiltGraph, DeviceSetup)] = [:]
        var dropped: [Int] = []
        var passes: [Int: Bool] = [:]
        for (id, device) in table.devices {
            guard let assembler = pipeline.assembler(of: device.index) else { continue }
            let spec = deviceSpec(name: device.name, path: device.path)
            if spec?.ignore == true {
                dropped.append(id)
                continue
            }
            passes[id] = spec?.passthrough == true
            let sizeApplied = spec?.size.map { $0 == assembler.geometry.size } ?? true
            let setup = setup(spec, native: assembler.geometry.size, sizeApplied: sizeApplied, default: configuration.graph)
            do {
                fresh[id] = (try makeDriver(device.index, setup), setup)
            } catch {
                settings = previous
                clients.share(settings, setups: table.setups)
                sink.warn("reload: \(settings.configPath ?? "the configuration"): \(error.message); keeping the running configuration")
                return
            }
        }
        let now = outputTime(clock.now())
        // What changed per device, for the line (by output index).
        var changes: [(Int, String)] = []
        for id in dropped.sorted(by: { (table.devices[$0]?.index ?? 0) < (table.devices[$1]?.index ?? 0) }) {
            guard let device = table.devices.removeValue(forKey: id) else { continue }
            let passed = passThrough.clones[device.index] != nil
            // The clone's contacts lift and it goes (its device given back first), then the
            // source closes the device: another reader has it whole at once.
            try end(device.index, at: now)
            passThrough.wanted.remove(id)
            passThrough.requests.append(.close(device: id))
            changes.append((device.index, "\(device.path) (\(device.name)): ignored from now on" + (passed ? " (released)" : "")))
        }
        for id in fresh.keys.sorted(by: { (table.devices[$0]?.index ?? 0) < (table.devices[$1]?.index ?? 0) }) {
            guard let (built, setup) = fresh[id], let device = table.devices[id] else { continue }
            let index = device.index
            // The assembler stays (its slots and tracking ids are the device's state); its
            // contacts end as cancelled, and the old graph sees that (in the old transform's
            // coordinates) and finishes.
            try stepping { pipeline, out in
                // A pass-through clone lifts the cancelled contacts too (its planner takes the
                // frame), and its planner reads the new graph.
                pipeline.cancelContacts(device: index, at: now, into: &out)
                pipeline.replaceGraph(device: index, with: built.driver, transform: setup.transform, surface: setup.surface, into: &out)
            }
            table.nameHolds[index] = built.names
            table.setups[index] = setup
            sink.deviceOpened(index, surface: setup.surface)
            // A viewer learns the device's new surface, targets and recognizers (issue 33).
            sink.viewDevice(index, surface: setup.surface, configuration: built.driver.graph.configuration)
        }
        // Pass-through on and off, as the new sections say, asked of the source now: what it
        // can do at once (no finger down) is done before the line is written.
        let turned = passes.filter { $0.value != passThrough.wanted.contains($0.key) }
            .sorted { (table.devices[$0.key]?.index ?? 0) < (table.devices[$1.key]?.index ?? 0) }
        for (id, on) in turned { wantPassThrough(id, on) }
        try sendRequests(&source)
        for (id, on) in turned {
            guard let device = table.devices[id] else { continue }
            let clone = passThrough.clones[device.index]
            let what = switch (on, clone) {
            case (true, let clone?): "pass-through on (grabbed, clone \(clone.node))"
            case (true, nil) where !table.sourceGrabs: "passthrough = true not applied: this source cannot grab a device (the evdev source can)"
            case (true, nil): "pass-through on (grabbed and cloned once no finger is down)"
            case (false, nil): "pass-through off (released)"
            case (false, _?): "pass-through off (released once no finger is down)"
            }
            changes.append((device.index, "\(device.path) (\(device.name)): \(what)"))
        }
        hooks.reloadActions?(configuration.actions)
        settings.actionTargets = configuration.actions.targets
        clients.share(settings, setups: table.setups)
        let file = settings.configPath ?? "the configuration"
        // What only a restart applies stays as it runs, and is named rather than dropped.
        let next = configuration.startupSettings
        let restart = settings.startupSettings.compactMap { running in
            next.first { $0.name == running.name }.flatMap { running.restartNeeded(by: $0, file: file) }
        }
        let devicesChanged = changes.sorted { $0.0 < $1.0 }.map(\.1)
        sink.warn("reload: \(file): reloaded" + (devicesChanged + restart).map { "; " + $0 }.joined())
    }
}
