// The one place in TouchlineGestures that touches memory through pointers: the graph's storage
// (the recognizers, one buffer per kind, the targets' state and the tracked contacts) in one
// class, changed in place without a uniqueness check per access. Everything leaves this file
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
/// A recognizer handles its input in place in its buffer: going through `AnyRecognizer` copied
/// the whole recognizer out of the enum and back on every input (a pan, pinch or rotate holds
/// a ~200-byte velocity estimator), which was the largest cost of a frame
/// (docs/performance.md). Still no existentials and no dynamic dispatch (principle 10). The
/// dispatch on a recognizer's kind is in GraphStore.swift.
struct GraphStore: Sendable {
    /// Where each recognizer lives, by declaration index.
    let slots: [Slot]
    private var storage: Storage
    /// How many of the storage's `contactCapacity` contacts are tracked (a value, so a copy of
    /// the graph keeps its own).
    private(set) var trackedCount = 0

    init(slots: [Slot], taps: [TapRecognizer], longPresses: [LongPressRecognizer], pans: [PanRecognizer], swipes: [SwipeRecognizer],
         edgeSwipes: [EdgeSwipeRecognizer], pinches: [PinchRecognizer], rotates: [RotateRecognizer], targets: [GestureGraph.TargetState]) {
        self.slots = slots
        storage = Storage(taps: taps, longPresses: longPresses, pans: pans, swipes: swipes, edgeSwipes: edgeSwipes, pinches: pinches,
                          rotates: rotates, targets: targets, tracked: EmptyCollection())
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

    // MARK: Recognizers, targets and contacts by index, checked

    // Addressors, so that `&store[pan: k]` changes the recognizer where it lives (a getter and
    // a setter copied it out and back). `checkedAddress` checks the index before the address
    // is made.

    subscript(tap k: Int) -> TapRecognizer {
        unsafeAddress { UnsafePointer(storage.taps.checkedAddress(k)) }
        unsafeMutableAddress { writable().taps.checkedAddress(k) }
    }
    subscript(longPress k: Int) -> LongPressRecognizer {
        unsafeAddress { UnsafePointer(storage.longPresses.checkedAddress(k)) }
        unsafeMutableAddress { writable().longPresses.checkedAddress(k) }
    }
    subscript(pan k: Int) -> PanRecognizer {
        unsafeAddress { UnsafePointer(storage.pans.checkedAddress(k)) }
        unsafeMutableAddress { writable().pans.checkedAddress(k) }
    }
    subscript(swipe k: Int) -> SwipeRecognizer {
        unsafeAddress { UnsafePointer(storage.swipes.checkedAddress(k)) }
        unsafeMutableAddress { writable().swipes.checkedAddress(k) }
    }
    subscript(edgeSwipe k: Int) -> EdgeSwipeRecognizer {
        unsafeAddress { UnsafePointer(storage.edgeSwipes.checkedAddress(k)) }
        unsafeMutableAddress { writable().edgeSwipes.checkedAddress(k) }
    }
    subscript(pinch k: Int) -> PinchRecognizer {
        unsafeAddress { UnsafePointer(storage.pinches.checkedAddress(k)) }
        unsafeMutableAddress { writable().pinches.checkedAddress(k) }
    }
    subscript(rotate k: Int) -> RotateRecognizer {
        unsafeAddress { UnsafePointer(storage.rotates.checkedAddress(k)) }
        unsafeMutableAddress { writable().rotates.checkedAddress(k) }
    }

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
    /// exclusivity check); their elements are changed in place, only through `GraphStore`'s
    /// checked accessors above.
    ///
    /// `@unchecked Sendable`, justified: the buffers are written only through a `GraphStore`
    /// whose storage was made unique first (`makeUnique()` at every mutating entry point, and
    /// `writable()` asserts it at every write), so a storage shared by two graphs (after a copy,
    /// possibly on two threads) is only ever read, and one that is written has a single owner,
    /// which Swift's exclusivity rules hold to one thread at a time. The buffers never escape:
    /// the class and its fields are private to this file.
    private final class Storage: @unchecked Sendable {
        let taps: UnsafeMutableBufferPointer<TapRecognizer>
        let longPresses: UnsafeMutableBufferPointer<LongPressRecognizer>
        let pans: UnsafeMutableBufferPointer<PanRecognizer>
        let swipes: UnsafeMutableBufferPointer<SwipeRecognizer>
        let edgeSwipes: UnsafeMutableBufferPointer<EdgeSwipeRecognizer>
        let pinches: UnsafeMutableBufferPointer<PinchRecognizer>
        let rotates: UnsafeMutableBufferPointer<RotateRecognizer>
        let targets: UnsafeMutableBufferPointer<GestureGraph.TargetState>
        /// Room for `GestureGraph.contactCapacity` contacts, the first `trackedCount` of the
        /// store initialized.
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
            // In bounds: a copy passes at most `trackedCount` ≤ contactCapacity contacts.
            precondition(tracked.count <= self.tracked.count, "GraphStore: more contacts than room")
            _ = self.tracked.initialize(from: tracked)
        }

        /// A buffer of exactly `elements.count`, every element initialized.
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
            // Trivial values: the tracked contacts need no deinitializing.
            tracked.deallocate()
        }

        private static func release<R>(_ buffer: UnsafeMutableBufferPointer<R>) {
            buffer.deinitialize().deallocate()
        }
    }
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
