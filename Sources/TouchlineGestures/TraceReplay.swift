import TouchlineCore

/// Replays the evdev events of one or more devices as one live run would see them: one frame
/// assembler and one graph per device, and before each frame every device's deadlines that
/// fall before it fire, in time order, the earlier device first on a tie. At the end each
/// device finishes at its own last time, the earliest first, so the output stays in time
/// order. `touchline replay`, the fuzz targets and embedders share this one loop, so what is
/// fuzzed is what runs.
///
///     var replay = TraceReplay(configuration: .default)
///     for d in reader.devices { _ = try replay.addDevice(d) }
///     while let e = try reader.next() { replay.feed(device: e.device, e.event, emit: sink) }
///     replay.finish(emit: sink)
public struct TraceReplay {
    public let configuration: GraphConfiguration
    public let assemblerOptions: FrameAssembler.Options
    /// Frames only: no graph is built and `feed` emits nothing (`touchline replay --frames`).
    public let recognizes: Bool
    /// Whether the graphs emit a line per arena decision.
    public let explain: Bool
    public private(set) var assemblers: [FrameAssembler] = []
    public private(set) var drivers: [ReplayDriver] = []

    public init(
        configuration: GraphConfiguration = .default, assemblerOptions: FrameAssembler.Options = .init(),
        recognizes: Bool = true, explain: Bool = false
    ) {
        self.configuration = configuration
        self.assemblerOptions = assemblerOptions
        self.recognizes = recognizes
        self.explain = explain
    }

    public var deviceCount: Int { assemblers.count }

    /// Adds the next device (its index is the number added before it) and returns what its
    /// description made the assembler assume (docs/frame-assembly.md#device-descriptions).
    /// Throws when the configuration is invalid for a graph (docs/config.md#validation).
    public mutating func addDevice(_ description: DeviceDescription) throws(GraphConfigurationError) -> [String] {
        let assembler = FrameAssembler(device: description, options: assemblerOptions)
        if recognizes {
            var driver = try ReplayDriver(configuration: configuration, surface: assembler.geometry.size)
            driver.graph.device = assemblers.count
            driver.graph.explain = explain
            drivers.append(driver)
        }
        assemblers.append(assembler)
        return assembler.warnings
    }

    /// Feeds one event of `device` (an index below `deviceCount`). Returns true when it
    /// completed a frame, `frame(of: device)`, which has then gone through the device's graph.
    @discardableResult
    public mutating func feed(device: Int, _ event: InputEvent, emit: (GestureEvent) -> Void) -> Bool {
        guard assemblers[device].feed(event) else { return false }
        guard recognizes else { return true }
        // As if live: every other device's deadlines before this frame fire first, in time order.
        if drivers.count > 1 { fireDeadlines(before: assemblers[device].frame.time, emit: emit) }
        drivers[device].feed(assemblers[device].frame, emit: emit)
        return true
    }

    /// The last frame `device` completed.
    public func frame(of device: Int) -> TouchFrame { assemblers[device].frame }

    /// End of input (or of the good input, before a bad line is reported): pending deadlines
    /// still fire and fingers still down are cancelled, so every `began` has its end.
    public mutating func finish(emit: (GestureEvent) -> Void) {
        guard recognizes else { return }
        if drivers.count > 1 { fireDeadlines(before: nil, emit: emit) }
        let order = drivers.indices.sorted { (drivers[$0].time ?? .zero, $0) < (drivers[$1].time ?? .zero, $1) }
        for index in order { drivers[index].finish(emit: emit) }
    }

    /// Fires the deadlines of all devices' graphs before `time` (all of them for nil) in time
    /// order, the earlier device first on a tie.
    mutating func fireDeadlines(before time: Timestamp?, emit: (GestureEvent) -> Void) {
        while true {
            var earliest: (index: Int, time: Timestamp)?
            for index in drivers.indices {
                guard let d = drivers[index].graph.nextDeadline, time.map({ d < $0 }) ?? true else { continue }
                if earliest.map({ d < $0.time }) ?? true { earliest = (index, d) }
            }
            guard let earliest else { return }
            drivers[earliest.index].advance(to: earliest.time, emit: emit)
        }
    }
}
