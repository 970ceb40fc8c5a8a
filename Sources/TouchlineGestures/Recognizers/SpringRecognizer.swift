import TouchlineCore

/// Spring-loading: while a drag hovers over the target, still (within `slop`) for
/// `minimumDuration`: `began` (the blink), then `ended` after `blinkDuration` (the target
/// activates); the drag leaving or dropping first: `cancelled` once it blinks, nothing before.
/// It answers the carry, not contacts (`hovers`, docs/gestures.md#carrying): the carry enters
/// (`contactDown`), moves (`contactsMoved`) and leaves (`contactLifted`), and it arms again only
/// after leaving, because the carry hands it a new `contactDown` only on a new entry.
/// Diagram: docs/gestures.md#spring-loading.
public struct SpringRecognizer: Hashable, Sendable {
    /// No turn is read: the graph skips the atan2 for it (GestureRecognizer.readsRotation).
    public static var readsRotation: Bool { false }
    public enum State: BitwiseCopyable, Hashable, Sendable, CustomStringConvertible {
        case idle
        /// Hovered, still since `since` within `slop` of `anchor`.
        case hovering(anchor: Point, since: Timestamp)
        /// Still long enough, claimed (the carry accepts at once).
        case claimed(position: Point)
        /// `began` sent at `start`; `ended` at the blink's end.
        case blinking(position: Point, start: Timestamp)

        public var name: StaticString {
            switch self {
            case .idle: return "idle"
            case .hovering: return "hovering"
            case .claimed: return "claimed"
            case .blinking: return "blinking"
            }
        }
        public var description: String { name.description }
    }

    public let parameters: SpringParameters
    public private(set) var state: State = .idle
    /// The carried contacts' count, for the events.
    var fingers = 1

    public init(parameters: SpringParameters) { self.parameters = parameters }

    public var deadline: Timestamp? {
        switch state {
        case let .hovering(_, since): return since + parameters.minimumDuration
        case let .blinking(_, start): return start + parameters.blinkDuration
        case .idle, .claimed: return nil
        }
    }

    private func emission(_ phase: GesturePhase, _ position: Point) -> Emission {
        Emission(phase, fingers: fingers, position: position, detail: .none)
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle, .contactDown(s)):
            fingers = s.present
            state = .hovering(anchor: s.centroid, since: s.time)
            return .none

        case let (.hovering(anchor, _), .contactsMoved(s)):
            // Moving on restarts the wait from here: the hover must be still for the whole time.
            if s.centroid.distance(to: anchor) > parameters.slop { state = .hovering(anchor: s.centroid, since: s.time) }
            return .none

        case let (.hovering(anchor, since), .deadlineReached(time)):
            state = .claimed(position: anchor)
            return .claim(.reached("hovered still", value: (time - since).milliseconds, limit: parameters.minimumDuration.milliseconds, .milliseconds))

        case let (.hovering(_, since), .contactLifted(s)), let (.hovering(_, since), .contactCancelled(s)):
            state = .idle
            return .fail(.shortOf("hovered still", value: (s.time - since).milliseconds, limit: parameters.minimumDuration.milliseconds, .milliseconds))

        case let (.claimed(position), .accepted(time)):
            state = .blinking(position: position, start: time)
            return .emit(emission(.began, position))

        case (.blinking, .contactsMoved):
            return .none

        case let (.blinking(position, _), .deadlineReached):
            state = .idle
            return .finish(emission(.ended, position), alsoEnded: false)

        case let (.blinking(position, _), .contactLifted), let (.blinking(position, _), .contactCancelled):
            state = .idle
            return .finish(emission(.cancelled, position), alsoEnded: false)

        case (_, .rejected):
            state = .idle
            return .none

        case (.idle, _), (.hovering, .contactDown), (.hovering, .accepted), (.claimed, _), (.blinking, .contactDown), (.blinking, .accepted):
            let name = state.name
            state = .idle
            return .impossible(state: name, input: input.name)
        }
    }
}

// MARK: - The kind: parameters, registration

public struct SpringParameters: BitwiseCopyable, Hashable, Sendable {
    /// How long the drag hovers still before the target springs (iOS: about half a second).
    public var minimumDuration = Thresholds.longPressDuration
    /// How far it may move meanwhile: the same stillness as a long press.
    public var slop = Thresholds.longPressSlop
    /// How long the blink lasts before the target activates.
    public var blinkDuration = Interval.milliseconds(300)
    public init() {}
}

extension SpringRecognizer: GestureRecognizer {
    public static let gesture = GestureKind("spring")
    public static var eventFields: [any GestureFields.Type] { [NoFields.self] }
    /// Armed `began`, activated `ended`, left `cancelled`: nothing changes in between.
    public static var phases: [GesturePhase] { [.began, .ended, .cancelled] }
    public static var defaultParameters: SpringParameters { SpringParameters() }
    public static let parameters: [RecognizerParameter<SpringParameters>] = [
        .duration("minimumDuration", \.minimumDuration),
        .distance("slop", \.slop),
        .duration("blinkDuration", \.blinkDuration),
    ]
    public init(parameters: SpringParameters, surface: Size) { self.init(parameters: parameters) }
    public var stateName: StaticString { state.name }
    public static var hovers: Bool { true }
}

extension GestureKind {
    public static let spring = SpringRecognizer.gesture
}

extension RecognizerKind {
    public static func spring(_ parameters: SpringParameters = SpringParameters()) -> RecognizerKind {
        RecognizerKind(SpringRecognizer.self, parameters)
    }
}
