import Testing
import TouchlineCore
@testable import TouchlineGestures

// The arena on its own, with stand-in members instead of recognizers (as Flutter's
// arena_test.dart drives GestureArenaManager with TestGestureArenaMember): each test proposes
// claims, failures and holds, and compares the whole log of decisions and of what each member
// was told, then the statuses.

/// Members named by letter, declared in that order, with scripted answers to being accepted or
/// rejected. Logs every decision line (`--explain`'s) and every call back.
struct StandInMembers: ArenaHost {
    /// What a member does when the arena tells it it won or lost.
    enum Answer {
        case fail(Reason)
        case claim(String, Reason)
    }

    var arena: Arena
    let names: [String]
    var log: [String] = []
    var time = Timestamp.zero
    var onAccepted: [String: Answer] = [:]
    var onRejected: [String: Answer] = [:]

    /// `members[t]`: the names on target t, all declared in order (target 0's first).
    init(_ members: [[String]], simultaneous: [(String, String)] = [], requiresFailureOf: [(String, String)] = []) {
        names = members.flatMap { $0 }
        var targetOf: [Int] = []
        for (t, m) in members.enumerated() { targetOf += Array(repeating: t, count: m.count) }
        let index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var sim = Array(repeating: [Int](), count: names.count)
        var req = Array(repeating: [Int](), count: names.count)
        for (a, b) in simultaneous { sim[index[a]!].append(index[b]!) }
        for (a, b) in requiresFailureOf { req[index[a]!].append(index[b]!) }
        arena = Arena(names: names.map { GestureName($0) }, targetOf: targetOf, targetCount: members.count,
                      simultaneousWith: sim, requiresFailureOf: req)
    }

    func index(_ name: String) -> Int { names.firstIndex(of: name)! }

    /// A contact lands on target `t` at `ms` (the graph's contactDown).
    mutating func land(on t: Int = 0, at ms: Int64) {
        time = Timestamp(microseconds: ms * 1000)
        arena.open(t)
        for i in MemberIndices(arena.members(of: t)) { arena.contactLanded(i) }
    }

    mutating func claim(_ name: String, _ reason: Reason = .note("claimed"), at ms: Int64) {
        time = Timestamp(microseconds: ms * 1000)
        claim(index(name), reason, at: time, Self.noEvents)
    }

    mutating func fail(_ name: String, _ reason: Reason = .note("gave up"), at ms: Int64) {
        time = Timestamp(microseconds: ms * 1000)
        fail(index(name), reason, at: time, Self.noEvents)
    }

    mutating func hold(_ name: String, at ms: Int64) {
        time = Timestamp(microseconds: ms * 1000)
        hold(index(name), at: time, Self.noEvents)
    }

    /// The last contact of target `t` lifted at `ms`.
    mutating func sweep(_ t: Int = 0, at ms: Int64) {
        time = Timestamp(microseconds: ms * 1000)
        sweepAndClose(t, at: time, Self.noEvents)
    }

    /// Member `name` won and ended (its gesture's `ended` after a count it does not take).
    mutating func finish(_ name: String) { arena.finish(index(name)) }

    /// The contacts of target `t` changed in number at `ms` and some stay down: the arena
    /// opens a new round unless a member still owns them. Logs the answer.
    mutating func newRound(_ t: Int = 0, at ms: Int64) {
        time = Timestamp(microseconds: ms * 1000)
        let opened = openNewRound(t, at: time, Self.noEvents)
        log.append("\(time) new round: \(opened ? "opened" : "not opened")")
    }

    /// Each member's status, in declaration order, and whether each target's arena is open.
    var statuses: String {
        let members = names.indices.map { "\(names[$0])=\(arena.status[$0])" }
        let targets = arena.targets.indices.map { "t\($0)=\(arena.isOpen($0) ? "open" : "closed")" }
        return (members + targets).joined(separator: " ")
    }

    static func noEvents(_ e: GestureEvent) { Issue.record("a stand-in member emitted \(e)") }

    // MARK: ArenaHost

    mutating func accepted(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        log.append("\(time) \(names[i]) told: accepted")
        answer(onAccepted[names[i]], from: i, at: time, emit)
    }

    mutating func rejected(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        log.append("\(time) \(names[i]) told: rejected")
        answer(onRejected[names[i]], from: i, at: time, emit)
    }

    mutating func explainLine(_ i: Int, _ phase: GesturePhase, _ reason: Reason, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        log.append("\(time) \(phase) \(names[i]): \(reason)")
    }

    mutating func wonAtClose(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        log.append("\(time) \(names[i]) bug: still won at arena close")
        dropAfterBug(i, at: time, emit)
    }

