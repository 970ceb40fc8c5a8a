import TouchlineCore

/// The one multi-device driver: raw events (or frames) of one or more devices in, gesture
/// events out. Per device a frame assembler, its `[[device]]` transform and a graph; across
/// devices one order in time: before a frame, every device's deadlines that fall before it
/// fire, earliest first, the lower device index first on a tie, and a deadline at a frame's
/// exact time fires after it (GestureGraph.process). `touchline replay`, `plot`, `inspect`,
/// the live session (`run`, `daemon`), `record --gestures-output`, the test harness and the
/// fuzz targets all drive this one type, so a live run orders events as the replay of its
/// recording does by construction: a live source only decides *when* `feed` and `advance` are
/// called, never in which order the graphs see time.
///
/// Pure: it reads no clock. A source feeds it (a trace reader, evdev, libinput, a script); a
/// sink takes what `emit` receives.
///
///     var pipeline = GesturePipeline(configuration: .default)
///     while let e = try reader.next() {
///         let event = pipeline.timed(e.event)
///         if !pipeline.isStarted(e.device) { _ = try pipeline.start(device: e.device, reader.devices[e.device]) }
///         pipeline.feed(device: e.device, event, emit: sink)
///     }
///     pipeline.finish(emit: sink)
public struct GesturePipeline: Sendable {
    public let configuration: GraphConfiguration
    public let assemblerOptions: FrameAssembler.Options
    /// Frames only: no graph is built and `feed` emits nothing (`replay --frames`, `inspect`).
    public let recognizes: Bool
    /// Whether the graphs `start` builds emit a line per arena decision.
    public let explain: Bool
    /// Times count from the input's first event (of any device), as `touchline record` and
    /// libinput record write them (`--relative-time`): `timed` shifts each event. Set before
    /// the first event.
    public var relativeTime: Bool
    /// The input's first event time, once `timed` has seen one (with `relativeTime`).
    public private(set) var origin: Timestamp?
    /// Per lane (a started device's slot, in the order they started; a finished device's slot
    /// is reused): its assembler and graph.
    public private(set) var assemblers: [FrameAssembler] = []
    public private(set) var drivers: [ReplayDriver] = []
    /// For each device index, its lane, or -1 while the device is not started: a trace may
    /// describe thousands of devices that send nothing. Visible to `isStarted`'s inlined body
    /// only.
    @usableFromInline internal private(set) var lane: [Int] = []
    /// The device index of each lane; -1 for a free lane.
    private var deviceOf: [Int] = []
    /// Lanes freed by `finish(device:)` (a removed device), reused first.
    private var freeLanes: [Int] = []
    /// Per lane: the `[[device]]` rotation and calibration (nil: none, the frame goes to the
    /// graph as assembled), the surface its graph sees, and its turned frame.
    private var transforms: [DeviceTransform?] = []
    private var surfaces: [Size] = []
    private var turned: [TouchFrame] = []

    public init(
        configuration: GraphConfiguration = .default, assemblerOptions: FrameAssembler.Options = .init(),
        recognizes: Bool = true, explain: Bool = false, relativeTime: Bool = false
    ) {
        self.configuration = configuration
        self.assemblerOptions = assemblerOptions
        self.recognizes = recognizes
        self.explain = explain
        self.relativeTime = relativeTime
    }

