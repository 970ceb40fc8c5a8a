import TouchlineCore

// What a pass-through planner (PassThrough.swift) asks the graph: which target a contact
// landed on, and whether a consuming recognizer of that target could still claim it or has
// won it. The answers come from the arena's own state (its members' statuses), so "could
// still claim" means exactly what it means for the arena: the member is undecided. No kind is
// special-cased: an edge swipe whose contact landed away from the edge refused it at its first
// frame and is failed; a three-finger swipe stays possible while one finger is down, because
// more may land. Only the planner calls these, never the frame path.
extension GestureGraph {
    /// The recognizers written with `consume = true` (bit i: recognizer i).
    public var consumingRecognizers: UInt64 {
        var mask: UInt64 = 0
        for (i, spec) in configuration.recognizers.enumerated() where spec.consume { mask |= 1 &<< UInt64(truncatingIfNeeded: i) }
        return mask
    }

    /// The target contact `id` belongs to while the graph tracks it; nil when it landed on no
    /// target (or past the graph's capacity, or after its last frame).
    public func target(ofContact id: ContactID) -> Int? {
        store.withTracked { tracked in
            for k in tracked.indices where tracked[k].id == id { return tracked[k].target }
            return nil
        }
    }

    /// Where the consuming recognizers `consuming` of target `t` stand: one of them has won
    /// (or is waiting on a recognizer it requires to fail: it claimed), or one is still
    /// undecided (possible or holding the arena open).
    public func consumption(onTarget t: Int, consuming: UInt64) -> PassThroughConsumption {
        guard t >= 0 && t < arena.targets.count else { return .none }
        var pending = false
        for i in MemberIndices(arena.members(of: t) & consuming) {
            switch arena.status[i] {
            case .won: return .won
            case .possible, .holding, .waiting: pending = true
            case .idle, .finished, .failed: continue
            }
        }
        return pending ? .pending : .none
    }

    /// Each consuming recognizer's name and target index: what its events say it won (an
    /// event carries the recognizer's name; a planner matches them without the graph, which is
    /// busy emitting them).
    public var consumingTargets: [(name: GestureName, target: Int)] {
        MemberIndices(consumingRecognizers).map { (names[$0], arena.targetOf[$0]) }
    }
}

/// What the consuming recognizers of a contact's target say about it.
public enum PassThroughConsumption: Sendable, Hashable {
    /// None of them can take it: it goes to the clone.
    case none
    /// One could still claim it: it is held back.
    case pending
    /// One won: it never reaches the clone.
    case won
}
