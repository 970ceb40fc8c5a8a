// One of two places in TouchlineGestures that touch memory through pointers (the other is
// UnsafeGestureDetail.swift): the graph's storage (the recognizers of every kind in one buffer,
// the targets' state and the tracked contacts) in one class, changed in place without a uniqueness check per access. Everything leaves this file
// through accessors that check the index first (subscripts) or through spans that cannot
// outlive the call (`withTracked`, `withTrackedMutable`); no pointer leaves it, and none is in
// a public or package signature.

import TouchlineCore

/// What a graph changes on every frame, in one storage object, copied on write as a whole: the
/// graph calls `makeUnique()` once at the start of every mutating entry point (`process`,
/// `advance`, `cancelAll`), after which everything is changed in place (arrays check uniqueness
/// on every mutation: the recognizers', the targets' and the contacts' were a call into the
/// runtime each, several per frame). Debug builds check at every write that `makeUnique()` came
/// first, which is what makes `Storage`'s `@unchecked Sendable` true (below).
///
/// A recognizer handles its input in place in the buffer: copying it out and back on every
/// input (a pan, pinch or rotate holds a ~200-byte velocity estimator) was the largest cost of
/// a frame (docs/performance.md). Recognizers come from a table (RecognizerKind.swift): each
/// slot names its kind, and one indirect call through the kind's conformance reaches the kind's
/// own code, specialized, with the recognizer in place. No existential value is held and
/// nothing is allocated per frame (principle 10).
struct GraphStore: Sendable {
    /// Where each recognizer lives, by declaration index.
    let slots: [Slot]
    private var storage: Storage
    /// How many of the storage's `contactCapacity` contacts are tracked (a value, so a copy of
    /// the graph keeps its own).
    private(set) var trackedCount = 0

    /// Recognizer `i`'s kind and its place in the storage.
    struct Slot: Sendable {
        /// The kind's side of the dispatch (`StoredKind`, below).
        let kind: any StoredKind.Type
        /// Byte offset in the recognizers' buffer, aligned for the kind.
        let offset: Int
        /// The kind has a per-frame fast path (`movedWhileActive`): asked here, the others cost
        /// no call.
        let continuesInPlace: Bool
    }

    init(_ kinds: [RecognizerKind], surface: Size, targets: [GestureGraph.TargetState]) {
        var slots: [Slot] = []
        var size = 0
        for kind in kinds {
            let stored = GraphStore.stored(kind.recognizer)
            let (stride, alignment) = stored.layout
            let offset = (size + alignment - 1) / alignment * alignment
            slots.append(Slot(kind: stored, offset: offset, continuesInPlace: kind.recognizer.continuesInPlace))
            size = offset + stride
        }
        self.slots = slots
        storage = Storage(recognizerBytes: size, targets: targets, tracked: EmptyCollection())
        for (slot, kind) in zip(slots, kinds) {
            // The kind and its parameters come from one RecognizerKind, so they match; a kind
            // whose parameters do not (our bug) is left at its defaults.
            if !slot.kind.cellInitialize(RecognizerCell(storage.recognizers + slot.offset), kind, surface: surface) {
                _ = slot.kind.cellInitialize(RecognizerCell(storage.recognizers + slot.offset), RecognizerKind(defaultsOf: kind.recognizer), surface: surface)
            }
        }
    }

    var indices: Range<Int> { slots.indices }

    /// A kind's side of the dispatch: its own, specialized, for a kind of this module (listed
    /// below); `InPlace<R>`, generic, for a kind written elsewhere.
    static func stored(_ recognizer: any GestureRecognizer.Type) -> any StoredKind.Type {
        if let own = recognizer as? any StoredKind.Type { return own }
        // A kind of this module that is not listed would work, but slower: tests run debug builds.
        assert(!RecognizerRegistry.standard.kinds.contains { $0 == recognizer }, "\(recognizer) is not listed as a StoredKind")
        func foreign<R: GestureRecognizer>(_: R.Type) -> any StoredKind.Type { InPlace<R>.self }
        return foreign(recognizer)
    }

