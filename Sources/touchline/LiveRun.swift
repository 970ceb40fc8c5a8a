// `touchline run [DEVICE…]`: live recognition. One thread, one wait (EventLoop): device
// descriptors, one timerfd at the earliest deadline, signals. The processing per device is the
// same code replay runs, so the output equals `touchline replay` of the same input.
import ArgumentParser
import TouchlineCore
import TouchlineGestures
import TouchlineInput

enum LiveBackend: String, ExpressibleByArgument, CaseIterable {
    case evdev
    case libinput
}

/// What `run` prints.
enum LiveOutput: String, ExpressibleByArgument, CaseIterable {
    /// Gesture events (schema v1), as `touchline replay` prints them.
    case gestures
    /// Frames of contacts, as `touchline replay --frames` prints them.
    case frames
    /// Raw evdev events as the kernel delivered them (diagnostics, round-trip tests).
    case events
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Recognize gestures on live devices; JSON Lines on standard output.",
        discussion: """
            Without DEVICE arguments, uses every touchscreen (see `touchline devices`); with the \
            libinput backend, follows the udev seat (hotplug). With explicit devices, exits when \
            the last one is removed. SIGINT/SIGTERM end in-flight gestures as cancelled and exit.
            """)

    @Argument(help: "Event nodes (/dev/input/eventN) to use.")
    var devices: [String] = []

    @Option(help: "Where input comes from: evdev (libevdev; pressure and touch size) or libinput (udev seat, hotplug, calibration; no pressure).")
    var backend: LiveBackend = .evdev

    @Flag(help: "Take the devices exclusively (EVIOCGRAB), so no other program sees their events.")
    var grab = false

    @Option(help: "What to print: \(LiveOutput.allCases.map(\.rawValue).joined(separator: ", ")).")
    var output: LiveOutput = .gestures

    @Option(help: "Write each SYN_REPORT's latency (kernel time to output written, µs) to this file, and a p50/p99 summary to standard error on exit.")
    var latency: String?

    @Option(help: "Create this file once the devices are open and being read (a readiness signal for scripts and `play --wait-for`).")
    var readyFile: String?

    @Option(help: "libinput udev seat (with no DEVICE arguments).")
    var seat = "seat0"

    @Flag(help: "Times relative to the first event read, as `touchline record` and libinput record write them, so that the output equals `touchline replay` of a recording made alongside.")
    var relativeTime = false

    @Flag(help: "Add a line per arena decision: which recognizer won or failed, and why.")
    var explain = false

    @Option(help: ArgumentHelp("A graph configuration (TOML; docs/config.md). Default: the embedded graph.", valueName: "file.toml"))
    var config: String?

    @OptionGroup var input: InputOptions

    func validate() throws {
        if output != .gestures && (explain || config != nil) {
            throw ValidationError("--explain and --config apply to --output gestures only")
        }
        if backend == .libinput && grab { throw ValidationError("--grab applies to the evdev backend (libinput grabs nothing)") }
    }

    func run() throws {
        try reportingErrors { try live() }
    }

    func live() throws {
        var graphConfiguration = GraphConfiguration.default
        if let config {
            do {
                graphConfiguration = try GraphConfiguration.parse(bytes: try readSmallFile(config), file: config)
            } catch let error as ConfigError {
                throw CLIError.data(error.description)
            }
        }
        var options = input.assemblerOptions
        // EvdevDevice hands on libevdev's resync deltas after a SYN_DROPPED (libinput resyncs
        // internally and never passes one on).
        options.dropRecovery = .syncEventsFollow
        var session = try LiveSession(output: output, latencyPath: latency, readyFile: readyFile, options: options)
        session.relativeTime = relativeTime
        session.graphConfiguration = graphConfiguration
        session.configPath = config
        session.explain = explain
        switch backend {
        case .evdev: try session.runEvdev(paths: devices, grab: grab)
        case .libinput: try session.runLibinput(paths: devices, seat: seat)
        }
        try session.finish()
    }
}

/// The processing shared by both backends: per device, events in → output lines out, the
/// earliest deadline, cancellation on removal, latency bookkeeping.
struct LiveSession {
    let output: LiveOutput
    let latencyFile: FileOutput?
    var latencies: [Int64] = []
    var line = JSONWriter()

