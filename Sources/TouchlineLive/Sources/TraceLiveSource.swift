// A recording as live input (`touchline daemon --source trace:FILE`): each SYN_REPORT frame is
// delivered when its offset from the first event, divided by the speed, has passed since the
// start (plus a start delay so that clients can connect), on the same EventLoop as the devices
// (timerfd, signalfd, the event socket). Events keep the trace's own times, so the recognizers
// decide exactly as `touchline replay` of the file does; only the moment they are written is
// real time. After the last frame, once pending deadlines have fired (at their scaled time) and
// nothing else is busy (the daemon's running actions), the wait says `.stop` and the daemon
// exits 0; with `stopsAtEnd` false (`daemon --stay`) the source goes quiet instead, as a device
// nobody touches, until a signal.
import TouchlineCore
import TouchlineInput

public struct TraceLiveSource: LiveSource {
    /// The next event of the trace (device index, event), or nil at its end.
    public typealias Next = () throws -> (Int, InputEvent)?
    /// A trace device's description, once its first event was read.
    public typealias Describe = (Int) -> DeviceDescription?

    let loop: EventLoop
    let next: Next
    let describe: Describe
    let name: String
    let speed: Double
    let startDelay: Interval
    public let clock: TraceClock
    /// The trace's device indices, as replay prints them.
    public var numbersDevices: Bool { true }
    var added: Set<Int> = []
    /// The frame read ahead: its events, up to and including its SYN_REPORT.
    var frame: [(Int, InputEvent)] = []
    var frameTime: Timestamp?
    var ended = false
    static let serviceToken: UInt64 = 1
    /// Watched descriptors' callbacks (the socket, the actions' runner), by token - serviceToken.
    var services: [() throws -> Void] = []
    /// Whether the end of the trace stops the session (see above).
    public var stopsAtEnd = true
    /// Whether something beside the input is still at work (the daemon's running actions): the
    /// end waits for it, woken by its watched descriptor.
    public var busy: () -> Bool = { false }
    /// Told once, when the trace has played to its end and the wait says `.stop` for it (a
    /// signal's stop is not told): the daemon then lets clients take what is queued for them.
    public var playedToEnd: () -> Void = {}
    /// Per device as it is added (its path and description): the pass-through clone it has, if
    /// any (`daemon --dry-run`'s PassThroughLog): delivered as `.cloned` right after `.added`.
    public var passThrough: ((String, DeviceDescription) -> (any PassThroughClone)?)?

    /// `speed` > 0 (2: twice as fast); `startDelay` before the first frame.
    public init(name: String, speed: Double, startDelay: Interval, next: @escaping Next, describe: @escaping Describe) throws {
        loop = try EventLoop()
        self.name = name
        self.speed = speed
        self.startDelay = startDelay
        self.next = next
        self.describe = describe
        clock = TraceClock(speed: speed)
    }

    /// Watches `fd` beside the trace's timer (as EvdevLiveSource.watch).
    public mutating func watch(_ fd: Int32, onReadable: @escaping () throws -> Void) throws {
        // Each its own token: one shared token would call the last callback for every fd.
        try loop.watch(fd, token: Self.serviceToken + UInt64(services.count))
        services.append(onReadable)
    }

    public mutating func start(_ deliver: (SourceEvent) throws -> Void) throws {
        try readFrame()
        clock.start = EventLoop.now() + startDelay
        clock.origin = frameTime ?? .zero
    }

    /// Reads up to the next SYN_REPORT (a trace that ends without one delivers what it has).
    mutating func readFrame() throws {
        frame.removeAll(keepingCapacity: true)
        frameTime = nil
        while !ended {
            guard let (device, event) = try next() else {
                ended = true
                break
            }
            frame.append((device, event))
            if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_REPORT { break }
        }
        if let last = frame.last { frameTime = last.1.time }
    }

    public mutating func wait(deadline: Timestamp?, _ deliver: (SourceEvent) throws -> Void) throws -> SourceWake {
        if stopsAtEnd && ended && frameTime == nil && deadline == nil && !busy() {
            try deliver(.notice("\(name): played to its end; stopping (--stay keeps serving)"))
            playedToEnd()
            return .stop
        }
        // The frame first when it is due no later than the deadline: replay processes a frame
        // before a deadline at its time (the graph fires earlier deadlines itself).
        var due: Timestamp? = frameTime
        if let deadline, due.map({ deadline < $0 }) ?? true { due = deadline }
        try loop.setDeadline(due.map(clock.realTime))
        switch try loop.wait() {
        case .readable(let token):
            if token >= Self.serviceToken, token - Self.serviceToken < UInt64(services.count) {
                try services[Int(token - Self.serviceToken)]()
            }
            return .input
        case .signal(let signo):
            return signo == 1 ? .hangup : .stop
        case .deadline:
            guard let due else { return .input }
            if let frameTime, due == frameTime {
                try deliverFrame(deliver)
                try readFrame()
                return .input
            }
            clock.reached(due)
            return .deadline(due)
        }
    }

    mutating func deliverFrame(_ deliver: (SourceEvent) throws -> Void) throws {
        for (device, event) in frame {
            if !added.contains(device) {
                guard let description = describe(device) else { continue }
                added.insert(device)
                let path = "\(name) device \(device)"
                try deliver(.added(device: device, path: path, description: description))
                if let clone = passThrough?(path, description) { try deliver(.cloned(device: device, clone: clone)) }
            }
            // SYN_DROPPED in a recording describes the recording machine's buffer, not input.
            if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_DROPPED { continue }
            try deliver(.input(device: device, event))
        }
        if let frameTime { clock.reached(frameTime) }
    }
}

/// The trace's time, running at `speed` from the moment the first frame is due: what a stop's
/// cancellation is stamped with. Never earlier than the last time delivered.
public final class TraceClock: LiveClock {
    let speed: Double
    /// When the first frame is due (CLOCK_MONOTONIC), and its trace time.
    var start = Timestamp.zero
    var origin = Timestamp.zero
    var latest = Timestamp.zero

    init(speed: Double) { self.speed = speed }

    public func now() -> Timestamp {
        let elapsed = Double((EventLoop.now() - start).microseconds) * speed
        let t = Timestamp(microseconds: saturatingSum(origin.microseconds, elapsed))
        return t > latest ? t : latest
    }

    func reached(_ t: Timestamp) { if t > latest { latest = t } }

    /// When trace time `t` is due on CLOCK_MONOTONIC.
    func realTime(_ t: Timestamp) -> Timestamp {
        let offset = Double(max(0, (t - origin).microseconds)) / speed
        return Timestamp(microseconds: saturatingSum(start.microseconds, offset))
    }
}

/// `base + offset` microseconds, `offset` (≥ 0 in use) held within a quarter of Int64's range
/// and the sum saturating, so that no speed or clock reading can reach the trap of a Double
/// beyond Int64 or of an overflowing addition: a far future is only "never".
func saturatingSum(_ base: Int64, _ offset: Double) -> Int64 {
    let limit = Double(Int64.max / 4)
    let clamped = offset.isNaN ? 0 : Int64(min(max(offset, 0), limit))
    let (sum, overflow) = base.addingReportingOverflow(clamped)
    return overflow ? Int64.max : sum
}