    /// Recognizer `i` made anew, idle, with `kind`'s parameters (the same kind as before, so
    /// the slot's size and alignment hold): a round a pen starts, or a finger's after it
    /// (GestureGraph+Pens.swift). The recognizers are BitwiseCopyable: nothing to deinitialize.
    mutating func reinitialize(_ i: Int, _ kind: RecognizerKind, surface: Size) {
        let storage = writable()
        let slot = slots[i]
        _ = slot.kind.cellInitialize(RecognizerCell(storage.recognizers + slot.offset), kind, surface: surface)
    }

    /// Before any change: a graph that was copied gets its own storage.
    @inline(__always) mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(trackedCount: trackedCount) }
    }

    /// Every write goes through here first: the storage it writes is this store's alone
    /// (`makeUnique()` ran). Checked in debug builds, where the tests run; free in release.
    @inline(__always) private mutating func writable() -> Storage {
        assert(isKnownUniquelyReferenced(&storage), "GraphStore: written before makeUnique()")
        return storage
    }

    // MARK: Recognizers, by declaration index, through their kind

    /// Recognizer `i`'s cell: `slots[i]` (checked) names an offset inside the buffer, made
    /// for the kind at that offset.
    @inline(__always) private func cell(_ slot: Slot) -> RecognizerCell { RecognizerCell(storage.recognizers + slot.offset) }

    /// Hands `input` to recognizer `i` and keeps its bit in `deadlines` (the set of
    /// recognizers with a deadline) true, in the same call.
    @inline(__always) mutating func handle(_ i: Int, _ input: RecognizerInput, deadlines: inout UInt64) -> RecognizerAction {
        let slot = slots[i]
        _ = writable()
        return slot.kind.cellHandle(cell(slot), input, UInt64(1) << UInt64(i & 63), &deadlines)
    }

    /// `handle(i, .contactsMoved(s))`, with the input made inside the kind's own code (made
    /// here, the whole sample was copied into it before the call).
    @inline(__always) mutating func moved(_ i: Int, _ s: borrowing GroupSample, deadlines: inout UInt64) -> RecognizerAction {
        let slot = slots[i]
        _ = writable()
        return slot.kind.cellMoved(cell(slot), s, UInt64(1) << UInt64(i & 63), &deadlines)
    }

    /// Contacts moved and recognizer `i` is an active continuous one: it updates in place and
    /// writes its `changed` event's own fields; false (nothing done) for any other.
    @inline(__always) mutating func movedWhileActive(_ i: Int, _ s: borrowing GroupSample, fingers: inout Int, position: inout Point, detail: inout GestureDetail) -> Bool {
        let slot = slots[i]
        guard slot.continuesInPlace else { return false }
        _ = writable()
        return slot.kind.cellMovedWhileActive(cell(slot), s, &fingers, &position, &detail)
    }

    /// Hands a carry's input to recognizer `i` (a carrier), keeping `deadlines` true.
    mutating func carried(_ i: Int, _ input: CarryInput, deadlines: inout UInt64) -> RecognizerAction {
        let slot = slots[i]
        _ = writable()
        return slot.kind.cellCarried(cell(slot), input, UInt64(1) << UInt64(i & 63), &deadlines)
    }

    @inline(__always) func deadline(_ i: Int) -> Timestamp? {
        let slot = slots[i]
        return slot.kind.cellDeadline(cell(slot))
    }

    /// The current state's name, for transition logs and explain lines.
    func stateName(_ i: Int) -> StaticString {
        let slot = slots[i]
        return slot.kind.cellStateName(cell(slot))
    }

    // MARK: Targets and contacts by index, checked

    /// Target `t`'s state.
    subscript(target t: Int) -> GestureGraph.TargetState {
        unsafeAddress { UnsafePointer(storage.targets.checkedAddress(t)) }
        unsafeMutableAddress { writable().targets.checkedAddress(t) }
    }
    var targetCount: Int { storage.targets.count }
    var targetIndices: Range<Int> { 0..<storage.targets.count }

    /// Tracked contact `i` (in landing order), checked against the contacts in use, not the
    /// room for them.
    subscript(tracked i: Int) -> GestureGraph.Tracked {
        unsafeAddress {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: trackedCount), "GraphStore: tracked contact index out of range")
            return UnsafePointer(storage.tracked.checkedAddress(i))
        }
    }

    /// The tracked contacts, in landing order, for the length of `body`.
    @inline(__always) func withTracked<R>(_ body: (Span<GestureGraph.Tracked>) -> R) -> R {
        // In bounds: the first `trackedCount` elements, which are initialized (appendTracked
        // and removeFinalTracked keep trackedCount ≤ the buffer's count). A local, not the
        // class's field, backs the span (the optimizer crashed on the field).
        let tracked = UnsafeBufferPointer(rebasing: storage.tracked[..<trackedCount])
        return body(Span(_unsafeElements: tracked))
    }

    /// The tracked contacts, changed in place for the length of `body` (no contact added or
    /// removed: `appendTracked` and `removeFinalTracked` do that).
    @inline(__always) mutating func withTrackedMutable<R>(_ body: (inout MutableSpan<GestureGraph.Tracked>) -> R) -> R {
        // In bounds: as `withTracked`.
        let tracked = UnsafeMutableBufferPointer(rebasing: writable().tracked[..<trackedCount])
        var span = MutableSpan(_unsafeElements: tracked)
        return body(&span)
    }

    /// Adds a contact; false when the storage's room (`GestureGraph.contactCapacity`) is full.
    mutating func appendTracked(_ contact: GestureGraph.Tracked) -> Bool {
        let storage = writable()
        guard trackedCount < storage.tracked.count else { return false }
        // In bounds: checked just above.
        storage.tracked.initializeElement(at: trackedCount, to: contact)
        trackedCount += 1
        return true
    }

    /// Removes the contacts that ended or were cancelled, keeping the others' order.
    mutating func removeFinalTracked() {
        let kept = withTrackedMutable { tracked -> Int in
            var kept = 0
            for i in tracked.indices where !tracked[i].phase.isFinal {
                tracked[kept] = tracked[i]
                kept += 1
            }
            return kept
        }
        // Trivial values: those past `kept` need no deinitializing.
        trackedCount = kept
    }

    /// The buffers this object owns. The buffers are constants (reading them takes no
    /// exclusivity check); their contents are changed in place, only through `GraphStore`'s
    /// checked accessors above.
    ///
    /// `@unchecked Sendable`, justified: the buffers are written only through a `GraphStore`
    /// whose storage was made unique first (`makeUnique()` at every mutating entry point, and
    /// `writable()` asserts it at every write), so a storage shared by two graphs (after a copy,
    /// possibly on two threads) is only ever read, and one that is written has a single owner,
    /// which Swift's exclusivity rules hold to one thread at a time. The buffers never escape:
    /// the class and its fields are private to this file.
    private final class Storage: @unchecked Sendable {
        /// Every recognizer, each at its slot's offset (BitwiseCopyable values: copied as bytes,
        /// nothing to deinitialize).
        let recognizers: UnsafeMutableRawPointer
        let recognizerBytes: Int
        let targets: UnsafeMutableBufferPointer<GestureGraph.TargetState>
        /// Room for `GestureGraph.contactCapacity` contacts, the first `trackedCount` of the
        /// store initialized.
        let tracked: UnsafeMutableBufferPointer<GestureGraph.Tracked>

        /// Recognizers are laid out at offsets aligned for their kind, from a base aligned for
        /// any of them (no Swift value needs more than 16 bytes).
        static let alignment = 16

        init(recognizerBytes: Int, targets: some Collection<GestureGraph.TargetState>, tracked: some Collection<GestureGraph.Tracked>) {
            self.recognizerBytes = recognizerBytes
            recognizers = UnsafeMutableRawPointer.allocate(byteCount: max(recognizerBytes, 1), alignment: Storage.alignment)
            self.targets = UnsafeMutableBufferPointer.allocate(capacity: targets.count)
            _ = self.targets.initialize(from: targets)
            self.tracked = UnsafeMutableBufferPointer.allocate(capacity: GestureGraph.contactCapacity)
            // In bounds: a copy passes at most `trackedCount` ≤ contactCapacity contacts.
            precondition(tracked.count <= self.tracked.count, "GraphStore: more contacts than room")
            _ = self.tracked.initialize(from: tracked)
        }

        /// A copy with the first `trackedCount` contacts.
        func copy(trackedCount: Int) -> Storage {
            let copy = Storage(recognizerBytes: recognizerBytes, targets: targets, tracked: tracked.prefix(trackedCount))
            // Both buffers hold `recognizerBytes` bytes of BitwiseCopyable values.
            copy.recognizers.copyMemory(from: recognizers, byteCount: recognizerBytes)
            return copy
        }

        deinit {
            recognizers.deallocate()
            targets.deinitialize().deallocate()
            // Trivial values: the tracked contacts need no deinitializing.
            tracked.deallocate()
        }
    }
}

