import TouchlineCore

// GestureGraph's frame path (split from GestureGraph.swift along its MARK, issue 32 item 4):
// a frame's contacts tracked, sampled per target and delivered to the target's members.
extension GestureGraph {
    /// Consumes one frame: first fires the deadlines that fall before it, then delivers its
    /// contacts to the recognizers of the targets they belong to.
    /// A frame that holds a palm (`frame.hasPalm`) is filtered first (GestureGraph+Palms.swift,
    /// docs/gestures.md#palms): a palm never starts or joins a gesture, whoever calls `process`
    /// (the public entry point treated palms as fingers when only the driver, then `ReplayDriver`, filtered them,
    /// issue 32 item 4). One flag test a frame, the one the driver made before.
    public mutating func process(_ frame: TouchFrame, emit: (GestureEvent) -> Void) {
        if frame.hasPalm { return processFilteringPalms(frame, emit: emit) }
        store.makeUnique()
        // Most frames have no deadline pending: tested here, it costs no call.
        if deadlineMask != 0 { fireDeadlines(before: frame.time, emit: emit) }
        // Tracked contacts move on and take the frame's positions, in one pass over spans
        // (every frame's path): loops over a span's own count need no check per index. Both
        // lists are in id order (frames sort by id; ids only grow, and tracked contacts keep
        // their landing order), so the next tracked contact is nearly always the match. Contacts
        // new to the graph are added after, in frame order. The same pass notes which targets
        // have contacts (bit t for target t, when there are at most 64 targets), so the frame's
        // target loops need not search the contacts.
        let incoming = frame.contacts.span
        let guesses = usesFastPaths
        var (newContacts, anyFinal, onTargets) = store.withTrackedMutable { GestureGraph.takePositions(&$0, from: incoming, guesses: guesses) }
        if readsForce { forceChanged = store.withTrackedMutable { GestureGraph.takeForces(&$0, from: incoming) } }
        if newContacts {
            // Hit-tested once, at the first position: a contact belongs to that target (or to
            // none) for its whole life, whatever it slides onto (docs/gestures.md#arbitration).
            for c in frame.contacts where c.phase == .began && !store.withTracked({ $0.contains(id: c.id) }) {
                guard let landed = hitTest(c.position), case let target = routeLanding(on: landed),
                      store.appendTracked(Tracked(id: c.id, target: target, first: c.position, position: c.position, previous: c.position, phase: .began, isNew: true, tool: c.tool,
                                                  outside: zones.members == 0 ? 0 : zones.outside(c.position, on: surface),
                                                  force: readsForce ? ContactForce(c) : ContactForce()))
                else {
                    ignoredContacts += 1
                    continue
                }
                if target != landed { captured(c.id, on: landed, at: frame.time) }
                onTargets |= 1 &<< UInt64(truncatingIfNeeded: target)
                contactListsValid = 0
            }
            assert(trackedIDsAreUnique, "a contact is tracked twice: \(pendingDescription)")
        }
        // With more than 64 targets the mask cannot name them: search the contacts instead.
        let masked = usesFastPaths && store.targetCount <= 64
        assert(!masked || targetMaskIsExact(onTargets), "the target mask \(onTargets) differs from the contacts")
        if masked {
            // The targets with contacts, lowest first, straight from the mask: a loop over every
            // target tested each one's bit (about 8 instructions a frame for one target).
            var m = onTargets
            while m != 0 {
                let t = m.trailingZeroBitCount
                m &= m &- 1
                deliverFrame(to: t, at: frame.time, emit)
            }
        } else {
            for t in store.targetIndices where hasContacts(on: t) { deliverFrame(to: t, at: frame.time, emit) }
        }
        if anyFinal {
            store.removeFinalTracked()
            contactListsValid = 0
            onTargets = 0
            store.withTracked { tracked in
                for i in tracked.indices { onTargets |= 1 &<< UInt64(truncatingIfNeeded: tracked[i].target) }
            }
        }
        assert(!masked || targetMaskIsExact(onTargets), "the target mask \(onTargets) differs from the contacts")
        // Open arenas whose contacts are all gone are swept, lowest target first. The mask is
        // read again after each sweep (as the loop over targets read each flag when it came to
        // it), from the targets above the last one swept.
        assert(openTargetsAreExact, "the arena's open targets \(arena.openTargets) differ from its flags")
        if masked {
            var above = UInt64.max
            while case let m = arena.openTargets & ~onTargets & above, m != 0 {
                let t = m.trailingZeroBitCount
                above = t == 63 ? 0 : UInt64.max &<< UInt64(t &+ 1)
                sweepAndClose(t, at: frame.time, emit)
            }
        } else {
            for t in store.targetIndices where arena.isOpen(t) && !hasContacts(on: t) { sweepAndClose(t, at: frame.time, emit) }
        }
    }

