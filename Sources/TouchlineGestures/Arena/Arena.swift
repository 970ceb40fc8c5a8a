import TouchlineCore

/// Where a recognizer stands in its target's arena.
public enum ArenaStatus: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// Not in an arena (its target has no open arena).
    case idle
    /// In the arena, undecided.
    case possible
    /// Undecided and keeping the arena open after the last lift (a tap waiting for the next).
    case holding
    /// Claimed, but a recognizer it `requiresFailureOf` is still possible.
    case waiting
    /// Won: its events go out.
    case won
    /// Won and done for this arena.
    case finished
    /// Failed or rejected for this arena.
    case failed

    public var description: String {
        switch self {
        case .idle: return "idle"
        case .possible: return "possible"
        case .holding: return "holding"
        case .waiting: return "waiting"
        case .won: return "won"
        case .finished: return "finished"
        case .failed: return "failed"
        }
    }

    /// Undecided: can still claim or fail, and keeps the arena open.
    var isPending: Bool {
        switch self {
        case .possible, .holding, .waiting: return true
        case .idle, .won, .finished, .failed: return false
        }
    }

    /// Receives the target's contact inputs.
    var receivesContacts: Bool {
        switch self {
        case .possible, .holding, .waiting, .won: return true
        case .idle, .finished, .failed: return false
        }
    }
}

/// Who wins among the recognizers of a target for its contacts: the one place that decides
/// (style principle 6; Flutter's `GestureArenaManager` is the model). Members propose (claim,
/// fail, hold), the arena decides: a claim waits while a recognizer it `requiresFailureOf` is
/// undecided, loses to a winner it is not simultaneous with, and wins otherwise, rejecting the
/// undecided members that are not simultaneous with it; ties go to the earlier declared, as
/// every loop runs over members in declaration order. See docs/gestures.md#arbitration.
///
/// The data is masks and flat tables made once (bit i: member i, so at most 64 members), the
/// per-frame reads (`status.receiving`, `members`) are a load each, and nothing here allocates
/// after `init`. The rules are `ArenaHost`'s methods: deciding calls back into the members
/// (a winner is handed `.accepted`, a loser `.rejected`, and what they answer may claim or fail
/// in turn), and with value types the host that holds the arena is the one that can do both.
struct Arena: Sendable {
    /// One arena: a target's, or a hover recognizer's own (`arenaOf`).
    struct Target: Sendable {
        /// The members: the recognizers declared on this target (its hover recognizers aside).
        var members: UInt64
        /// Those that won in the open arena.
        var winners: UInt64 = 0
        /// Open from the first contact until no contact is down and no member is undecided or
        /// holding.
        /// Written only by `Arena.setOpen`, which keeps `openTargets` with it.
        fileprivate(set) var open = false
    }

    var status: StatusTable
    /// The reason of a waiting claim, given again when its blockers are gone.
    var claimReasons: [Reason?]
    /// The members' names, for the reasons that name another member.
    let names: [GestureName]
    /// Each member's target: where its events and explain lines say it is.
    let targetOf: [Int]
    /// Each member's arena, where it competes: its target's, except for a hover recognizer
    /// (docs/gestures.md#carrying), which answers a carry rather than its target's contacts
    /// and competes with no one: it has an arena of its own, after the targets', which the
    /// carry opens when it enters the target and sweeps and closes when it leaves
    /// (Carrying.swift), as a target's contacts do theirs. The rules below go by this.
    let arenaOf: [Int]
    /// Bit j of `simultaneous[i]`: i and j may both win (symmetric).
    let simultaneous: [UInt64]
    /// Bit j of `requires[i]`: i's claim waits for j to fail, and fails when j wins.
    let requires: [UInt64]
    var targets: [Target]
    /// Bit t: target t's arena is open, for the targets below 64 (hover arenas, after the
    /// targets, have no bit). `process` finds the open arenas without contacts from it in a
    /// few instructions a frame, where a loop over the targets read each one's flag (with its
    /// index check): about 20 a frame for one target. Kept with `open` by `setOpen`.
    private(set) var openTargets: UInt64 = 0
    /// The arenas that are targets' and have a bit in `openTargets`.
    private let targetArenas: Int

