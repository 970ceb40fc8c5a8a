// A source that plays a script on a virtual clock: the host-side stand-in for devices in the
// session's tests (and for embedders that want the live path without a kernel). Each step has
// its time; `wait` either fires the session's deadline, when it comes before the next step, or
// delivers the next step, moving the clock to whichever came first. Nothing sleeps.
import TouchlineCore

public struct ScriptedSource: LiveSource {
    enum Step {
        case add(device: Int, path: String, description: DeviceDescription)
        /// One read's worth: events up to and including a SYN_REPORT (one kernel frame).
        case events(device: Int, [InputEvent])
        case remove(device: Int)
        case hangup
        case stop
        /// Something outside the devices happens (a client's message on the socket).
        case perform(() throws -> Void)
        /// The source grabbed a device and made its pass-through clone.
        case cloned(device: Int, clone: any PassThroughClone)
    }

    public let clock: VirtualClock
    /// How late the timer wakes after a deadline (0: on time). Meanwhile input keeps coming
    /// and is delivered first, as an EventLoop on a busy machine reads the devices before it
    /// reports the deadline: the order the graphs see time in must not depend on it.
    public var timerDelay = Interval(microseconds: 0)
    var steps: [(time: Timestamp, step: Step)] = []
    var next = 0
    /// Pass-through as the evdev source does it, on the script's touches: a device the
    /// session asks to pass through gets the clone `makeClone` gives it once no contact is down
    /// (after a frame of its, or at once), and one asked to release is handed back likewise.
    /// nil: the source cannot (libinput's case): clones come only from `clone(_:to:at:)`.
    public var makeClone: ((Int) -> any PassThroughClone)?
    /// Every request the session made, in order.
    public private(set) var requests: [SourceRequest] = []
    /// Per device, the slots with a contact down (a tracking id) and BTN_TOUCH, as libevdev's
    /// state says after a read.
    var down: [Int: Set<Int32>] = [:]
    var slot: [Int: Int32] = [:]
    var touching: Set<Int> = []
    var awaitingGrab: Set<Int> = []
    var awaitingRelease: Set<Int> = []
    var clones: [Int: any PassThroughClone] = [:]
    /// Devices the session asked to close: their steps are not delivered any more.
    var closed: Set<Int> = []

    public init(clock: VirtualClock) { self.clock = clock }

    /// The time of the last step scripted (steps are played in the order written).
    var lastTime: Timestamp { steps.last?.time ?? clock.time }

    /// A device plugged in at `time` (default: at the start, before readiness).
    public mutating func add(_ device: Int, path: String, description: DeviceDescription, at time: Timestamp? = nil) {
        steps.append((time ?? lastTime, .add(device: device, path: path, description: description)))
    }

    /// Raw events of `device`, each read at its own time; a frame (up to its SYN_REPORT) is
    /// delivered at once, as one read(2) of the kernel's buffer delivers it.
    public mutating func events(_ device: Int, _ events: [InputEvent]) {
        var start = 0
        for (i, event) in events.enumerated() where i == events.count - 1 || (event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_REPORT) {
            steps.append((events[start].time, .events(device: device, Array(events[start...i]))))
            start = i + 1
        }
    }

    /// The device goes away at `time` (an unplug).
    public mutating func remove(_ device: Int, at time: Timestamp) { steps.append((time, .remove(device: device))) }

    /// SIGHUP at `time`.
    public mutating func hangup(at time: Timestamp) { steps.append((time, .hangup)) }

    /// Runs `body` at `time`, as the loop services the socket between frames (a client
    /// registers a target, or disconnects).
    public mutating func perform(at time: Timestamp, _ body: @escaping () throws -> Void) { steps.append((time, .perform(body))) }

    /// Device `device` is grabbed and passed through to `clone` at `time` (the evdev source
    /// does it when no contact is down; docs/live.md#pass-through).
    public mutating func clone(_ device: Int, to clone: any PassThroughClone, at time: Timestamp) { steps.append((time, .cloned(device: device, clone: clone))) }

    /// SIGTERM at `time`.
    public mutating func stop(at time: Timestamp) { steps.append((time, .stop)) }

