import TouchlineCore

/// Long press: contacts held `minimumDuration` without any moving more than `slop`; then
/// `changed` on motion and `ended` at the last lift. Diagram: docs/gestures.md#long-press.
public struct LongPressRecognizer: Hashable, Sendable {
    /// No turn is read: the graph skips the atan2 for it (GestureRecognizer.readsRotation).
    public static var readsRotation: Bool { false }
    /// Its holding half (Hold.swift, shared with drag).
    public typealias Press = Hold

    public enum State: BitwiseCopyable, Hashable, Sendable, CustomStringConvertible {
        case idle
        /// Contacts down, the duration not reached yet.
        case pressing(Press)
        /// Duration reached, claimed, waiting for the arena.
        case claimed(Press)
        /// Won: `began` sent.
        case active(Press)

        public var name: StaticString {
            switch self {
            case .idle: return "idle"
            case .pressing: return "pressing"
            case .claimed: return "claimed"
            case .active: return "active"
            }
        }
        public var description: String { name.description }
    }

    public let parameters: LongPressParameters
    public private(set) var state: State = .idle

    public init(parameters: LongPressParameters) { self.parameters = parameters }

    public var deadline: Timestamp? {
        switch state {
        case let .pressing(press): return press.start + parameters.minimumDuration
        case .idle, .claimed, .active: return nil
        }
    }

    private func emission(_ phase: GesturePhase, _ press: Press, at time: Timestamp) -> Emission {
        Emission(phase, fingers: press.fingers, position: press.position, detail: .longPress(duration: time - press.start))
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle, .contactDown(s)):
            state = .pressing(Hold(s))
            return checkFingers(s.present)

        case (.pressing(var press), .contactDown(let s)):
            press.joined(s)
            state = .pressing(press)
            return checkFingers(press.fingers)

        case (.pressing(var press), .contactsMoved(let s)):
            if let failure = press.moved(s, slop: parameters.slop) {
                state = .idle
                return failure
            }
            state = .pressing(press)
            return .none

        case let (.pressing(press), .contactLifted(s)):
            state = .idle
            return press.tooShort(at: s.time, minimum: parameters.minimumDuration)

        case (.pressing, .contactCancelled):
            state = .idle
            return .fail(.note("a contact was cancelled"))

        case let (.pressing(press), .deadlineReached(time)):
            if parameters.fingers != 0 && press.fingers != parameters.fingers {
                state = .idle
                return .fail(.fingers(count: press.fingers, minimum: parameters.fingers, maximum: parameters.fingers))
            }
            state = .claimed(press)
            return press.reached(at: time, minimum: parameters.minimumDuration)

        case (.claimed(var press), .contactDown(let s)), (.claimed(var press), .contactsMoved(let s)):
            press.joined(s)
            state = .claimed(press)
            return .none

        case (.claimed(var press), .contactLifted(let s)):
            press.liftedWhileClaimed(s)
            state = .claimed(press)
            return .none

        case (.claimed, .contactCancelled):
            state = .idle
            return .fail(.note("a contact was cancelled"))

        case let (.claimed(press), .accepted(time)):
            if press.lifted {
                state = .idle
                return .finish(emission(.began, press, at: time), alsoEnded: true)
            }
            state = .active(press)
            return .emit(emission(.began, press, at: time))

        case (.active(let press), .contactDown(let s)):
            // A hold ends when a finger is added (libinput's model): the fingers it held are
            // the gesture, and the new set starts a new round (docs/gestures.md#finger-count-changes).
            let held = fingers(press)
            state = .idle
            return .endByCount(emission(.ended, press, at: s.time), count: UInt8(clamping: s.present),
                               minimum: UInt8(clamping: held.lowerBound), maximum: UInt8(clamping: held.upperBound))

        case (.active(var press), .contactsMoved(let s)):
            press.position = s.centroid
            state = .active(press)
            return .emit(emission(.changed, press, at: s.time))

        case (.active(let press), .contactLifted(let s)):
            if s.remaining > 0 {
                let held = fingers(press)
                if held.contains(s.remaining) { return .none }
                state = .idle
                return .endByCount(emission(.ended, press, at: s.time), count: UInt8(clamping: s.remaining),
                                   minimum: UInt8(clamping: held.lowerBound), maximum: UInt8(clamping: held.upperBound))
            }
            state = .idle
            return .finish(emission(.ended, press, at: s.time), alsoEnded: false)

