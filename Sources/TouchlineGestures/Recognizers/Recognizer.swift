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
    // The counts are stored in 32 bits (a graph tracks at most 32 contacts) to keep a sample,
    // and an input holding one, within 128 bytes: larger values are copied by a call to
    // memcpy at every hand-over, smaller ones by a few moves (docs/performance.md). The graph
    // writes them directly; the setters below clamp.
    var presentCount: Int32 = 0, remainingCount: Int32 = 0, beganCount: Int32 = 0
    var endedCount: Int32 = 0, cancelledCount: Int32 = 0
    // Pressure and contact size, in 16 bits each, fill the 4 bytes of padding after the counts
    // (the sample does not grow). Written only in a graph with a kind that `readsForce`
    // (docs/gestures.md#peek): the default graph pays one test a frame for them.
    var pressureLevel = ContactForce.absent, sizeLevel = ContactForce.absent
    /// The highest pressure of the present contacts, normalized 0…1 per device (the frame
    /// assembler's, from absinfo); nil when the device reports none or the graph reads none.
    public var pressure: Double? {
        get { ContactForce.pressure(pressureLevel) }
        set { pressureLevel = ContactForce.pressureLevel(newValue) }
    }
    /// The largest touch major of the present contacts in mm (kernel: ABS_MT_TOUCH_MAJOR, in
    /// the position axes' units, so the device's resolution makes it mm), to 0.01 mm; nil when
    /// the device reports none or the graph reads none.
    public var touchMajor: Double? {
        get { ContactForce.size(sizeLevel) }
        set { sizeLevel = ContactForce.sizeLevel(newValue) }
    }
    /// Contacts in this frame on the target (lifting ones included).
    public var present: Int { get { Int(presentCount) } set { presentCount = Int32(clamping: newValue) } }
    /// Contacts still down after this frame.
    public var remaining: Int { get { Int(remainingCount) } set { remainingCount = Int32(clamping: newValue) } }
    public var began: Int { get { Int(beganCount) } set { beganCount = Int32(clamping: newValue) } }
    public var ended: Int { get { Int(endedCount) } set { endedCount = Int32(clamping: newValue) } }
    public var cancelled: Int { get { Int(cancelledCount) } set { cancelledCount = Int32(clamping: newValue) } }
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
    /// Measured only for a kind that `readsRotation` (or on a frame where a contact lands or
    /// lifts); 0 otherwise.
    public var rotationDelta = 0.0
    /// Farthest any present contact is from where it went down, mm.
    public var maxTravel = 0.0
    /// Time since the previous frame on this target (0 for the first).
    public var elapsed = Interval.zero

    public init(time: Timestamp) { self.time = time }

    /// Every field at once (the graph's two-contact sample: each field written once).
    @inline(__always) init(
        time: Timestamp, present: Int32, remaining: Int32, ended: Int32, cancelled: Int32, centroid: Point, span: Double,
        translationDelta: Vector, spanDelta: Double, spanRatio: Double, rotationDelta: Double, maxTravel: Double, elapsed: Interval
    ) {
        self.time = time
        presentCount = present
        remainingCount = remaining
        endedCount = ended
        cancelledCount = cancelled
        self.centroid = centroid
        self.span = span
        self.translationDelta = translationDelta
        self.spanDelta = spanDelta
        self.spanRatio = spanRatio
        self.rotationDelta = rotationDelta
        self.maxTravel = maxTravel
        self.elapsed = elapsed
    }
}

/// The named inputs of every recognizer's state machine.
public enum RecognizerInput: Sendable, CustomStringConvertible {
    /// One or more contacts went down on the target in this frame. Also the first input of a
    /// new round (docs/gestures.md#finger-count-changes): then `present` counts every contact
    /// down and `began` only those that landed in this frame, so `began < present`.
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

/// What the carry tells its carrier (docs/gestures.md#carrying): inputs about other targets,
/// which no contact of the carrier's own target says.
public enum CarryInput: Sendable {
    /// The answer to `locate`: the drop target (one of the recognizer's `dropTargets`) under
    /// the point, nil when none is; `from`, the carrier's own target (its first item).
    case over(GestureName?, from: GestureName, Timestamp)
    /// A contact the carry captured (it landed on a draggable target `target` while carrying)
    /// lifted after `held`, `travel` mm from where it landed.
    case captureLifted(target: GestureName, held: Interval, travel: Double, at: Timestamp)

