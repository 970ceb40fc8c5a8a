import TouchlineCore

/// What a continuous gesture measures while its contacts move, and the thresholds that decide
/// it. Pan, edge swipe, pinch and rotate differ only here; their state machine is one,
/// `ContinuousRecognizer`. Conformers are concrete plain values; each kind is a concrete type
/// around `ContinuousRecognizer` of its measure (ContinuousKind.swift), held in place by the
/// graph, so a frame goes through no existential and allocates nothing (principle 10).
public protocol ContinuousMeasure: BitwiseCopyable, Hashable, Sendable {
    associatedtype Parameters: BitwiseCopyable, Hashable, Sendable
    /// The contact counts the gesture takes once it won: with a count outside them it ends
    /// (docs/gestures.md#finger-count-changes). Pan: `minimumFingers…maximumFingers`; edge
    /// swipe: 1 or more; pinch and rotate: 2 or more (a graph tracks at most 32 contacts).
    static func fingers(_ parameters: Parameters) -> ClosedRange<Int>
    /// The measure at the first contact down, or why the gesture cannot start there.
    static func begin(_ s: GroupSample, _ parameters: Parameters) -> ContinuousStart<Self>
    /// More contacts went down. `position` is the track's reported position; the recognizer
    /// has already set the finger count.
    mutating func contactDown(_ s: GroupSample, position: inout Point)
    /// The contacts moved; the recognizer then takes their centroid and count.
    mutating func update(_ s: GroupSample)
    /// While tracking, after an update: claim, fail, or not yet.
    func verdict(_ parameters: Parameters, fingers: Int) -> ContinuousVerdict
    /// Why the gesture fails when every contact lifts before it claimed.
    func shortfall(_ parameters: Parameters) -> Reason
    /// The gesture ends at a lift at `time` (a velocity may need the lift's time).
    mutating func lastLift(at time: Timestamp)
    var detail: GestureDetail { get }
    /// A measure to fill the idle recognizer's track with (never reported).
    static var placeholder: Self { get }
}

public enum ContinuousStart<Measure: Sendable>: Sendable {
    case tracking(Measure)
    case refused(Reason)
}

public enum ContinuousVerdict: Sendable {
    case notYet
    case claim(Reason)
    case fail(Reason)
}

/// The continuous gestures' state machine: track the motion from the first contact down,
/// claim when the measure's threshold is crossed, report `began` / `changed` / `ended` once the
/// arena accepts, end when the contacts left are a count it does not take (`fingers(_:)`,
/// docs/gestures.md#finger-count-changes). Diagrams:
/// docs/gestures.md#pan, #edge-swipe, #pinch, #rotate (the same states; the guards differ).
public struct ContinuousRecognizer<Measure: ContinuousMeasure>: BitwiseCopyable, Hashable, Sendable {
    public struct Track: BitwiseCopyable, Hashable, Sendable {
        public var measure: Measure
        public var fingers: Int
        public var position: Point
        /// Fewer contacts than it needs remained while the claim waited for the arena.
        public var lifted: Bool
    }

    public enum State: Hashable, Sendable, CustomStringConvertible {
        case idle
        /// Contacts down, threshold not crossed.
        case tracking(Track)
        /// Threshold crossed, claimed, waiting for the arena.
        case claimed(Track)
        /// Won: `began` sent.
        case active(Track)

        public var name: StaticString { phase.name }
        public var description: String { name.description }

        var phase: Phase {
            switch self {
            case .idle: return .idle
            case .tracking: return .tracking
            case .claimed: return .claimed
            case .active: return .active
            }
        }
    }

    /// The state without its track. The recognizer keeps the two apart so that an input
    /// updates the track in place: a `State` with the track inside was copied out of the enum
    /// and back on every input (the track holds a ~200-byte velocity estimator), the largest
    /// cost of a frame (docs/performance.md).
    enum Phase: UInt8, BitwiseCopyable, Sendable {
        case idle, tracking, claimed, active
        var name: StaticString {
            switch self {
            case .idle: return "idle"
            case .tracking: return "tracking"
            case .claimed: return "claimed"
            case .active: return "active"
            }
        }
    }

    public let parameters: Measure.Parameters
    private(set) var phase: Phase = .idle
    /// Meaningful unless `phase` is idle. Not optional: reading through an optional copied the
    /// whole track on every access.
    private(set) var track = Track(measure: .placeholder, fingers: 0, position: .zero, lifted: false)

    public var state: State {
        switch phase {
        case .idle: return .idle
        case .tracking: return .tracking(track)
        case .claimed: return .claimed(track)
        case .active: return .active(track)
        }
    }

    public init(parameters: Measure.Parameters) { self.parameters = parameters }

