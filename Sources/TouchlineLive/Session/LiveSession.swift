// The live driver: a source's raw events in, frames and gesture events out, through the one
// multi-device driver replay runs (GesturePipeline: per device a FrameAssembler, its transform
// and a graph; one order in time across devices), so a live run prints what `touchline replay`
// of the same events prints by construction. The session never blocks and never reads the time
// on its own: its source waits (one EventLoop in production: devices, one timerfd at
// `nextDeadline`, a signalfd) and decides only when the pipeline is fed or advanced; its clock
// says when a stop came; its sink takes the output. What is live only stays here: device
// numbering and `[[device]]` matching, registered targets, reload, latency.
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineInput

public struct LiveSession {
    /// What the session writes.
    public enum Output: String, Sendable, CaseIterable {
        /// Gesture events (schema v1), as `touchline replay` prints them.
        case gestures
        /// Frames of contacts, as `touchline replay --frames` prints them.
        case frames
        /// Raw evdev events as the kernel delivered them (diagnostics, round-trip tests).
        case events
    }

    /// What the session knows about one open device.
    public struct Device: Sendable {
        public var path: String
        public var name: String
        /// The device's number in the output (0 for the first opened, as replay numbers a
        /// trace's devices).
        public var index: Int
    }

    public let output: Output
    public let sink: any LiveSink
    public let clock: any LiveClock
    /// What the owner configures (graph, device sections, explain…); set before `start`.
    public var settings = SessionSettings()
    /// What the session asks its owner for (a reload's configuration, udev properties).
    public var hooks = SessionHooks()
    /// Latency measured, when asked.
    public var latency = SessionLatency()
    /// What the event socket shares: registered targets and the viewers' count.
    public var clients = SessionClients()
    /// The open devices, their setups and numbering.
    var table: DeviceTable
    /// Per device, by output index: its frame assembler, transform and graph (frames only
    /// unless the output is gestures), and the one order in time across devices.
    var pipeline: GesturePipeline
    /// Devices passed through to a clone (LiveSession+PassThrough.swift).
    var passThrough = LivePassThroughState()

    /// Times relative to the first event, as `touchline record` and libinput record write them.
    public var relativeTime: Bool {
        get { pipeline.relativeTime }
        set { pipeline.relativeTime = newValue }
    }
    /// Open devices by the source's number.
    public var devices: [Int: Device] { table.devices }

    public init(output: Output = .gestures, options: FrameAssembler.Options = .init(), sink: any LiveSink, clock: any LiveClock) {
        self.output = output
        table = DeviceTable(options: options)
        self.sink = sink
        self.clock = clock
        // No report per contact: no one asks the daemon for them, and a device passed through
        // for months would keep one per touch (its counters and hold histogram are bounded).
        pipeline = GesturePipeline(assemblerOptions: options, recognizes: output == .gestures, passThrough: PassThroughSet(keepsReports: false))
    }

    // MARK: The loop

    /// Opens the source's devices (call before signalling readiness).
    public mutating func start(_ source: inout some LiveSource) throws {
        table.sourceNumbersDevices = source.numbersDevices
        table.sourceGrabs = source.grabs
        clients.share(settings, setups: table.setups)
        try source.start { try self.take($0) }
        try sendRequests(&source)
    }

    /// Runs until a stop (gestures in flight end as cancelled) or the end of the input.
    public mutating func run(_ source: inout some LiveSource) throws {
        // What the settings say now, in case they changed after `start` (a test's script).
        clients.share(settings, setups: table.setups)
        while true {
            try applyRegistrations()
            try applyClientTargets()
            followViewers()
            let wake = try source.wait(deadline: nextDeadline) { try self.take($0) }
            try sendRequests(&source)
            switch wake {
            case .input:
                continue
            case .hangup:
                try reload(&source)
            case .deadline(let deadline):
                try advance(to: deadline)
                serviceTimers(through: deadline)
            case .stop:
                try stopAll()
                return
            case .exhausted:
                return
            }
        }
    }

