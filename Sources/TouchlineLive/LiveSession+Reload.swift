// SIGHUP in the daemon: the configuration is read again and, if valid, every device's graph is
// rebuilt with it. The session does not read files itself; its owner says how to obtain the
// new configuration (`reloadConfiguration`), so a test can script a reload without a file.
import TouchlineCore
import TouchlineGestures

extension LiveSession {
    /// SIGHUP: asks `reloadConfiguration` for the configuration to run from now on. When that
    /// fails (an invalid file), or a device's graph refuses the new one, the error is reported
    /// through the sink and the running configuration stays, untouched. When it succeeds,
    /// gestures in flight end as `cancelled` at the time of the signal (as on SIGTERM) and every
    /// device goes on with a graph built from the new configuration; fingers still down then
    /// begin nothing until lifted, as after a SIGTERM's cancel. Without `reloadConfiguration`
    /// (`touchline run`) SIGHUP changes nothing.
    public mutating func reload() throws {
        guard let reloadConfiguration else { return }
        let configuration: GraphConfiguration
        do {
            configuration = try reloadConfiguration()
        } catch {
            sink.warn("reload: \(error); keeping the running configuration")
            return
        }
        // Every new graph is built before any old one is touched, so a refusal changes nothing.
        var fresh: [Int: ReplayDriver] = [:]
        for index in drivers.keys {
            guard let assembler = assemblers[index] else { continue }
            do {
                var driver = try ReplayDriver(configuration: self.configuration(configuration, device: index), surface: assembler.geometry.size)
                driver.graph.device = index
                driver.graph.explain = explain
                fresh[index] = driver
            } catch {
                sink.warn("reload: \(configPath ?? "the configuration"): \(error.message); keeping the running configuration")
                return
            }
        }
        let now = outputTime(clock.now())
        for index in fresh.keys.sorted() {
            // The assembler stays (its slots and tracking ids are the device's state); its
            // contacts end as cancelled, and the old graph sees that and finishes.
            if var assembler = assemblers[index] {
                if assembler.cancelAll(at: now) {
                    let frame = assembler.frame
                    try withDriver(index) { driver, emit in driver.feed(frame, emit: emit) }
                }
                assemblers[index] = assembler
            }
            try withDriver(index) { driver, emit in driver.finish(emit: emit) }
            drivers[index] = fresh[index]
        }
        graphConfiguration = configuration
        sink.warn("reload: \(configPath ?? "the configuration"): reloaded")
    }
}
