import TouchlineCore

/// The dispatch on a recognizer's kind: recognizer `i` lives in its kind's buffer at the index
/// its slot names. The storage itself, and every access to memory by address, is in
/// UnsafeGraphStorage.swift.
extension GraphStore {
    /// Where recognizer `i` lives: its kind and its index in that kind's buffer.
    enum Slot: Sendable {
        case tap(Int)
        case longPress(Int)
        case pan(Int)
        case swipe(Int)
        case edgeSwipe(Int)
        case pinch(Int)
        case rotate(Int)
    }

    init(_ kinds: [RecognizerKind], surface: Size, targets: [GestureGraph.TargetState]) {
        var taps: [TapRecognizer] = [], longPresses: [LongPressRecognizer] = [], pans: [PanRecognizer] = []
        var swipes: [SwipeRecognizer] = [], edgeSwipes: [EdgeSwipeRecognizer] = [], pinches: [PinchRecognizer] = []
        var rotates: [RotateRecognizer] = []
        var slots: [Slot] = []
        slots.reserveCapacity(kinds.count)
        for kind in kinds {
            switch kind {
            case let .tap(p):
                slots.append(.tap(taps.count))
                taps.append(TapRecognizer(parameters: p))
            case let .longPress(p):
                slots.append(.longPress(longPresses.count))
                longPresses.append(LongPressRecognizer(parameters: p))
            case let .pan(p):
                slots.append(.pan(pans.count))
                pans.append(PanRecognizer(parameters: p))
            case let .swipe(p):
                slots.append(.swipe(swipes.count))
                swipes.append(SwipeRecognizer(parameters: p))
            case let .edgeSwipe(p):
                slots.append(.edgeSwipe(edgeSwipes.count))
                edgeSwipes.append(EdgeSwipeRecognizer(parameters: p, surface: surface))
            case let .pinch(p):
                slots.append(.pinch(pinches.count))
                pinches.append(PinchRecognizer(parameters: p))
            case let .rotate(p):
                slots.append(.rotate(rotates.count))
                rotates.append(RotateRecognizer(parameters: p))
            }
        }
        self.init(slots: slots, taps: taps, longPresses: longPresses, pans: pans, swipes: swipes, edgeSwipes: edgeSwipes, pinches: pinches,
                  rotates: rotates, targets: targets)
    }

    var indices: Range<Int> { slots.indices }

    /// Hands `input` to recognizer `i` and keeps its bit in `deadlines` (the set of
    /// recognizers with a deadline) true, in the same switch: asking for the deadline
    /// separately dispatched on the kind a second time per input.
    @inline(__always) mutating func handle(_ i: Int, _ input: RecognizerInput, deadlines: inout UInt64) -> RecognizerAction {
        let bit = UInt64(1) << UInt64(i)
        switch slots[i] {
        case let .tap(k): return Self.step(&self[tap: k], input, bit, &deadlines)
        case let .longPress(k): return Self.step(&self[longPress: k], input, bit, &deadlines)
        case let .pan(k): return Self.step(&self[pan: k], input, bit, &deadlines)
        case let .swipe(k): return Self.step(&self[swipe: k], input, bit, &deadlines)
        case let .edgeSwipe(k): return Self.step(&self[edgeSwipe: k], input, bit, &deadlines)
        case let .pinch(k): return Self.step(&self[pinch: k], input, bit, &deadlines)
        case let .rotate(k): return Self.step(&self[rotate: k], input, bit, &deadlines)
        }
    }

    /// One input to one recognizer of a known kind, in place; its deadline bit follows.
    @inline(__always)
    static func step<R: Recognizing>(_ r: inout R, _ input: RecognizerInput, _ bit: UInt64, _ deadlines: inout UInt64) -> RecognizerAction {
        let action = r.handle(input)
        deadlines = r.deadline != nil ? deadlines | bit : deadlines & ~bit
        return action
    }

    /// Contacts moved and recognizer `i` is an active continuous one: it updates in place and
    /// writes its `changed` event's own fields; false (nothing done) for any other.
    @inline(__always) mutating func movedWhileActive(_ i: Int, _ s: borrowing GroupSample, fingers: inout Int, position: inout Point, detail: inout GestureDetail) -> Bool {
        switch slots[i] {
        case let .pan(k): return self[pan: k].movedWhileActive(s, fingers: &fingers, position: &position, detail: &detail)
        case let .edgeSwipe(k): return self[edgeSwipe: k].movedWhileActive(s, fingers: &fingers, position: &position, detail: &detail)
        case let .pinch(k): return self[pinch: k].movedWhileActive(s, fingers: &fingers, position: &position, detail: &detail)
        case let .rotate(k): return self[rotate: k].movedWhileActive(s, fingers: &fingers, position: &position, detail: &detail)
        case .tap, .longPress, .swipe: return false
        }
    }

    @inline(__always) func deadline(_ i: Int) -> Timestamp? {
        switch slots[i] {
        case let .tap(k): return self[tap: k].deadline
        case let .longPress(k): return self[longPress: k].deadline
        case let .pan(k): return self[pan: k].deadline
        case let .swipe(k): return self[swipe: k].deadline
        case let .edgeSwipe(k): return self[edgeSwipe: k].deadline
        case let .pinch(k): return self[pinch: k].deadline
        case let .rotate(k): return self[rotate: k].deadline
        }
    }

    /// The current state's name, for transition logs and explain lines.
    func stateName(_ i: Int) -> StaticString {
        switch slots[i] {
        case let .tap(k): return self[tap: k].state.name
        case let .longPress(k): return self[longPress: k].state.name
        case let .pan(k): return self[pan: k].state.name
        case let .swipe(k): return self[swipe: k].state.name
        case let .edgeSwipe(k): return self[edgeSwipe: k].state.name
        case let .pinch(k): return self[pinch: k].state.name
        case let .rotate(k): return self[rotate: k].state.name
        }
    }
}

/// What the store asks of every recognizer kind. Used only as a generic constraint (each use is
/// specialized for the concrete kind): no existential, no dynamic dispatch (principle 10).
protocol Recognizing {
    mutating func handle(_ input: RecognizerInput) -> RecognizerAction
    var deadline: Timestamp? { get }
}

extension TapRecognizer: Recognizing {}
extension LongPressRecognizer: Recognizing {}
extension SwipeRecognizer: Recognizing {}
extension ContinuousRecognizer: Recognizing {}