    let readyFile: String?
    let options: FrameAssembler.Options
    /// Frame assemblers by output device index (0 for the first device opened, as replay
    /// numbers a trace's devices).
    var assemblers: [Int: FrameAssembler] = [:]
    var nextIndex = 0
    var relativeTime = false
    var graphConfiguration = GraphConfiguration.default
    /// The `--config` file, for messages.
    var configPath: String?
    var explain = false
    /// The recognizer graph per device, driven as replay drives it (ReplayDriver), with
    /// deadlines honoured by the one timerfd.
    var drivers: [Int: ReplayDriver] = [:]
    /// The first event's time: the origin of relative times.
    var origin: Timestamp?

    init(output: LiveOutput, latencyPath: String?, readyFile: String?, options: FrameAssembler.Options) throws {
        self.output = output
        self.readyFile = readyFile
        self.options = options
        self.latencyFile = try latencyPath.map { path throws(SystemError) in try FileOutput(creating: path) }
    }

    // MARK: Per-device processing

    /// A device starts: its assembler, its graph, and its output index.
    mutating func open(path: String, description: DeviceDescription) throws -> DeviceState {
        let index = nextIndex
        nextIndex += 1
        let assembler = FrameAssembler(device: description, options: options)
        for warning in assembler.warnings { warn("\(path) (\(description.name)): \(warning)") }
        assemblers[index] = assembler
        var driver = try makeDriver(graphConfiguration, surface: assembler.geometry.size, source: configPath)
        driver.graph.device = index
        driver.graph.explain = explain
        drivers[index] = driver
        return DeviceState(path: path, name: description.name, description: description, index: index)
    }

    /// A kernel time as the output writes it (relative to the first event with --relative-time).
    func outputTime(_ t: Timestamp) -> Timestamp {
        guard relativeTime else { return t }
        guard let origin else { return .zero }
        return Timestamp(microseconds: max(0, (t - origin).microseconds))
    }

    /// One event from a device. Writes what it produces.
    mutating func handle(_ event: InputEvent, device: DeviceState) throws {
        let kernelTime = event.time
        var event = event
        if relativeTime {
            let first = origin ?? event.time
            origin = first
            event.time = Timestamp(microseconds: max(0, (event.time - first).microseconds))
        }
        defer {
            if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_REPORT { recordLatency(since: kernelTime) }
        }
        switch output {
        case .gestures:
            guard assemblers[device.index]!.feed(event) else { return }
            let frame = assemblers[device.index]!.frame
            try withDriver(device.index) { driver, emit in driver.feed(frame, emit: emit) }
        case .frames:
            guard assemblers[device.index]!.feed(event) else { return }
            line.reset()
            assemblers[device.index]!.frame.writeJSON(device: device.index, into: &line)
            try FileOutput.standardOutput.write(line.bytes)
        case .events:
            line.reset()
            line.beginObject()
            line.field("time", event.time)
            line.field("device", device.name)
            line.field("type", EventCodes.typeName(event.type) ?? String(event.type))
            line.field("code", EventCodes.codeName(type: event.type, code: event.code) ?? String(event.code))
            line.field("value", Int(event.value))
            line.endObject()
            line.newline()
            try FileOutput.standardOutput.write(line.bytes)
        }
    }

    /// Runs `body` on a device's driver with an emit function that writes each gesture event
    /// as a JSON line. The driver is taken out of the dictionary meanwhile so that it is
    /// uniquely referenced (no copy of the graph per frame).
    mutating func withDriver(_ index: Int, _ body: (inout ReplayDriver, (GestureEvent) -> Void) -> Void) throws {
        guard var driver = drivers.removeValue(forKey: index) else { return }
        var failure: Error?
        var line = self.line
        body(&driver) { event in
            line.reset()
            event.writeJSON(into: &line)
            line.newline()
            if failure == nil {
                do { try FileOutput.standardOutput.write(line.bytes) } catch { failure = error }
            }
        }
        self.line = line
        drivers[index] = driver
        if let failure { throw failure }
    }

    /// The earliest pending deadline over every device, on the kernel's clock (the timerfd's).
    var nextDeadline: Timestamp? {
        guard output == .gestures else { return nil }
        var earliest: Timestamp?
        for driver in drivers.values {
            if let d = driver.graph.nextDeadline, earliest == nil || d < earliest! { earliest = d }
        }
        guard let earliest else { return nil }
        return relativeTime ? earliest + Interval(microseconds: (origin ?? .zero).microseconds) : earliest
    }

