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
    /// Contacts in this frame on the target (lifting ones included).
    public var present = 0
    /// Contacts still down after this frame.
    public var remaining = 0
    public var began = 0
    public var ended = 0
    public var cancelled = 0
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
    /// One or two last events, then the recognizer is done for this arena.
    case finish(Emission, then: Emission?)
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
    var times = SIMD8<Int64>(repeating: 0)
    var xs = SIMD8<Double>(repeating: 0)
    var ys = SIMD8<Double>(repeating: 0)
    var count = 0
    var newest = -1
    public let window: Interval

    public init(window: Interval) { self.window = window }

    /// Records the cumulative values at `time`.
    public mutating func add(_ time: Timestamp, _ x: Double, _ y: Double = 0) {
        if count > 0 && times[newest] == time.microseconds {
            xs[newest] = x
            ys[newest] = y
            return
        }
        newest = (newest + 1) % VelocityEstimator.capacity
        times[newest] = time.microseconds
        xs[newest] = x
        ys[newest] = y
        count = min(count + 1, VelocityEstimator.capacity)
    }

    /// Rates per second at `now`.
    public func rate(at now: Timestamp) -> (Double, Double) {
        guard count >= 2 else { return (0, 0) }
        let newestTime = times[newest]
        if now.microseconds - newestTime > window.microseconds { return (0, 0) }
        // The oldest sample within the window, but at least one step back from the newest.
        var oldest = (newest - 1 + VelocityEstimator.capacity) % VelocityEstimator.capacity
        var k = 2
        while k < count {
            let candidate = (newest - k + VelocityEstimator.capacity) % VelocityEstimator.capacity
            if now.microseconds - times[candidate] > window.microseconds { break }
            oldest = candidate
            k += 1
        }
        let dt = Double(newestTime - times[oldest]) / 1_000_000
        guard dt > 0 else { return (0, 0) }
        return ((xs[newest] - xs[oldest]) / dt, (ys[newest] - ys[oldest]) / dt)
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
