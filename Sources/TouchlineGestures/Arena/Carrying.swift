import TouchlineCore

// Carrying: the graph's one cross-target mechanism (docs/gestures.md#carrying). Arenas are per
// target and a contact belongs for life to the target it landed on; a drag breaks neither
// rule, but it needs three things no target's own contacts say:
//
// 1. where its contacts are among the *other* targets (`over`), asked by the carrier itself
//    with the `locate` action, so a graph without a carrier never hit-tests after a landing;
// 2. the fingers that tap other draggable targets while it carries (its items): the landing
//    rule sends such a contact to the carry's own capture target instead of its target's
//    arena, so it starts no gesture of its own, and its lift is handed to the carrier;
// 3. the targets it hovers over are told (spring-loading): their hover recognizers are no
//    members of their target's arena and get the carried contacts as their own inputs,
//    entering and leaving. Each competes in an arena of its own (Arena.arenaOf), which the
//    carry opens when it enters the target and sweeps and closes when it leaves, so that its
//    claims, failures and events take the arena's one path, as every other kind's do.
//
// All three are decided here, from one state: which recognizer carries, and which target it
// hovers. The default graph has no carrier kind: `plan` is nil, and the frame's path has no
// test for any of this (the landing, the count change, the deadline and the end of a winner are
// the only places that look, each already off the per-frame path).

/// What a configuration says about carrying, made once; nil for a graph with no carrier kind.
final class CarryPlan: Sendable {
    /// Recognizers whose kind carries (bit i: recognizer i).
    let carriers: UInt64
    /// Each recognizer's drop targets (bit t: target t).
    let dropTargets: [UInt64]
    /// Target t has a carrier-kind member: its contacts are captured while a carry is active.
    let draggable: [Bool]
    /// Each target's hover recognizers.
    let hoverMembers: [UInt64]
    /// Every hover recognizer.
    let hoverMask: UInt64
    /// The capture target's index: after the declared targets, in no hit order, no member.
    let captureTarget: Int

    init?(kinds: [any GestureRecognizer.Type], targetOf: [Int], targetCount: Int, dropTargets: [UInt64]) {
        var carriers: UInt64 = 0, hoverMask: UInt64 = 0
        var draggable = Array(repeating: false, count: targetCount)
        var hoverMembers = Array(repeating: UInt64(0), count: targetCount)
        for (i, kind) in kinds.enumerated() {
            if kind.carries {
                carriers |= 1 << UInt64(i)
                draggable[targetOf[i]] = true
            }
            if kind.hovers {
                hoverMask |= 1 << UInt64(i)
                hoverMembers[targetOf[i]] |= 1 << UInt64(i)
            }
        }
        guard carriers != 0 || hoverMask != 0 else { return nil }
        self.carriers = carriers
        self.dropTargets = dropTargets
        self.draggable = draggable
        self.hoverMembers = hoverMembers
        self.hoverMask = hoverMask
        captureTarget = targetCount
    }
}

/// The carry's state: who carries, what it hovers, which contacts it captured.
struct CarryRoute: Sendable {
    struct Capture: Sendable {
        var id: ContactID
        /// The draggable target it landed on.
        var target: Int
        var landed: Timestamp
    }

    let plan: CarryPlan?
    /// The carrier (a won recognizer whose kind carries), -1 when none.
    var carrier = -1
    /// The target the carrier's point is over, -1 when none.
    var hovered = -1
    /// Contacts captured and still down (at most `GestureGraph.contactCapacity`: they are
    /// tracked contacts; reserved once, so a capture allocates nothing).
    var captures: [Capture] = []

    init(plan: CarryPlan?) {
        self.plan = plan
        if plan != nil { captures.reserveCapacity(GestureGraph.contactCapacity) }
    }

    /// The capture target's index, -1 without a plan.
    var captureTarget: Int { plan?.captureTarget ?? -1 }

