import TouchlineCore

/// Swipe: a quick straight stroke, decided at the last lift: at least `minimumDistance`, at an
/// average of at least `minimumVelocity`, within `maximumAngle` of an axis, all within
/// `maximumDuration` of the first down. Diagram: docs/gestures.md#swipe.
public struct SwipeRecognizer: Hashable, Sendable {
    /// No turn is read: the graph skips the atan2 for it (GestureRecognizer.readsRotation).
    public static var readsRotation: Bool { false }
    public struct Stroke: BitwiseCopyable, Hashable, Sendable {
        public var start: Timestamp
        public var translation: Vector
        public var fingers: Int
        public var position: Point
    }

    public struct Result: BitwiseCopyable, Hashable, Sendable {
        public var stroke: Stroke
        public var direction: SwipeDirection
        public var duration: Interval
    }

    public enum State: BitwiseCopyable, Hashable, Sendable, CustomStringConvertible {
        case idle
        /// Contacts down; the stroke is measured.
        case tracking(Stroke)
        /// Every check passed at the lift; claimed, waiting for the arena.
        case claimed(Result)

        public var name: StaticString {
            switch self {
            case .idle: return "idle"
            case .tracking: return "tracking"
            case .claimed: return "claimed"
            }
        }
        public var description: String { name.description }
    }

    public let parameters: SwipeParameters
    public private(set) var state: State = .idle

    public init(parameters: SwipeParameters) { self.parameters = parameters }

    public var deadline: Timestamp? {
        switch state {
        case let .tracking(stroke): return stroke.start + parameters.maximumDuration
        case .idle, .claimed: return nil
        }
    }

    /// The nearest axis direction and the angle from it, degrees.
    static func direction(of v: Vector) -> (SwipeDirection, Double) {
        let ax = abs(v.dx), ay = abs(v.dy)
        if ax >= ay {
            return (v.dx >= 0 ? .right : .left, GestureMath.atan2(ay, ax) * GestureMath.degreesPerRadian)
        }
        return (v.dy >= 0 ? .down : .up, GestureMath.atan2(ax, ay) * GestureMath.degreesPerRadian)
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle, .contactDown(s)):
            state = .tracking(Stroke(start: s.time, translation: .zero, fingers: s.present, position: s.centroid))
            return checkFingers()

        case (.tracking(var stroke), .contactDown(let s)):
            stroke.fingers = max(stroke.fingers, s.present)
            state = .tracking(stroke)
            return checkFingers()

        case (.tracking(var stroke), .contactsMoved(let s)):
            stroke.translation = stroke.translation + s.translationDelta
            stroke.position = s.centroid
            state = .tracking(stroke)
            return .none

        case (.tracking(let stroke), .contactLifted(let s)):
            if s.remaining > 0 { return .none }
            state = .idle
            let duration = s.time - stroke.start
            let distance = stroke.translation.length
            if distance < parameters.minimumDistance {
                return .fail(.shortOf("distance", value: distance, limit: parameters.minimumDistance, .millimetres))
            }
            let speed = duration.microseconds > 0 ? distance / duration.seconds : .infinity
            if speed < parameters.minimumVelocity {
                return .fail(.shortOf("average speed", value: speed, limit: parameters.minimumVelocity, .millimetresPerSecond))
            }
            let (direction, angle) = SwipeRecognizer.direction(of: stroke.translation)
            if angle > parameters.maximumAngle {
                return .fail(.exceeded("angle from the axis", value: angle, limit: parameters.maximumAngle, .degrees))
            }
            if parameters.fingers != 0 && stroke.fingers != parameters.fingers {
                return .fail(.fingers(count: stroke.fingers, minimum: parameters.fingers, maximum: parameters.fingers))
            }
            state = .claimed(Result(stroke: stroke, direction: direction, duration: duration))
            return .claim(.reached("average speed", value: speed, limit: parameters.minimumVelocity, .millimetresPerSecond))

        case (.tracking, .contactCancelled):
            state = .idle
            return .fail(.note("a contact was cancelled"))

        case (.tracking, .deadlineReached):
            state = .idle
            return .fail(.timedOut("no last lift", limit: parameters.maximumDuration))

        case let (.claimed(result), .accepted):
            state = .idle
            let seconds = result.duration.seconds
            let velocity = seconds > 0 ? result.stroke.translation / seconds : .zero
            return .finish(
                Emission(.recognized, fingers: result.stroke.fingers, position: result.stroke.position,
                         detail: .swipe(direction: result.direction, translation: result.stroke.translation, velocity: velocity, duration: result.duration)),
                alsoEnded: false)