    private mutating func answer(_ answer: Answer?, from i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        switch answer {
        case nil: break
        case let .fail(reason): fail(i, reason, at: time, emit)
        case let .claim(name, reason): claim(index(name), reason, at: time, emit)
        }
    }
}

func expectArenaLog(_ m: StandInMembers, _ expected: [String], statuses: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if m.log != expected {
        print("ACTUAL \(sourceLocation.fileName):\(sourceLocation.line)\n" + m.log.map { "            \"\($0)\"," }.joined(separator: "\n") + "\nEND")
    }
    #expect(m.log == expected, sourceLocation: sourceLocation)
    #expect(m.statuses == statuses, sourceLocation: sourceLocation)
}

@Suite struct ArenaTests {
    @Test func firstClaimWinsAndRejectsTheOthers() {
        var m = StandInMembers([["a", "b", "c"]])
        m.land(at: 0)
        m.claim("b", at: 40)
        m.claim("a", at: 50)
        expectArenaLog(m, [
            "0.040000 won b: claimed",
            "0.040000 b told: accepted",
            "0.040000 failed a: lost to b, which won first and is not simultaneous with it",
            "0.040000 a told: rejected",
            "0.040000 failed c: lost to b, which won first and is not simultaneous with it",
            "0.040000 c told: rejected",
        ], statuses: "a=failed b=won c=failed t0=open")
    }

    @Test func simultaneousMembersBothWin() {
        var m = StandInMembers([["pinch", "rotate", "pan"]], simultaneous: [("pinch", "rotate")])
        m.land(at: 0)
        m.claim("rotate", at: 30)
        m.claim("pinch", at: 60)
        expectArenaLog(m, [
            "0.030000 won rotate: claimed",
            "0.030000 rotate told: accepted",
            "0.030000 failed pan: lost to rotate, which won first and is not simultaneous with it",
            "0.030000 pan told: rejected",
            "0.060000 won pinch: simultaneous with rotate, which already won",
            "0.060000 pinch told: accepted",
        ], statuses: "pinch=won rotate=won pan=failed t0=open")
    }

    @Test func claimWaitsForItsBlockerAndStandsWhenItFails() {
        var m = StandInMembers([["doubleTap", "singleTap"]], requiresFailureOf: [("singleTap", "doubleTap")])
        m.land(at: 0)
        m.hold("doubleTap", at: 80)
        m.claim("singleTap", .note("lifted"), at: 80)
        m.sweep(at: 80)
        m.fail("doubleTap", .note("no next tap"), at: 380)
        expectArenaLog(m, [
            "0.080000 held doubleTap: keeps the arena open for a next tap",
            "0.080000 waiting singleTap: requires failure of doubleTap, which is still possible",
            "0.380000 failed doubleTap: no next tap",
            "0.380000 waiting singleTap: doubleTap failed, so its waiting claim stands",
            "0.380000 won singleTap: lifted",
            "0.380000 singleTap told: accepted",
        ], statuses: "doubleTap=failed singleTap=won t0=open")
    }

    @Test func waitingClaimFailsWhenItsBlockerWins() {
        var m = StandInMembers([["doubleTap", "singleTap"]], requiresFailureOf: [("singleTap", "doubleTap")])
        m.land(at: 0)
        m.claim("singleTap", at: 80)
        m.claim("doubleTap", at: 300)
        expectArenaLog(m, [
            "0.080000 waiting singleTap: requires failure of doubleTap, which is still possible",
            "0.300000 won doubleTap: claimed",
            "0.300000 doubleTap told: accepted",
            "0.300000 failed singleTap: requires failure of doubleTap, which won",
            "0.300000 singleTap told: rejected",
        ], statuses: "doubleTap=won singleTap=failed t0=open")

        // A claim made after the blocker won (here while the winner is being told) fails at
        // once, without waiting.
        var late = StandInMembers([["doubleTap", "singleTap"]], requiresFailureOf: [("singleTap", "doubleTap")])
        late.land(at: 0)
        late.onAccepted["doubleTap"] = .claim("singleTap", .note("lifted"))
        late.claim("doubleTap", at: 300)
        expectArenaLog(late, [
            "0.300000 won doubleTap: claimed",
            "0.300000 doubleTap told: accepted",
            "0.300000 failed singleTap: requires failure of doubleTap, which won",
            "0.300000 singleTap told: rejected",
        ], statuses: "doubleTap=won singleTap=failed t0=open")
    }