    public static func == (a: Self, b: Self) -> Bool {
        a.parameters == b.parameters && a.phase == b.phase && (a.phase == .idle || a.track == b.track)
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(parameters)
        hasher.combine(phase)
        if phase != .idle { hasher.combine(track) }
    }

    public var deadline: Timestamp? { nil }

    private func emission(_ phase: GesturePhase) -> Emission {
        Emission(phase, fingers: track.fingers, position: track.position, detail: track.measure.detail)
    }

    /// The input of every frame of a gesture in progress, taken without the action enum: when
    /// active, the same transition as `handle(.contactsMoved(s))` (update, stay active, emit
    /// `changed`), and the event's own fields are written out for the graph to send. False in
    /// any other phase: then the input goes through `handle`. Returning the action and matching
    /// it again cost about a third of a frame (docs/performance.md).
    @inline(__always) public mutating func movedWhileActive(_ s: borrowing GroupSample, fingers: inout Int, position: inout Point, detail: inout GestureDetail) -> Bool {
        guard phase == .active else { return false }
        update(s)
        fingers = track.fingers
        position = track.position
        detail = track.measure.detail
        return true
    }

    @inline(__always) private mutating func update(_ s: borrowing GroupSample) {
        track.measure.update(s)
        track.position = s.centroid
        track.fingers = s.present
    }

    private mutating func reset() {
        phase = .idle
    }

    // Switched on the input first, then the phase: a `switch (phase, input)` built a tuple
    // holding a copy of the input (a 129-byte sample) on every call.
    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch input {
        case let .contactDown(s):
            if phase == .idle {
                switch Measure.begin(s, parameters) {
                case let .refused(reason):
                    return .fail(reason)
                case let .tracking(measure):
                    track = Track(measure: measure, fingers: s.present, position: s.centroid, lifted: false)
                    phase = .tracking
                    return .none
                }
            }
            if phase == .active && !Measure.fingers(parameters).contains(s.present) {
                return endByCount(s.present)
            }
            track.fingers = s.present
            var position = track.position
            track.measure.contactDown(s, position: &position)
            track.position = position
            return .none

        case let .contactsMoved(s):
            switch phase {
            case .idle:
                return impossible(input)
            case .tracking:
                update(s)
                switch track.measure.verdict(parameters, fingers: track.fingers) {
                case .notYet:
                    return .none
                case let .claim(reason):
                    phase = .claimed
                    return .claim(reason)
                case let .fail(reason):
                    reset()
                    return .fail(reason)
                }
            case .claimed:
                update(s)
                return .none
            case .active:
                update(s)
                return .emit(emission(.changed))
            }

        case let .contactLifted(s):
            switch phase {
            case .idle:
                return impossible(input)
            case .tracking:
                if s.remaining > 0 { return .none }
                reset()
                return .fail(track.measure.shortfall(parameters))
            case .claimed:
                if s.remaining < Measure.fingers(parameters).lowerBound { track.lifted = true }
                return .none
            case .active:
                if s.remaining > 0 && !Measure.fingers(parameters).contains(s.remaining) {
                    return endByCount(s.remaining)
                }
                if s.remaining > 0 {
                    track.fingers = s.remaining
                    return .none
                }
                track.measure.lastLift(at: s.time)
                reset()
                return .finish(emission(.ended), alsoEnded: false)
            }

        case .contactCancelled:
            switch phase {
            case .idle:
                return impossible(input)
            case .tracking, .claimed:
                reset()
                return .fail(.note("a contact was cancelled"))
            case .active:
                reset()
                return .finish(emission(.cancelled), alsoEnded: false)
            }

        case .accepted:
            guard phase == .claimed else { return impossible(input) }
            if track.lifted {
                reset()
                return .finish(emission(.began), alsoEnded: true)
            }
            phase = .active
            return .emit(emission(.began))

        case .rejected:
            reset()
            return .none

        case .deadlineReached:
            return impossible(input)
        }
    }

    /// Active, and its contacts changed to `count`, which it does not take while some stay
    /// down: it ends with the fingers it had (the arena then opens a new round for them).
    private mutating func endByCount(_ count: Int) -> RecognizerAction {
        let range = Measure.fingers(parameters)
        let ended = emission(.ended)
        reset()
        return .endByCount(ended, count: UInt8(clamping: count), minimum: UInt8(clamping: range.lowerBound), maximum: UInt8(clamping: range.upperBound))
    }

        /// No transition for this input in this state (our bug): reset, and say so.
    private mutating func impossible(_ input: RecognizerInput) -> RecognizerAction {
        let name = phase.name
        reset()
        return .impossible(state: name, input: input.name)
    }
}
