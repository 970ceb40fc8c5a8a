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
    public internal(set) var transitions: [Transition] = []
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
    public internal(set) var ignoredContacts = 0
    /// Inputs a state machine had no transition for (our bugs), each reported as an explain
    /// line with phase `bug` when explaining.
    public internal(set) var internalErrors = 0
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
    /// (GestureGraph+Pens.swift), and which recognizers hold their pen parameters now (bit i).
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
    mutating func fireDeadlines(before time: Timestamp, emit: (GestureEvent) -> Void) {
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
}
