import TouchlineCore

/// The recognizer graph: targets, recognizers, relations, one arena per target. Pure: time comes
/// only from frames and from `advance(to:)`; every pending timeout is published as
/// `nextDeadline`.
///
/// Arenas: a contact belongs to the topmost target under its first position and joins that
/// target's arena; contacts that land on a target while its arena is open share it (a
/// multi-finger gesture is one decision). The arena opens at the first contact, and closes when
/// no contact is down and no recognizer is undecided or holding. See docs/gestures.md#arbitration.
public struct GestureGraph: Sendable, ArenaHost {
    public let configuration: GraphConfiguration
    public let surface: Size
    /// Written into every event's `device` key.
    public var device: Int = 0
    /// Emit decision lines (`"gesture":"explain"`) alongside the gesture events.
    public var explain: Bool = false
    /// Whether a decision line takes a `seq` of its own (`--explain`). Off, it carries the seq
    /// the next line will have and the gesture events number as without explain: the daemon's
    /// lines for `touchline view` alone (docs/view.md), which must not change what its other
    /// clients receive.
    public var explainCountsInSeq: Bool = true

    /// Record every state machine transition in `transitions` (principle 5: transitions are
    /// observable for free). Off by default: recording allocates.
    public var recordsTransitions: Bool = false
    /// Transitions recorded since the last `drainTransitions()`.
    public private(set) var transitions: [Transition] = []
#if DEBUG || TOUCHLINE_PATH_SWITCH
    /// Off, every frame takes the general path: `sample` for two contacts too, `deliver` for an
    /// active continuous recognizer, contact lists recomputed, targets searched instead of
    /// masked, contacts found by search instead of guessed. For FastPathTests, which check that
    /// both paths give the same events. Read only where a fast path already branches. Also in
    /// an optimized build made with `-DTOUCHLINE_PATH_SWITCH`, so that CI checks the fast paths
    /// as the optimizer compiles them (.ci/run).
    var usesFastPaths = true
#else
    /// Release builds always take the fast paths: a constant, so the switch folds away (read
    /// at run time, it cost a two-finger frame 1–5 instructions, docs/performance.md).
    var usesFastPaths: Bool { true }
#endif

    /// Contacts tracked at once; more are ignored and counted (as the frame assembler's
    /// default capacity).
    public static let contactCapacity = 32

    /// Contacts that landed on no target or beyond `contactCapacity`, each counted once, at its
    /// `began` frame: such a contact belongs to no target for its whole life. (A contact whose
    /// `began` frame the graph never saw belongs to none either: its first position is unknown.)
    public private(set) var ignoredContacts = 0
    /// Inputs a state machine had no transition for (our bugs), each reported as an explain
    /// line with phase `bug` when explaining.
    public private(set) var internalErrors = 0
    /// Lines emitted so far (the next event's `seq`).
    public internal(set) var seq = 0

    /// Trivially copyable (the name lives in `targetNames`), so reading `store[target: t]` on the
    /// per-frame path copies no String and retains nothing.
    struct TargetState: Sendable {
        var rect: Rect
        var hitRect: Rect
        var z: Int
        var lastTime: Timestamp? = nil
        var lastCentroid = Point.zero

        /// A frame's sample of this target was taken at `time`.
        @inline(__always) mutating func sampled(at time: Timestamp, centroid: Point) {
            lastTime = time
            lastCentroid = centroid
        }
    }

    struct Tracked: Sendable {
        var id: ContactID
        var target: Int
        var first: Point
        var position: Point
        var previous: Point
        var phase: ContactPhase
        var isNew: Bool
        /// Finger or pen (a palm is never tracked: docs/gestures.md#palms), for the events' `tool`.
        var tool: ContactTool = .finger
        /// The landing zones it is outside (`LandingZones`, bit j: the j-th zoned recognizer's),
        /// where it landed or where its round began: the recognizers of those zones do not
        /// take it (in the byte of padding before `force`: a tracked contact does not grow).
        var outside: UInt8 = 0
        /// Pressure and touch major, kept only in a graph that `readsForce` (within the
        /// struct's padding: a tracked contact does not grow).
        var force = ContactForce()
    }

