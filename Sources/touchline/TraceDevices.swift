// How `replay` and `plot` start a trace's device: at its first event (a trace may describe a
// device only when it reaches it, and a getevent trace may list thousands that send nothing),
// with the `[[device]]` settings matched by its name, or not at all when a section ignores it.
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineSettings

struct TraceDevices {
    let configuration: DeviceConfiguration
    /// The configuration's file, for messages.
    let configPath: String?
    private(set) var ignored: Set<Int> = []

    init(_ configuration: DeviceConfiguration, configPath: String?) {
        self.configuration = configuration
        self.configPath = configPath
    }

    /// Starts device `index` of `trace` in `replay`, warning on stderr what its assembler
    /// warns. Returns its settings (nil: no section matched); nothing when it is ignored, so the
    /// caller skips its events (`ignored`).
    mutating func start(_ index: Int, of trace: TraceFile, in replay: inout GesturePipeline) throws -> DeviceSpec?? {
        guard index < trace.devices.count else {
            throw CLIError.data("\(trace.displayName): an event of device \(index), but the trace describes \(counted(trace.devices.count, "device"))")
        }
        let description = trace.devices[index]
        // Matched by the trace's device name (and the path the daemon's trace source gives it).
        let settings = configuration.settings(name: description.name, path: "\(trace.displayName) device \(index)", udev: nil)
        if settings?.ignore == true {
            ignored.insert(index)
            warn("\(trace.displayName): device \(index) (\(description.name)): ignored ([[device]] at line \(settings?.line ?? 0))")
            return nil
        }
        let warnings: [String]
        do {
            warnings = try replay.start(device: index, description, settings: settings)
        } catch {
            throw CLIError.data("\(configPath ?? "the embedded graph configuration"): \(error.message)")
        }
        for warning in warnings { warn("\(trace.displayName): device \(index) (\(description.name)): \(warning)") }
        return .some(settings)
    }
}

/// A trace file as the pipeline's source (`GesturePipeline.run`): its events in the reader's
/// order, each device started at its first event as `TraceDevices` says (its `[[device]]`
/// section; an ignored device's events skipped), and passed through with `passesThrough`
/// (`replay --passthrough`: every device, its clone as many slots as the device).
struct TraceInput: PipelineSource {
    var trace: TraceFile
    var devices: TraceDevices
    var passesThrough = false
    /// Each started device's settings (nil: no section matched).
    var settings: [Int: DeviceSpec?] = [:]

    @inline(__always)
    mutating func next() throws -> (device: Int, event: InputEvent)? {
        guard let (device, event) = try trace.next() else { return nil }
        return (device, event)
    }

    mutating func start(device: Int, in pipeline: inout GesturePipeline) throws -> Bool {
        if devices.ignored.contains(device) { return false }
        guard let spec = try devices.start(device, of: trace, in: &pipeline) else { return false }
        settings[device] = spec
        if passesThrough { pipeline.startPassThrough(device: device, slotCount: PassThroughEncoder.slots(of: trace.devices[device])) }
        return true
    }
}

/// A configuration as `replay --config` (and `plot --config`) reads it: the graph and
/// `[[device]]` sections with their graph files; `parse` validates, naming the line
/// (docs/config.md#validation). A daemon's file is taken as it is: its actions and socket are
/// left out, with one note on stderr.
func loadReplayConfiguration(_ path: String) throws -> (GraphConfiguration, DeviceConfiguration) {
    try replayConfiguration(bytes: try readSmallFile(path, limit: ConfigurationFile.bytesToRead), file: path)
}

/// A configuration's text read as `loadReplayConfiguration` reads the file `path`.
func replayConfiguration(bytes: [UInt8], file path: String) throws -> (GraphConfiguration, DeviceConfiguration) {
    do {
        var (graph, devices, leftOut) = try DeviceConfiguration.parseForReplay(bytes: bytes, file: path)
        if !leftOut.isEmpty {
            warn("note: \(path): \(leftOut.joined(separator: ", ")) left out: they are the daemon's (the graph and [[device]] sections apply)")
        }
        try loadDeviceGraphs(&devices, config: path)
        return (graph, devices)
    } catch let error as ConfigError {
        throw CLIError.data(error.description)
    }
}

/// A graph configuration from `--config` (nil: the embedded default), read and validated before
/// anything opens, its errors naming the line (`run`, `record`).
func loadGraphConfiguration(_ path: String?) throws -> GraphConfiguration {
    guard let path else { return .default }
    do {
        return try GraphConfiguration.parse(bytes: try readSmallFile(path, limit: ConfigurationFile.bytesToRead), file: path)
    } catch let error as ConfigError {
        throw CLIError.data(error.description)
    }
}
