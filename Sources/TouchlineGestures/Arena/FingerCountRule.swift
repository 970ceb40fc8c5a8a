import TouchlineCore

// The finger-count rule's part of the graph (docs/gestures.md#finger-count-changes): frames
// where contacts land, lift or are cancelled, the end of a gesture by count, and the first
// input of a new round. Every frame where no contact lands or leaves stays in
// GestureGraph+Frames.swift's `deliverFrame` and never comes here.
extension GestureGraph {
    /// A frame where contacts of target `t` landed, lifted or were cancelled: the inputs in
    /// their order, then the finger-count rule (docs/gestures.md#finger-count-changes). The
    /// members that had won the contacts before the change (before the landing, or before the
    /// lift, for one that won in this frame's motion) are the owners; a winner that does not
    /// take the new count ends itself (`endByCount`), and when no owner goes on while contacts
    /// stay down, the arena opens a new round for them.
    /// `members`: those that hear the target's sample (all of them but a zoned recognizer
    /// that heard its own contacts, `deliverSplit`, whose win before the frame is in `owners`).
    @inline(never) mutating func deliverCountChange(to t: Int, members: UInt64, owners before: UInt64 = 0, _ s: GroupSample, moved: Bool, at time: Timestamp,
                                                    _ emit: (GestureEvent) -> Void) {
        // A carry's captured contacts open no arena (docs/gestures.md#carrying).
        if t == carry.captureTarget { return capturedCountChange(at: time, emit) }
        var owners: UInt64 = before
        if s.began > 0 {
            owners |= arena.owners(of: t)
            // A new arena: its members take the parameters of the tool that starts it.
            if hasPenKinds && !arena.isOpen(t) { takeParametersOfTheLandingTool(on: t) }
            openArena(t, at: time)
            let input = RecognizerInput.contactDown(s)
            for i in MemberIndices(members) {
                arena.contactLanded(i)
                if arena.status[i].receivesContacts { deliver(i, input, emit) }
            }
        }
        if moved {
            deliverMoved(to: t, members: members, s, at: time, emit)
        }
        if s.ended > 0 {
            owners |= arena.owners(of: t)
            let input = RecognizerInput.contactLifted(s)
            for i in MemberIndices(members) { if arena.status[i].receivesContacts { deliver(i, input, emit) } }
        }
        if s.cancelled > 0 {
            owners |= arena.owners(of: t)
            let input = RecognizerInput.contactCancelled(s)
            for i in MemberIndices(members) { if arena.status[i].receivesContacts { deliver(i, input, emit) } }
        }
        if owners != 0 && s.remaining > 0 && openNewRound(t, at: time, emit) {
            // Every member: a new round is its contacts landing again.
            startRound(on: t, members: arena.members(of: t), at: time, emit)
        }
    }

    /// The first input of a new round on target `t`: its contacts still down, as if they had
    /// just gone down here (their travel is measured from here on, `began` counts only those
    /// that landed in this frame), to every member in declaration order.
    mutating func startRound(on t: Int, members: UInt64, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        // Locals: the closure below may not read `self` while the store is written.
        let zones = self.zones, surface = self.surface
        let s: GroupSample = store.withTrackedMutable { tracked in
            var s = GroupSample(time: time)
            var present: Int32 = 0, began: Int32 = 0
            var sum = Vector.zero
            // Absent unless the graph `readsForce` (then the contacts carry them).
            var force = ContactForce()
            for k in 0..<tracked.count where tracked[k].target == t && !tracked[k].phase.isFinal {
                tracked[k].first = tracked[k].position
                // As if it landed here: the zones it is outside now (docs/gestures.md#contacts-a-recognizer-takes).
                if zones.members != 0 { tracked[k].outside = zones.outside(tracked[k].position, on: surface) }
                present &+= 1
                if tracked[k].isNew { began &+= 1 }
                force.pressure = ContactForce.highest(force.pressure, tracked[k].force.pressure)
                force.size = ContactForce.highest(force.size, tracked[k].force.size)
                sum = Vector(dx: sum.dx + tracked[k].position.x, dy: sum.dy + tracked[k].position.y)
            }
            guard present > 0 else { return s }
            let n = Double(present)
            let centroid = Point(x: sum.dx / n, y: sum.dy / n)
            var spread = 0.0
            for k in 0..<tracked.count where tracked[k].target == t && !tracked[k].phase.isFinal {
                spread += tracked[k].position.distance(to: centroid)
            }
            s.presentCount = present
            s.remainingCount = present
            s.beganCount = began
            s.centroid = centroid
            s.span = 2 * spread / n
            s.pressureLevel = force.pressure
            s.sizeLevel = force.size
            return s
        }
        let input = RecognizerInput.contactDown(s)
        for i in MemberIndices(members) where arena.status[i].receivesContacts { deliver(i, input, emit) }
    }

    /// The finger-count rule (docs/gestures.md#finger-count-changes): the reason, then the last
    /// event; the frame's end opens a new round if no one else owns the contacts. Not inlined:
    /// only frames where contacts land or lift get here, and inlined it made `apply` too large
    /// to be inlined into every frame's path (11 instructions a frame more).
    @inline(never) mutating func endByCount(_ i: Int, _ e: Emission, count: UInt8, minimum: UInt8, maximum: UInt8, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        guard arena.status[i] == .won else {
            reportBug(i, state: "not won", input: "endByCount", at: time, emit)
            return
        }
        explainLine(i, .ended, .fingers(count: Int(count), minimum: Int(minimum), maximum: Int(maximum)), at: time, emit)
        emitEvent(i, e, at: time, emit)
        finished(i, at: time)
    }
}