    /// One thing from the source.
    public mutating func take(_ event: SourceEvent) throws {
        switch event {
        case .input(let id, let event):
            // A source never sends input for a device it did not add; a script may.
            guard let device = table.devices[id] else { return }
            try handle(event, device: device)
        case .added(let id, let path, let description):
            table.devices[id] = try open(path: path, description: description, number: id)
        case .removed(let id, let time):
            passThrough.wanted.remove(id)
            guard let device = table.devices.removeValue(forKey: id) else { return }
            try removed(device, at: time)
        case .notice(let message):
            sink.warn(message)
        case .cloned(let id, let clone):
            cloned(id, clone)
        case .releasable(let id):
            try releasable(id)
        }
    }

    // MARK: Per-device processing

    /// A device starts: its settings, its assembler, its graph, and its output index; nil for a
    /// device its `[[device]]` section ignores.
    mutating func open(path: String, description: DeviceDescription, number: Int) throws -> Device? {
        let spec = deviceSpec(name: description.name, path: path)
        if spec?.ignore == true {
            sink.warn("\(path) (\(description.name)): ignored ([[device]] at line \(spec?.line ?? 0))")
            return nil
        }
        let index = table.index(for: number, isStarted: pipeline.isStarted)
        var options = table.options
        if let size = spec?.size { options.userSize = size }
        let assembler = FrameAssembler(device: description, options: options)
        for warning in assembler.warnings { sink.warn("\(path) (\(description.name)): \(warning)") }
        let setup = setup(spec, native: assembler.geometry.size, sizeApplied: true, default: settings.graphConfiguration)
        var built: BuiltGraph?
        if output == .gestures {
            do {
                built = try makeDriver(index, setup)
            } catch {
                // DaemonConfiguration.parse has already rejected an invalid file with its line:
                // this is a second line of defence.
                throw LiveError(.data, "\(settings.configPath ?? "the embedded graph configuration"): \(error.message)")
            }
        }
        pipeline.start(device: index, assembler: assembler, transform: setup.transform, surface: setup.surface, driver: built?.driver)
        table.nameHolds[index] = built?.names
        table.setups[index] = setup
        clients.share(settings, setups: table.setups)
        sink.deviceOpened(index, surface: setup.surface)
        sink.describeDevice(index, description, native: assembler.geometry.size)
        sink.viewDevice(index, surface: setup.surface, configuration: pipeline.graph(of: index)?.configuration ?? setup.configuration)
        // Asked of the source with the sections running now (a reload's, for a device plugged
        // in after it), once it has delivered.
        if output == .gestures, spec?.passthrough == true { wantPassThrough(number, true) }
        return Device(path: path, name: description.name, index: index)
    }

    /// A kernel time as the output writes it (relative to the first event with relativeTime).
    func outputTime(_ t: Timestamp) -> Timestamp { pipeline.pipelineTime(t) }

    /// One event from a device. Writes what it produces.
    mutating func handle(_ event: InputEvent, device: Device) throws {
        let kernelTime = event.time
        let event = pipeline.timed(event)
        // --measure: a frame's clock starts at its first event.
        latency.eventRead()
        if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_REPORT {
            latency.frameRead()
        }
        defer {
            if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_REPORT { latency.frameDone(since: kernelTime, clock: clock) }
        }
        switch output {
        case .gestures:
            // Every stage, pass-through's too, in the pipeline's step (the one `replay` runs).
            let completed = try stepping { pipeline, out in pipeline.take(device: device.index, event, into: &out) }
            // One load and a compare per frame while nobody views (docs/view.md).
            if completed, let viewTap = clients.viewTap, viewTap.viewers > 0 { try viewFrame(device.index) }
        case .frames:
            // The same step, frames only (RecordSession's sink writes them).
            var out = RecordOutput(gestures: nil, frames: sink)
            pipeline.take(device: device.index, event, into: &out)
            if let failure = out.failure { throw failure }
        case .events:
            try sink.rawEvent(event, deviceName: device.name)
        }
    }

