import TouchlineCore

/// What a continuous gesture measures while its contacts move, and the thresholds that decide
/// it. Pan, edge swipe, pinch and rotate differ only here; their state machine is one,
/// `ContinuousRecognizer`. Conformers are concrete value types and the graph holds
/// `ContinuousRecognizer<PanMeasure>` and the others directly, so a frame goes through no
/// existential and allocates nothing (principle 10).
public protocol ContinuousMeasure: Hashable, Sendable {
    associatedtype Parameters: Hashable, Sendable
    /// Contacts the gesture needs to go on: with fewer remaining it ends (1 for pan and edge
    /// swipe, 2 for pinch and rotate).
    static var fingersToContinue: Int { get }
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
/// arena accepts, end when fewer than `fingersToContinue` contacts remain. Diagrams:
/// docs/gestures.md#pan, #edge-swipe, #pinch, #rotate (the same states; the guards differ).
public struct ContinuousRecognizer<Measure: ContinuousMeasure>: Hashable, Sendable {
    public struct Track: Hashable, Sendable {
        public var measure: Measure
        public var fingers: Int
        public var position: Point
        /// Fewer than `fingersToContinue` contacts remained while the claim waited for the
        /// arena.
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

        public var name: StaticString {
            switch self {
            case .idle: return "idle"
            case .tracking: return "tracking"
            case .claimed: return "claimed"
            case .active: return "active"
            }
        }
        public var description: String { name.description }
    }

    public let parameters: Measure.Parameters
    public private(set) var state: State = .idle

    public init(parameters: Measure.Parameters) { self.parameters = parameters }

    public var deadline: Timestamp? { nil }

    private func emission(_ phase: GesturePhase, _ track: Track) -> Emission {
        Emission(phase, fingers: track.fingers, position: track.position, detail: track.measure.detail)
    }

    private func update(_ track: inout Track, _ s: GroupSample) {
        track.measure.update(s)
        track.position = s.centroid
        track.fingers = s.present
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle, .contactDown(s)):
            switch Measure.begin(s, parameters) {
            case let .refused(reason):
                return .fail(reason)
            case let .tracking(measure):
                state = .tracking(Track(measure: measure, fingers: s.present, position: s.centroid, lifted: false))
                return .none
            }

        case (.tracking(var track), .contactDown(let s)), (.claimed(var track), .contactDown(let s)), (.active(var track), .contactDown(let s)):
            track.fingers = s.present
            track.measure.contactDown(s, position: &track.position)
            switch state {
            case .claimed: state = .claimed(track)
            case .active: state = .active(track)
            case .idle, .tracking: state = .tracking(track)
            }
            return .none

        case (.tracking(var track), .contactsMoved(let s)):
            update(&track, s)
            switch track.measure.verdict(parameters, fingers: track.fingers) {
            case .notYet:
                state = .tracking(track)
                return .none
            case let .claim(reason):
                state = .claimed(track)
                return .claim(reason)
            case let .fail(reason):
                state = .idle
                return .fail(reason)
            }

        case (.tracking(let track), .contactLifted(let s)):
            if s.remaining > 0 { return .none }
            state = .idle
            return .fail(track.measure.shortfall(parameters))

        case (.tracking, .contactCancelled), (.claimed, .contactCancelled):
            state = .idle
            return .fail(.note("a contact was cancelled"))

        case (.claimed(var track), .contactsMoved(let s)):
            update(&track, s)
            state = .claimed(track)
            return .none

        case (.claimed(var track), .contactLifted(let s)):
            if s.remaining < Measure.fingersToContinue { track.lifted = true }
            state = .claimed(track)
            return .none

        case let (.claimed(track), .accepted):
            if track.lifted {
                state = .idle
                return .finish(emission(.began, track), then: emission(.ended, track))
            }
            state = .active(track)
            return .emit(emission(.began, track))

        case (.active(var track), .contactsMoved(let s)):
            update(&track, s)
            state = .active(track)
            return .emit(emission(.changed, track))

        case (.active(var track), .contactLifted(let s)):
            if s.remaining >= Measure.fingersToContinue {
                track.fingers = s.remaining
                state = .active(track)
                return .none
            }
            track.measure.lastLift(at: s.time)
            state = .idle
            return .finish(emission(.ended, track), then: nil)

        case let (.active(track), .contactCancelled):
            state = .idle
            return .finish(emission(.cancelled, track), then: nil)

        case (_, .rejected):
            state = .idle
            return .none

        case (.idle, .contactsMoved), (.idle, .contactLifted), (.idle, .contactCancelled), (.idle, .deadlineReached),
             (.idle, .accepted), (.tracking, .deadlineReached), (.tracking, .accepted), (.claimed, .deadlineReached),
             (.active, .deadlineReached), (.active, .accepted):
            let name = state.name
            state = .idle
            return .impossible(state: name, input: input.name)
        }
    }
}