    /// The tracked contacts move on and take `incoming`'s positions (see `process`); returns
    /// whether a contact of `incoming` is not tracked and began, whether any ended or was
    /// cancelled, and the mask of targets with tracked contacts. A function of its own that
    /// captures nothing: as a closure over `process`'s variables it was not inlined. Without
    /// `guesses`, every contact is searched for (the general path): the guess gives the same
    /// index because a contact is tracked at most once (asserted where contacts are added).
    @inline(__always) static func takePositions(_ tracked: inout MutableSpan<Tracked>, from incoming: Span<Contact>, guesses: Bool) -> (Bool, Bool, UInt64) {
        var newContacts = false
        var anyFinal = false
        var onTargets: UInt64 = 0
        for i in 0..<tracked.count {
            tracked[i].previous = tracked[i].position
            tracked[i].isNew = false
            // No tracked contact is final here (`process` removes them at the end of their
            // frame), so every one is stationary until the frame says otherwise: a store, not a
            // test of the phase (two instructions a contact on every frame).
            assert(!tracked[i].phase.isFinal, "a final contact stayed tracked past its frame")
            tracked[i].phase = .stationary
            onTargets |= 1 &<< UInt64(truncatingIfNeeded: tracked[i].target)
        }
        var next = 0
        for j in 0..<incoming.count {
            let id = incoming[j].id
            var i = next
            if !(guesses && i < tracked.count && tracked[i].id == id) {
                i = 0
                while i < tracked.count && tracked[i].id != id { i &+= 1 }
            }
            // Not tracked: a contact landing now, or one that belongs to no target for its
            // whole life (it landed on none, or beyond `contactCapacity`), which is not
            // hit-tested again.
            guard i < tracked.count else {
                if incoming[j].phase == .began { newContacts = true }
                continue
            }
            let phase = incoming[j].phase
            tracked[i].position = incoming[j].position
            tracked[i].phase = phase == .began ? .moved : phase
            if phase.isFinal { anyFinal = true }
            next = i &+ 1
        }
        return (newContacts, anyFinal, onTargets)
    }

    /// The tracked contacts take `incoming`'s pressure and size; returns the targets (bit t)
    /// whose contacts' changed. Only in a graph that `readsForce`, after `takePositions`.
    @inline(never) static func takeForces(_ tracked: inout MutableSpan<Tracked>, from incoming: Span<Contact>) -> UInt64 {
        var changed: UInt64 = 0
        var next = 0
        for j in 0..<incoming.count {
            let id = incoming[j].id
            var i = next
            if !(i < tracked.count && tracked[i].id == id) {
                i = 0
                while i < tracked.count && tracked[i].id != id { i &+= 1 }
            }
            guard i < tracked.count else { continue }
            let force = ContactForce(incoming[j])
            if force != tracked[i].force {
                tracked[i].force = force
                changed |= 1 &<< UInt64(truncatingIfNeeded: tracked[i].target & 63)
            }
            next = i &+ 1
        }
        return changed
    }

    /// The highest pressure and size of target `t`'s present contacts (ending ones included,
    /// as in the sample), where a present value beats an absent one.
    static func force(_ tracked: Span<Tracked>, on t: Int) -> ContactForce {
        var f = ContactForce()
        for k in tracked.indices where tracked[k].target == t {
            f.pressure = ContactForce.highest(f.pressure, tracked[k].force.pressure)
            f.size = ContactForce.highest(f.size, tracked[k].force.size)
        }
        return f
    }

    /// Ends every contact as cancelled at `time` (end of input, device removed, SIGTERM), after
    /// firing the deadlines before it.
    public mutating func cancelAll(at time: Timestamp, emit: (GestureEvent) -> Void) {
        store.makeUnique()
        guard store.trackedCount > 0 else { return }
        var frame = TouchFrame(time: time)
        for i in 0..<store.trackedCount {
            let c = store[tracked: i]
            frame.contacts.append(Contact(id: c.id, phase: .cancelled, position: c.position, normalized: Point(x: c.position.x / max(surface.width, 1), y: c.position.y / max(surface.height, 1))))
        }
        process(frame, emit: emit)
    }

    @inline(__always) func hasContacts(on target: Int) -> Bool { store.withTracked { $0.contains(target: target) } }