    /// `simultaneousWith` and `requiresFailureOf` as the configuration resolves them (member
    /// indices, at most 64 members). `arenaOf`: each member's arena when it is not its target's
    /// (nil: every member competes on its target); arenas past `targetCount` are added.
    init(names: [GestureName], targetOf: [Int], targetCount: Int, simultaneousWith: [[Int]], requiresFailureOf: [[Int]], arenaOf: [Int]? = nil) {
        let count = names.count
        status = StatusTable(count: count)
        claimReasons = Array(repeating: nil, count: count)
        self.names = names
        self.targetOf = targetOf
        let arenaOf = arenaOf ?? targetOf
        self.arenaOf = arenaOf
        var sim = Array(repeating: UInt64(0), count: count)
        var req = Array(repeating: UInt64(0), count: count)
        for i in 0..<count {
            for j in simultaneousWith[i] {
                sim[i] |= 1 << UInt64(j)
                sim[j] |= 1 << UInt64(i)
            }
            for j in requiresFailureOf[i] { req[i] |= 1 << UInt64(j) }
        }
        simultaneous = sim
        requires = req
        targets = Array(repeating: Target(members: 0), count: max(targetCount, (arenaOf.max() ?? -1) + 1))
        for (i, a) in arenaOf.enumerated() { targets[a].members |= 1 << UInt64(i) }
        targetArenas = min(targetCount, 64)
    }

    /// Opens or closes arena `t`, and its bit in `openTargets`.
    @inline(__always) mutating func setOpen(_ t: Int, _ open: Bool) {
        targets[t].open = open
        guard t < targetArenas else { return }
        let bit = UInt64(1) &<< UInt64(t)
        openTargets = open ? openTargets | bit : openTargets & ~bit
    }

    @inline(__always) func members(of t: Int) -> UInt64 { targets[t].members }
    @inline(__always) func isOpen(_ t: Int) -> Bool { targets[t].open }

    /// A contact landed on target `t`: a closed arena opens, with every member possible again.
    /// Returns the members it made possible (the host tells them: `ArenaHost.openArena`).
    @discardableResult
    @inline(__always) mutating func open(_ t: Int) -> UInt64 {
        guard !targets[t].open else { return 0 }
        setOpen(t, true)
        targets[t].winners = 0
        var opened: UInt64 = 0
        for i in MemberIndices(targets[t].members) where status[i] == .idle || status[i] == .failed || status[i] == .finished {
            status[i] = .possible
            opened |= 1 &<< UInt64(i)
        }
        return opened
    }

    /// A contact landed: a member holding the arena open is undecided again.
    @inline(__always) mutating func contactLanded(_ i: Int) {
        if status[i] == .holding { status[i] = .possible }
    }

    /// Member `i` won and is done for this arena.
    @inline(__always) mutating func finish(_ i: Int) { status[i] = .finished }

    /// The undecided members of target `t`.
    @inline(__always) func pendingMask(_ t: Int) -> UInt64 {
        var mask: UInt64 = 0
        var m = targets[t].members
        while m != 0 {
            let i = m.trailingZeroBitCount
            m &= m - 1
            if status[i].isPending { mask |= 1 << UInt64(i) }
        }
        return mask
    }

    /// The members of target `t` that won and go on: they own its contacts.
    @inline(__always) func owners(of t: Int) -> UInt64 {
        var mask: UInt64 = 0
        for i in MemberIndices(targets[t].members) where status[i] == .won { mask |= 1 << UInt64(i) }
        return mask
    }

    /// The first declared member of `mask`: ties go to declaration order.
    @inline(__always) func firstName(in mask: UInt64) -> GestureName { names[mask.trailingZeroBitCount] }
}

/// What holds an arena and its members: the graph, or a test's stand-in members. The arena
/// calls back for each decision a member must hear of, in the order it decides.
protocol ArenaHost {
    var arena: Arena { get set }
    /// Member `i` won: hand it `.accepted(time)` and apply its answer.
    mutating func accepted(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void)
    /// Member `i` was rejected (lost, swept, or its blocker won): hand it `.rejected(time)` and
    /// apply its answer.
    mutating func rejected(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void)
    /// A decision about member `i`, for `--explain`.
    mutating func explainLine(_ i: Int, _ phase: GesturePhase, _ reason: Reason, at time: Timestamp, _ emit: (GestureEvent) -> Void)
    /// Member `i` is still `won` when its arena closes: our bug (a continuous gesture that did
    /// not end with its last contact).
    mutating func wonAtClose(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void)
    /// A decision about member `i` for the arena's observers (a pass-through planner): it may
    /// claim again, it won (and which contacts), or it is out. Told by the rules below at the
    /// moment they decide, beside the explain line of the same decision.
    mutating func told(_ i: Int, _ verdict: ArenaDecision.Verdict, at time: Timestamp)
}