/// Where one recognizer lives in a graph's storage: handed by the graph to its kind's
/// `StoredKind` functions below. Opaque: no pointer is visible outside this file.
struct RecognizerCell {
    let address: UnsafeMutableRawPointer
    init(_ address: UnsafeMutableRawPointer) { self.address = address }
}

/// The graph's side of a kind (GraphStore above): how its recognizer is laid out, made, handed
/// an input and read, in place in the storage. Internal, so a kind written in another module
/// sees none of it. The kinds of this module conform (listed below), so that one indirect call
/// through the conformance reaches the kind's own code, specialized, with the recognizer in
/// place; a kind written elsewhere is reached through `InPlace<R>`, the same code, generic.
protocol StoredKind: Sendable {
    static var layout: (stride: Int, alignment: Int) { get }
    static func cellInitialize(_ cell: RecognizerCell, _ kind: RecognizerKind, surface: Size) -> Bool
    static func cellHandle(_ cell: RecognizerCell, _ input: RecognizerInput, _ bit: UInt64, _ deadlines: inout UInt64) -> RecognizerAction
    static func cellMoved(_ cell: RecognizerCell, _ s: borrowing GroupSample, _ bit: UInt64, _ deadlines: inout UInt64) -> RecognizerAction
    static func cellMovedWhileActive(_ cell: RecognizerCell, _ s: borrowing GroupSample, _ fingers: inout Int, _ position: inout Point,
                                     _ detail: inout GestureDetail) -> Bool
    static func cellDeadline(_ cell: RecognizerCell) -> Timestamp?
    static func cellCarried(_ cell: RecognizerCell, _ input: CarryInput, _ bit: UInt64, _ deadlines: inout UInt64) -> RecognizerAction
    static func cellStateName(_ cell: RecognizerCell) -> StaticString
}

