import TouchlineCore

// What the graph's per-frame fast paths (GestureGraph+Frames.swift, GestureGraph+Sample.swift) rely on, checked by `assert` in
// debug builds (free in release) where each fast path is taken. FastPathTests drive the same
// touches through the fast and the general path and compare the events.

extension GestureGraph {
    /// No contact is tracked twice: the guessed index in `takePositions` then finds the one the
    /// search finds. (Not "in id order": frames from a trace may reuse ids or send them in any
    /// order, and the guess only saves a search, so hostile frames must not trip an assert.)
    var trackedIDsAreUnique: Bool {
        // Plain counted loops to the end: with nested `for … in tracked.indices` (and a return
        // from inside), Swift 6.3.1's optimizer crashes on this closure when the module is
        // built for testing (`swift test -c release`, as CI runs FastPathTests: "leaked owned
        // value" of the span in CopyPropagation).
        store.withTracked { tracked in
            let count = tracked.count
            var unique = true
            var i = 0
            while i < count {
                var j = i + 1
                while j < count {
                    if tracked[j].id == tracked[i].id { unique = false }
                    j += 1
                }
                i += 1
            }
            return unique
        }
    }

    /// Bit t of `mask` is set exactly when a tracked contact belongs to target t (the graph has
    /// at most 64 targets when it masks).
    func targetMaskIsExact(_ mask: UInt64) -> Bool {
        for t in store.targetIndices where (mask >> UInt64(t) & 1 != 0) != hasContacts(on: t) { return false }
        return true
    }

    /// Bit t of the arena's `openTargets` is set exactly for the open targets' arenas.
    var openTargetsAreExact: Bool {
        for t in store.targetIndices where t < 64 && (arena.openTargets >> UInt64(t) & 1 != 0) != arena.isOpen(t) { return false }
        return true
    }

    /// The ids of the contacts on target `t`, in tracking order (what a cached list must equal).
    @inline(__always) func recomputedContactList(on t: Int) -> ContactList {
        var list = ContactList()
        store.withTracked { tracked in
            for i in tracked.indices where tracked[i].target == t {
                list.append(tracked[i].id)
                if tracked[i].tool != .finger { list.tool = tracked[i].tool }
            }
        }
        return list
    }

#if DEBUG
    /// `samplePair`'s sample and `moved` are `sample`'s, bit for bit.
    static func generalSampleEquals(_ pair: GroupSample, moved pairMoved: Bool, _ tracked: Span<Tracked>, on t: Int, at time: Timestamp, lastTime: Timestamp?, turns: Bool) -> Bool {
        var moved = false
        let general = sample(tracked, on: t, at: time, lastTime: lastTime, turns: turns, moved: &moved)
        return moved == pairMoved && pair.hasSameBits(as: general)
    }
#else
    // Not compiled in release, where asserts are not evaluated: one more caller of `sample`
    // changed what the optimizer inlined into the frame's path (3 instructions per frame).
    static func generalSampleEquals(_ pair: GroupSample, moved pairMoved: Bool, _ tracked: Span<Tracked>, on t: Int, at time: Timestamp, lastTime: Timestamp?, turns: Bool) -> Bool { true }
#endif
}

extension GroupSample {
    /// Every field equal to `other`'s bit for bit (`==` takes −0 for 0 and no NaN for itself).
    func hasSameBits(as o: GroupSample) -> Bool {
        time == o.time && presentCount == o.presentCount && remainingCount == o.remainingCount && beganCount == o.beganCount
            && endedCount == o.endedCount && cancelledCount == o.cancelledCount
            && centroid.x.bitPattern == o.centroid.x.bitPattern && centroid.y.bitPattern == o.centroid.y.bitPattern
            && span.bitPattern == o.span.bitPattern
            && translationDelta.dx.bitPattern == o.translationDelta.dx.bitPattern && translationDelta.dy.bitPattern == o.translationDelta.dy.bitPattern
            && spanDelta.bitPattern == o.spanDelta.bitPattern && spanRatio.bitPattern == o.spanRatio.bitPattern
            && rotationDelta.bitPattern == o.rotationDelta.bitPattern && maxTravel.bitPattern == o.maxTravel.bitPattern && elapsed == o.elapsed
    }
}