        case (.active(let press), .contactCancelled(let s)):
            state = .idle
            return .finish(emission(.cancelled, press, at: s.time), alsoEnded: false)

        case (_, .rejected):
            state = .idle
            return .none

        case (.idle, .contactsMoved), (.idle, .contactLifted), (.idle, .contactCancelled), (.idle, .deadlineReached),
             (.idle, .accepted), (.pressing, .accepted), (.claimed, .deadlineReached), (.active, .deadlineReached),
             (.active, .accepted):
            let name = state.name
            state = .idle
            return .impossible(state: name, input: input.name)
        }
    }

    /// The counts a won hold takes: exactly `fingers` when set; otherwise its own fingers or
    /// fewer (a finger may lift, none may join).
    private func fingers(_ press: Press) -> ClosedRange<Int> {
        parameters.fingers != 0 ? parameters.fingers...parameters.fingers : 1...max(1, press.fingers)
    }

    private mutating func checkFingers(_ count: Int) -> RecognizerAction {
        if parameters.fingers != 0 && count > parameters.fingers {
            state = .idle
            return .fail(.fingers(count: count, minimum: parameters.fingers, maximum: parameters.fingers))
        }
        return .none
    }
}

// MARK: - The kind: parameters, registration, event fields

public struct LongPressParameters: BitwiseCopyable, Hashable, Sendable {
    /// Exact number of fingers; 0 accepts any.
    public var fingers = 0
    public var minimumDuration = Thresholds.longPressDuration
    public var slop = Thresholds.longPressSlop
    public init() {}
}

extension LongPressRecognizer: GestureRecognizer {
    public static let gesture = GestureKind("longPress")
    public static var eventFields: [any GestureFields.Type] { [LongPressFields.self] }
    public static var phases: [GesturePhase] { GesturePhase.continuous }
    public static var defaultParameters: LongPressParameters { LongPressParameters() }
    public static let parameters: [RecognizerParameter<LongPressParameters>] = [
        .fingers("fingers", anyAllowed: true, \.fingers),
        .duration("minimumDuration", \.minimumDuration),
        .distance("slop", \.slop, pen: Thresholds.penPressSlop),
    ]
    public init(parameters: LongPressParameters, surface: Size) { self.init(parameters: parameters) }
    /// It claims when its fingers (`fingers` of them, when set) were held `minimumDuration`.
    public static func claimFloor(_ p: LongPressParameters) -> ClaimFloor { ClaimFloor(time: p.minimumDuration, fingers: p.fingers) }
    public var stateName: StaticString { state.name }

    /// A press in progress follows its contacts: the per-frame fast path (the same transition
    /// as `handle(.contactsMoved(s))` when active).
    public static var continuesInPlace: Bool { true }
    @inline(__always) public mutating func movedWhileActive(
        _ s: borrowing GroupSample, fingers: inout Int, position: inout Point, detail: inout GestureDetail
    ) -> Bool {
        guard case .active(var press) = state else { return false }
        press.position = s.centroid
        state = .active(press)
        fingers = press.fingers
        position = press.position
        detail = .longPress(duration: s.time - press.start)
        return true
    }
}

extension GestureKind {
    public static let longPress = LongPressRecognizer.gesture
}

extension RecognizerKind {
    public static func longPress(_ parameters: LongPressParameters = LongPressParameters()) -> RecognizerKind {
        RecognizerKind(LongPressRecognizer.self, parameters)
    }
}

/// A long press's field: `duration`, since the first contact went down.
public struct LongPressFields: GestureFields {
    public static var fieldNames: [StaticString] { ["duration"] }
    public var duration: Interval
    public init(duration: Interval) { self.duration = duration }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) { body("duration", .duration(duration)) }
    public var summary: String { " duration=\(formatFixed(duration.milliseconds, decimals: 0))ms" }
}

extension GestureDetail {
    @inline(__always) public static func longPress(duration: Interval) -> GestureDetail { GestureDetail(LongPressFields(duration: duration)) }
}
