import TouchlineCore

/// What a graph changes on every frame, in one storage object: the recognizers, one buffer per
/// concrete kind and addressed by declaration index, the targets' state and the tracked
/// contacts.
///
/// A recognizer handles its input in place in its buffer: going through `AnyRecognizer` copied
/// the whole recognizer out of the enum and back on every input (a pan, pinch or rotate holds
/// a ~200-byte velocity estimator), which was the largest cost of a frame
/// (docs/performance.md). Still no existentials and no dynamic dispatch (principle 10).
///
/// The storage is copied on write as a whole: the graph calls `makeUnique()` once at the start
/// of every mutating entry point (`process`, `advance`, `cancelAll`, `fireDeadlines`), after
/// which everything is changed in place through the buffers without a uniqueness check per
/// access (arrays check on every mutation: the recognizers', the targets' and the contacts'
/// were a call into the runtime each, several per frame).
struct GraphStore: Sendable {
    /// Where recognizer `i` lives: its kind and its index in that kind's array.
    enum Slot: Sendable {
        case tap(Int)
        case longPress(Int)
        case pan(Int)
        case swipe(Int)
        case edgeSwipe(Int)
        case pinch(Int)
        case rotate(Int)
    }

    /// The buffers this object owns. The buffers are constants (reading them takes no
    /// exclusivity check); their elements are changed in place.
    ///
    /// `@unchecked Sendable`, justified: the buffers are written only through a `GraphStore`
    /// whose storage was made unique first (`makeUnique()` at every mutating entry point), so a
    /// storage shared by two graphs (after a copy, possibly on two threads) is only ever read,
    /// and one that is written has a single owner, which Swift's exclusivity rules hold to one
    /// thread at a time. The buffers never escape the store.
    final class Storage: @unchecked Sendable {
        let taps: UnsafeMutableBufferPointer<TapRecognizer>
        let longPresses: UnsafeMutableBufferPointer<LongPressRecognizer>
        let pans: UnsafeMutableBufferPointer<PanRecognizer>
        let swipes: UnsafeMutableBufferPointer<SwipeRecognizer>
        let edgeSwipes: UnsafeMutableBufferPointer<EdgeSwipeRecognizer>
        let pinches: UnsafeMutableBufferPointer<PinchRecognizer>
        let rotates: UnsafeMutableBufferPointer<RotateRecognizer>
        let targets: UnsafeMutableBufferPointer<GestureGraph.TargetState>
        /// Room for `GestureGraph.contactCapacity` contacts; how many are in use is the
        /// store's `trackedCount` (a value, so a copy of the graph keeps its own).
        let tracked: UnsafeMutableBufferPointer<GestureGraph.Tracked>

        init(taps: [TapRecognizer], longPresses: [LongPressRecognizer], pans: [PanRecognizer], swipes: [SwipeRecognizer],
             edgeSwipes: [EdgeSwipeRecognizer], pinches: [PinchRecognizer], rotates: [RotateRecognizer],
             targets: [GestureGraph.TargetState], tracked: some Collection<GestureGraph.Tracked>) {
            self.taps = Storage.buffer(taps)
            self.longPresses = Storage.buffer(longPresses)
            self.pans = Storage.buffer(pans)
            self.swipes = Storage.buffer(swipes)
            self.edgeSwipes = Storage.buffer(edgeSwipes)
            self.pinches = Storage.buffer(pinches)
            self.rotates = Storage.buffer(rotates)
            self.targets = Storage.buffer(targets)
            self.tracked = UnsafeMutableBufferPointer.allocate(capacity: GestureGraph.contactCapacity)
            _ = self.tracked.initialize(from: tracked)
        }

        private static func buffer<R>(_ elements: some Collection<R>) -> UnsafeMutableBufferPointer<R> {
            let buffer = UnsafeMutableBufferPointer<R>.allocate(capacity: elements.count)
            _ = buffer.initialize(from: elements)
            return buffer
        }

        /// A copy with the first `trackedCount` contacts.
        func copy(trackedCount: Int) -> Storage {
            Storage(taps: Array(taps), longPresses: Array(longPresses), pans: Array(pans), swipes: Array(swipes),
                    edgeSwipes: Array(edgeSwipes), pinches: Array(pinches), rotates: Array(rotates),
                    targets: Array(targets), tracked: tracked.prefix(trackedCount))
        }

        deinit {
            Storage.release(taps)
            Storage.release(longPresses)
            Storage.release(pans)
            Storage.release(swipes)
            Storage.release(edgeSwipes)
            Storage.release(pinches)
            Storage.release(rotates)
            Storage.release(targets)
            // Trivial values: the unused part needs no deinitializing.
            tracked.deallocate()
        }

        private static func release<R>(_ buffer: UnsafeMutableBufferPointer<R>) {
            buffer.deinitialize().deallocate()
        }
    }

    private(set) var slots: [Slot] = []
    private var storage: Storage
    private(set) var trackedCount = 0