// The shipped kinds. One that is not listed still works, through `InPlace` (slower; debug
// builds assert that every standard kind is listed).
extension TapRecognizer: StoredKind {}
extension LongPressRecognizer: StoredKind {}
extension PanRecognizer: StoredKind {}
extension SwipeRecognizer: StoredKind {}
extension EdgeSwipeRecognizer: StoredKind {}
extension PinchRecognizer: StoredKind {}
extension RotateRecognizer: StoredKind {}
extension PeekRecognizer: StoredKind {}
extension DragRecognizer: StoredKind {}
extension SpringRecognizer: StoredKind {}

// A kind of this module: its witnesses are `InPlace`'s code inlined for it.
extension StoredKind where Self: GestureRecognizer {
    static var layout: (stride: Int, alignment: Int) { InPlace<Self>.layout }
    static func cellInitialize(_ cell: RecognizerCell, _ kind: RecognizerKind, surface: Size) -> Bool {
        InPlace<Self>.cellInitialize(cell, kind, surface: surface)
    }
    static func cellHandle(_ cell: RecognizerCell, _ input: RecognizerInput, _ bit: UInt64, _ deadlines: inout UInt64) -> RecognizerAction {
        InPlace<Self>.cellHandle(cell, input, bit, &deadlines)
    }
    static func cellMoved(_ cell: RecognizerCell, _ s: borrowing GroupSample, _ bit: UInt64, _ deadlines: inout UInt64) -> RecognizerAction {
        InPlace<Self>.cellMoved(cell, s, bit, &deadlines)
    }
    static func cellMovedWhileActive(_ cell: RecognizerCell, _ s: borrowing GroupSample, _ fingers: inout Int, _ position: inout Point,
                                     _ detail: inout GestureDetail) -> Bool {
        InPlace<Self>.cellMovedWhileActive(cell, s, &fingers, &position, &detail)
    }
    static func cellDeadline(_ cell: RecognizerCell) -> Timestamp? { InPlace<Self>.cellDeadline(cell) }
    static func cellCarried(_ cell: RecognizerCell, _ input: CarryInput, _ bit: UInt64, _ deadlines: inout UInt64) -> RecognizerAction {
        InPlace<Self>.cellCarried(cell, input, bit, &deadlines)
    }
    static func cellStateName(_ cell: RecognizerCell) -> StaticString { InPlace<Self>.cellStateName(cell) }
}