    /// The earliest pending deadline over every device (its graph's and its pass-through
    /// planner's: the pipeline's one order) and every timed part (`hooks.timers`: the action
    /// runner's timeouts), on the source's clock (the kernel's): the one wait's.
    public var nextDeadline: Timestamp? {
        var next = pipeline.nextDeadline.map(pipeline.inputTime)
        for timer in hooks.timers {
            if let due = timer.nextDeadline, next.map({ due < $0 }) ?? true { next = due }
        }
        return next
    }

    /// The timed parts whose deadline the wait reached do what is due.
    func serviceTimers(through deadline: Timestamp) {
        for timer in hooks.timers where timer.nextDeadline.map({ $0 <= deadline }) ?? false { timer.service() }
    }

    /// Fires every device's deadlines due at `kernelTime`, in time order, each at its own
    /// timestamp (virtual time), as replay does between frames.
    public mutating func advance(to kernelTime: Timestamp) throws {
        let t = outputTime(kernelTime)
        try stepping { pipeline, out in pipeline.advance(to: t, into: &out) }
    }

    /// The device went away: in-flight contacts end as cancelled.
    mutating func removed(_ device: Device, at time: Timestamp) throws {
        sink.warn("\(device.path) (\(device.name)) was removed")
        try end(device.index, at: outputTime(time))
    }

    /// A device's contacts end as cancelled at `time` (output time), then its graph finishes,
    /// as replay ends a file: pending deadlines fire, contacts still down are cancelled.
    mutating func end(_ index: Int, at time: Timestamp) throws {
        guard pipeline.isStarted(index) else { return }
        switch output {
        case .gestures:
            // A clone's contacts end with the device's (lifted on the clone), then it goes.
            try stepping { pipeline, out in pipeline.cancelContacts(device: index, at: time, into: &out) }
            try endPassThrough(index, at: time)
            try stepping { pipeline, out in pipeline.finish(device: index, into: &out) }
        case .frames:
            if pipeline.cancelContacts(device: index, at: time, emit: { _ in }) { try sink.frame(pipeline.frame(of: index), device: index) }
            pipeline.finish(device: index, emit: { _ in })
        case .events:
            pipeline.finish(device: index, emit: { _ in })
        }
        table.setups[index] = nil
        clients.share(settings, setups: table.setups)
        // The graph finished: it emits nothing more (its lane keeps it until reused, unread).
        table.nameHolds[index] = nil
    }

    /// SIGINT/SIGTERM: what is in flight ends as cancelled, at the time the stop came.
    public mutating func stopAll() throws {
        let now = outputTime(clock.now())
        for device in table.devices.values.sorted(by: { $0.index < $1.index }) {
            try end(device.index, at: now)
        }
        table.devices = [:]
    }

    /// While a `touchline view` client is connected, the graphs make their decision lines for
    /// it (uncounted in `seq`: the other clients' lines stay as they were; SocketSink sends
    /// them to viewers only); once none is, they stop. Asked on every wake, before the source
    /// waits: a graph rebuilt meanwhile (a registration, a reload) is caught up before its
    /// next frame. With no viewer ever connected: two loads.
    mutating func followViewers() {
        guard let viewTap = clients.viewTap else { return }
        // Pass-through holds: reported while a viewer is there (drained as they come).
        if pipeline.passThrough.keepsReports != (viewTap.viewers > 0) { pipeline.passThrough.keepsReports = viewTap.viewers > 0 }
        guard !settings.explain else { return }
        let wanted = viewTap.viewers > 0
        guard wanted || clients.explainsForViewers else { return }
        pipeline.setExplain(wanted, counted: !wanted)
        clients.explainsForViewers = wanted
    }

    /// Device `index`'s last frame to the viewers: after its transform, and as assembled.
    func viewFrame(_ index: Int) throws {
        try sink.viewFrame(pipeline.frame(of: index), raw: pipeline.assembledFrame(of: index), device: index)
    }
}
