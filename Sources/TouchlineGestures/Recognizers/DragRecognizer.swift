import TouchlineCore

/// Drag and drop: a long press on a draggable target lifts it (`began`, `items` = this
/// target), moves carry it (`changed`, `over` = the drop target under it or null), the last
/// lift drops it (`ended` with `dropTarget` over a drop target, `cancelled` elsewhere). While it
/// carries, a tap by another finger on another draggable target adds that item (`changed`,
/// `items` grows). The graph's carry tells it where it is and what was tapped
/// (docs/gestures.md#carrying); diagram: docs/gestures.md#drag-and-drop.
public struct DragRecognizer: Hashable, Sendable {
    /// No turn is read: the graph skips the atan2 for it (GestureRecognizer.readsRotation).
    public static var readsRotation: Bool { false }
    /// Its holding half (Hold.swift, shared with long press).
    public typealias Press = Hold

    public struct Carry: BitwiseCopyable, Hashable, Sendable {
        public var fingers: Int
        public var position: Point
        public var items: NameList
        public var over: GestureName?
    }

    public enum State: BitwiseCopyable, Hashable, Sendable, CustomStringConvertible {
        case idle
        /// Contacts down, the long press not reached yet.
        case pressing(Press)
        /// Held long enough, claimed, waiting for the arena.
        case claimed(Press)
        /// Won: asked the carry where it is, `began` goes out with the answer.
        case lifting(Press)
        /// Carrying: `began` sent.
        case carrying(Carry)

        public var name: StaticString {
            switch self {
            case .idle: return "idle"
            case .pressing: return "pressing"
            case .claimed: return "claimed"
            case .lifting: return "lifting"
            case .carrying: return "carrying"
            }
        }
        public var description: String { name.description }
    }

    public let parameters: DragParameters
    public private(set) var state: State = .idle

    public init(parameters: DragParameters) { self.parameters = parameters }

    public var deadline: Timestamp? {
        if case let .pressing(press) = state { return press.start + parameters.minimumDuration }
        return nil
    }

    private func emission(_ phase: GesturePhase, _ carry: Carry, key: DragFields.Key) -> Emission {
        Emission(phase, fingers: carry.fingers, position: carry.position, detail: GestureDetail(DragFields(items: carry.items, key: key, target: carry.over)))
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle, .contactDown(s)):
            state = .pressing(Hold(s))
            return .none

        case (.pressing(var press), .contactDown(let s)):
            press.joined(s)
            state = .pressing(press)
            return .none

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

        case (.pressing, .contactCancelled), (.claimed, .contactCancelled):
            state = .idle
            return .fail(.note("a contact was cancelled"))

        case let (.pressing(press), .deadlineReached(time)):
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

        case let (.claimed(press), .accepted):
            if press.lifted {
                // Released before the arena decided: nothing was lifted, nothing to drop.
                state = .idle
                return .fail(.note("every contact lifted before the drag won"))
            }
            state = .lifting(press)
            return .locate(press.position)

        case (.carrying, .contactDown):
            // Another finger on the dragged target while no carry captured it (a second
            // carrier): it changes nothing.
            return .none

        case (.carrying(var carry), .contactsMoved(let s)):
            carry.position = s.centroid
            state = .carrying(carry)
            return .locate(s.centroid)

        case (.carrying(let carry), .contactLifted(let s)):
            if s.remaining > 0 { return .none }
            state = .idle
            return .finish(emission(carry.over != nil ? .ended : .cancelled, carry, key: carry.over != nil ? .dropTarget : .none), alsoEnded: false)

        case (.carrying(let carry), .contactCancelled):
            state = .idle
            return .finish(emission(.cancelled, carry, key: .none), alsoEnded: false)

        case (_, .rejected):
            state = .idle
            return .none