    let targetNames: [GestureName]
    /// Target indices, topmost first.
    var hitOrder: [Int]
    /// The recognizers, the targets' state (`store[target: t]`) and the tracked contacts, in
    /// landing order (so in id order), changed in place after `makeUnique()`.
    var store: GraphStore
    /// Who wins on each target: statuses, relations, winners (Arena.swift).
    var arena: Arena
    let names: [GestureName]
    let kinds: [GestureKind]
    /// A recognizer's kind reads pressure or contact size (`GestureRecognizer.readsForce`):
    /// only then does the graph keep them per contact and put them in the samples, and a frame
    /// where only they changed counts as motion. Otherwise a frame pays one test for them.
    let readsForce: Bool
    /// The recognizers (bit i) whose kind reads `GroupSample.rotationDelta`
    /// (`GestureRecognizer.readsRotation`): a frame where none of them receives contacts and
    /// no contact lands or lifts skips the turn's atan2 (docs/performance.md).
    let rotationReaders: UInt64
    /// Targets (bit t) whose contacts' pressure or size changed in this frame.
    var forceChanged: UInt64 = 0
    /// Recognizers whose `deadline` is set, updated after every input they handle, so the
    /// earliest deadline is found without asking every recognizer (twice a frame).
    var deadlineMask: UInt64 = 0
    /// Each target's contact ids for its events, valid while its bit in `contactListsValid` is
    /// set: membership changes only when a contact lands or leaves, not on every frame.
    var contactLists: [ContactList]
    var contactListsValid: UInt64 = 0
    /// Drag and spring-loading's cross-target state (Carrying.swift); inert without a carrier
    /// or hover kind.
    var carry: CarryRoute
    /// Per recognizer, its kind for a pen's round when that differs from its kind for fingers
    /// (GestureGraph+Tools.swift), and which recognizers hold their pen parameters now (bit i).
    let penKinds: [RecognizerKind?]
    var penMembers: UInt64 = 0
    /// Some recognizer has other parameters for pens: only then does a landing look at tools.
    let hasPenKinds: Bool
    /// The recognizers that take only contacts landing in a zone of theirs (an edge swipe's
    /// watched edges): each is given a sample of its own contacts, never adopts another
    /// (docs/gestures.md#contacts-a-recognizer-takes). Empty in a graph without one.
    let zones: LandingZones
    /// Record the arena's decisions in `decisions` for an observer (a pass-through planner,
    /// which clears them after reading). Off by default: nothing is recorded.
    public var tellsDecisions = false
    /// The decisions since the last `clearDecisions()`, in the order the arena made them.
    public internal(set) var decisions: [ArenaDecision] = []

