// The daemon's configuration as a whole (graph, actions, devices) from its file, with each
// `[[device]]`'s own graph file read here (the pure parser names it; this reads it, relative
// to the configuration's directory, and its errors name that file's line).
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineInput
import TouchlineLive

extension Daemon {
    /// The configuration in `path` (the graph, the actions, the devices and their graphs);
    /// `--check-config` and SIGHUP read it through this too, so everything is checked as the
    /// daemon reads it.
    static func loadConfiguration(_ path: String) throws -> DaemonConfiguration {
        try configuration(bytes: try readSmallFile(path, limit: ConfigurationFile.bytesToRead), file: path)
    }

    /// A configuration's text, checked as `loadConfiguration` checks the file `path` (`tune -o`
    /// checks what it is about to write, before writing it).
    static func configuration(bytes: [UInt8], file path: String) throws -> DaemonConfiguration {
        do {
            var configuration = try DaemonConfiguration.parse(bytes: bytes, file: path)
            try loadDeviceGraphs(&configuration.devices, config: path)
            try configuration.resolveActionTargets(file: path)
            try checkSocketGroup(configuration.devices, file: path)
            return configuration
        } catch let error as ConfigError {
            throw CLIError.data(error.description)
        }
    }

    /// Per-device settings for the session: the configuration's sections, udev properties from
    /// udev's database, and SIGHUP's reload of all of it (the actions through `runner`).
    static func configure(_ session: inout LiveSession, _ configuration: DaemonConfiguration, path: String?, runner: ActionRunner?, socketGroupOption: Bool = false) {
        session.settings.graphConfiguration = configuration.graph
        // What only a restart changes, as it runs; `--socket-group` wins over the file's group,
        // so a reload's group changes nothing either way.
        session.settings.startupSettings = configuration.startupSettings.filter { !(socketGroupOption && $0.name == "[socket] group") }
        session.settings.deviceConfiguration = configuration.devices
        session.settings.actionTargets = configuration.actions.targets
        session.hooks.udevProperties = { UdevDatabase.properties(ofNode: $0) }
        session.settings.configPath = path
        // The actions' timeouts are deadlines of the session's one wait, on its clock.
        if let runner { session.hooks.timers = [runner] }
        guard let path else { return }
        // The file decides where registered targets sit ([socket] clientZ, else below its own).
        session.settings.clientZFromConfiguration = true
        session.hooks.reloadConfiguration = { try Daemon.loadConfiguration(path) }
        session.hooks.reloadActions = { runner?.replace($0) }
    }
}

/// Reads each `[[device]]`'s `graph` file (relative to the configuration `config`'s
/// directory) into its `graphConfiguration` (the daemon and `replay --config`).
func loadDeviceGraphs(_ devices: inout DeviceConfiguration, config path: String) throws {
    let directory = FilePath.directory(of: path)
    for i in devices.devices.indices {
        guard let graph = devices.devices[i].graph else { continue }
        let file = graph.hasPrefix("/") || directory.isEmpty ? graph : directory + "/" + graph
        let bytes: [UInt8]
        do {
            bytes = try readSmallFile(file, limit: ConfigurationFile.bytesToRead)
        } catch {
            throw CLIError.data("\(path):\(devices.devices[i].line): [[device]] graph \"\(graph)\": \(error)")
        }
        do {
            devices.devices[i].graphConfiguration = try GraphConfiguration.parse(bytes: bytes, file: file)
        } catch {
            throw CLIError.data(error.description)
        }
    }
}