        case (.idle, .contactsMoved), (.idle, .contactLifted), (.idle, .contactCancelled), (.idle, .deadlineReached), (.idle, .accepted),
             (.pressing, .accepted), (.claimed, .deadlineReached), (.lifting, _), (.carrying, .deadlineReached), (.carrying, .accepted):
            let name = state.name
            state = .idle
            return .impossible(state: name, input: input.name)
        }
    }

    public mutating func carried(_ input: CarryInput) -> RecognizerAction {
        switch (state, input) {
        case let (.lifting(press), .over(over, from, _)):
            let carry = Carry(fingers: press.fingers, position: press.position, items: NameList([from]), over: over)
            state = .carrying(carry)
            return .emit(emission(.began, carry, key: .over))
        case (.carrying(var carry), .over(let over, _, _)):
            carry.over = over
            state = .carrying(carry)
            return .emit(emission(.changed, carry, key: .over))
        case (.carrying(var carry), .captureLifted(let target, let held, let travel, _)):
            // A tap: as quick and as still as the tap recognizer's defaults ask.
            guard held <= parameters.itemTapDuration, travel <= parameters.itemTapSlop, !carry.items.contains(target), carry.items.append(target) else {
                return .none
            }
            state = .carrying(carry)
            return .emit(emission(.changed, carry, key: .over))
        case (.idle, _), (.pressing, _), (.claimed, _), (.lifting, .captureLifted):
            // A capture lifting after the drag ended, or before it carried: no item to add.
            return .none
        }
    }
}

// MARK: - The kind: parameters, registration, event fields

public struct DragParameters: BitwiseCopyable, Hashable, Sendable {
    /// How long the contacts are held still before the item lifts (a long press).
    public var minimumDuration = Thresholds.longPressDuration
    /// How far they may move meanwhile.
    public var slop = Thresholds.longPressSlop
    /// A tap that adds an item lifts within this time…
    public var itemTapDuration = Thresholds.tapMaxDuration
    /// …and this distance of where it landed.
    public var itemTapSlop = Thresholds.tapSlop
    public init() {}
}

extension DragRecognizer: GestureRecognizer {
    public static let gesture = GestureKind("drag")
    public static var eventFields: [any GestureFields.Type] { [DragFields.self] }
    /// Lift `began`, moves `changed`, drop `ended`, elsewhere `cancelled`.
    public static var phases: [GesturePhase] { GesturePhase.continuous }
    public static var defaultParameters: DragParameters { DragParameters() }
    public static let parameters: [RecognizerParameter<DragParameters>] = [
        .duration("minimumDuration", \.minimumDuration),
        .distance("slop", \.slop, pen: Thresholds.penPressSlop),
        .duration("itemTapDuration", \.itemTapDuration),
        .distance("itemTapSlop", \.itemTapSlop),
    ]
    public init(parameters: DragParameters, surface: Size) { self.init(parameters: parameters) }
    /// It lifts the item when its finger was held `minimumDuration`.
    public static func claimFloor(_ p: DragParameters) -> ClaimFloor { ClaimFloor(time: p.minimumDuration) }
    public var stateName: StaticString { state.name }
    public static var carries: Bool { true }
}

extension GestureKind {
    public static let drag = DragRecognizer.gesture
}

extension RecognizerKind {
    public static func drag(_ parameters: DragParameters = DragParameters()) -> RecognizerKind {
        RecognizerKind(DragRecognizer.self, parameters)
    }
}

/// A drag's fields: `items` always; `over` (began, changed: a name or null) or `dropTarget`
/// (ended). 64 bytes: six names, a count, the key, one name.
public struct DragFields: GestureFields {
    public static var fieldNames: [StaticString] { ["items", "over", "dropTarget"] }
    public static var wordFieldNames: [StaticString] { fieldNames }
    public enum Key: UInt8, BitwiseCopyable, Hashable, Sendable {
        case none, over, dropTarget
    }
    public var items: NameList
    public var key: Key
    public var target: GestureName?
    public init(items: NameList, key: Key, target: GestureName?) {
        self.items = items
        self.key = key
        self.target = target
    }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) {
        body("items", .names(items))
        switch key {
        case .none: break
        case .over: body("over", target.map { .name($0) } ?? .null)
        case .dropTarget: body("dropTarget", target.map { .name($0) } ?? .null)
        }
    }
}