    // MARK: Devices

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
        var options = assemblerOptions
        if let size = settings?.size { options.userSize = size }
        let assembler = FrameAssembler(device: description, options: options)
        let transform = settings?.transform
        let surface = transform?.surface(assembler.geometry.size) ?? assembler.geometry.size
        var driver: ReplayDriver?
        if recognizes {
            driver = try ReplayDriver(configuration: settings?.graphConfiguration ?? configuration, surface: surface)
            driver?.graph.explain = explain
        }
        start(device: device, assembler: assembler, transform: transform, surface: surface, driver: driver)
        return assembler.warnings
    }

    /// Starts `device` with what its owner built: its assembler, transform (nil: none), the
    /// surface its graph sees, and its graph (nil exactly when the pipeline does not
    /// recognize). The live session builds them itself (registered targets join its graphs).
    public mutating func start(device: Int, assembler: FrameAssembler, transform: DeviceTransform?, surface: Size, driver: ReplayDriver?) {
        precondition(device >= 0 && !isStarted(device), "device \(device) is started already")
        precondition((driver != nil) == recognizes, "a graph is given exactly when the pipeline recognizes")
        if lane.count <= device { lane += repeatElement(-1, count: device + 1 - lane.count) }
        var driver = driver
        driver?.graph.device = device
        if let k = freeLanes.popLast() {
            // A finished device's lane: its graph has nothing pending (finish), so reusing it
            // changes no order.
            lane[device] = k
            deviceOf[k] = device
            assemblers[k] = assembler
            if let driver { drivers[k] = driver }
            transforms[k] = transform
            surfaces[k] = surface
            return
        }
        lane[device] = assemblers.count
        deviceOf.append(device)
        assemblers.append(assembler)
        if let driver { drivers.append(driver) }
        transforms.append(transform)
        surfaces.append(surface)
        turned.append(TouchFrame(time: .zero))
    }

    /// The started devices, in lane order (no allocation: asked on every wake of a live loop).
    public var startedDevices: LazyFilterSequence<[Int]> { deviceOf.lazy.filter { $0 >= 0 } }

    /// A started device's assembler (its geometry and counters), or nil before its first event.
    public func assembler(of device: Int) -> FrameAssembler? { isStarted(device) ? assemblers[lane[device]] : nil }

    /// A started device's graph, or nil (not started, or frames only).
    public func graph(of device: Int) -> GestureGraph? { isStarted(device) && recognizes ? drivers[lane[device]].graph : nil }

    /// The last frame a started device completed (rotated and calibrated when its settings say so).
    public func frame(of device: Int) -> TouchFrame {
        let k = lane[device]
        return transforms[k] != nil ? turned[k] : assemblers[k].frame
    }

    /// The last frame a started device's assembler completed, before any transform: the
    /// device's own view, which a pass-through clone repeats (PassThrough.swift).
    public func assembledFrame(of device: Int) -> TouchFrame { assemblers[lane[device]].frame }

    /// Turns every started graph's decision lines on or off (`touchline view` following the
    /// daemon, docs/view.md); `counted`: whether they take a seq of their own.
    public mutating func setExplain(_ on: Bool, counted: Bool) {
        for k in drivers.indices where drivers[k].graph.explain != on || drivers[k].graph.explainCountsInSeq != counted {
            drivers[k].graph.explain = on
            drivers[k].graph.explainCountsInSeq = counted
        }
    }

    // MARK: Input

    /// `event` at the time the pipeline processes it: relative to the input's first event with
    /// `relativeTime` (the first call sets the origin), else as read. Every event of the input
    /// goes through here first, those of devices not fed too, so that the origin is the
    /// input's first event whatever device sent it.
    @inlinable public mutating func timed(_ event: InputEvent) -> InputEvent {
        guard relativeTime else { return event }
        var event = event
        event.time = relative(event.time)
        return event
    }

    @usableFromInline mutating func relative(_ time: Timestamp) -> Timestamp {
        let first = origin ?? time
        origin = first
        return Timestamp(microseconds: max(0, (time - first).microseconds))
    }

    /// A time on the input's clock (a live clock's) as the pipeline's: shifted as `timed`
    /// shifts events, 0 before the first event.
    public func pipelineTime(_ inputTime: Timestamp) -> Timestamp {
        guard relativeTime else { return inputTime }
        guard let origin else { return .zero }
        return Timestamp(microseconds: max(0, (inputTime - origin).microseconds))
    }

    /// A time of the pipeline's (a deadline) on the input's clock, where a live source waits.
    public func inputTime(_ time: Timestamp) -> Timestamp {
        relativeTime ? time + Interval(microseconds: (origin ?? .zero).microseconds) : time
    }

    /// Feeds one event of a started device (already `timed`). Returns true when it completed a
    /// frame, `frame(of: device)`, which has then gone through the device's graph, after every
    /// device's deadlines before it.
    @discardableResult
    public mutating func feed(device: Int, _ event: InputEvent, emit: (GestureEvent) -> Void) -> Bool {
        let k = lane[device]
        guard assemblers[k].feed(event) else { return false }
        recognize(k, emit: emit)
        return true
    }

    /// Feeds one frame of a started device, as its assembler would have made it (a touch
    /// script's): transformed, then recognized after every device's deadlines before it.
    /// (`frame(of:)` stays the assembler's, which made none.)
    public mutating func feed(device: Int, frame: TouchFrame, emit: (GestureEvent) -> Void) {
        let k = lane[device]
        guard recognizes else { return }
        if let transform = transforms[k] { transform.apply(frame, surface: surfaces[k], into: &turned[k]) }
        if drivers.count > 1 { fireDeadlines(before: frame.time, emit: emit) }
        drivers[k].feed(transforms[k] != nil ? turned[k] : frame, emit: emit)
    }

    /// Lane `k`'s assembled frame through its transform and graph.
    private mutating func recognize(_ k: Int, emit: (GestureEvent) -> Void) {
        if let transform = transforms[k] {
            // Into the device's own frame, whose storage is reused (no allocation per frame).
            transform.apply(assemblers[k].frame, surface: surfaces[k], into: &turned[k])
        }
        guard recognizes else { return }
        // Every other device's deadlines before this frame fire first, in time order.
        if drivers.count > 1 { fireDeadlines(before: assemblers[k].frame.time, emit: emit) }
        if transforms[k] != nil {
            drivers[k].feed(turned[k], emit: emit)
        } else {
            drivers[k].feed(assemblers[k].frame, emit: emit)
        }
    }

    // MARK: Time

    /// The earliest deadline pending over every device (the pipeline's time; `inputTime` puts
    /// it on a live source's clock), nil when nothing waits for time.
    public var nextDeadline: Timestamp? {
        var earliest: Timestamp?
        for driver in drivers {
            guard let d = driver.graph.nextDeadline else { continue }
            if let e = earliest, e <= d { continue }
            earliest = d
        }
        return earliest
    }

    /// Moves time to `time` without a frame: every device's deadlines up to it, this one
    /// included, fire in time order, each at its own timestamp (a live source's timer).
    public mutating func advance(to time: Timestamp, emit: (GestureEvent) -> Void) {
        fireDeadlines(through: time, emit: emit)
    }

    /// Fires the deadlines of all devices' graphs before `time` in time order, the lower device
    /// index first on a tie.
    mutating func fireDeadlines(before time: Timestamp, emit: (GestureEvent) -> Void) {
        while let (k, d) = earliestDeadline(), d < time { drivers[k].advance(to: d, emit: emit) }
    }

    /// The same up to and including `time` (all of them for nil).
    mutating func fireDeadlines(through time: Timestamp?, emit: (GestureEvent) -> Void) {
        while let (k, d) = earliestDeadline(), time.map({ d <= $0 }) ?? true { drivers[k].advance(to: d, emit: emit) }
    }

    /// The lane whose graph's deadline comes first, and that deadline; a tie goes to the lower
    /// device index (lanes are in starting order, not device order).
    private func earliestDeadline() -> (Int, Timestamp)? {
        var earliest: (lane: Int, time: Timestamp)?
        for k in drivers.indices {
            guard let d = drivers[k].graph.nextDeadline else { continue }
            if earliest.map({ (d, deviceOf[k]) < ($0.time, deviceOf[$0.lane]) }) ?? true { earliest = (k, d) }
        }
        return earliest
    }

    // MARK: Ends

    /// Ends a started device's contacts as cancelled at `time` (pipeline time: a removal, a
    /// stop, a reload). Returns true when that made a frame, `frame(of: device)`, which has
    /// then gone through the device's graph as any frame does.
    @discardableResult
    public mutating func cancelContacts(device: Int, at time: Timestamp, emit: (GestureEvent) -> Void) -> Bool {
        let k = lane[device]
        guard assemblers[k].cancelAll(at: time) else { return false }
        recognize(k, emit: emit)
        return true
    }

    /// Gives a started device a new graph (and transform: a reload may change them); the old
    /// graph finishes first, as at the end of input. The assembler stays: its slots and
    /// tracking ids are the device's state.
    public mutating func replaceGraph(device: Int, with driver: ReplayDriver, transform: DeviceTransform?, surface: Size, emit: (GestureEvent) -> Void) {
        let k = lane[device]
        drivers[k].finish(emit: emit)
        var driver = driver
        driver.graph.device = device
        // `seq` is the device's, not the graph's: it goes on across a rebuild (a client's
        // target, a reload), strictly increasing for the device's life (issue 23: a client that
        // registered before the device appeared made it go 0, 0, 1, 2).
        driver.graph.seq = drivers[k].graph.seq
        drivers[k] = driver
        transforms[k] = transform
        surfaces[k] = surface
    }

    /// The end of one device's input (removed, stopped): its pending deadlines fire, contacts
    /// still down in its graph are cancelled, and its lane is freed.
    public mutating func finish(device: Int, emit: (GestureEvent) -> Void) {
        let k = lane[device]
        if recognizes { drivers[k].finish(emit: emit) }
        lane[device] = -1
        deviceOf[k] = -1
        transforms[k] = nil
        freeLanes.append(k)
    }

    /// End of input (or of the good input, before a bad line is reported): pending deadlines
    /// still fire and fingers still down are cancelled, so every `began` has its end. Each
    /// device finishes at its own last time, the earliest first, so the output stays in time
    /// order.
    public mutating func finish(emit: (GestureEvent) -> Void) {
        guard recognizes else { return }
        if drivers.count > 1 { fireDeadlines(through: nil, emit: emit) }
        let order = drivers.indices.filter { deviceOf[$0] >= 0 }
            .sorted { (drivers[$0].time ?? .zero, deviceOf[$0]) < (drivers[$1].time ?? .zero, deviceOf[$1]) }
        for k in order { drivers[k].finish(emit: emit) }
    }
}