    public var time: Timestamp {
        switch self {
        case let .over(_, _, t), let .captureLifted(_, _, _, t): return t
        }
    }
    public var name: StaticString {
        switch self {
        case .over: return "over"
        case .captureLifted: return "captureLifted"
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
    /// A won gesture's contacts changed in number to `count`, outside the `minimum…maximum`
    /// fingers it takes, while some stay down: its last event (`ended`, with the fingers it had),
    /// then it is done for this arena, and once nothing owns those contacts a new round opens
    /// for them (docs/gestures.md#finger-count-changes). The counts, not a `Reason`, keep the
    /// action within 128 bytes (at most 32 contacts: they fit a byte).
    case endByCount(Emission, count: UInt8, minimum: UInt8, maximum: UInt8)
    /// The state machine had no transition for this input: our bug. The graph reports it and
    /// resets the recognizer.
    case impossible(state: StaticString, input: StaticString)
    /// A won carrier (a kind with `carries`, a drag) is at `point` now: the graph makes it the
    /// carry if none is active, hit-tests the point among the other targets, tells the
    /// hovered target's hover recognizers, and answers with `carried(.over(…))` at once
    /// (docs/gestures.md#carrying). Asked only by a carrier, so a graph without one never
    /// hit-tests after a contact's landing.
    case locate(Point)

    public var name: StaticString {
        switch self {
        case .none: return "none"
        case .claim: return "claim"
        case .fail: return "fail"
        case .hold: return "hold"
        case .emit: return "emit"
        case .finish: return "finish"
        case .endByCount: return "endByCount"
        case .impossible: return "impossible"
        case .locate: return "locate"
        }
    }
}

/// Velocity from the last `window` of samples of a cumulative quantity (translation, scale,
/// rotation): the difference between the newest sample and the oldest one inside the window,
/// over their time difference, as Flutter's VelocityTracker looks at the last 100 ms. The
/// samples live inline (no heap). A steady motion gives the same velocity at 60, 120 or 240 Hz,
/// and a finger that rested longer than the window before lifting lifts at velocity 0.
public struct VelocityEstimator: BitwiseCopyable, Hashable, Sendable {
    static let capacity = 8
    struct Sample: BitwiseCopyable, Hashable, Sendable {
        var t: Int64
        var x: Double
        var y: Double
    }
    // A ring of samples, inline and indexed in place: a new sample writes one slot (shifting
    // every sample by one moved 24 values per sample, three estimators a frame), and reading a
    // slot through a copy of a tuple copied all 192 bytes first (docs/performance.md); so did a
    // read of the InlineArray passed borrowed, hence `rate` reads it through its span. A ring
    // in SIMD8 vectors indexed by a variable compiled to hundreds of instructions per `rate`.
    // Every index is taken `& 7`, so it is in 0..<8 and the optimizer drops the bounds check.
    var ring = InlineArray<8, Sample>(repeating: Sample(t: 0, x: 0, y: 0))
    /// The slot of the newest sample; the one k steps older is at `(newest - k) & 7`.
    var newest = 0
    var count = 0
    /// No sample is older than the one before it (times never went back), so when the oldest
    /// is inside the window, all are.
    var ordered = true
    public let window: Interval

    public init(window: Interval) { self.window = window }

    /// Sample `k` steps back from the newest (k < count); off the per-frame path.
    func sample(_ k: Int) -> (Int64, Double, Double) {
        let s = ring[(newest &- k) & 7]
        return (s.t, s.x, s.y)
    }

    /// Records the cumulative values at `time`.
    public mutating func add(_ time: Timestamp, _ x: Double, _ y: Double = 0) {
        _ = record(time, x, y)
    }

    /// Records the cumulative values at `time` and returns the rates at that time (every
    /// continuous gesture does this on every frame): the new sample written in place, then the
    /// rate read from the ring.
    @inline(__always) public mutating func record(_ time: Timestamp, _ x: Double, _ y: Double = 0) -> (Double, Double) {
        let t = time.microseconds
        let window = window.microseconds
        var slot = newest & 7, count = self.count, ordered = self.ordered
        if count > 0 {
            let last = ring[slot].t
            if last == t {
                ring[slot].x = x
                ring[slot].y = y
            } else {
                if t < last { ordered = false }
                slot = (slot &+ 1) & 7
                ring[slot] = Sample(t: t, x: x, y: y)
                if count < VelocityEstimator.capacity { count &+= 1 }
            }
        } else {
            ring[slot] = Sample(t: t, x: x, y: y)
            count = 1
        }
        let rates = VelocityEstimator.rate(ring.span, newest: slot, count: count, ordered: ordered, at: t, window: window)
        newest = slot
        self.count = count
        self.ordered = ordered
        return rates
    }

    /// Rates per second at `now`: between the newest sample and the oldest one within the
    /// window, but at least one step back from the newest.
    public func rate(at now: Timestamp) -> (Double, Double) {
        VelocityEstimator.rate(ring.span, newest: newest, count: count, ordered: ordered, at: now.microseconds, window: window.microseconds)
    }

    /// The ring is read through a span: a slot read from the `InlineArray` itself, even
    /// borrowed, copied all 192 bytes first (a `memcpy` per read, three reads per estimator and
    /// three estimators a frame: 270 instructions of a default graph's 1,730, docs/performance.md).
    @inline(__always) private static func rate(
        _ ring: Span<Sample>, newest: Int, count: Int, ordered: Bool, at now: Int64, window: Int64
    ) -> (Double, Double) {
        guard count >= 2 else { return (0, 0) }
        let latest = ring[newest & 7]
        if now &- latest.t > window { return (0, 0) }
        // The steady state: every sample inside the window (a walk back would stop at the
        // oldest).
        // (No `&&` reads the ring: its right side is a closure, which cannot borrow it.)
        var k = count &- 1
        var walk = !ordered
        if !walk { walk = now &- ring[(newest &- k) & 7].t > window }
        if walk {
            // Walk back from the second newest while the next older sample exists and is
            // inside the window.
            k = 1
            while k &+ 1 < count {
                guard now &- ring[(newest &- k &- 1) & 7].t <= window else { break }
                k &+= 1
            }
        }
        let oldest = ring[(newest &- k) & 7]
        let dt = latest.t &- oldest.t
        guard dt > 0 else { return (0, 0) }
        // One division for both rates (divisions are long, and on every frame's path).
        let perSecond = 1_000_000 / Double(dt)
        return ((latest.x - oldest.x) * perSecond, (latest.y - oldest.y) * perSecond)
    }

    public static func == (a: VelocityEstimator, b: VelocityEstimator) -> Bool {
        guard a.count == b.count, a.window == b.window, a.ordered == b.ordered else { return false }
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
}

extension VelocityEstimator {
    /// An estimator whose first sample is `x`, `y` at `time` (where a gesture starts).
    static func starting(at time: Timestamp, _ x: Double = 0, _ y: Double = 0, window: Interval) -> VelocityEstimator {
        var e = VelocityEstimator(window: window)
        e.add(time, x, y)
        return e
    }
}
