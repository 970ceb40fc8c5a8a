import TouchlineCore

// What every recognizer sees and says. The graph turns each frame into one `GroupSample` per
// target (the contacts on that target, their centroid, and how they moved since the previous
// frame) and feeds it to the target's recognizers as named inputs. A recognizer answers with one
// action; it never decides another recognizer's fate (principle 6): the arena does.

/// The contacts of one target in one frame. Deltas are measured over the contacts present in
/// both this frame and the previous one, so a finger landing or lifting does not make the
/// centroid, span or angle jump, and sums of deltas do not depend on the frame rate.
public struct GroupSample: Hashable, Sendable {
    public var time: Timestamp
    // The counts are stored in 16 bits (a graph tracks at most 32 contacts) to keep a sample,
    // and an input holding one, within 128 bytes: larger values are copied by a call to
    // memcpy at every hand-over, smaller ones by a few moves (docs/performance.md).
    private var presentCount: Int16 = 0, remainingCount: Int16 = 0, beganCount: Int16 = 0
    private var endedCount: Int16 = 0, cancelledCount: Int16 = 0
    /// Contacts in this frame on the target (lifting ones included).
    public var present: Int { get { Int(presentCount) } set { presentCount = Int16(clamping: newValue) } }
    /// Contacts still down after this frame.
    public var remaining: Int { get { Int(remainingCount) } set { remainingCount = Int16(clamping: newValue) } }
    public var began: Int { get { Int(beganCount) } set { beganCount = Int16(clamping: newValue) } }
    public var ended: Int { get { Int(endedCount) } set { endedCount = Int16(clamping: newValue) } }
    public var cancelled: Int { get { Int(cancelledCount) } set { cancelledCount = Int16(clamping: newValue) } }
    /// Centroid of the present contacts, mm.
    public var centroid = Point.zero
    /// 2 × mean distance of the present contacts from their centroid, mm.
    public var span = 0.0
    /// Mean motion of the contacts present in both frames, mm.
    public var translationDelta = Vector.zero
    /// Change of span over the contacts present in both frames, mm (0 with fewer than two).
    public var spanDelta = 0.0
    /// Span now / span before over the contacts present in both frames (1 with fewer than two).
    public var spanRatio = 1.0
    /// Mean turn of the common contacts about their centroid, radians, clockwise positive.
    public var rotationDelta = 0.0
    /// Farthest any present contact is from where it went down, mm.
    public var maxTravel = 0.0
    /// Time since the previous frame on this target (0 for the first).
    public var elapsed = Interval.zero

    public init(time: Timestamp) { self.time = time }
}

/// The named inputs of every recognizer's state machine.
public enum RecognizerInput: Sendable, CustomStringConvertible {
    /// One or more contacts went down on the target in this frame.
    case contactDown(GroupSample)
    /// Contacts on the target moved in this frame.
    case contactsMoved(GroupSample)
    /// One or more contacts lifted in this frame (`remaining` says how many are still down).
    case contactLifted(GroupSample)
    /// One or more contacts were cancelled (SYN_DROPPED resync, device gone, end of input).
    case contactCancelled(GroupSample)
    /// The recognizer's published deadline passed.
    case deadlineReached(Timestamp)
    /// The arena accepted the recognizer's claim.
    case accepted(Timestamp)
    /// The arena rejected the recognizer (another won, or its blocker won, or it was swept).
    case rejected(Timestamp)

    public var name: StaticString {
        switch self {
        case .contactDown: return "contactDown"
        case .contactsMoved: return "contactsMoved"
        case .contactLifted: return "contactLifted"
        case .contactCancelled: return "contactCancelled"
        case .deadlineReached: return "deadlineReached"
        case .accepted: return "accepted"
        case .rejected: return "rejected"
        }
    }
    public var description: String { name.description }

    public var time: Timestamp {
        switch self {
        case let .contactDown(s), let .contactsMoved(s), let .contactLifted(s), let .contactCancelled(s): return s.time
        case let .deadlineReached(t), let .accepted(t), let .rejected(t): return t
        }
    }
}

/// An event a recognizer wants out; the graph adds seq, time, device, target and contacts.
public struct Emission: Hashable, Sendable {
    public var phase: GesturePhase
    public var fingers: Int
    public var position: Point
    public var detail: GestureDetail
    public init(_ phase: GesturePhase, fingers: Int, position: Point, detail: GestureDetail) {
        self.phase = phase
        self.fingers = fingers
        self.position = position
        self.detail = detail
    }
}

/// What a recognizer answers to an input. Returned, never performed by the recognizer.
public enum RecognizerAction: Sendable {
    /// Nothing to say.
    case none
    /// It wants to win the arena, for this reason.
    case claim(Reason)
    /// It gives up, for this reason.
    case fail(Reason)
    /// Keep the arena open after the last lift (waiting for a next tap).
    case hold
    /// An event, only valid once accepted.
    case emit(Emission)
    /// A last event, then the recognizer is done for this arena. `alsoEnded`: the event is a
    /// `began`, and the same event follows as `ended` (the gesture was won after its contacts
    /// lifted). A flag rather than a second emission keeps an action within 128 bytes, which
    /// is copied without a call to memcpy.
    case finish(Emission, alsoEnded: Bool)
    /// The state machine had no transition for this input: our bug. The graph reports it and
    /// resets the recognizer.
    case impossible(state: StaticString, input: StaticString)

    public var name: StaticString {
        switch self {
        case .none: return "none"
        case .claim: return "claim"
        case .fail: return "fail"
        case .hold: return "hold"
        case .emit: return "emit"
        case .finish: return "finish"
        case .impossible: return "impossible"
        }
    }
}