extension ArenaHost {
    /// No observer (a test's stand-in members).
    mutating func told(_ i: Int, _ verdict: ArenaDecision.Verdict, at time: Timestamp) {}

    /// A contact landed on target `t`: its arena opens if closed, and the members made
    /// possible are told.
    mutating func openArena(_ t: Int, at time: Timestamp) {
        let opened = arena.open(t)
        for i in MemberIndices(opened) { told(i, .possible, at: time) }
    }

    /// Member `i` won and is done for this arena.
    mutating func finished(_ i: Int, at time: Timestamp) {
        arena.finish(i)
        told(i, .out, at: time)
    }

    /// Member `i` keeps the arena open after the last lift (a tap waiting for the next).
    mutating func hold(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        if arena.status[i] == .possible {
            arena.status[i] = .holding
            explainLine(i, .held, .note("keeps the arena open for a next tap"), at: time, emit)
        }
    }

    /// Member `i` gave up (or stopped after it won).
    mutating func fail(_ i: Int, _ reason: Reason, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        guard arena.status[i].isPending || arena.status[i] == .won else { return }
        arena.status[i] = .failed
        told(i, .out, at: time)
        explainLine(i, .failed, reason, at: time, emit)
        resolveWaiting(on: arena.arenaOf[i], failed: i, at: time, emit)
    }

    /// Member `i` is out after our bug, already told it is rejected.
    mutating func dropAfterBug(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        arena.status[i] = .failed
        told(i, .out, at: time)
        resolveWaiting(on: arena.arenaOf[i], failed: i, at: time, emit)
    }

    mutating func claim(_ i: Int, _ reason: Reason, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        guard arena.status[i].isPending else { return }
        let t = arena.arenaOf[i]
        let winners = arena.targets[t].winners
        let requires = arena.requires[i]
        let blockersWon = requires & winners
        if blockersWon != 0 {
            reject(i, .blockerWon(arena.firstName(in: blockersWon)), at: time, emit)
            return
        }
        let blockers = requires & arena.pendingMask(t) & ~(1 << UInt64(i))
        if blockers != 0 {
            arena.status[i] = .waiting
            arena.claimReasons[i] = reason
            explainLine(i, .waiting, .waitingFor(arena.firstName(in: blockers)), at: time, emit)
            return
        }
        let rivals = winners & ~arena.simultaneous[i]
        if rivals != 0 {
            reject(i, .lostTo(arena.firstName(in: rivals)), at: time, emit)
            return
        }
        win(i, winners != 0 ? .simultaneousWith(arena.firstName(in: winners)) : reason, at: time, emit)
    }

    mutating func win(_ i: Int, _ reason: Reason, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        let t = arena.arenaOf[i]
        arena.status[i] = .won
        arena.claimReasons[i] = nil
        arena.targets[t].winners |= 1 << UInt64(i)
        told(i, .won, at: time)
        explainLine(i, .won, reason, at: time, emit)
        accepted(i, at: time, emit)
        for j in MemberIndices(arena.targets[t].members) {
            guard j != i, arena.status[j].isPending else { continue }
            let bit = UInt64(1) << UInt64(i)
            if arena.requires[j] & bit != 0 {
                reject(j, .blockerWon(arena.names[i]), at: time, emit)
            } else if arena.simultaneous[i] & (1 << UInt64(j)) == 0 {
                reject(j, .lostTo(arena.names[i]), at: time, emit)
            }
        }
    }

    mutating func reject(_ j: Int, _ reason: Reason, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        arena.status[j] = .failed
        arena.claimReasons[j] = nil
        told(j, .out, at: time)
        explainLine(j, .failed, reason, at: time, emit)
        rejected(j, at: time, emit)
        resolveWaiting(on: arena.arenaOf[j], failed: j, at: time, emit)
    }