    /// Fires the deadlines due at `kernelTime`, each at its own timestamp (virtual time), as
    /// replay does between frames.
    mutating func advance(to kernelTime: Timestamp) throws {
        let t = outputTime(kernelTime)
        for index in drivers.keys.sorted() {
            while let d = drivers[index]!.graph.nextDeadline, d <= t {
                try withDriver(index) { driver, emit in driver.advance(to: d, emit: emit) }
            }
        }
    }

    /// The end of a device's input, as replay ends a file: pending deadlines fire, contacts
    /// still down are cancelled.
    mutating func finishGraph(_ index: Int) throws {
        guard output == .gestures else { return }
        try withDriver(index) { driver, emit in driver.finish(emit: emit) }
        drivers[index] = nil
    }

    /// The device went away: in-flight contacts end as cancelled.
    mutating func removed(_ device: DeviceState, at time: Timestamp) throws {
        warn("\(device.path) (\(device.name)) was removed")
        guard var assembler = assemblers.removeValue(forKey: device.index) else { return }
        if assembler.cancelAll(at: outputTime(time)) { try cancelled(assembler.frame, device: device.index) }
        try finishGraph(device.index)
    }

    /// A frame of cancelled contacts (removal, signal) goes where any frame goes.
    mutating func cancelled(_ frame: TouchFrame, device index: Int) throws {
        switch output {
        case .gestures:
            try withDriver(index) { driver, emit in driver.feed(frame, emit: emit) }
        case .frames:
            line.reset()
            frame.writeJSON(device: index, into: &line)
            try FileOutput.standardOutput.write(line.bytes)
        case .events:
            break
        }
    }

    /// SIGINT/SIGTERM: what is in flight ends as cancelled, at the time the signal came.
    mutating func stopAll(_ states: [DeviceState]) throws {
        let now = outputTime(EventLoop.now())
        for state in states.sorted(by: { $0.index < $1.index }) {
            guard var assembler = assemblers.removeValue(forKey: state.index) else { continue }
            if assembler.cancelAll(at: now) { try cancelled(assembler.frame, device: state.index) }
            try finishGraph(state.index)
        }
    }

    func signalReady() throws {
        guard let readyFile else { return }
        let f = try FileOutput(creating: readyFile)
        f.close()
    }

    mutating func recordLatency(since kernelTime: Timestamp) {
        guard latencyFile != nil else { return }
        latencies.append((EventLoop.now() - kernelTime).microseconds)
    }