    /// The target a contact landing at `p` belongs to: the topmost target whose rectangle
    /// holds `p` (higher z, then the later declared), unless `p` falls in the minimum hit area
    /// (7 mm square, centred) of a target drawn above it and inside it, a button on a
    /// background: then that target, the nearest if several. So a small target is easy to
    /// hit, but only takes points from what lies under it, never from a neighbour.
    func hitTest(_ point: Point) -> Int? {
        // A contact a little outside the axis range (calibration, wild values) still lands on
        // the nearest edge of the sensor, so the whole-surface target always holds it.
        let p = Point(x: min(max(point.x.isFinite ? point.x : 0, 0), surface.width), y: min(max(point.y.isFinite ? point.y : 0, 0), surface.height))
        var exact: (index: Int, rank: Int)? = nil
        for (rank, t) in hitOrder.enumerated() where store[target: t].rect.contains(p) {
            exact = (t, rank)
            break
        }
        var best: (index: Int, distance: Double)? = nil
        for (rank, t) in hitOrder.enumerated() where store[target: t].hitRect.contains(p) && !store[target: t].rect.contains(p) {
            if let e = exact {
                guard rank < e.rank, store[target: e.index].rect.contains(store[target: t].rect) else { continue }
            }
            let d = store[target: t].rect.distance(to: p)
            if best == nil || d < best!.distance { best = (t, d) }
        }
        return best?.index ?? exact?.index
    }

    mutating func deliverFrame(to t: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        var moved = false
        // A `let`: a `var` sample was copied (128 bytes) for every call that borrows it.
        let lastTime = store[target: t].lastTime
        // Only a rotate pays for the turn (an atan2, a tenth of a two-finger frame): the won
        // long press or pan of a steady gesture never reads it. The general path always takes it.
        // The target's members and those receiving contacts, read once: each read of the
        // arena's tables checks its index, and the closure below kept the compiler from
        // reusing a first read for the zone test and the dispatch (8 instructions a frame).
        let members = arena.members(of: t)
        let receiving = members & arena.status.receiving
        let turns = !usesFastPaths || receiving & rotationReaders != 0
        let s: GroupSample = store.withTracked { tracked in
            if usesFastPaths, tracked.count == 2, tracked[0].target == t, tracked[1].target == t, !tracked[0].isNew, !tracked[1].isNew {
                let s = GestureGraph.samplePair(tracked[0], tracked[1], at: time, lastTime: lastTime, turns: turns, moved: &moved)
                assert(GestureGraph.generalSampleEquals(s, moved: moved, tracked, on: t, at: time, lastTime: lastTime, turns: turns), "samplePair differs from sample")
                return s
            }
            return GestureGraph.sample(tracked, on: t, at: time, lastTime: lastTime, turns: turns, moved: &moved)
        }
        // A zoned recognizer (an edge swipe) receiving contacts while a contact of the target
        // is outside its zone is given its own contacts only (`deliverSplit`): it never adopts
        // a finger landing mid-screen. A graph without one pays one test a frame.
        if zones.members & receiving != 0 {
            let split = splitMembers(on: t)
            if split != 0 { return deliverSplit(to: t, split, s, moved: moved, lastTime: lastTime, turns: turns, at: time, emit) }
        }
        if readsForce { return deliverFrameReadingForce(to: t, s, moved: moved, members: members, owners: 0, at: time, emit) }
        dispatchFrame(to: t, s, moved: moved, members: members, owners: 0, at: time, emit)
    }

    /// The zoned members of target `t` receiving contacts whose zone a contact of `t` is
    /// outside (bit i: member i).
    @inline(__always) func splitMembers(on t: Int) -> UInt64 {
        let outside = store.withTracked { GestureGraph.outsideBits($0, on: t) }
        guard outside != 0 else { return 0 }
        var split: UInt64 = 0
        for i in MemberIndices(zones.members & arena.members(of: t) & arena.status.receiving) where zones.bits[i] & outside != 0 {
            split |= 1 &<< UInt64(i)
        }
        return split
    }

    /// The zone bits of every contact of target `t`, or'ed.
    @inline(__always) static func outsideBits(_ tracked: Span<Tracked>, on t: Int) -> UInt8 {
        var bits: UInt8 = 0
        for k in tracked.indices where tracked[k].target == t { bits |= tracked[k].outside }
        return bits
    }