    /// The graph's targets and their names, with the capture target after the declared ones
    /// when there is a plan (captured contacts belong to it: no rectangle, no hit order).
    func withCaptureTarget(_ targets: [GestureGraph.TargetState], _ names: [GestureName]) -> ([GestureGraph.TargetState], [GestureName]) {
        guard plan != nil else { return (targets, names) }
        let none = Rect(x: 0, y: 0, width: 0, height: 0)
        return (targets + [GestureGraph.TargetState(rect: none, hitRect: none, z: 0)], names + [GestureName("(captured)")])
    }

    /// Each recognizer's arena (Arena.arenaOf) when a hover recognizer's is not its target's:
    /// hover recognizers answer the carry, not their target's contacts, so each has an arena
    /// of its own, numbered from `arenaCount` (the targets' arenas) on; nil when there are none.
    func arenas(targetOf: [Int], after arenaCount: Int) -> [Int]? {
        guard let plan, plan.hoverMask != 0 else { return nil }
        var next = arenaCount
        return targetOf.indices.map { i in
            guard hovers(i) else { return targetOf[i] }
            defer { next += 1 }
            return next
        }
    }

    /// Recognizer `i` is a hover recognizer.
    func hovers(_ i: Int) -> Bool { plan.map { $0.hoverMask & (1 << UInt64(i & 63)) != 0 } ?? false }
}

extension GestureGraph {
    /// The landing rule's one exception (docs/gestures.md#carrying): while a carry is active, a
    /// contact landing on a draggable target (the carrier's own included) belongs to the
    /// capture target, for life; otherwise to `target`. Called only for landing contacts.
    func routeLanding(on target: Int) -> Int {
        guard carry.carrier >= 0, let plan = carry.plan, target < plan.draggable.count, plan.draggable[target] else { return target }
        return plan.captureTarget
    }

    /// A contact routed to the capture target (`routeLanding`) is now tracked: its capture is
    /// recorded. Only once it is tracked: a contact beyond `contactCapacity` is never tracked,
    /// so it never leaves through `capturedCountChange`, and its record would stay for good
    /// (and grow the list past its reserved room, an allocation per landing).
    mutating func captured(_ id: ContactID, on target: Int, at time: Timestamp) {
        carry.captures.append(CarryRoute.Capture(id: id, target: target, landed: time))
    }

    /// A frame where captured contacts landed, lifted or were cancelled: each lift is handed
    /// to the carrier (it decides whether it was a tap that adds an item); the records of
    /// contacts that left are dropped. No arena: the capture target has no members.
    mutating func capturedCountChange(at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        let t = carry.captureTarget
        // The captured contacts that left in this frame.
        var left: [(id: ContactID, ended: Bool, travel: Double)] = []
        for k in 0..<store.trackedCount {
            let c = store[tracked: k]
            if c.target == t && c.phase.isFinal { left.append((c.id, c.phase == .ended, c.position.distance(to: c.first))) }
        }
        var lifts: [(Int, Interval, Double)] = []
        for contact in left {
            guard let c = carry.captures.firstIndex(where: { $0.id == contact.id }) else { continue }
            let capture = carry.captures.remove(at: c)
            if contact.ended { lifts.append((capture.target, time - capture.landed, contact.travel)) }
        }
        for (target, held, travel) in lifts where carry.carrier >= 0 {
            let i = carry.carrier
            let input = CarryInput.captureLifted(target: targetNames[target], held: held, travel: travel, at: time)
            apply(i, store.carried(i, input, deadlines: &deadlineMask), at: time, emit)
        }
    }

    /// A carrier's `locate`: it becomes the carry if none is active; the carry's point is
    /// hit-tested among the targets other than the carrier's own, the carrier hears which of
    /// its drop targets it is over, and the hovered targets hear of it.
    mutating func locate(_ i: Int, _ point: Point, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        guard let plan = carry.plan, plan.carriers & (1 << UInt64(i & 63)) != 0, arena.status[i] == .won else {
            return reportBug(i, state: store.stateName(i), input: "locate (not a won carrier)", at: time, emit)
        }
        if carry.carrier < 0 { carry.carrier = i }
        // One carry at a time: another carrier that won meanwhile moves without hovering.
        guard carry.carrier == i else {
            return apply(i, store.carried(i, .over(nil, from: targetNames[arena.targetOf[i]], time), deadlines: &deadlineMask), at: time, emit)
        }
        let own = arena.targetOf[i]
        let h = hoverTest(point, excluding: own)
        let over: GestureName? = h >= 0 && h < 64 && plan.dropTargets[i] & (1 << UInt64(h)) != 0 ? targetNames[h] : nil
        apply(i, store.carried(i, .over(over, from: targetNames[own], time), deadlines: &deadlineMask), at: time, emit)
        moveHover(to: h, point, at: time, emit)
    }

