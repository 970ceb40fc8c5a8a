import TouchlineCore

/// Pan (drag): the contacts' centroid moves `slop` with `minimumFingers…maximumFingers` down;
/// `changed` with translation and velocity on motion, `ended` at the last lift.
/// Diagram: docs/gestures.md#pan.
public struct PanRecognizer: Hashable, Sendable {
    public struct Track: Hashable, Sendable {
        public var translation: Vector
        public var velocity: VelocityFilterValue
        public var fingers: Int
        public var position: Point
        /// All contacts lifted while the claim waited for the arena.
        public var lifted: Bool
    }

    public enum State: Hashable, Sendable, CustomStringConvertible {
        case idle
        /// Contacts down, translation below the slop.
        case tracking(Track)
        /// Slop crossed, claimed, waiting for the arena.
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

    public let parameters: PanParameters
    public private(set) var state: State = .idle

    public init(parameters: PanParameters) { self.parameters = parameters }

    public var deadline: Timestamp? { nil }

    private func emission(_ phase: GesturePhase, _ track: Track) -> Emission {
        Emission(phase, fingers: track.fingers, position: track.position, detail: .pan(translation: track.translation, velocity: track.velocity.velocity))
    }

    private func inRange(_ fingers: Int) -> Bool { fingers >= parameters.minimumFingers && fingers <= parameters.maximumFingers }

    private func update(_ track: inout Track, _ s: GroupSample) {
        track.translation = track.translation + s.translationDelta
        track.velocity.add(s.translationDelta, over: s.elapsed)
        track.position = s.centroid
        track.fingers = s.present
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle, .contactDown(s)):
            state = .tracking(Track(translation: .zero, velocity: VelocityFilterValue(timeConstant: parameters.velocitySmoothing), fingers: s.present, position: s.centroid, lifted: false))
            return .none

        case (.tracking(var track), .contactDown(let s)), (.claimed(var track), .contactDown(let s)), (.active(var track), .contactDown(let s)):
            track.fingers = s.present
            track.position = s.centroid
            switch state {
            case .claimed: state = .claimed(track)
            case .active: state = .active(track)
            case .idle, .tracking: state = .tracking(track)
            }
            return .none

        case (.tracking(var track), .contactsMoved(let s)):
            update(&track, s)
            let distance = track.translation.length
            if distance >= parameters.slop && inRange(track.fingers) {
                state = .claimed(track)
                return .claim(.reached("translation", value: distance, limit: parameters.slop, .millimetres))
            }
            state = .tracking(track)
            return .none

        case (.tracking, .contactLifted(let s)):
            if s.remaining > 0 { return .none }
            state = .idle
            return .fail(.note("lifted before moving the slop"))

        case (.tracking, .contactCancelled), (.claimed, .contactCancelled):
            state = .idle
            return .fail(.note("a contact was cancelled"))

        case (.claimed(var track), .contactsMoved(let s)):
            update(&track, s)
            state = .claimed(track)
            return .none

        case (.claimed(var track), .contactLifted(let s)):
            if s.remaining == 0 { track.lifted = true }
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
            if s.remaining > 0 {
                track.fingers = s.remaining
                state = .active(track)
                return .none
            }
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

/// A velocity filter as a public value (recognizer states are public for tests and explain).
public struct VelocityFilterValue: Hashable, Sendable {
    var filter: VelocityFilter
    init(timeConstant: Interval) { filter = VelocityFilter(timeConstant: timeConstant) }
    mutating func add(_ delta: Vector, over elapsed: Interval) { filter.add(delta, over: elapsed) }
    /// mm/s.
    public var velocity: Vector { filter.velocity }
}