    /// Ties go to declaration order: two claims waiting for the same blocker stand in that
    /// order, so the earlier declared wins; and a reason names the first declared of several.
    @Test func tiesByDeclaredOrder() {
        var m = StandInMembers([["x", "y", "blocker", "other"]], requiresFailureOf: [("y", "blocker"), ("x", "blocker"), ("x", "other")])
        m.land(at: 0)
        m.claim("y", .note("y's claim"), at: 10)
        m.claim("x", .note("x's claim"), at: 20)
        m.fail("other", at: 30)
        m.fail("blocker", at: 40)
        expectArenaLog(m, [
            "0.010000 waiting y: requires failure of blocker, which is still possible",
            "0.020000 waiting x: requires failure of blocker, which is still possible",
            "0.030000 failed other: gave up",
            "0.040000 failed blocker: gave up",
            "0.040000 waiting x: blocker failed, so its waiting claim stands",
            "0.040000 won x: x's claim",
            "0.040000 x told: accepted",
            "0.040000 failed y: lost to x, which won first and is not simultaneous with it",
            "0.040000 y told: rejected",
        ], statuses: "x=won y=failed blocker=failed other=failed t0=open")
    }

    @Test func firstDeclaredNamesTheReason() {
        var m = StandInMembers([["a", "b", "c"]], requiresFailureOf: [("c", "b"), ("c", "a")])
        m.land(at: 0)
        m.claim("c", at: 10)
        expectArenaLog(m, [
            "0.010000 waiting c: requires failure of a, which is still possible",
        ], statuses: "a=possible b=possible c=waiting t0=open")
    }

    /// The last lift sweeps the undecided members; a holding one keeps the arena open, and it
    /// closes (every member idle) once the holder fails and nothing is down.
    @Test func sweepSparesHolderAndClosesAfterIt() {
        var m = StandInMembers([["doubleTap", "pan"]])
        m.land(at: 0)
        m.hold("doubleTap", at: 80)
        m.sweep(at: 80)
        #expect(m.statuses == "doubleTap=holding pan=failed t0=open")
        m.fail("doubleTap", .note("no next tap"), at: 380)
        m.sweep(at: 380)
        expectArenaLog(m, [
            "0.080000 held doubleTap: keeps the arena open for a next tap",
            "0.080000 failed pan: undecided when its arena closed",
            "0.080000 pan told: rejected",
            "0.380000 failed doubleTap: no next tap",
        ], statuses: "doubleTap=idle pan=idle t0=closed")
    }

    /// A contact landing on a held arena makes the holder undecided again; the arena stays the
    /// same one (a failed member stays out until it closes).
    @Test func contactReleasesHold() {
        var m = StandInMembers([["doubleTap", "pan"]])
        m.land(at: 0)
        m.hold("doubleTap", at: 80)
        m.sweep(at: 80)
        m.land(at: 200)
        expectArenaLog(m, [
            "0.080000 held doubleTap: keeps the arena open for a next tap",
            "0.080000 failed pan: undecided when its arena closed",
            "0.080000 pan told: rejected",
        ], statuses: "doubleTap=possible pan=failed t0=open")
    }

    /// A closed arena opens with every member possible again, finished and failed ones too.
    @Test func reopensWithEveryMemberPossible() {
        var m = StandInMembers([["tap", "pan"]])
        m.land(at: 0)
        m.claim("tap", at: 80)
        m.arena.finish(m.index("tap"))
        m.sweep(at: 80)
        #expect(m.statuses == "tap=idle pan=idle t0=closed")
        m.land(at: 500)
        expectArenaLog(m, [
            "0.080000 won tap: claimed",
            "0.080000 tap told: accepted",
            "0.080000 failed pan: lost to tap, which won first and is not simultaneous with it",
            "0.080000 pan told: rejected",
        ], statuses: "tap=possible pan=possible t0=open")
    }

    /// A member still `won` when its arena closes is our bug: reported, dropped, arena closed.
    @Test func wonAtCloseIsReportedAndDropped() {
        var m = StandInMembers([["pan"]])
        m.land(at: 0)
        m.claim("pan", at: 50)
        m.sweep(at: 90)
        expectArenaLog(m, [
            "0.050000 won pan: claimed",
            "0.050000 pan told: accepted",
            "0.090000 pan bug: still won at arena close",
        ], statuses: "pan=idle t0=closed")
    }

    /// A rejected member's answer is applied in turn: here it releases a claim that waited on it.
    @Test func rejectionCascadesToWaitingClaims() {
        var m = StandInMembers([["a", "b", "c"]], simultaneous: [("a", "c")], requiresFailureOf: [("c", "b")])
        m.land(at: 0)
        m.claim("c", .note("c's claim"), at: 10)
        m.claim("a", at: 20)
        expectArenaLog(m, [
            "0.010000 waiting c: requires failure of b, which is still possible",
            "0.020000 won a: claimed",
            "0.020000 a told: accepted",
            "0.020000 failed b: lost to a, which won first and is not simultaneous with it",
            "0.020000 b told: rejected",
            "0.020000 waiting c: b failed, so its waiting claim stands",
            "0.020000 won c: simultaneous with a, which already won",
            "0.020000 c told: accepted",
        ], statuses: "a=won b=failed c=won t0=open")
    }