    /// A frame of target `t` where the zoned members `split` receive contacts and a contact of
    /// the target is outside their zone (docs/gestures.md#contacts-a-recognizer-takes): each of
    /// them first hears its own contacts only, as a frame's inputs (landed, moved, lifted,
    /// cancelled: what its own contacts did), then the other members the target's sample as
    /// any frame. The owners before the frame count for the finger-count rule, so when an edge
    /// swipe's own finger lifts and ends it, the finger it did not take gets a new round (as
    /// if it had just landed: every member hears it, the edge swipe refuses it there).
    @inline(never) mutating func deliverSplit(to t: Int, _ split: UInt64, _ s: GroupSample, moved: Bool, lastTime: Timestamp?, turns: Bool,
                                              at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        let owners = arena.owners(of: t)
        for i in MemberIndices(split) where arena.status[i].receivesContacts {
            var ownMoved = false
            let excluding = zones.bits[i]
            var own = store.withTracked { GestureGraph.sample($0, on: t, at: time, lastTime: lastTime, turns: turns, excluding: excluding, moved: &ownMoved) }
            if readsForce {
                // The target's pressure and size (a zoned kind reads neither today).
                let f = store.withTracked { GestureGraph.force($0, on: t) }
                own.pressureLevel = f.pressure
                own.sizeLevel = f.size
            }
            deliverOwn(i, own, moved: ownMoved, emit)
        }
        let others = arena.members(of: t) & ~split
        if readsForce { return deliverFrameReadingForce(to: t, s, moved: moved, members: others, owners: owners, at: time, emit) }
        dispatchFrame(to: t, s, moved: moved, members: others, owners: owners, at: time, emit)
    }

    /// Member `i`'s own sample, as the inputs a frame gives (`deliverCountChange`'s order);
    /// nothing when none of its contacts is in the frame.
    mutating func deliverOwn(_ i: Int, _ s: GroupSample, moved: Bool, _ emit: (GestureEvent) -> Void) {
        guard s.present > 0 else { return }
        if s.began > 0 {
            arena.contactLanded(i)
            if arena.status[i].receivesContacts { deliver(i, .contactDown(s), emit) }
        }
        if moved && arena.status[i].receivesContacts { deliverMovedInput(i, s, emit) }
        if s.ended > 0 && arena.status[i].receivesContacts { deliver(i, .contactLifted(s), emit) }
        if s.cancelled > 0 && arena.status[i].receivesContacts { deliver(i, .contactCancelled(s), emit) }
    }

    /// Target `t`'s contacts member `i` takes: those in its landing zone (all of them for a
    /// member without one). Its events and its win carry these.
    mutating func ownContactList(_ i: Int, on t: Int) -> ContactList {
        let bit = zones.bits[i]
        guard bit != 0 else { return contactList(on: t) }
        var list = ContactList()
        // Through the checked subscript, not a span in a closure (GestureGraph+Palms.swift).
        for k in 0..<store.trackedCount where store[tracked: k].target == t && store[tracked: k].outside & bit == 0 {
            list.append(store[tracked: k].id)
            if store[tracked: k].tool != .finger { list.tool = store[tracked: k].tool }
        }
        return list
    }

    /// `deliverFrame` in a graph that `readsForce`: the sample gets the contacts' pressure and
    /// size, and a change of either counts as motion (a finger pressing harder in place sends
    /// frames whose positions do not change). Not inlined: the default graph never comes here.
    @inline(never) mutating func deliverFrameReadingForce(to t: Int, _ sample: GroupSample, moved: Bool, members: UInt64, owners: UInt64,
                                                          at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        var s = sample
        let f = store.withTracked { GestureGraph.force($0, on: t) }
        s.pressureLevel = f.pressure
        s.sizeLevel = f.size
        let changed = t >= 64 || forceChanged & (1 &<< UInt64(t)) != 0
        dispatchFrame(to: t, s, moved: moved || changed, members: members, owners: owners, at: time, emit)
    }


    /// `members`: those that hear the target's sample (all but the split ones,
    /// `deliverSplit`); `owners`: winners before the frame besides those the rule finds.
    @inline(__always) mutating func dispatchFrame(to t: Int, _ s: GroupSample, moved: Bool, members: UInt64, owners: UInt64, at time: Timestamp,
                                                  _ emit: (GestureEvent) -> Void) {
        // One access for both (each access checks the index).
        store[target: t].sampled(at: time, centroid: s.centroid)
        // The same three tests the frame made before the finger-count rule, now made first:
        // a frame where no contact lands or leaves (every frame of a gesture in progress) pays
        // nothing for the rule.
        if s.began > 0 || s.ended > 0 || s.cancelled > 0 {
            deliverCountChange(to: t, members: members, owners: owners, s, moved: moved, at: time, emit)
        } else if moved {
            deliverMoved(to: t, members: members, s, at: time, emit)
        }
    }
}
