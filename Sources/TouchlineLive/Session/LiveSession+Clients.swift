// Registered targets (docs/live.md#registered-targets) in the session's graphs. A graph holds
// the configuration's targets and the registered ones; when a registration or a removal
// changes them, each device's graph is rebuilt, but only once that graph is idle (no contact
// down, no arena open, no deadline pending): a rebuild drops a graph's state, and a gesture in
// flight on any target of that device (a pan, or a tap waiting out its double-tap window) must
// end as it would have. Until then the device runs the graph it had: a target registered while
// fingers are down takes effect at their lift.
import TouchlineCore
import TouchlineGestures

extension LiveSession {
    /// The configuration a device's graph is built from: `base` with the registered targets
    /// that join this device. The one place where a device's graph configuration is computed.
    /// A merge the graph refuses (a reloaded configuration that now clashes) is reported and
    /// the device runs `base` alone.
    func configuration(_ base: GraphConfiguration, device index: Int) -> GraphConfiguration {
        guard let clientTargets = clients.targets, !clientTargets.entries.isEmpty else { return base }
        let specs = clientTargets.specs(forDevice: index)
        if specs.isEmpty { return base }
        // A configuration target of the same name wins; the client's is left out (`merged`).
        let merged = clientTargets.merged(base, specs)
        do {
            try merged.validate()
            return merged
        } catch {
            sink.warn("device \(index): registered targets left out: \(error.message)")
            return base
        }
    }

    /// The event socket's register and unregister messages, and connections gone, applied in
    /// their order to the registered targets, which the session alone writes; each reply goes
    /// through the socket. Called on every wake before the graphs are caught up: one load when
    /// nothing waits.
    mutating func applyRegistrations() throws {
        guard let socket = clients.socket, socket.hasPendingRegistrations else { return }
        if clients.targets == nil {
            clients.targets = ClientTargets()
            clients.share(settings, setups: table.setups)
        }
        guard let targets = clients.targets else { return }
        try socket.answerRegistrations { pending in
            switch pending.message {
            case .register(let request):
                return targets.register(request, owner: pending.owner)
            case .unregister(let name):
                return targets.unregister(name, owner: pending.owner) ? .success(())
                    : .failure(ClientMessageError("unregister: this connection registered no target named \(ClientMessageParser.quoted(name))"))
            case .gone:
                targets.removeAll(owner: pending.owner)
                return nil
            }
        }
    }

    /// Rebuilds the graph of every idle device whose registered targets changed since it was
    /// built. Called before each wait: after the frame that lifted the last finger, after the
    /// deadline that closed a gesture, after a client's message.
    mutating func applyClientTargets() throws {
        guard output == .gestures, let clientTargets = clients.targets else { return }
        let generation = clientTargets.generation
        // Called on every wake: nothing to do is found without allocating.
        guard pipeline.startedDevices.contains(where: { (clients.generations[$0] ?? 0) != generation }) else { return }
        for index in pipeline.startedDevices.sorted() where (clients.generations[index] ?? 0) != generation {
            guard pipeline.graph(of: index)?.isIdle == true, let setup = table.setups[index] else { continue }
            let fresh: BuiltGraph
            do {
                fresh = try makeDriver(index, setup)
            } catch {
                sink.warn("device \(index): registered targets not applied: \(error.message)")
                clients.generations[index] = generation
                continue
            }
            // Idle: finishing the old graph emits nothing, but it is how a graph ends.
            try stepping { pipeline, out in
                pipeline.replaceGraph(device: index, with: fresh.driver, transform: setup.transform, surface: setup.surface, into: &out)
            }
            sink.viewDevice(index, surface: setup.surface, configuration: fresh.driver.graph.configuration)
            // After the old graph's last events: the names only it had are freed now.
            table.nameHolds[index] = fresh.names
            clients.generations[index] = generation
        }
    }
}