    /// The finger-count rule (docs/gestures.md#finger-count-changes): once the winner ended,
    /// a new round makes every member possible with no winner, so one that lost to the old
    /// winner can win now (a long press ended by a second finger, then a rotation).
    @Test func newRoundAfterTheOwnerEndedLetsTheLosersWin() {
        var m = StandInMembers([["longPress", "rotate", "pan"]], simultaneous: [("rotate", "pan")])
        m.land(at: 0)
        m.claim("longPress", at: 500)
        m.finish("longPress")
        m.newRound(at: 1000)
        #expect(m.statuses == "longPress=possible rotate=possible pan=possible t0=open")
        m.claim("rotate", .note("turned"), at: 1050)
        expectArenaLog(m, [
            "0.500000 won longPress: claimed",
            "0.500000 longPress told: accepted",
            "0.500000 failed rotate: lost to longPress, which won first and is not simultaneous with it",
            "0.500000 rotate told: rejected",
            "0.500000 failed pan: lost to longPress, which won first and is not simultaneous with it",
            "0.500000 pan told: rejected",
            "1.000000 new round: opened",
            "1.050000 won rotate: turned",
            "1.050000 rotate told: accepted",
            "1.050000 failed longPress: lost to rotate, which won first and is not simultaneous with it",
            "1.050000 longPress told: rejected",
        ], statuses: "longPress=failed rotate=won pan=possible t0=open")
    }

    /// No new round while a winner goes on with the contacts (a pan that won alongside a pinch
    /// keeps the finger the pinch leaves): nothing changes.
    @Test func noNewRoundWhileAWinnerGoesOn() {
        var m = StandInMembers([["pinch", "pan"]], simultaneous: [("pinch", "pan")])
        m.land(at: 0)
        m.claim("pinch", at: 30)
        m.claim("pan", at: 40)
        m.finish("pinch")
        m.newRound(at: 100)
        expectArenaLog(m, [
            "0.030000 won pinch: claimed",
            "0.030000 pinch told: accepted",
            "0.040000 won pan: simultaneous with pinch, which already won",
            "0.040000 pan told: accepted",
            "0.100000 new round: not opened",
        ], statuses: "pinch=finished pan=won t0=open")
    }

    /// The old round's undecided members are rejected on the way out, a waiting claim too, and
    /// without standing when its blocker goes (what they measured began with the old round);
    /// in the new round the relations apply afresh: the claim waits for its blocker again.
    @Test func newRoundRejectsTheUndecidedAndForgetsWaitingClaims() {
        var m = StandInMembers([["pinch", "pan", "x"]], simultaneous: [("pinch", "pan"), ("pinch", "x")], requiresFailureOf: [("x", "pan")])
        m.land(at: 0)
        m.claim("x", .note("x's claim"), at: 10)
        m.claim("pinch", at: 30)
        m.finish("pinch")
        m.newRound(at: 100)
        m.claim("x", .note("x's claim"), at: 110)
        expectArenaLog(m, [
            "0.010000 waiting x: requires failure of pan, which is still possible",
            "0.030000 won pinch: claimed",
            "0.030000 pinch told: accepted",
            "0.100000 failed pan: a new round opened for the contacts still down",
            "0.100000 pan told: rejected",
            "0.100000 failed x: a new round opened for the contacts still down",
            "0.100000 x told: rejected",
            "0.100000 new round: opened",
            "0.110000 waiting x: requires failure of pan, which is still possible",
        ], statuses: "pinch=possible pan=possible x=waiting t0=open")
    }

    /// A closed arena has no round to renew (its contacts are all gone).
    @Test func noNewRoundOnAClosedArena() {
        var m = StandInMembers([["pan"]])
        m.newRound(at: 10)
        expectArenaLog(m, ["0.010000 new round: not opened"], statuses: "pan=idle t0=closed")
    }

    /// Each target is its own arena: a winner on one rejects no one on another.
    @Test func targetsDecideApart() {
        var m = StandInMembers([["a", "b"], ["c"]])
        m.land(on: 0, at: 0)
        m.land(on: 1, at: 5)
        m.claim("a", at: 10)
        m.sweep(1, at: 20)
        expectArenaLog(m, [
            "0.010000 won a: claimed",
            "0.010000 a told: accepted",
            "0.010000 failed b: lost to a, which won first and is not simultaneous with it",
            "0.010000 b told: rejected",
            "0.020000 failed c: undecided when its arena closed",
            "0.020000 c told: rejected",
        ], statuses: "a=won b=failed c=idle t0=open t1=closed")
    }
}
