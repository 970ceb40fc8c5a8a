import TouchlineCore

/// Replays the evdev events of one or more devices as one live run would see them: one frame
/// assembler and one graph per device, and before each frame every device's deadlines that
/// fall before it fire, in time order, the earlier device first on a tie. At the end each
/// device finishes at its own last time, the earliest first, so the output stays in time
/// order. `touchline replay`, the fuzz targets and embedders share this one loop, so what is
/// fuzzed is what runs.
///
///     var replay = TraceReplay(configuration: .default)
///     while let e = try reader.next() {
///         if !replay.isStarted(e.device) { _ = try replay.start(device: e.device, reader.devices[e.device]) }
///         replay.feed(device: e.device, e.event, emit: sink)
///     }
///     replay.finish(emit: sink)
public struct TraceReplay {
    public let configuration: GraphConfiguration
    public let assemblerOptions: FrameAssembler.Options
    /// Frames only: no graph is built and `feed` emits nothing (`touchline replay --frames`).
    public let recognizes: Bool
    /// Whether the graphs emit a line per arena decision.
    public let explain: Bool
    /// The started devices' assemblers and graphs, in the order they started.
    public private(set) var assemblers: [FrameAssembler] = []
    public private(set) var drivers: [ReplayDriver] = []
    /// For each device index, where its assembler (and graph) is in `assemblers`, or -1 until
    /// the device is started: a trace may describe thousands of devices that send nothing.
    /// Visible to `isStarted`'s inlined body only.
    @usableFromInline internal private(set) var lane: [Int] = []
    /// The device index of each started device.
    private var deviceOf: [Int] = []
    /// Per started device: its `[[device]]` rotation and calibration (nil: none, the frame goes
    /// to the graph as assembled), the surface its graph sees, and its turned frame.
    private var transforms: [DeviceTransform?] = []
    private var surfaces: [Size] = []
    private var turned: [TouchFrame] = []

    public init(
        configuration: GraphConfiguration = .default, assemblerOptions: FrameAssembler.Options = .init(),
        recognizes: Bool = true, explain: Bool = false
    ) {
        self.configuration = configuration
        self.assemblerOptions = assemblerOptions
        self.recognizes = recognizes
        self.explain = explain
    }

    /// Inlined into the caller's loop (asked once per event: as a call it cost 31 instructions
    /// of the replay's ~1,990 per event).
    @inlinable public func isStarted(_ device: Int) -> Bool { device >= 0 && device < lane.count && lane[device] >= 0 }

    /// Starts `device` (a trace's index for it, 0 or more) with its description, before its
    /// first event, and returns what the description made the assembler assume
    /// (docs/frame-assembly.md#device-descriptions). Throws when the configuration is invalid
    /// for a graph (docs/config.md#validation).
    /// `settings`: the device's `[[device]]` section (docs/live.md#devices), as the daemon
    /// applies it.
    public mutating func start(device: Int, _ description: DeviceDescription, settings: DeviceSpec? = nil) throws(GraphConfigurationError) -> [String] {
        precondition(device >= 0 && !isStarted(device), "device \(device) is started already")
        var options = assemblerOptions
        if let size = settings?.size { options.userSize = size }
        let assembler = FrameAssembler(device: description, options: options)
        let transform = settings?.transform
        let surface = transform?.surface(assembler.geometry.size) ?? assembler.geometry.size
        if recognizes {
            var driver = try ReplayDriver(configuration: settings?.graphConfiguration ?? configuration, surface: surface)
            driver.graph.device = device
            driver.graph.explain = explain
            drivers.append(driver)
        }
        if lane.count <= device { lane += repeatElement(-1, count: device + 1 - lane.count) }
        lane[device] = assemblers.count
        deviceOf.append(device)
        assemblers.append(assembler)
        transforms.append(transform)
        surfaces.append(surface)
        turned.append(TouchFrame(time: .zero))
        return assembler.warnings
    }

    /// Feeds one event of a started device. Returns true when it completed a frame,
    /// `frame(of: device)`, which has then gone through the device's graph.
    @discardableResult
    public mutating func feed(device: Int, _ event: InputEvent, emit: (GestureEvent) -> Void) -> Bool {
        let k = lane[device]
        guard assemblers[k].feed(event) else { return false }
        if let transform = transforms[k] {
            // Into the device's own frame, whose storage is reused (no allocation per frame).
            transform.apply(assemblers[k].frame, surface: surfaces[k], into: &turned[k])
        }
        guard recognizes else { return true }
        // As if live: every other device's deadlines before this frame fire first, in time order.
        if drivers.count > 1 { fireDeadlines(before: assemblers[k].frame.time, emit: emit) }
        if transforms[k] != nil {
            drivers[k].feed(turned[k], emit: emit)
        } else {
            drivers[k].feed(assemblers[k].frame, emit: emit)
        }
        return true
    }

    /// The last frame a started device completed (rotated and calibrated when its settings say so).
    public func frame(of device: Int) -> TouchFrame {
        let k = lane[device]
        return transforms[k] != nil ? turned[k] : assemblers[k].frame
    }

    /// A started device's assembler (its geometry and counters), or nil before its first event.
    public func assembler(of device: Int) -> FrameAssembler? { isStarted(device) ? assemblers[lane[device]] : nil }

    /// End of input (or of the good input, before a bad line is reported): pending deadlines
    /// still fire and fingers still down are cancelled, so every `began` has its end.
    public mutating func finish(emit: (GestureEvent) -> Void) {
        guard recognizes else { return }
        if drivers.count > 1 { fireDeadlines(before: nil, emit: emit) }
        let order = drivers.indices.sorted { (drivers[$0].time ?? .zero, deviceOf[$0]) < (drivers[$1].time ?? .zero, deviceOf[$1]) }
        for index in order { drivers[index].finish(emit: emit) }
    }

    /// Fires the deadlines of all devices' graphs before `time` (all of them for nil) in time
    /// order, the earlier device first on a tie.
    mutating func fireDeadlines(before time: Timestamp?, emit: (GestureEvent) -> Void) {
        while true {
            var earliest: (index: Int, time: Timestamp)?
            for index in drivers.indices {
                guard let d = drivers[index].graph.nextDeadline, time.map({ d < $0 }) ?? true else { continue }
                // Started order is not device order: a tie goes to the lower device index.
                if earliest.map({ (d, deviceOf[index]) < ($0.time, deviceOf[$0.index]) }) ?? true { earliest = (index, d) }
            }
            guard let earliest else { return }
            drivers[earliest.index].advance(to: earliest.time, emit: emit)
        }
    }
}