    /// Builds the graph after `configuration.validate()`: an invalid configuration throws
    /// (docs/config.md#validation) and nothing is repaired.
    ///
    /// `sharingNames`: how the graph takes its names, which its events carry (GestureName).
    /// By default they are kept for the life of the process, so that events stay readable after
    /// the graph is gone, and a name some hold keeps becomes permanent too. With `true`, the
    /// caller holds the names (`InternedString.Hold`) for as long as the graph and its events
    /// are used, and they are freed once no hold keeps them: the daemon does, so that names its
    /// clients register and unregister do not pile up (issue 24, item 7). A graph that shared a
    /// name without such a hold read freed memory once another's hold went (issue 37: a replay
    /// beside a live session, in one process).
    public init(configuration: GraphConfiguration, surface: Size, sharingNames: Bool = false) throws(GraphConfigurationError) {
        let resolved = try configuration.resolve()
        self.configuration = configuration
        self.surface = surface
        let targetSpecs = configuration.targets
        let targets = targetSpecs.map { spec in
            let rect = spec.millimetreRect(on: surface)
            let width = max(rect.width, Thresholds.minimumHitSize)
            let height = max(rect.height, Thresholds.minimumHitSize)
            let hit = Rect(x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2, width: width, height: height)
            return TargetState(rect: rect, hitRect: hit, z: spec.z)
        }
        let specs = configuration.recognizers
        carry = CarryRoute(plan: CarryPlan(kinds: specs.map(\.kind.recognizer), targetOf: resolved.targetOf, targetCount: targets.count, dropTargets: resolved.dropTargets))
        let (allTargets, allNames) = carry.withCaptureTarget(targets, targetSpecs.map { sharingNames ? GestureName(sharing: $0.name) : GestureName($0.name) })
        targetNames = allNames
        // Topmost first: higher z, then later declaration.
        hitOrder = Array(targetSpecs.indices).sorted { a, b in
            targetSpecs[a].z != targetSpecs[b].z ? targetSpecs[a].z > targetSpecs[b].z : a > b
        }
        names = specs.map { sharingNames ? GestureName(sharing: $0.name) : GestureName($0.name) }
        kinds = specs.map(\.kind.gesture)
        readsForce = specs.contains { $0.kind.recognizer.readsForce }
        rotationReaders = specs.indices.reduce(0) { $0 | (specs[$1].kind.recognizer.readsRotation ? 1 &<< UInt64(truncatingIfNeeded: $1) : 0) }
        arena = Arena(names: names, targetOf: resolved.targetOf, targetCount: allTargets.count,
                      simultaneousWith: resolved.simultaneousWith, requiresFailureOf: resolved.requiresFailureOf,
                      arenaOf: carry.arenas(targetOf: resolved.targetOf, after: allTargets.count))
        store = GraphStore(specs.map(\.kind), surface: surface, targets: allTargets)
        penKinds = specs.map { $0.resolvedPenKind == $0.kind ? nil : $0.resolvedPenKind }
        hasPenKinds = penKinds.contains { $0 != nil }
        contactLists = Array(repeating: ContactList(), count: allTargets.count)
        zones = LandingZones(specs.map(\.kind.claimFloor.zone))
        tellsDecisions = specs.contains { $0.consume }
    }

    // MARK: - Time

    /// The earliest deadline any recognizer published (ties by declaration order); nil when
    /// nothing waits for time.
    public var nextDeadline: Timestamp? { earliestDeadline()?.1 }

    // Non-mutating helpers called from mutating ones are inlined: called, they received a
    // copy of the whole graph (a 256-byte memcpy per call, docs/performance.md).
    @inline(__always) func earliestDeadline() -> (Int, Timestamp)? {
        var best: (Int, Timestamp)? = nil
        for i in MemberIndices(deadlineMask) where arena.status[i].receivesContacts {
            if let d = store.deadline(i), best == nil || d < best!.1 { best = (i, d) }
        }
        return best
    }

    /// Fires every deadline at or before `time`, in order, each at its own timestamp.
    public mutating func advance(to time: Timestamp, emit: (GestureEvent) -> Void) {
        store.makeUnique()
        while let (i, d) = earliestDeadline(), d <= time { fire(i, d, emit) }
    }

    /// Fires every deadline strictly before `time` (a frame at a deadline's exact time comes
    /// first: "within 300 ms" includes 300 ms). Only `process` calls it, after making the
    /// storage unique.
    private mutating func fireDeadlines(before time: Timestamp, emit: (GestureEvent) -> Void) {
        while let (i, d) = earliestDeadline(), d < time { fire(i, d, emit) }
    }

    mutating func fire(_ i: Int, _ d: Timestamp, _ emit: (GestureEvent) -> Void) {
        let target = arena.targetOf[i]
        deliver(i, .deadlineReached(d), emit)
        // A deadline that survives its own firing would fire forever: our bug, reset it.
        if arena.status[i].receivesContacts, store.deadline(i) == d {
            reportBug(i, state: store.stateName(i), input: "deadlineReached (deadline kept)", at: d, emit)
        }
        // A hover recognizer's arena closes when the carry leaves (Carrying.swift), not here.
        if !carry.hovers(i) && !hasContacts(on: target) { sweepAndClose(target, at: d, emit) }
    }

    /// True when no contact is down, no arena is open and no deadline is pending.
    public var isIdle: Bool {
        store.trackedCount == 0 && store.targetIndices.allSatisfy { !arena.isOpen($0) } && nextDeadline == nil
    }