/// The kind's side of the graph's dispatch, written once for every kind `R`.
enum InPlace<R: GestureRecognizer>: StoredKind {
    @inline(__always) private static func recognizer(_ cell: RecognizerCell) -> UnsafeMutablePointer<R> {
        // The cell is at a slot's offset, which GraphStore.init laid out and initialized for
        // this kind (the slot's kind is the one this is called for).
        cell.address.assumingMemoryBound(to: R.self)
    }

    @inline(__always) static var layout: (stride: Int, alignment: Int) { (MemoryLayout<R>.stride, MemoryLayout<R>.alignment) }

    @inline(__always) static func cellInitialize(_ cell: RecognizerCell, _ kind: RecognizerKind, surface: Size) -> Bool {
        guard let parameters = kind.parameters(of: R.self) else { return false }
        // Uninitialized memory of this kind's size and alignment at the slot's offset.
        cell.address.initializeMemory(as: R.self, to: R(parameters: parameters, surface: surface))
        return true
    }

    @inline(__always) static func cellHandle(_ cell: RecognizerCell, _ input: RecognizerInput, _ bit: UInt64, _ deadlines: inout UInt64) -> RecognizerAction {
        let r = recognizer(cell)
        let action = r.pointee.handle(input)
        deadlines = r.pointee.deadline != nil ? deadlines | bit : deadlines & ~bit
        return action
    }

    @inline(__always) static func cellMoved(_ cell: RecognizerCell, _ s: borrowing GroupSample, _ bit: UInt64, _ deadlines: inout UInt64) -> RecognizerAction {
        let r = recognizer(cell)
        let action = r.pointee.handle(.contactsMoved(copy s))
        deadlines = r.pointee.deadline != nil ? deadlines | bit : deadlines & ~bit
        return action
    }

    @inline(__always) static func cellMovedWhileActive(_ cell: RecognizerCell, _ s: borrowing GroupSample, _ fingers: inout Int, _ position: inout Point,
                                                       _ detail: inout GestureDetail) -> Bool {
        recognizer(cell).pointee.movedWhileActive(s, fingers: &fingers, position: &position, detail: &detail)
    }

    @inline(__always) static func cellDeadline(_ cell: RecognizerCell) -> Timestamp? { recognizer(cell).pointee.deadline }

    @inline(__always) static func cellCarried(_ cell: RecognizerCell, _ input: CarryInput, _ bit: UInt64, _ deadlines: inout UInt64) -> RecognizerAction {
        let r = recognizer(cell)
        let action = r.pointee.carried(input)
        deadlines = r.pointee.deadline != nil ? deadlines | bit : deadlines & ~bit
        return action
    }

    @inline(__always) static func cellStateName(_ cell: RecognizerCell) -> StaticString { recognizer(cell).pointee.stateName }
}

extension UnsafeMutableBufferPointer {
    /// Element `i`'s address, made only after checking that `i` lies in the buffer (one
    /// unsigned compare: a negative `i` is larger than any count). A buffer with an element has
    /// a base address.
    @inline(__always) fileprivate func checkedAddress(_ i: Int) -> UnsafeMutablePointer<Element> {
        precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "GraphStore: index out of range")
        return baseAddress.unsafelyUnwrapped + i
    }
}

extension GestureGraph {
    /// The sample of contacts in an unsafe buffer, as `SampleTests` hands them (an array's
    /// buffer): the span covers exactly that buffer, so it stays in bounds.
    static func sample(_ contacts: UnsafeBufferPointer<Tracked>, on t: Int, at time: Timestamp, lastTime: Timestamp?, moved: inout Bool) -> GroupSample {
        sample(Span(_unsafeElements: contacts), on: t, at: time, lastTime: lastTime, moved: &moved)
    }
}
