import TouchlineCore

/// Pinch: two or more contacts whose span (2 × mean distance from their centroid, the distance
/// between two fingers) changes by `minimumSpanChange`; `scale` is relative to the span when
/// tracking began. No minimum span. Ends when fewer than two contacts remain.
/// Diagram: docs/gestures.md#pinch.
public struct PinchRecognizer: Hashable, Sendable {
    public struct Track: Hashable, Sendable {
        /// Product of the frame-to-frame span ratios since tracking began.
        public var scale: Double
        /// Sum of the frame-to-frame span changes, mm.
        public var spanChange: Double
        var filter: RateFilter
        public var span: Double
        public var fingers: Int
        public var position: Point
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

    public let parameters: PinchParameters
    public private(set) var state: State = .idle

    public init(parameters: PinchParameters) { self.parameters = parameters }

    public var deadline: Timestamp? { nil }

    private func emission(_ phase: GesturePhase, _ track: Track) -> Emission {
        Emission(phase, fingers: track.fingers, position: track.position, detail: .pinch(scale: track.scale, velocity: track.filter.value, span: track.span))
    }

    private func update(_ track: inout Track, _ s: GroupSample) {
        let before = track.scale
        track.scale *= s.spanRatio
        track.spanChange += s.spanDelta
        track.filter.add(delta: track.scale - before, over: s.elapsed)
        track.span = s.span
        track.position = s.centroid
        track.fingers = s.present
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle, .contactDown(s)):
            state = .tracking(Track(scale: 1, spanChange: 0, filter: RateFilter(timeConstant: parameters.velocitySmoothing), span: s.span, fingers: s.present, position: s.centroid, lifted: false))
            return .none

        case (.tracking(var track), .contactDown(let s)), (.claimed(var track), .contactDown(let s)), (.active(var track), .contactDown(let s)):
            track.fingers = s.present
            track.span = s.span
            switch state {
            case .claimed: state = .claimed(track)
            case .active: state = .active(track)
            case .idle, .tracking: state = .tracking(track)
            }
            return .none

        case (.tracking(var track), .contactsMoved(let s)):
            update(&track, s)
            if track.fingers >= 2 && abs(track.spanChange) >= parameters.minimumSpanChange {
                state = .claimed(track)
                return .claim(.reached("span change", value: abs(track.spanChange), limit: parameters.minimumSpanChange, .millimetres))
            }
            state = .tracking(track)
            return .none

        case (.tracking(let track), .contactLifted(let s)):
            if s.remaining > 0 { return .none }
            state = .idle
            return .fail(.shortOf("span change", value: abs(track.spanChange), limit: parameters.minimumSpanChange, .millimetres))

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