    mutating func finish() throws {
        guard let latencyFile else { return }
        var text = ""
        for l in latencies { text += "\(l)\n" }
        try latencyFile.write(text)
        latencyFile.close()
        let sorted = latencies.sorted()
        func pct(_ p: Double) -> Int64 { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        try FileOutput.standardError.write("latency: \(sorted.count) frames, p50 \(pct(0.50)) µs, p99 \(pct(0.99)) µs, max \(sorted.last ?? 0) µs\n")
    }

    // MARK: evdev backend

    mutating func runEvdev(paths: [String], grab: Bool) throws {
        let loop = try EventLoop()
        var open: [UInt64: (EvdevDevice, DeviceState)] = [:]
        var nextToken: UInt64 = 0
        let explicit = !paths.isEmpty
        // Without named devices: every touchscreen now, and the ones plugged in later (an
        // inotify watch on /dev/input; udev is not needed).
        let watcher = explicit ? nil : try DeviceDirectoryWatcher()
        let watcherToken: UInt64 = 1 << 40
        if let watcher { try loop.watch(watcher.fileDescriptor, token: watcherToken) }
        func add(_ path: String, _ device: EvdevDevice, _ session: inout LiveSession) throws {
            let state = try session.open(path: path, description: device.description)
            open[nextToken] = (device, state)
            try loop.watch(device.fileDescriptor, token: nextToken)
            nextToken += 1
        }
        if explicit {
            for path in paths {
                let device = try EvdevDevice(path: path, grab: grab)
                let verdict = DeviceVerdict(for: device.description)
                if verdict != .used {
                    warn("warning: \(path) (\(device.description.name)) is \(verdict); using it as asked")
                }
                try add(path, device, &self)
            }
        } else {
            for path in DeviceDirectory.eventNodes() where DeviceProbe.probe(path: path).verdict.isUsed {
                try add(path, try EvdevDevice(path: path, grab: grab), &self)
            }
            if open.isEmpty { warn("no touchscreen yet (see `touchline devices`); waiting for one to be plugged in") }
        }
        /// A node that appeared (or whose permissions udev just changed): used when it is a
        /// touchscreen that is not open yet.
        func hotplug(_ session: inout LiveSession) throws {
            guard let watcher else { return }
            for path in Set(try watcher.changedNodes()).sorted() {
                if open.values.contains(where: { $0.1.path == path }) { continue }
                guard DeviceProbe.probe(path: path).verdict.isUsed else { continue }
                do {
                    try add(path, try EvdevDevice(path: path, grab: grab), &session)
                    warn("using \(path) (hotplug)")
                } catch let error as SystemError {
                    // Gone again, or not yet readable: udev's IN_ATTRIB brings it back.
                    warn("\(error)")
                }
            }
        }
        try signalReady()
        // Events already read are processed before a deadline at or after their time fires.
        func drain(_ token: UInt64, _ session: inout LiveSession) throws {
            guard let (device, state) = open[token] else { return }
            var failure: Error?
            let status = try device.readAvailable { event in
                if failure != nil { return }
                do { try session.handle(event, device: state) } catch { failure = error }
            }
            if let failure { throw failure }
            if status == .gone {
                if device.droppedCount > 0 {
                    warn("\(device.path): the kernel dropped events \(device.droppedCount) time(s) (SYN_DROPPED: this reader fell behind); libevdev resynced")
                }
                loop.unwatch(device.fileDescriptor)
                open[token] = nil
                try session.removed(state, at: EventLoop.now())
            }
        }
        while !explicit || !open.isEmpty {
            try loop.setDeadline(nextDeadline)
            switch try loop.wait() {
            case .readable(watcherToken):
                try hotplug(&self)
            case .readable(let token):
                try drain(token, &self)
            case .deadline(let deadline):
                for token in open.keys.sorted() { try drain(token, &self) }
                try advance(to: deadline)
            case .signal(let signo):
                // SIGHUP has no config to reload here; SIGINT/SIGTERM end the run.
                if signo == 1 { continue }
                try stopAll(open.values.map { $0.1 })
                return
            }
        }
    }

    mutating func runLibinput(paths: [String], seat: String) throws {
        let loop = try EventLoop()
        let source = paths.isEmpty ? try LibinputSource(seat: seat) : try LibinputSource(paths: paths)
        try loop.watch(source.fileDescriptor, token: 0)
        if source.monitorDescriptor >= 0 { try loop.watch(source.monitorDescriptor, token: 1) }
        var states: [Int: DeviceState] = [:]
        var batch: [LibinputSource.Event] = []
        var sawDevice = false
        func pump(_ session: inout LiveSession) throws {
            batch.removeAll(keepingCapacity: true)
            try source.dispatch { batch.append($0) }
            for event in batch {
                switch event {
                case .added(let id, let path, let description):
                    sawDevice = true
                    states[id] = try session.open(path: path, description: description)
                    try FileOutput.standardError.write("touchline: using \(path) (\(description.name)) through libinput\n")
                case .removed(let id, let time):
                    if let state = states.removeValue(forKey: id) { try session.removed(state, at: time) }
                case .input(let id, let event):
                    if let state = states[id] { try session.handle(event, device: state) }
                }
            }
        }
        try pump(&self)
        if !paths.isEmpty && states.isEmpty {
            throw CLIError.noInput("libinput found no touch device in \(paths.joined(separator: " "))")
        }
        try signalReady()
        while true {
            // Explicit devices: the run ends with the last of them. The seat: it waits for hotplug.
            if !paths.isEmpty && sawDevice && states.isEmpty { return }
            try loop.setDeadline(nextDeadline)
            switch try loop.wait() {
            case .readable:
                try pump(&self)
            case .deadline(let deadline):
                try pump(&self)
                try advance(to: deadline)
            case .signal(let signo):
                if signo == 1 { continue }
                try stopAll(Array(states.values))
                return
            }
        }
    }
}

/// What the session knows about one open device.
struct DeviceState {
    var path: String
    var name: String
    var description: DeviceDescription
    /// The device's number in the output.
    var index: Int
}
