// The graph's output: the events it emits (a recognizer's, an explain line) with the fields
// every event of a target shares, and the contact list each carries, cached per target while
// no contact lands, lifts or changes target. Also the small types the graph's code uses
// around it: the tracked contacts' searches and the recorded transitions.
import TouchlineCore

extension GestureGraph {
    @inline(__always) mutating func contactList(on t: Int) -> ContactList {
        let bit = UInt64(1) << UInt64(t & 63)
        if t < 64 && contactListsValid & bit != 0 {
            assert(contactLists[t] == recomputedContactList(on: t), "the cached contact list of target \(t) is stale")
            return contactLists[t]
        }
        let list = recomputedContactList(on: t)
        contactLists[t] = list
        // The general path recomputes every list.
        if usesFastPaths && t < 64 { contactListsValid |= bit }
        return list
    }

    @inline(__always) mutating func emitEvent(_ i: Int, _ e: Emission, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        let t = arena.targetOf[i]
        // A recognizer competing outside its target's arena is a hover recognizer: its events
        // carry the carry's contacts (Carrying.swift).
        // A zoned recognizer's (an edge swipe's) are its own (`ownContactList`).
        let contacts = arena.arenaOf[i] != t ? carriedContacts() : zones.members & (1 &<< UInt64(i)) != 0 ? ownContactList(i, on: t) : contactList(on: t)
        let event = GestureEvent(
            seq: seq, time: time, device: device, gesture: e.detail.fieldsType.gesture ?? kinds[i], phase: e.phase, target: targetNames[t],
            recognizer: names[i], fingers: e.fingers, position: e.position, contacts: contacts, detail: e.detail)
        seq &+= 1
        emit(event)
    }

    mutating func explainLine(_ i: Int, _ phase: GesturePhase, _ reason: Reason, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        guard explain else { return }
        let t = arena.targetOf[i]
        let list = contactList(on: t)
        let event = GestureEvent(
            seq: seq, time: time, device: device, gesture: .explain, phase: phase, target: targetNames[t],
            recognizer: names[i], fingers: list.count, position: store[target: t].lastCentroid, contacts: list, detail: .explain(reason))
        if explainCountsInSeq { seq &+= 1 }
        emit(event)
    }
}

extension Span where Element == GestureGraph.Tracked {
    /// Whether contact `id` is among these.
    @inline(__always) func contains(id: ContactID) -> Bool {
        for i in indices where self[i].id == id { return true }
        return false
    }

    /// Whether any of these belongs to target `target`.
    @inline(__always) func contains(target: Int) -> Bool {
        for i in indices where self[i].target == target { return true }
        return false
    }
}

/// One step of a recognizer's state machine, for observers and logs:
/// `0.080000 tap: touching → contactLifted → claimed (claim)`.
public struct Transition: Sendable, CustomStringConvertible {
    public var time: Timestamp
    public var recognizer: String
    public var from: StaticString
    public var input: StaticString
    public var to: StaticString
    public var action: StaticString
    public var description: String { "\(time) \(recognizer): \(from) → \(input) → \(to) (\(action))" }
}
