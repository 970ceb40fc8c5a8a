import TouchlineCore

/// Rotate: two or more contacts turning about their centroid by `minimumAngle`; `rotation` in
/// radians since tracking began, clockwise positive on the screen (y down, as UIKit). Ends when
/// fewer than two contacts remain. Diagram: docs/gestures.md#rotate.
public struct RotateRecognizer: Hashable, Sendable {
    public struct Track: Hashable, Sendable {
        /// Sum of the frame-to-frame turns since tracking began, radians.
        public var rotation: Double
        var filter: RateFilter
        public var fingers: Int
        public var position: Point
        public var span: Double
        public var lifted: Bool
    }

    public enum State: Hashable, Sendable, CustomStringConvertible {
        case idle
        case tracking(Track)
        case claimed(Track)
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

    public let parameters: RotateParameters
    public private(set) var state: State = .idle

    public init(parameters: RotateParameters) { self.parameters = parameters }

    public var deadline: Timestamp? { nil }

    private func emission(_ phase: GesturePhase, _ track: Track) -> Emission {
        Emission(phase, fingers: track.fingers, position: track.position, detail: .rotate(rotation: track.rotation, velocity: track.filter.value))
    }

    private func update(_ track: inout Track, _ s: GroupSample) {
        track.rotation += s.rotationDelta
        track.filter.add(delta: s.rotationDelta, over: s.elapsed)
        track.position = s.centroid
        track.span = s.span
        track.fingers = s.present
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle, .contactDown(s)):
            state = .tracking(Track(rotation: 0, filter: RateFilter(timeConstant: parameters.velocitySmoothing), fingers: s.present, position: s.centroid, span: s.span, lifted: false))
            return .none

        case (.tracking(var track), .contactDown(let s)), (.claimed(var track), .contactDown(let s)), (.active(var track), .contactDown(let s)):
            track.fingers = s.present
            switch state {
            case .claimed: state = .claimed(track)
            case .active: state = .active(track)
            case .idle, .tracking: state = .tracking(track)
            }
            return .none

        case (.tracking(var track), .contactsMoved(let s)):
            update(&track, s)
            let degrees = abs(track.rotation) * GestureMath.degreesPerRadian
            let travel = abs(track.rotation) * track.span / 2
            if track.fingers >= 2 && degrees >= parameters.minimumAngle && travel >= parameters.minimumTravel {
                state = .claimed(track)
                return .claim(.reached("rotation", value: degrees, limit: parameters.minimumAngle, .degrees))
            }
            state = .tracking(track)
            return .none

        case (.tracking(let track), .contactLifted(let s)):
            if s.remaining > 0 { return .none }
            state = .idle
            return .fail(.shortOf("rotation", value: abs(track.rotation) * GestureMath.degreesPerRadian, limit: parameters.minimumAngle, .degrees))

        case (.tracking, .contactCancelled), (.claimed, .contactCancelled):
            state = .idle
            return .fail(.note("a contact was cancelled"))

        case (.claimed(var track), .contactsMoved(let s)):
            update(&track, s)
            state = .claimed(track)
            return .none

        case (.claimed(var track), .contactLifted(let s)):
            if s.remaining < 2 { track.lifted = true }
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
            if s.remaining >= 2 {
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