    public mutating func start(_ deliver: (SourceEvent) throws -> Void) throws {
        while next < steps.count, case .add(let device, let path, let description) = steps[next].step, steps[next].time <= clock.time {
            next += 1
            try deliver(.added(device: device, path: path, description: description))
        }
    }

    /// After the last step: the pending deadlines fire at their times, then `.exhausted` (a
    /// real device gone quiet would wait for ever; a test wants the session back).
    public mutating func wait(deadline: Timestamp?, _ deliver: (SourceEvent) throws -> Void) throws -> SourceWake {
        guard next < steps.count else {
            guard let deadline else { return .exhausted }
            clock.advance(to: deadline + timerDelay)
            return .deadline(deadline)
        }
        let (time, step) = steps[next]
        // A frame stamped at the deadline was read before the timer fired, as on a device (and
        // with a late timer, one stamped before it woke).
        if let deadline, deadline + timerDelay < time {
            clock.advance(to: deadline + timerDelay)
            return .deadline(deadline)
        }
        next += 1
        clock.advance(to: time)
        switch step {
        case .add(let device, let path, let description):
            try deliver(.added(device: device, path: path, description: description))
        case .events(let device, let events):
            guard !closed.contains(device) else { break }
            for event in events {
                track(device, event)
                try deliver(.input(device: device, event))
            }
            try grabOrRelease(device, deliver)
        case .remove(let device):
            guard !closed.contains(device) else { break }
            awaitingGrab.remove(device)
            awaitingRelease.remove(device)
            clones[device] = nil
            try deliver(.removed(device: device, at: time))
        case .hangup:
            return .hangup
        case .stop:
            return .stop
        case .perform(let body):
            try body()
        case .cloned(let device, let clone):
            try deliver(.cloned(device: device, clone: clone))
        }
        return .input
    }
}

extension ScriptedSource {
    public var grabs: Bool { makeClone != nil }

    public mutating func request(_ request: SourceRequest, _ deliver: (SourceEvent) throws -> Void) throws {
        requests.append(request)
        switch request {
        case .passThrough(let device):
            guard makeClone != nil, !closed.contains(device) else { return }
            if awaitingRelease.remove(device) != nil || clones[device] != nil { return }
            awaitingGrab.insert(device)
            try grabOrRelease(device, deliver)
        case .release(let device):
            guard makeClone != nil else { return try deliver(.releasable(device: device)) }
            awaitingGrab.remove(device)
            guard clones[device] != nil else { return }
            awaitingRelease.insert(device)
            try grabOrRelease(device, deliver)
        case .close(let device):
            closed.insert(device)
            awaitingGrab.remove(device)
            awaitingRelease.remove(device)
            clones[device] = nil
            try deliver(.removed(device: device, at: clock.now()))
        }
    }

    /// What the evdev source does after a read: a pending grab or release happens when no
    /// contact is down.
    mutating func grabOrRelease(_ device: Int, _ deliver: (SourceEvent) throws -> Void) throws {
        guard (down[device] ?? []).isEmpty && !touching.contains(device) else { return }
        if awaitingGrab.remove(device) != nil, let makeClone {
            let clone = makeClone(device)
            clones[device] = clone
            try deliver(.cloned(device: device, clone: clone))
        }
        if awaitingRelease.remove(device) != nil {
            clones[device] = nil
            try deliver(.releasable(device: device))
        }
    }

    /// libevdev's contact state: slots with a tracking id, and BTN_TOUCH.
    mutating func track(_ device: Int, _ event: InputEvent) {
        switch (event.type, event.code) {
        case (EventCodes.EV_ABS, EventCodes.ABS_MT_SLOT):
            slot[device] = event.value
        case (EventCodes.EV_ABS, EventCodes.ABS_MT_TRACKING_ID):
            let s = slot[device] ?? 0
            if event.value >= 0 { down[device, default: []].insert(s) } else { down[device]?.remove(s) }
        case (EventCodes.EV_KEY, EventCodes.BTN_TOUCH):
            if event.value != 0 { touching.insert(device) } else { touching.remove(device) }
        default:
            break
        }
    }
}
