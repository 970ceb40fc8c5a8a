import TouchlineCore

/// Tap: N fingers down and up within `maxDuration`, none moving more than `slop`; taps within
/// `multiTapInterval` (lift to next down) and `multiTapDistance` of each other, with the same
/// number of fingers, count up. Diagram: docs/gestures.md#tap.
public struct TapRecognizer: Hashable, Sendable {
    /// No turn is read: the graph skips the atan2 for it (GestureRecognizer.readsRotation).
    public static var readsRotation: Bool { false }
    /// A finished tap, remembered to count the next one.
    public struct Series: BitwiseCopyable, Hashable, Sendable {
        public var count: Int
        public var lift: Timestamp
        public var position: Point
        /// The tap's fingers: only a tap with as many continues the series.
        public var fingers: Int
    }

    public struct Touch: BitwiseCopyable, Hashable, Sendable {
        public var start: Timestamp
        /// The count this tap gets if it continues the series (1 when it starts one).
        public var count: Int
        /// Fingers of the series' last tap, which this one must match to count up (its own
        /// fingers are only known at the last lift: fingers land over several frames).
        public var seriesFingers: Int
        public var fingers: Int
        public var position: Point
        public var travel: Double
    }

    public struct Tap: BitwiseCopyable, Hashable, Sendable {
        public var series: Series
        public var fingers: Int
        public var duration: Interval
    }

    public enum State: BitwiseCopyable, Hashable, Sendable, CustomStringConvertible {
        /// No contact; `series` is the last tap when the next may count up from it.
        case idle(series: Series?)
        /// Contacts down.
        case touching(Touch)
        /// A tap done, fewer than `taps` in the series: the arena is held until the next tap or
        /// the deadline.
        case waitingForNextTap(Tap)
        /// Claimed at the lift, waiting for the arena's answer.
        case claimed(Tap)

        public var name: StaticString {
            switch self {
            case .idle: return "idle"
            case .touching: return "touching"
            case .waitingForNextTap: return "waitingForNextTap"
            case .claimed: return "claimed"
            }
        }
        public var description: String { name.description }
    }

    public let parameters: TapParameters
    public private(set) var state: State = .idle(series: nil)

    public init(parameters: TapParameters) { self.parameters = parameters }

    public var deadline: Timestamp? {
        switch state {
        case let .touching(touch): return touch.start + parameters.maxDuration
        case let .waitingForNextTap(tap): return tap.series.lift + parameters.multiTapInterval
        case .idle, .claimed: return nil
        }
    }

    /// The count a tap starting now at `position` gets after `series`, or nil when it starts a
    /// new series.
    private func continues(_ series: Series?, at time: Timestamp, _ position: Point) -> Bool {
        guard let series else { return false }
        return time - series.lift <= parameters.multiTapInterval
            && position.distance(to: series.position) <= parameters.multiTapDistance
    }

    private var fingerRange: (Int, Int) {
        parameters.fingers == 0 ? (1, Int.max) : (parameters.fingers, parameters.fingers)
    }

    private func emission(_ tap: Tap) -> Emission {
        Emission(.recognized, fingers: tap.fingers, position: tap.series.position, detail: .tap(count: tap.series.count, duration: tap.duration))
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle(series), .contactDown(s)):
            // A new round over contacts that were already down (docs/gestures.md#finger-count-changes):
            // a tap is its contacts landing and lifting, and these did not all land in it.
            if s.began < s.present {
                return .fail(.note("its contacts were down before this round: a tap starts with its contacts landing"))
            }
            let previous = continues(series, at: s.time, s.centroid) ? series : nil
            state = .touching(Touch(start: s.time, count: (previous?.count ?? 0) + 1, seriesFingers: previous?.fingers ?? 0,
                                    fingers: s.present, position: s.centroid, travel: s.maxTravel))
            return checkFingers()

        case (.touching(var touch), .contactDown(let s)):
            touch.fingers = max(touch.fingers, s.present)
            touch.position = s.centroid
            state = .touching(touch)
            return checkFingers()

        case (.touching(var touch), .contactsMoved(let s)):
            touch.travel = max(touch.travel, s.maxTravel)
            state = .touching(touch)
            if touch.travel > parameters.slop {
                state = .idle(series: nil)
                return .fail(.exceeded("movement", value: touch.travel, limit: parameters.slop, .millimetres))
            }
            return .none

        case (.touching(let touch), .contactLifted(let s)):
            if s.remaining > 0 { return .none }
            let duration = s.time - touch.start
            // A tap with another number of fingers than the one before starts a new series: a
            // two-finger tap then a one-finger tap are two single taps, not a double tap.
            let count = touch.fingers == touch.seriesFingers ? touch.count : 1
            let tap = Tap(series: Series(count: count, lift: s.time, position: touch.position, fingers: touch.fingers), fingers: touch.fingers, duration: duration)
            let (minimum, maximum) = fingerRange
            if touch.fingers < minimum || touch.fingers > maximum {
                state = .idle(series: nil)
                return .fail(.fingers(count: touch.fingers, minimum: minimum, maximum: maximum))
            }
            if parameters.eager || count >= parameters.taps {
                state = .claimed(tap)
                return .claim(.within("lifted after", value: duration.milliseconds, limit: parameters.maxDuration.milliseconds, .milliseconds))
            }
            state = .waitingForNextTap(tap)
            return .hold