    var taps: UnsafeMutableBufferPointer<TapRecognizer> { storage.taps }
    var longPresses: UnsafeMutableBufferPointer<LongPressRecognizer> { storage.longPresses }
    var pans: UnsafeMutableBufferPointer<PanRecognizer> { storage.pans }
    var swipes: UnsafeMutableBufferPointer<SwipeRecognizer> { storage.swipes }
    var edgeSwipes: UnsafeMutableBufferPointer<EdgeSwipeRecognizer> { storage.edgeSwipes }
    var pinches: UnsafeMutableBufferPointer<PinchRecognizer> { storage.pinches }
    var rotates: UnsafeMutableBufferPointer<RotateRecognizer> { storage.rotates }
    /// Changed in place only after `makeUnique()`.
    var targets: UnsafeMutableBufferPointer<GestureGraph.TargetState> { storage.targets }
    /// The tracked contacts, in landing order. Changed in place only after `makeUnique()`.
    var tracked: UnsafeMutableBufferPointer<GestureGraph.Tracked> {
        UnsafeMutableBufferPointer(start: storage.tracked.baseAddress, count: trackedCount)
    }

    /// Before any change: a graph that was copied gets its own storage.
    @inline(__always) mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(trackedCount: trackedCount) }
    }

    /// Adds a contact, after `makeUnique()`; false when `GestureGraph.contactCapacity` are
    /// tracked already.
    mutating func appendTracked(_ contact: GestureGraph.Tracked) -> Bool {
        guard trackedCount < storage.tracked.count else { return false }
        storage.tracked.initializeElement(at: trackedCount, to: contact)
        trackedCount += 1
        return true
    }

    /// Removes the contacts that ended or were cancelled, keeping the others' order, after
    /// `makeUnique()`.
    mutating func removeFinalTracked() {
        var kept = 0
        for i in 0..<trackedCount where !storage.tracked[i].phase.isFinal {
            storage.tracked[kept] = storage.tracked[i]
            kept += 1
        }
        trackedCount = kept
    }

    init(_ kinds: [RecognizerKind], surface: Size, targets: [GestureGraph.TargetState]) {
        var taps: [TapRecognizer] = [], longPresses: [LongPressRecognizer] = [], pans: [PanRecognizer] = []
        var swipes: [SwipeRecognizer] = [], edgeSwipes: [EdgeSwipeRecognizer] = [], pinches: [PinchRecognizer] = []
        var rotates: [RotateRecognizer] = []
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
        storage = Storage(taps: taps, longPresses: longPresses, pans: pans, swipes: swipes, edgeSwipes: edgeSwipes, pinches: pinches, rotates: rotates,
                          targets: targets, tracked: EmptyCollection())
    }

    var indices: Range<Int> { slots.indices }

    /// Hands `input` to recognizer `i` and keeps its bit in `deadlines` (the set of
    /// recognizers with a deadline) true, in the same switch: asking for the deadline
    /// separately dispatched on the kind a second time per input.
    @inline(__always) mutating func handle(_ i: Int, _ input: RecognizerInput, deadlines: inout UInt64) -> RecognizerAction {
        let bit = UInt64(1) << UInt64(i)
        switch slots[i] {
        case let .tap(k): return Self.step(&taps[k], input, bit, &deadlines)
        case let .longPress(k): return Self.step(&longPresses[k], input, bit, &deadlines)
        case let .pan(k): return Self.step(&pans[k], input, bit, &deadlines)
        case let .swipe(k): return Self.step(&swipes[k], input, bit, &deadlines)
        case let .edgeSwipe(k): return Self.step(&edgeSwipes[k], input, bit, &deadlines)
        case let .pinch(k): return Self.step(&pinches[k], input, bit, &deadlines)
        case let .rotate(k): return Self.step(&rotates[k], input, bit, &deadlines)
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
    @inline(__always) func movedWhileActive(_ i: Int, _ s: borrowing GroupSample, fingers: inout Int, position: inout Point, detail: inout GestureDetail) -> Bool {
        switch slots[i] {
        case let .pan(k): return pans[k].movedWhileActive(s, fingers: &fingers, position: &position, detail: &detail)
        case let .edgeSwipe(k): return edgeSwipes[k].movedWhileActive(s, fingers: &fingers, position: &position, detail: &detail)
        case let .pinch(k): return pinches[k].movedWhileActive(s, fingers: &fingers, position: &position, detail: &detail)
        case let .rotate(k): return rotates[k].movedWhileActive(s, fingers: &fingers, position: &position, detail: &detail)
        case .tap, .longPress, .swipe: return false
        }
    }

    @inline(__always) func deadline(_ i: Int) -> Timestamp? {
        switch slots[i] {
        case let .tap(k): return taps[k].deadline
        case let .longPress(k): return longPresses[k].deadline
        case let .pan(k): return pans[k].deadline
        case let .swipe(k): return swipes[k].deadline
        case let .edgeSwipe(k): return edgeSwipes[k].deadline
        case let .pinch(k): return pinches[k].deadline
        case let .rotate(k): return rotates[k].deadline
        }
    }

    /// The current state's name, for transition logs and explain lines.
    func stateName(_ i: Int) -> StaticString {
        switch slots[i] {
        case let .tap(k): return taps[k].state.name
        case let .longPress(k): return longPresses[k].state.name
        case let .pan(k): return pans[k].state.name
        case let .swipe(k): return swipes[k].state.name
        case let .edgeSwipe(k): return edgeSwipes[k].state.name
        case let .pinch(k): return pinches[k].state.name
        case let .rotate(k): return rotates[k].state.name
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