    /// After `failed` left the arena, every waiting claim whose blockers are all gone stands
    /// again (in declaration order).
    mutating func resolveWaiting(on t: Int, failed: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        for j in MemberIndices(arena.targets[t].members) {
            guard arena.status[j] == .waiting else { continue }
            let blockersWon = arena.requires[j] & arena.targets[t].winners
            if blockersWon != 0 {
                reject(j, .blockerWon(arena.firstName(in: blockersWon)), at: time, emit)
                continue
            }
            guard arena.requires[j] & arena.pendingMask(t) == 0 else { continue }
            arena.status[j] = .possible
            let reason = arena.claimReasons[j] ?? .note("claimed")
            arena.claimReasons[j] = nil
            explainLine(j, .waiting, .blockerFailed(arena.names[failed]), at: time, emit)
            claim(j, reason, at: time, emit)
        }
    }

    /// The contacts of target `t` changed in number (one landed, lifted or was cancelled) after
    /// members had won them, and none of those winners goes on (each ended, as a gesture
    /// does when it does not take the new count): a new round opens for the contacts still
    /// down, as libinput begins a new gesture with the new finger count. The old round's
    /// undecided members are rejected (what they measured began with it), and every member is
    /// possible again with no winner; the host then hands each the round's first input, as if
    /// those contacts had just gone down. Returns false, changing nothing, while a member
    /// still owns the contacts. See docs/gestures.md#finger-count-changes.
    mutating func openNewRound(_ t: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) -> Bool {
        guard arena.targets[t].open, arena.owners(of: t) == 0 else { return false }
        for i in MemberIndices(arena.targets[t].members) where arena.status[i].isPending {
            // Not `reject`: no waiting claim may stand on the way out of the round.
            arena.status[i] = .failed
            arena.claimReasons[i] = nil
            told(i, .out, at: time)
            explainLine(i, .failed, .note("a new round opened for the contacts still down"), at: time, emit)
            rejected(i, at: time, emit)
        }
        arena.targets[t].winners = 0
        for i in MemberIndices(arena.targets[t].members) {
            arena.status[i] = .possible
            told(i, .possible, at: time)
        }
        return true
    }

    /// After the last contact of target `t` lifted (or a deadline passed with none down):
    /// undecided members that neither hold the arena nor wait for a blocker fail ("swept");
    /// when no one is undecided or active any more, the arena closes.
    mutating func sweepAndClose(_ t: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        guard arena.targets[t].open else { return }
        for i in MemberIndices(arena.targets[t].members) {
            if arena.status[i] == .possible { reject(i, .swept, at: time, emit) }
            if arena.status[i] == .won { wonAtClose(i, at: time, emit) }
        }
        var open = false
        for i in MemberIndices(arena.targets[t].members) { if arena.status[i].isPending || arena.status[i] == .won { open = true } }
        if !open {
            arena.setOpen(t, false)
            arena.targets[t].winners = 0
            for i in MemberIndices(arena.targets[t].members) { arena.status[i] = .idle }
        }
    }
}

/// Each recognizer's arena status, and the set of those that receive contacts, kept true on
/// every write: a frame visits only those (the default graph's frame visited seven
/// recognizers to deliver to three).
struct StatusTable: Sendable {
    private var values: [ArenaStatus]
    /// Bit i: recognizer i's status `receivesContacts`.
    private(set) var receiving: UInt64 = 0

    init(count: Int) { values = Array(repeating: .idle, count: count) }

    subscript(i: Int) -> ArenaStatus {
        @inline(__always) get { values[i] }
        @inline(__always) set {
            values[i] = newValue
            let bit = UInt64(1) << UInt64(i)
            receiving = newValue.receivesContacts ? receiving | bit : receiving & ~bit
        }
    }
}

/// The recognizer indices in a membership mask, ascending (declaration order).
struct MemberIndices: Sequence, IteratorProtocol {
    var mask: UInt64
    init(_ mask: UInt64) { self.mask = mask }
    mutating func next() -> Int? {
        guard mask != 0 else { return nil }
        let i = mask.trailingZeroBitCount
        mask &= mask - 1
        return i
    }
}
