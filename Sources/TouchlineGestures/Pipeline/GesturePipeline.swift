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
/// sink takes what it makes (`PipelineSink`). A source read to its end goes through the one
/// loop, `run`; a live source, which delivers when it wakes, hands each event to `take` (the
/// loop's body) and calls `advance` at `nextDeadline`:
///
///     var pipeline = GesturePipeline(configuration: .default)
///     try pipeline.run(&source, into: &sink)
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
    public private(set) var drivers: [GraphDriver] = []
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
    /// The pass-through stage (docs/live.md#pass-through): per device passed through, its
    /// planner, which hears its graph's decisions after every step; its hold bounds and join
    /// windows are deadlines in the pipeline's one order (`nextDeadline`). Empty: no device is
    /// passed through, and the frame path pays one test a frame. A device joins it with
    /// `startPassThrough` and leaves with `finishPassThrough` (or its `finish`).
    public var passThrough: PassThroughSet

    public init(
        configuration: GraphConfiguration = .default, assemblerOptions: FrameAssembler.Options = .init(),
        recognizes: Bool = true, explain: Bool = false, relativeTime: Bool = false, passThrough: PassThroughSet = PassThroughSet()
    ) {
        self.passThrough = passThrough
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
        var driver: GraphDriver?
        if recognizes {
            driver = try GraphDriver(configuration: settings?.graphConfiguration ?? configuration, surface: surface)
            driver?.graph.explain = explain
        }
        start(device: device, assembler: assembler, transform: transform, surface: surface, driver: driver)
        return assembler.warnings
    }

    /// Starts `device` with what its owner built: its assembler, transform (nil: none), the
    /// surface its graph sees, and its graph (nil exactly when the pipeline does not
    /// recognize). The live session builds them itself (registered targets join its graphs).
    public mutating func start(device: Int, assembler: FrameAssembler, transform: DeviceTransform?, surface: Size, driver: GraphDriver?) {
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

    // MARK: The loop

    /// Runs `source` to its end into `sink`: the one loop from raw events to every output
    /// (`touchline replay` with its frames, explain lines and pass-through clone, `plot`,
    /// `inspect`, score's and tune's recordings, `calibrate`, the fuzzer, the benchmarks). Each
    /// event is `timed`, handed to `sink.input`, its device started at its first event (the
    /// source says how, or that it is skipped), then `take`n; at the end (or before a read
    /// error is thrown) `finish`. A live session has no loop of its own either: its source
    /// delivers when it wakes, and each event goes to `take` as here.
    ///
    /// Inlinable, so that the caller's source and sink are specialized into it: it runs once
    /// per raw event (250,000 for the 20 MB trace).
    @inlinable
    public mutating func run<Source: PipelineSource, Sink: PipelineSink>(_ source: inout Source, into sink: inout Sink) throws {
        // Read once: a stored flag is loaded again after every step (the pipeline changes in
        // the loop), and this runs per event.
        let relative = relativeTime
        do {
            while let (device, read) = try source.next() {
                let event = relative ? timed(read) : read
                sink.input(device: device, event)
                if !isStarted(device) {
                    guard try source.start(device: device, in: &self) else { continue }
                    sink.started(device: device, self)
                }
                take(device: device, event, into: &sink)
            }
        } catch {
            // What was read is recognized to its end, also before a bad line is reported.
            finish(into: &sink)
            throw error
        }
        finish(into: &sink)
    }

    /// One event of a started device (already `timed`) through every stage into `sink`: with a
    /// device passed through, the hold bounds and graph deadlines before its frame in time
    /// order (at its `SYN_REPORT`); the assembler; when that completes a frame, the transform,
    /// the graph (gesture events to `sink.event`), the device's pass-through planner (clone
    /// frames to `sink.clone`), then `sink.frame`; the planners' hold reports last. Returns
    /// true when it completed a frame. The step `run` takes per event, and the one a live
    /// session takes as its source delivers.
    @discardableResult
    public mutating func take<Sink: PipelineSink>(device: Int, _ event: InputEvent, into sink: inout Sink) -> Bool {
        if passThrough.count > 0 && event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_REPORT {
            fireDeadlines(before: event.time, into: &sink)
        }
        let completed = feed(device: device, event, into: &sink)
        if completed { sink.frame(device: device, self) }
        if passThrough.hasReports { drainHolds(into: &sink) }
        return completed
    }

    // MARK: Input

    /// Feeds one event of a started device (already `timed`). Returns true when it completed a
    /// frame, `frame(of: device)`, which has then gone through the device's graph (and its
    /// pass-through planner), after every device's deadlines before it. `take` is the whole
    /// step; this is its assembling and recognizing.
    @discardableResult
    public mutating func feed<Sink: PipelineSink>(device: Int, _ event: InputEvent, into sink: inout Sink) -> Bool {
        let k = lane[device]
        guard assemblers[k].feed(event) else { return false }
        recognize(k, into: &sink)
        return true
    }

    /// `feed` with gesture events to `emit` (a device passed through writes no clone here).
    @discardableResult
    public mutating func feed(device: Int, _ event: InputEvent, emit: (GestureEvent) -> Void) -> Bool {
        emitting(emit) { $0.feed(device: device, event, into: &$1) }
    }

    /// Feeds one frame of a started device, as its assembler would have made it (a touch
    /// script's, a recording's): transformed, then recognized after every device's deadlines
    /// before it. (`frame(of:)` stays the assembler's, which made none.)
    public mutating func feed<Sink: PipelineSink>(device: Int, frame: TouchFrame, into sink: inout Sink) {
        let k = lane[device]
        guard recognizes else { return }
        if let transform = transforms[k] { transform.apply(frame, surface: surfaces[k], into: &turned[k]) }
        if drivers.count > 1 || passThrough.count > 0 { fireDeadlines(before: frame.time, into: &sink) }
        drivers[k].feed(transforms[k] != nil ? turned[k] : frame) { sink.event($0) }
        if passThrough.count > 0 { plan(k, frame, into: &sink) }
    }

    public mutating func feed(device: Int, frame: TouchFrame, emit: (GestureEvent) -> Void) {
        emitting(emit) { $0.feed(device: device, frame: frame, into: &$1) }
    }

    /// Lane `k`'s assembled frame through its transform, its graph and its planner.
    private mutating func recognize<Sink: PipelineSink>(_ k: Int, into sink: inout Sink) {
        if let transform = transforms[k] {
            // Into the device's own frame, whose storage is reused (no allocation per frame).
            transform.apply(assemblers[k].frame, surface: surfaces[k], into: &turned[k])
        }
        guard recognizes else { return }
        // Every other device's deadlines (and every planner's) before this frame fire first,
        // in time order.
        if drivers.count > 1 || passThrough.count > 0 { fireDeadlines(before: assemblers[k].frame.time, into: &sink) }
        if transforms[k] != nil {
            drivers[k].feed(turned[k]) { sink.event($0) }
        } else {
            drivers[k].feed(assemblers[k].frame) { sink.event($0) }
        }
        // The clone is the device: its planner takes the frame as assembled.
        if passThrough.count > 0 { plan(k, assemblers[k].frame, into: &sink) }
    }

    /// Lane `k`'s planner (if its device is passed through) takes `frame`, which its graph has
    /// processed, and hears what the arena told.
    private mutating func plan<Sink: PipelineSink>(_ k: Int, _ frame: TouchFrame, into sink: inout Sink) {
        let device = deviceOf[k]
        guard passThrough.isStarted(device) else { return }
        passThrough.frame(device: device, frame, graph: drivers[k].graph) { sink.clone(device: $0, $1) }
    }

    /// Runs `body` with a sink that hands gesture events to `emit` (the closure forms).
    private mutating func emitting<R>(_ emit: (GestureEvent) -> Void, _ body: (inout GesturePipeline, inout GestureEventSink) -> R) -> R {
        withoutActuallyEscaping(emit) { emit in
            var sink = GestureEventSink(emit)
            return body(&self, &sink)
        }
    }

    // MARK: Pass-through

    /// Passes `device` (started, recognized) through from its next frame: its planner, with the
    /// clone's `slotCount` slots, reads its graph.
    public mutating func startPassThrough(device: Int, slotCount: Int) {
        guard let graph = graph(of: device) else { return }
        passThrough.start(device: device, graph: graph, slotCount: slotCount)
    }

    /// `device` is passed through no more (released, removed, stopped): contacts down on its
    /// clone lift at `time` (`sink.clone`), its reports go to `sink.hold`.
    public mutating func finishPassThrough<Sink: PipelineSink>(device: Int, at time: Timestamp, into sink: inout Sink) {
        guard passThrough.isStarted(device) else { return }
        passThrough.finish(device: device, at: time) { sink.clone(device: $0, $1) }
        if passThrough.hasReports { drainHolds(into: &sink) }
    }

    /// The planners' hold reports, in the order decided, to `sink.hold`.
    private mutating func drainHolds<Sink: PipelineSink>(into sink: inout Sink) {
        for (device, report) in passThrough.drainReports() { sink.hold(device: device, report) }
    }

    // MARK: Time

    /// The earliest deadline pending over every device, its graph's and its pass-through
    /// planner's (the pipeline's time; `inputTime` puts it on a live source's clock), nil when
    /// nothing waits for time. A driver (replay between frames, a live source's timer) calls
    /// `advance` when it comes.
    public var nextDeadline: Timestamp? {
        var earliest = passThrough.count > 0 ? passThrough.nextDeadline : nil
        for driver in drivers {
            guard let d = driver.graph.nextDeadline else { continue }
            if let e = earliest, e <= d { continue }
            earliest = d
        }
        return earliest
    }

    /// Moves time to `time` without a frame: every deadline up to it, this one included, fires
    /// in time order, each at its own timestamp (a live source's timer).
    public mutating func advance<Sink: PipelineSink>(to time: Timestamp, into sink: inout Sink) {
        fireDeadlines(through: time, into: &sink)
    }

    public mutating func advance(to time: Timestamp, emit: (GestureEvent) -> Void) {
        emitting(emit) { $0.advance(to: time, into: &$1) }
    }

    /// Every deadline before `time` (not at it) fires in time order: what `feed` does first.
    public mutating func advance<Sink: PipelineSink>(before time: Timestamp, into sink: inout Sink) {
        fireDeadlines(before: time, into: &sink)
    }

    /// Fires the deadlines of all devices' graphs (and planners) before `time` in time order,
    /// the lower device index first on a tie.
    mutating func fireDeadlines<Sink: PipelineSink>(before time: Timestamp, into sink: inout Sink) {
        if passThrough.count > 0 { return fireWithPlanners(until: time, through: false, into: &sink) }
        while let (k, d) = earliestDeadline(), d < time { drivers[k].advance(to: d) { sink.event($0) } }
    }

    /// The same up to and including `time` (all of them for nil).
    mutating func fireDeadlines<Sink: PipelineSink>(through time: Timestamp?, into sink: inout Sink) {
        if passThrough.count > 0 { return fireWithPlanners(until: time, through: true, into: &sink) }
        while let (k, d) = earliestDeadline(), time.map({ d <= $0 }) ?? true { drivers[k].advance(to: d) { sink.event($0) } }
    }

    /// With a device passed through, the graphs' deadlines and the planners' (hold bounds, join
    /// windows) are one order: at the earliest, the graphs due by then fire, then every planner
    /// hears its graph's arena and decides again at that time; until `time` (before it, or
    /// through it with `through`; nil: all).
    private mutating func fireWithPlanners<Sink: PipelineSink>(until time: Timestamp?, through: Bool, into sink: inout Sink) {
        while true {
            let graphs = earliestDeadline()?.1
            let planners = passThrough.nextDeadline
            var next = planners
            if let g = graphs, next.map({ g < $0 }) ?? true { next = g }
            guard let next else { return }
            if let time {
                if through { if next > time { return } } else if next >= time { return }
            }
            while let (k, d) = earliestDeadline(), d <= next { drivers[k].advance(to: d) { sink.event($0) } }
            for device in passThrough.planners.indices {
                guard passThrough.isStarted(device), isStarted(device) else { continue }
                passThrough.step(device: device, at: next, graph: drivers[lane[device]].graph) { sink.clone(device: $0, $1) }
            }
        }
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
    /// then gone through the device's graph and planner as any frame does.
    @discardableResult
    public mutating func cancelContacts<Sink: PipelineSink>(device: Int, at time: Timestamp, into sink: inout Sink) -> Bool {
        let k = lane[device]
        guard assemblers[k].cancelAll(at: time) else { return false }
        recognize(k, into: &sink)
        return true
    }

    @discardableResult
    public mutating func cancelContacts(device: Int, at time: Timestamp, emit: (GestureEvent) -> Void) -> Bool {
        emitting(emit) { $0.cancelContacts(device: device, at: time, into: &$1) }
    }

    /// Gives a started device a new graph (and transform: a reload may change them); the old
    /// graph finishes first, as at the end of input, and the device's planner reads the new
    /// one. The assembler stays: its slots and tracking ids are the device's state.
    public mutating func replaceGraph<Sink: PipelineSink>(device: Int, with driver: GraphDriver, transform: DeviceTransform?, surface: Size, into sink: inout Sink) {
        let k = lane[device]
        drivers[k].finish { sink.event($0) }
        var driver = driver
        driver.graph.device = device
        // `seq` is the device's, not the graph's: it goes on across a rebuild (a client's
        // target, a reload), strictly increasing for the device's life (issue 23: a client that
        // registered before the device appeared made it go 0, 0, 1, 2).
        driver.graph.seq = drivers[k].graph.seq
        drivers[k] = driver
        transforms[k] = transform
        surfaces[k] = surface
        passThrough.graphChanged(device: device, drivers[k].graph)
    }

    public mutating func replaceGraph(device: Int, with driver: GraphDriver, transform: DeviceTransform?, surface: Size, emit: (GestureEvent) -> Void) {
        emitting(emit) { $0.replaceGraph(device: device, with: driver, transform: transform, surface: surface, into: &$1) }
    }

    /// The end of one device's input (removed, stopped): its clone's contacts lift (if it is
    /// passed through), its pending deadlines fire, contacts still down in its graph are
    /// cancelled, and its lane is freed.
    public mutating func finish<Sink: PipelineSink>(device: Int, into sink: inout Sink) {
        let k = lane[device]
        finishPassThrough(device: device, at: drivers.indices.contains(k) ? drivers[k].time ?? .zero : .zero, into: &sink)
        if recognizes { drivers[k].finish { sink.event($0) } }
        lane[device] = -1
        deviceOf[k] = -1
        transforms[k] = nil
        freeLanes.append(k)
    }

    public mutating func finish(device: Int, emit: (GestureEvent) -> Void) {
        emitting(emit) { $0.finish(device: device, into: &$1) }
    }

    /// End of input (or of the good input, before a bad line is reported): pending deadlines
    /// (and hold bounds) still fire and fingers still down are cancelled, so every `began` has
    /// its end; then the clones' contacts still down lift. Each device finishes at its own
    /// last time, the earliest first, so the output stays in time order.
    public mutating func finish<Sink: PipelineSink>(into sink: inout Sink) {
        guard recognizes else { return }
        if drivers.count > 1 || passThrough.count > 0 { fireDeadlines(through: nil, into: &sink) }
        let order = drivers.indices.filter { deviceOf[$0] >= 0 }
            .sorted { (drivers[$0].time ?? .zero, deviceOf[$0]) < (drivers[$1].time ?? .zero, deviceOf[$1]) }
        for k in order { drivers[k].finish { sink.event($0) } }
        for device in passThrough.planners.indices where passThrough.isStarted(device) {
            passThrough.finish(device: device, at: .zero) { sink.clone(device: $0, $1) }
        }
        if passThrough.hasReports { drainHolds(into: &sink) }
    }

    public mutating func finish(emit: (GestureEvent) -> Void) {
        emitting(emit) { $0.finish(into: &$1) }
    }
}