        case (.touching, .contactCancelled):
            state = .idle(series: nil)
            return .fail(.note("a contact was cancelled"))

        case (.touching, .deadlineReached):
            state = .idle(series: nil)
            return .fail(.timedOut("no lift", limit: parameters.maxDuration))

        case let (.waitingForNextTap(tap), .contactDown(s)):
            if continues(tap.series, at: s.time, s.centroid) {
                state = .touching(Touch(start: s.time, count: tap.series.count + 1, seriesFingers: tap.series.fingers,
                                        fingers: s.present, position: s.centroid, travel: s.maxTravel))
                return checkFingers()
            }
            state = .idle(series: nil)
            return .fail(.exceeded("distance to the previous tap", value: s.centroid.distance(to: tap.series.position), limit: parameters.multiTapDistance, .millimetres))

        case (.waitingForNextTap, .deadlineReached):
            state = .idle(series: nil)
            return .fail(.timedOut("no next tap", limit: parameters.multiTapInterval))

        case let (.claimed(tap), .accepted):
            // An eager recognizer keeps counting; one that waited for its count starts over.
            state = .idle(series: parameters.eager ? tap.series : nil)
            return .finish(emission(tap), alsoEnded: false)

        case (_, .rejected):
            state = .idle(series: nil)
            return .none

        // A claimed tap waits for a blocker; contacts of the held arena do not concern it.
        case (.claimed, .contactDown), (.claimed, .contactsMoved), (.claimed, .contactLifted), (.claimed, .contactCancelled):
            return .none

        // Contacts of a held arena that moved or lifted before this tap's next down.
        case (.waitingForNextTap, .contactsMoved), (.waitingForNextTap, .contactLifted), (.waitingForNextTap, .contactCancelled):
            return .none

        case (.idle, .contactsMoved), (.idle, .contactLifted), (.idle, .contactCancelled), (.idle, .deadlineReached),
             (.idle, .accepted), (.touching, .accepted), (.waitingForNextTap, .accepted), (.claimed, .deadlineReached):
            let name = state.name
            state = .idle(series: nil)
            return .impossible(state: name, input: input.name)
        }
    }

    private mutating func checkFingers() -> RecognizerAction {
        guard case let .touching(touch) = state else { return .none }
        let (_, maximum) = fingerRange
        if touch.fingers > maximum {
            state = .idle(series: nil)
            return .fail(.fingers(count: touch.fingers, minimum: fingerRange.0, maximum: maximum))
        }
        return .none
    }
}

// MARK: - The kind: parameters, registration, event fields

public struct TapParameters: BitwiseCopyable, Hashable, Sendable {
    /// Exact number of fingers; 0 accepts any number and reports it.
    public var fingers = 0
    /// Taps in a series needed to recognize (1 single, 2 double…); ignored when `eager`.
    public var taps = 1
    /// Report every tap at its lift with the series' `count` so far (1, then 2, …) instead of
    /// recognizing once `taps` is reached.
    public var eager = false
    public var maxDuration = Thresholds.tapMaxDuration
    public var slop = Thresholds.tapSlop
    public var multiTapInterval = Thresholds.multiTapInterval
    public var multiTapDistance = Thresholds.multiTapDistance
    public init() {}
}

extension TapRecognizer: GestureRecognizer {
    public static let gesture = GestureKind("tap")
    public static var eventFields: [any GestureFields.Type] { [TapFields.self] }
    /// It may claim at once (a tap at its lift), with `fingers` fingers when set.
    public static func claimFloor(_ p: TapParameters) -> ClaimFloor { ClaimFloor(fingers: p.fingers) }
    public static var phases: [GesturePhase] { GesturePhase.discrete }
    public static var defaultParameters: TapParameters { TapParameters() }
    public static let parameters: [RecognizerParameter<TapParameters>] = [
        .fingers("fingers", anyAllowed: true, \.fingers),
        RecognizerParameter("taps", .count, set: { $0.taps = $1.count },
                            problem: { ParameterLimits.count($0.taps, 1, GraphConfiguration.Limits.mostTaps) }),
        .flag("eager", \.eager),
        .duration("maxDuration", \.maxDuration),
        .distance("slop", \.slop, pen: Thresholds.penPressSlop),
        .duration("multiTapInterval", \.multiTapInterval),
        .distance("multiTapDistance", \.multiTapDistance),
    ]
    public init(parameters: TapParameters, surface: Size) { self.init(parameters: parameters) }
    public var stateName: StaticString { state.name }
}

extension GestureKind {
    public static let tap = TapRecognizer.gesture
}

extension RecognizerKind {
    public static func tap(_ parameters: TapParameters = TapParameters()) -> RecognizerKind { RecognizerKind(TapRecognizer.self, parameters) }
}

/// A tap's fields: `count`, taps in the series (1, 2, …); `duration`, first down to last lift.
public struct TapFields: GestureFields {
    public static var fieldNames: [StaticString] { ["count", "duration"] }
    public static var countFieldNames: [StaticString] { ["count"] }
    public var count: Int
    public var duration: Interval
    public init(count: Int, duration: Interval) {
        self.count = count
        self.duration = duration
    }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) {
        body("count", .integer(count))
        body("duration", .duration(duration))
    }
    public var summary: String { " count=\(count)" }
}

extension GestureDetail {
    public static func tap(count: Int, duration: Interval) -> GestureDetail { GestureDetail(TapFields(count: count, duration: duration)) }
}
