import TouchlineCore

/// Edge swipe: a pan whose first contact lands within `margin` of a sensor edge and whose first
/// `slop` of motion points inward (more inward than along the edge). Continuous, like a pan,
/// with the `edge` it came from. Diagram: docs/gestures.md#edge-swipe.
public struct EdgeSwipeRecognizer: Hashable, Sendable {
    public struct Track: Hashable, Sendable {
        public var edge: ScreenEdge
        public var translation: Vector
        public var velocity: VelocityFilterValue
        public var fingers: Int
        public var position: Point
        public var lifted: Bool
    }

    public enum State: Hashable, Sendable, CustomStringConvertible {
        case idle
        /// Landed near `edge`, not yet moved the slop.
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

    public let parameters: EdgeSwipeParameters
    public let surface: Size
    public private(set) var state: State = .idle

    public init(parameters: EdgeSwipeParameters, surface: Size) {
        self.parameters = parameters
        self.surface = surface
    }

    public var deadline: Timestamp? { nil }

    /// The nearest edge to `p` and the distance to it; ties in the order left, right, top,
    /// bottom.
    func nearestEdge(_ p: Point) -> (ScreenEdge, Double) {
        var best = (ScreenEdge.left, p.x)
        if surface.width - p.x < best.1 { best = (.right, surface.width - p.x) }
        if p.y < best.1 { best = (.top, p.y) }
        if surface.height - p.y < best.1 { best = (.bottom, surface.height - p.y) }
        return (best.0, max(0, best.1))
    }

    /// Motion into the surface from `edge`, and along it.
    static func components(_ v: Vector, from edge: ScreenEdge) -> (inward: Double, along: Double) {
        switch edge {
        case .left: return (v.dx, abs(v.dy))
        case .right: return (-v.dx, abs(v.dy))
        case .top: return (v.dy, abs(v.dx))
        case .bottom: return (-v.dy, abs(v.dx))
        }
    }

    private func emission(_ phase: GesturePhase, _ track: Track) -> Emission {
        Emission(phase, fingers: track.fingers, position: track.position,
                 detail: .edgeSwipe(edge: track.edge, translation: track.translation, velocity: track.velocity.velocity))
    }

    private func update(_ track: inout Track, _ s: GroupSample) {
        track.translation = track.translation + s.translationDelta
        track.velocity.add(s.translationDelta, over: s.elapsed)
        track.position = s.centroid
        track.fingers = s.present
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle, .contactDown(s)):
            let (edge, distance) = nearestEdge(s.centroid)
            if distance > parameters.margin {
                return .fail(.exceeded("distance from the nearest edge", value: distance, limit: parameters.margin, .millimetres))
            }
            state = .tracking(Track(edge: edge, translation: .zero, velocity: VelocityFilterValue(timeConstant: parameters.velocitySmoothing), fingers: s.present, position: s.centroid, lifted: false))
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
            let distance = track.translation.length
            guard distance >= parameters.slop else {
                state = .tracking(track)
                return .none
            }
            let (inward, along) = EdgeSwipeRecognizer.components(track.translation, from: track.edge)
            if inward <= along {
                state = .idle
                return .fail(.note("moved along or away from the edge"))
            }
            state = .claimed(track)
            return .claim(.reached("inward movement", value: distance, limit: parameters.slop, .millimetres))

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