        // A claim is made after the last lift, so a held arena's next contacts do not concern it.
        case (.claimed, .contactDown), (.claimed, .contactsMoved), (.claimed, .contactLifted), (.claimed, .contactCancelled):
            return .none

        case (_, .rejected):
            state = .idle
            return .none

        case (.idle, .contactsMoved), (.idle, .contactLifted), (.idle, .contactCancelled), (.idle, .deadlineReached),
             (.idle, .accepted), (.tracking, .accepted), (.claimed, .deadlineReached):
            let name = state.name
            state = .idle
            return .impossible(state: name, input: input.name)
        }
    }

    private mutating func checkFingers() -> RecognizerAction {
        guard case let .tracking(stroke) = state else { return .none }
        if parameters.fingers != 0 && stroke.fingers > parameters.fingers {
            state = .idle
            return .fail(.fingers(count: stroke.fingers, minimum: parameters.fingers, maximum: parameters.fingers))
        }
        return .none
    }
}

// MARK: - The kind: parameters, registration, event fields

public struct SwipeParameters: BitwiseCopyable, Hashable, Sendable {
    /// Exact number of fingers; 0 accepts any.
    public var fingers = 0
    public var minimumDistance = Thresholds.swipeMinDistance
    public var minimumVelocity = Thresholds.swipeMinVelocity
    /// Degrees.
    public var maximumAngle = Thresholds.swipeMaxAngle
    public var maximumDuration = Thresholds.swipeMaxDuration
    public init() {}
}

extension SwipeRecognizer: GestureRecognizer {
    public static let gesture = GestureKind("swipe")
    public static var eventFields: [any GestureFields.Type] { [SwipeFields.self] }
    public static var phases: [GesturePhase] { GesturePhase.discrete }
    public static var defaultParameters: SwipeParameters { SwipeParameters() }
    /// It claims at its lift after its fingers' centroid moved `minimumDistance`, so one of
    /// them moved that far.
    public static func claimFloor(_ p: SwipeParameters) -> ClaimFloor { ClaimFloor(distance: p.minimumDistance, fingers: p.fingers) }
    public static let parameters: [RecognizerParameter<SwipeParameters>] = [
        .fingers("fingers", anyAllowed: true, \.fingers),
        .distance("minimumDistance", \.minimumDistance),
        RecognizerParameter("minimumVelocity", .millimetresPerSecond, set: { $0.minimumVelocity = $1.number },
                            problem: { ParameterLimits.speed($0.minimumVelocity) }, number: { $0.minimumVelocity }),
        RecognizerParameter("maximumAngle", .degrees, set: { $0.maximumAngle = $1.number }, problem: {
            ParameterLimits.angle($0.maximumAngle, highest: GraphConfiguration.Limits.widestSwipeAngle, lowestExcluded: true,
                                  meaning: " (the angle from the nearest axis)")
        }, number: { $0.maximumAngle }),
        .duration("maximumDuration", \.maximumDuration),
    ]
    public init(parameters: SwipeParameters, surface: Size) { self.init(parameters: parameters) }
    public var stateName: StaticString { state.name }
}

extension GestureKind {
    public static let swipe = SwipeRecognizer.gesture
}

extension RecognizerKind {
    public static func swipe(_ parameters: SwipeParameters = SwipeParameters()) -> RecognizerKind { RecognizerKind(SwipeRecognizer.self, parameters) }
}

/// A swipe's fields: `direction`; `dx`, `dy` in mm; `vx`, `vy`, the stroke's average velocity
/// (translation / duration), mm/s; `duration`.
public struct SwipeFields: GestureFields {
    public static var fieldNames: [StaticString] { ["direction"] + Vector.fieldNames + ["duration"] }
    public static var wordFieldNames: [StaticString] { ["direction"] }
    public var direction: SwipeDirection
    public var translation: Vector
    public var velocity: Vector
    public var duration: Interval
    public init(direction: SwipeDirection, translation: Vector, velocity: Vector, duration: Interval) {
        self.direction = direction
        self.translation = translation
        self.velocity = velocity
        self.duration = duration
    }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) {
        body("direction", .word(direction.name))
        Vector.fields(translation, velocity, body)
        body("duration", .duration(duration))
    }
    public var summary: String { " \(direction) d=\(translation.text(decimals: 2)) v=\(velocity.text(decimals: 0))" }
}

extension GestureDetail {
    public static func swipe(direction: SwipeDirection, translation: Vector, velocity: Vector, duration: Interval) -> GestureDetail {
        GestureDetail(SwipeFields(direction: direction, translation: translation, velocity: velocity, duration: duration))
    }
}