    /// The topmost declared target whose rectangle holds `point`, other than `excluded`; -1
    /// when none does. The rectangles themselves, not the 7 mm hit areas: those make a small
    /// target easy to land on, while a carried item is aimed by watching it.
    func hoverTest(_ point: Point, excluding excluded: Int) -> Int {
        for t in hitOrder where t != excluded && store[target: t].rect.contains(point) { return t }
        return -1
    }

    /// The carried contacts as a hover recognizer's inputs: the carrier's contacts, at the
    /// carry's point.
    func hoverSample(_ point: Point, at time: Timestamp, entering: Bool, leaving: Bool) -> GroupSample {
        var s = GroupSample(time: time)
        let fingers = carry.carrier >= 0 ? max(1, contactLists[arena.targetOf[carry.carrier]].count) : 1
        s.present = fingers
        s.began = entering ? fingers : 0
        s.ended = leaving ? fingers : 0
        s.remaining = leaving ? 0 : fingers
        s.centroid = point
        return s
    }

    /// The carry is over target `h` now (-1: none): the target it left hears `contactLifted`,
    /// the one it entered `contactDown` (its hover recognizers' arenas open, as a target's at
    /// a landing), the one it stays on `contactsMoved`.
    mutating func moveHover(to h: Int, _ point: Point, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        guard let plan = carry.plan else { return }
        if h == carry.hovered {
            guard h >= 0 else { return }
            let input = RecognizerInput.contactsMoved(hoverSample(point, at: time, entering: false, leaving: false))
            for i in MemberIndices(plan.hoverMembers[h]) where arena.status[i].receivesContacts { deliver(i, input, emit) }
            return
        }
        leaveHover(point, at: time, emit)
        carry.hovered = h
        guard h >= 0 else { return }
        let input = RecognizerInput.contactDown(hoverSample(point, at: time, entering: true, leaving: false))
        for i in MemberIndices(plan.hoverMembers[h]) {
            openArena(arena.arenaOf[i], at: time)
            if arena.status[i].receivesContacts { deliver(i, input, emit) }
        }
    }

    /// The carry left the hovered target (moved off it, or ended): its hover recognizers hear
    /// `contactLifted`, then their arenas are swept and closed, as a target's after its last
    /// lift, so a hover that comes back starts afresh.
    mutating func leaveHover(_ point: Point, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        guard let plan = carry.plan, carry.hovered >= 0 else { return }
        let h = carry.hovered
        let input = RecognizerInput.contactLifted(hoverSample(point, at: time, entering: false, leaving: true))
        for i in MemberIndices(plan.hoverMembers[h]) where arena.status[i].receivesContacts { deliver(i, input, emit) }
        for i in MemberIndices(plan.hoverMembers[h]) { sweepAndClose(arena.arenaOf[i], at: time, emit) }
        carry.hovered = -1
    }

    /// The carrier `i` is done (ended, cancelled, failed or reset): the carry ends, and the
    /// target it hovered hears that it left. Captured contacts stay captured until they lift.
    @inline(never) mutating func carrierDone(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        guard carry.carrier == i, arena.status[i] != .won else { return }
        let point = store[target: arena.targetOf[i]].lastCentroid
        leaveHover(point, at: time, emit)
        carry.carrier = -1
    }

    /// The contacts a hover recognizer's events carry: the carrier's (its own target has none
    /// of them).
    mutating func carriedContacts() -> ContactList {
        carry.carrier >= 0 ? contactList(on: arena.targetOf[carry.carrier]) : ContactList()
    }
}