/// Velocity from the last `window` of samples of a cumulative quantity (translation, scale,
/// rotation): the difference between the newest sample and the oldest one inside the window,
/// over their time difference, as Flutter's VelocityTracker looks at the last 100 ms. The
/// samples live inline (no heap). A steady motion gives the same velocity at 60, 120 or 240 Hz,
/// and a finger that rested longer than the window before lifting lifts at velocity 0.
public struct VelocityEstimator: Hashable, Sendable {
    static let capacity = 8
    typealias Lanes<T> = (T, T, T, T, T, T, T, T)
    // Newest first: element 0 is the newest sample, element k the one k steps older; a new
    // sample shifts them by one. Plain scalars in tuples: a ring in SIMD8 vectors indexed by a
    // variable, or vector compares to find the window, compiled to hundreds of instructions
    // per `rate` (10–27 % of a frame: docs/performance.md).
    var times: Lanes<Int64> = (0, 0, 0, 0, 0, 0, 0, 0)
    var xs: Lanes<Double> = (0, 0, 0, 0, 0, 0, 0, 0)
    var ys: Lanes<Double> = (0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    /// No sample is older than the one before it (times never went back), so when the oldest
    /// is inside the window, all are.
    var ordered = true
    public let window: Interval

    public init(window: Interval) { self.window = window }

    /// Records the cumulative values at `time`.
    public mutating func add(_ time: Timestamp, _ x: Double, _ y: Double = 0) {
        if count > 0 && times.0 == time.microseconds {
            xs.0 = x
            ys.0 = y
            return
        }
        if count > 0 && time.microseconds < times.0 { ordered = false }
        times = (time.microseconds, times.0, times.1, times.2, times.3, times.4, times.5, times.6)
        xs = (x, xs.0, xs.1, xs.2, xs.3, xs.4, xs.5, xs.6)
        ys = (y, ys.0, ys.1, ys.2, ys.3, ys.4, ys.5, ys.6)
        if count < VelocityEstimator.capacity { count += 1 }
    }

    /// Rates per second at `now`: between the newest sample and the oldest one within the
    /// window, but at least one step back from the newest.
    @inline(__always) public func rate(at now: Timestamp) -> (Double, Double) {
        guard count >= 2 else { return (0, 0) }
        let now = now.microseconds
        let window = window.microseconds
        if now &- times.0 > window { return (0, 0) }
        // The steady state: every sample recorded and inside the window (a walk back would
        // stop at the oldest).
        if ordered && count == VelocityEstimator.capacity && now &- times.7 <= window {
            return rate(since: (times.7, xs.7, ys.7))
        }
        // Walk back from the second newest while the next older sample exists and is inside
        // the window: bit k-2 says sample k may be taken, and the walk stops at the first
        // clear bit. Computed without branches, then one jump (a chain of branches cost more).
        // `bit` captures only constants: a nested function that assigned to a captured
        // variable boxed it on the heap in debug builds, which the allocation test caught.
        func bit(_ k: Int, _ t: Int64) -> UInt8 { (k < count && now &- t <= window) ? 1 << UInt8(k - 2) : 0 }
        let taken = bit(2, times.2) | bit(3, times.3) | bit(4, times.4) | bit(5, times.5) | bit(6, times.6) | bit(7, times.7)
        let oldest: (t: Int64, x: Double, y: Double)
        switch (~taken).trailingZeroBitCount {
        case 0: oldest = (times.1, xs.1, ys.1)
        case 1: oldest = (times.2, xs.2, ys.2)
        case 2: oldest = (times.3, xs.3, ys.3)
        case 3: oldest = (times.4, xs.4, ys.4)
        case 4: oldest = (times.5, xs.5, ys.5)
        case 5: oldest = (times.6, xs.6, ys.6)
        default: oldest = (times.7, xs.7, ys.7)
        }
        return rate(since: oldest)
    }

    /// From `oldest` to the newest sample, per second.
    @inline(__always) private func rate(since oldest: (t: Int64, x: Double, y: Double)) -> (Double, Double) {
        let dt = times.0 &- oldest.t
        guard dt > 0 else { return (0, 0) }
        // One division for both rates (divisions are long, and on every frame's path).
        let perSecond = 1_000_000 / Double(dt)
        return ((xs.0 - oldest.x) * perSecond, (ys.0 - oldest.y) * perSecond)
    }

    public static func == (a: VelocityEstimator, b: VelocityEstimator) -> Bool {
        guard a.count == b.count, a.window == b.window else { return false }
        for k in 0..<a.count where a.sample(k) != b.sample(k) { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(window)
        for k in 0..<count {
            let (t, x, y) = sample(k)
            hasher.combine(t)
            hasher.combine(x)
            hasher.combine(y)
        }
    }

    /// Sample `k` steps back from the newest (for equality and hashing; not on a frame's path).
    func sample(_ k: Int) -> (Int64, Double, Double) {
        withUnsafeBytes(of: times) { t in
            withUnsafeBytes(of: xs) { x in
                withUnsafeBytes(of: ys) { y in
                    (t.load(fromByteOffset: k * 8, as: Int64.self), x.load(fromByteOffset: k * 8, as: Double.self), y.load(fromByteOffset: k * 8, as: Double.self))
                }
            }
        }
    }
}

extension VelocityEstimator {
    /// An estimator whose first sample is `x`, `y` at `time` (where a gesture starts).
    static func starting(at time: Timestamp, _ x: Double = 0, _ y: Double = 0, window: Interval) -> VelocityEstimator {
        var e = VelocityEstimator(window: window)
        e.add(time, x, y)
        return e
    }
}