    /// What is still pending, for a test's failure message; empty when idle.
    public var pendingDescription: String {
        var parts: [String] = []
        if store.trackedCount > 0 { parts.append("contacts down: \((0..<store.trackedCount).map { store[tracked: $0].id.description }.joined(separator: ","))") }
        for t in store.targetIndices where arena.isOpen(t) { parts.append("arena of target '\(targetNames[t])' open") }
        for i in store.indices where arena.status[i] != .idle {
            parts.append("\(names[i]): \(arena.status[i]) in state \(store.stateName(i))")
        }
        if let d = nextDeadline { parts.append("deadline at \(d)") }
        return parts.joined(separator: "; ")
    }

    /// Each recognizer's name, arena status and state, for tests and observers.
    public var recognizerStates: [(name: String, status: ArenaStatus, state: String)] {
        store.indices.map { (names[$0].description, arena.status[$0], store.stateName($0).description) }
    }

    // MARK: - Frames

    /// Consumes one frame: first fires the deadlines that fall before it, then delivers its
    /// contacts to the recognizers of the targets they belong to.
    /// Every contact of `frame` is a touch: a frame that holds a palm (`frame.hasPalm`) goes
    /// through `processFilteringPalms` instead, as `ReplayDriver` (and so every mode's
    /// `GesturePipeline`) does (GestureGraph+Palms.swift).
    public mutating func process(_ frame: TouchFrame, emit: (GestureEvent) -> Void) {
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
        for t in store.targetIndices where masked ? onTargets & (1 &<< UInt64(t)) != 0 : hasContacts(on: t) {
            deliverFrame(to: t, at: frame.time, emit)
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
        for t in store.targetIndices where arena.isOpen(t) && !(masked ? onTargets & (1 &<< UInt64(t)) != 0 : hasContacts(on: t)) {
            sweepAndClose(t, at: frame.time, emit)
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

    /// Two passes over the contacts (sums, then distances from the centroids), over a span
    /// whose loops run over its own indices (so no index is checked per contact): three passes
    /// with bounds checks were a fifth of a frame. The sums run in
    /// contact order, as before, so the figures are bit for bit the same.
    /// `turns` false leaves `rotationDelta` 0 unless a contact landed or lifted (the inputs
    /// then go to every member, whatever it reads).
    /// `excluding`: zone bits (`LandingZones`); a contact outside any of them is left out (the
    /// sample of a zoned recognizer's own contacts, `deliverSplit`). 0 everywhere else, where
    /// the test folds away. It is tested on the copied contact, not in the loop's `where`: Swift
    /// 6.3.1's optimizer aborted on a second `contacts[k]` there ("Found ownership error" in
    /// CopyPropagation, -c release only).
    @inline(__always) static func sample(_ contacts: Span<Tracked>, on t: Int, at time: Timestamp, lastTime: Timestamp?, turns readers: Bool = true,
                                         excluding: UInt8 = 0, moved: inout Bool) -> GroupSample {
        var s = GroupSample(time: time)
        var present = 0, ended = 0, cancelled = 0, began = 0
        var sum = Vector.zero
        var prevSum = Vector.zero, nowSum = Vector.zero
        // The largest squared distance: √ is monotonic and correctly rounded, so one root at
        // the end equals the largest of the roots.
        var travel2 = 0.0
        for k in contacts.indices where contacts[k].target == t {
            let c = contacts[k]
            if c.outside & excluding != 0 { continue }
            present &+= 1
            if c.phase == .ended { ended &+= 1 } else if c.phase == .cancelled { cancelled &+= 1 }
            if c.isNew { began &+= 1 } else {
                prevSum = Vector(dx: prevSum.dx + c.previous.x, dy: prevSum.dy + c.previous.y)
                nowSum = Vector(dx: nowSum.dx + c.position.x, dy: nowSum.dy + c.position.y)
                if c.position != c.previous { moved = true }
            }
            sum = Vector(dx: sum.dx + c.position.x, dy: sum.dy + c.position.y)
            let d = c.position - c.first
            travel2 = max(travel2, d.dx * d.dx + d.dy * d.dy)
        }
        let common = present &- began
        // At most `contactCapacity` contacts: the counts fit their 32-bit fields.
        s.presentCount = Int32(truncatingIfNeeded: present)
        s.endedCount = Int32(truncatingIfNeeded: ended)
        s.cancelledCount = Int32(truncatingIfNeeded: cancelled)
        s.beganCount = Int32(truncatingIfNeeded: began)
        s.remainingCount = Int32(truncatingIfNeeded: present &- ended &- cancelled)
        s.maxTravel = travel2.squareRoot()
        guard present > 0 else { return s }
        let n = Double(present), m = Double(common)
        // Two contacts, both in the previous frame (the steady state of every two-finger
        // gesture): the means halve, and x * 0.5 is x / 2 bit for bit. The divisions they
        // replace sat on the frame's longest chain of dependent operations.
        let halves = present == 2 && common == 2
        let centroid: Point, cPrev: Point, cNow: Point
        if halves {
            centroid = Point(x: sum.dx * 0.5, y: sum.dy * 0.5)
            cPrev = Point(x: prevSum.dx * 0.5, y: prevSum.dy * 0.5)
            cNow = Point(x: nowSum.dx * 0.5, y: nowSum.dy * 0.5)
        } else {
            centroid = Point(x: sum.dx / n, y: sum.dy / n)
            cPrev = Point(x: prevSum.dx / m, y: prevSum.dy / m)
            cNow = Point(x: nowSum.dx / m, y: nowSum.dy / m)
        }
        s.centroid = centroid
        var spread = 0.0
        var spanPrev = 0.0, spanNow = 0.0, turn = 0.0, weight = 0.0
        let turns = common >= 2
        // No contact landed: every present contact is common, the two sums are the same
        // additions in the same order, so the centroid is cNow bit for bit and a contact's
        // distance from it is its `lb` (two square roots fewer per frame).
        let allCommon = turns && began == 0
        // Two common contacts (the usual pinch and turn) sit on either side of their centroid:
        // both turn by the angle of the line between them, taken once from that line (one
        // atan2 instead of two, and no weighted mean: the atan2's division and series were a
        // sixth of a frame). More contacts: each one's turn about the centroid, weighted.
        let pair = common == 2
        var pairPrev = Vector.zero, pairNow = Vector.zero, pairCount = 0
        if pair {
            // From the first common contact to the second; the spans are the line's length
            // (below), and so is the spread when no contact landed.
            for k in contacts.indices where contacts[k].target == t {
                let c = contacts[k]
                if c.outside & excluding != 0 { continue }
                if c.isNew || !allCommon { spread += c.position.distance(to: centroid) }
                if c.isNew { continue }
                if pairCount == 0 {
                    pairPrev = Vector(dx: -c.previous.x, dy: -c.previous.y)
                    pairNow = Vector(dx: -c.position.x, dy: -c.position.y)
                } else {
                    pairPrev = Vector(dx: pairPrev.dx + c.previous.x, dy: pairPrev.dy + c.previous.y)
                    pairNow = Vector(dx: pairNow.dx + c.position.x, dy: pairNow.dy + c.position.y)
                }
                pairCount &+= 1
            }
        } else {
            let readsTurn = readers || began != 0 || ended != 0 || cancelled != 0
            for k in contacts.indices where contacts[k].target == t {
                let c = contacts[k]
                if c.outside & excluding != 0 { continue }
                guard turns && !c.isNew else {
                    spread += c.position.distance(to: centroid)
                    continue
                }
                let a = c.previous - cPrev
                let b = c.position - cNow
                let la = a.length, lb = b.length
                spread += allCommon ? lb : c.position.distance(to: centroid)
                spanPrev += la
                spanNow += lb
                // A contact near the centroid says little about the turn; weight by radius.
                let w = min(la, lb)
                if w > 0.01 && readsTurn {
                    turn += GestureMath.angle(from: a, to: b) * w
                    weight += w
                }
            }
        }
        // Two common contacts: each is half the line between them from their centroid, so
        // twice the mean distance is the line's length (a root instead of four, each on the
        // frame's longest chain).
        let pairPrev2 = pairPrev.dx * pairPrev.dx + pairPrev.dy * pairPrev.dy
        let pairNow2 = pairNow.dx * pairNow.dx + pairNow.dy * pairNow.dy
        if pair && allCommon {
            s.span = pairNow2.squareRoot()
        } else {
            s.span = halves ? 2 * spread * 0.5 : 2 * spread / n
        }
        if common > 0 {
            s.translationDelta = cNow - cPrev
            if turns {
                if pair {
                    spanPrev = pairPrev2.squareRoot()
                    spanNow = pairNow2.squareRoot()
                } else if halves {
                    spanPrev = 2 * spanPrev * 0.5
                    spanNow = 2 * spanNow * 0.5
                } else {
                    spanPrev = 2 * spanPrev / m
                    spanNow = 2 * spanNow / m
                }
                s.spanDelta = spanNow - spanPrev
                s.spanRatio = max(spanNow, Thresholds.minimumSpan) / max(spanPrev, Thresholds.minimumSpan)
                if pair {
                    // As above, a turn measured that close to the centroid says little.
                    let radius2 = min(pairPrev2, pairNow2)
                    let readsTurn = readers || began != 0 || ended != 0 || cancelled != 0
                    s.rotationDelta = readsTurn && radius2 > 4 * 0.01 * 0.01 ? GestureMath.angle(from: pairPrev, to: pairNow) : 0
                } else {
                    s.rotationDelta = weight > 0 ? turn / weight : 0
                }
            }
        }
        if let last = lastTime, s.time > last { s.elapsed = s.time - last }
        return s
    }

    /// The sample of two contacts that were both down in the previous frame (every frame of a
    /// two-finger gesture but its first): the same operations as `sample(_:on:at:lastTime:moved:)` in
    /// the same order (so the same bits, which `SampleTests` checks), written out without its
    /// loops, counters and per-contact branches, which were most of a two-finger frame's
    /// sample.
    @inline(__always) static func samplePair(_ c0: Tracked, _ c1: Tracked, at time: Timestamp, lastTime: Timestamp?, turns readers: Bool = true, moved: inout Bool) -> GroupSample {
        assert(!c0.isNew && !c1.isNew && c0.target == c1.target && c0.id != c1.id, "samplePair needs two contacts of one target, both down before")
        var ended: Int32 = 0, cancelled: Int32 = 0
        if c0.phase == .ended { ended &+= 1 } else if c0.phase == .cancelled { cancelled &+= 1 }
        if c1.phase == .ended { ended &+= 1 } else if c1.phase == .cancelled { cancelled &+= 1 }
        // The general sums start from zero: 0 + x is not x when x is −0.
        let prevSum = Vector(dx: (0.0 + c0.previous.x) + c1.previous.x, dy: (0.0 + c0.previous.y) + c1.previous.y)
        let nowSum = Vector(dx: (0.0 + c0.position.x) + c1.position.x, dy: (0.0 + c0.position.y) + c1.position.y)
        moved = c0.position != c0.previous || c1.position != c1.previous
        let d0 = c0.position - c0.first, d1 = c1.position - c1.first
        let travel2 = max(max(0.0, d0.dx * d0.dx + d0.dy * d0.dy), d1.dx * d1.dx + d1.dy * d1.dy)
        // The sum of all contacts is the sum of the common ones: the centroid is cNow.
        let cPrev = Point(x: prevSum.dx * 0.5, y: prevSum.dy * 0.5)
        let cNow = Point(x: nowSum.dx * 0.5, y: nowSum.dy * 0.5)
        let pairPrev = Vector(dx: -c0.previous.x + c1.previous.x, dy: -c0.previous.y + c1.previous.y)
        let pairNow = Vector(dx: -c0.position.x + c1.position.x, dy: -c0.position.y + c1.position.y)
        let pairPrev2 = pairPrev.dx * pairPrev.dx + pairPrev.dy * pairPrev.dy
        let pairNow2 = pairNow.dx * pairNow.dx + pairNow.dy * pairNow.dy
        let spanPrev = pairPrev2.squareRoot()
        let spanNow = pairNow2.squareRoot()
        let radius2 = min(pairPrev2, pairNow2)
        let readsTurn = readers || ended != 0 || cancelled != 0
        var elapsed = Interval.zero
        if let last = lastTime, time > last { elapsed = time - last }
        return GroupSample(
            time: time, present: 2, remaining: 2 &- ended &- cancelled, ended: ended, cancelled: cancelled, centroid: cNow,
            span: spanNow, translationDelta: cNow - cPrev, spanDelta: spanNow - spanPrev,
            spanRatio: max(spanNow, Thresholds.minimumSpan) / max(spanPrev, Thresholds.minimumSpan),
            rotationDelta: readsTurn && radius2 > 4 * 0.01 * 0.01 ? GestureMath.angle(from: pairPrev, to: pairNow) : 0,
            maxTravel: travel2.squareRoot(), elapsed: elapsed)
    }

    mutating func deliverFrame(to t: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        var moved = false
        // A `let`: a `var` sample was copied (128 bytes) for every call that borrows it.
        let lastTime = store[target: t].lastTime
        // Only a rotate pays for the turn (an atan2, a tenth of a two-finger frame): the won
        // long press or pan of a steady gesture never reads it. The general path always takes it.
        let turns = !usesFastPaths || arena.members(of: t) & arena.status.receiving & rotationReaders != 0
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
        if zones.members & arena.members(of: t) & arena.status.receiving != 0 {
            let split = splitMembers(on: t)
            if split != 0 { return deliverSplit(to: t, split, s, moved: moved, lastTime: lastTime, turns: turns, at: time, emit) }
        }
        if readsForce { return deliverFrameReadingForce(to: t, s, moved: moved, members: arena.members(of: t), owners: 0, at: time, emit) }
        dispatchFrame(to: t, s, moved: moved, at: time, emit)
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

    @inline(__always) mutating func dispatchFrame(to t: Int, _ s: GroupSample, moved: Bool, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        // The members read once.
        dispatchFrame(to: t, s, moved: moved, members: arena.members(of: t), owners: 0, at: time, emit)
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

    // MARK: - Arena

    /// An input whose action the caller needs back (rejections, recorded transitions); frame
    /// inputs go through `deliver`. Both keep `deadlineMask` true (the kind's side of the call
    /// sets the recognizer's bit, UnsafeGraphStorage.swift).
    @inline(__always) mutating func handle(_ i: Int, _ input: RecognizerInput) -> RecognizerAction {
        store.handle(i, input, deadlines: &deadlineMask)
    }

    @inline(__always) mutating func deliver(_ i: Int, _ input: RecognizerInput, _ emit: (GestureEvent) -> Void) {
        // The state before is only read when recording: reading it on every input cost 6 % of
        // a frame (docs/performance.md).
        guard recordsTransitions else {
            apply(i, store.handle(i, input, deadlines: &deadlineMask), at: input.time, emit)
            return
        }
        let before = store.stateName(i)
        let action = handle(i, input)
        transitions.append(Transition(time: input.time, recognizer: names[i].description, from: before, input: input.name, to: store.stateName(i), action: action.name))
        apply(i, action, at: input.time, emit)
    }

    /// Contacts moved on target `t`. Only the members that receive contacts are visited. The
    /// steady state of a continuous gesture (its contacts move, it is active and has won) is
    /// taken here without the input and action enums: the recognizer updates in place and
    /// writes out its own fields, and its `changed` event is made where it is passed, with the
    /// fields every event of the frame shares (target, contacts) read once. The others get the
    /// input through `deliver`.
    @inline(__always) mutating func deliverMoved(to t: Int, members: UInt64, _ s: GroupSample, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        // What every `changed` event of the frame shares, read once.
        let target = targetNames[t]
        var fingers = 0, position = Point.zero, detail = GestureDetail(NoFields())
        // The mask is read once; a recognizer rejected by an earlier one's claim in this loop
        // is skipped by the status check.
        for i in MemberIndices(members & arena.status.receiving) where arena.status[i].receivesContacts {
            if arena.status[i] == .won && usesFastPaths && !recordsTransitions && store.movedWhileActive(i, s, fingers: &fingers, position: &position, detail: &detail) {
                // Made where it is passed: a prepared event changed in place was copied whole
                // for every call.
                emit(GestureEvent(
                    seq: seq, time: time, device: device, gesture: kinds[i], phase: .changed, target: target, recognizer: names[i],
                    fingers: fingers, position: position, contacts: contactList(on: t), detail: detail))
                seq &+= 1
                continue
            }
            deliverMovedInput(i, s, emit)
        }
    }

    /// The moved input for a recognizer that is not an active continuous one. Not inlined: the
    /// input holds a copy of the sample, and made inline it had the whole sample copied on
    /// entry to the frame's loop, for every frame.
    @inline(never) mutating func deliverMovedInput(_ i: Int, _ s: GroupSample, _ emit: (GestureEvent) -> Void) {
        guard recordsTransitions else { return apply(i, store.moved(i, s, deadlines: &deadlineMask), at: s.time, emit) }
        deliver(i, .contactsMoved(s), emit)
    }

    /// Returns the recorded transitions and forgets them.
    public mutating func drainTransitions() -> [Transition] {
        defer { transitions.removeAll() }
        return transitions
    }

    mutating func apply(_ i: Int, _ action: RecognizerAction, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        switch action {
        case .none:
            break
        case .hold:
            hold(i, at: time, emit)
        case let .claim(reason):
            claim(i, reason, at: time, emit)
        case let .fail(reason):
            fail(i, reason, at: time, emit)
            if carry.carrier == i { carrierDone(i, at: time, emit) }
        case let .emit(e):
            if arena.status[i] == .won { emitEvent(i, e, at: time, emit) } else { reportBug(i, state: "not won", input: "emit", at: time, emit) }
        case let .finish(e, alsoEnded):
            if arena.status[i] == .won {
                emitEvent(i, e, at: time, emit)
                if alsoEnded {
                    var ended = e
                    ended.phase = .ended
                    emitEvent(i, ended, at: time, emit)
                }
                finished(i, at: time)
                if carry.carrier == i { carrierDone(i, at: time, emit) }
            } else {
                reportBug(i, state: "not won", input: "finish", at: time, emit)
            }
        case let .endByCount(e, count, minimum, maximum):
            endByCount(i, e, count: count, minimum: minimum, maximum: maximum, at: time, emit)
            if carry.carrier == i { carrierDone(i, at: time, emit) }
        case let .impossible(state, input):
            reportBug(i, state: state, input: input, at: time, emit)
            if carry.carrier == i { carrierDone(i, at: time, emit) }
        case let .locate(point):
            locate(i, point, at: time, emit)
        }
    }

    mutating func reportBug(_ i: Int, state: StaticString, input: StaticString, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        internalErrors += 1
        explainLine(i, .bug, .impossible(state: state, input: input), at: time, emit)
        _ = handle(i, .rejected(time))
        dropAfterBug(i, at: time, emit)
    }

    // MARK: - Arena host (the rules are in Arena.swift)

    @inline(__always) mutating func accepted(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        deliver(i, .accepted(time), emit)
    }

    mutating func rejected(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        let action = handle(i, .rejected(time))
        if case .none = action {} else { apply(i, action, at: time, emit) }
    }

    mutating func wonAtClose(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        reportBug(i, state: store.stateName(i), input: "arena close", at: time, emit)
    }

    /// Recorded for the observer when `tellsDecisions` (a graph with a consuming recognizer):
    /// a win with the contacts it claimed, its own (`ownContactList`). Decisions come at
    /// landings, lifts and deadlines, never on a steady frame.
    mutating func told(_ i: Int, _ verdict: ArenaDecision.Verdict, at time: Timestamp) {
        guard tellsDecisions else { return }
        let t = arena.targetOf[i]
        let contacts = verdict == .won && arena.arenaOf[i] == t ? ownContactList(i, on: t) : ContactList()
        decisions.append(ArenaDecision(recognizer: i, verdict: verdict, time: time, contacts: contacts))
    }
}
