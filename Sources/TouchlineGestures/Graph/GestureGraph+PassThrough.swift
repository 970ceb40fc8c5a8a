import TouchlineCore

// What a pass-through planner (PassThrough.swift) learns from the graph: which target a contact
// landed on and which consuming recognizers could take it (its target's, less those whose
// landing zone it is outside: `ClaimFloor.zone`), what each consuming recognizer needs (its
// hold bound, its fingers), and the arena's decisions as the arena tells them (`decisions`,
// recorded by `told`): who may still claim, who won which contacts, who is out. The planner
// never reads an arena's status and never matches names: a kind is special only through what
// it declares (`claimFloor`). Only the planner calls these, never the frame path.
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

    /// The recognizers of `among` that could take contact `id` as it landed: those of its
    /// target's arena whose landing zone holds it (an edge swipe of `edges = ["left"]` does
    /// not take a finger landing mid-screen). 0 when the graph does not track it.
    public func takers(ofContact id: ContactID, among: UInt64) -> UInt64 {
        // Through the checked subscript, not a span in a closure (GestureGraph+Palms.swift).
        var t = -1
        var outside: UInt8 = 0
        for k in 0..<store.trackedCount where store[tracked: k].id == id {
            t = store[tracked: k].target
            outside = store[tracked: k].outside
        }
        guard t >= 0, t < arena.targets.count else { return 0 }
        var mask: UInt64 = 0
        for i in MemberIndices(arena.members(of: t) & among) where zones.bits[i] & outside == 0 { mask |= 1 &<< UInt64(i) }
        return mask
    }

    /// Clears `decisions` (after an observer read them): the driver does so before each step.
    public mutating func clearDecisions() { decisions.removeAll(keepingCapacity: true) }
}

/// A decision of an arena as it tells its observers (Flutter's `acceptGesture` and
/// `rejectGesture`): recognizer `recognizer` may claim again (its arena opened, or a new round),
/// won the contacts `contacts` (those of its target in its landing zone), or is out (failed,
/// rejected, swept, or done after it won). `--explain` prints the same decisions as lines
/// (`won`, `failed`), from the same calls of the arena's rules (Arena.swift).
public struct ArenaDecision: Hashable, Sendable, CustomStringConvertible {
    public enum Verdict: UInt8, Hashable, Sendable {
        case possible, won, out
    }
    public var recognizer: Int
    public var verdict: Verdict
    public var time: Timestamp
    /// What it claimed, when it won; empty otherwise.
    public var contacts: ContactList

    public init(recognizer: Int, verdict: Verdict, time: Timestamp, contacts: ContactList = ContactList()) {
        self.recognizer = recognizer
        self.verdict = verdict
        self.time = time
        self.contacts = contacts
    }

    /// `0.008333 r0 won c0` (recognizer index, verdict, contacts).
    public var description: String {
        "\(time) r\(recognizer) \(verdict)" + (contacts.count == 0 ? "" : " " + contacts.map { $0.description }.joined(separator: ","))
    }
}

/// The recognizers that take only contacts landing in a zone of theirs (`ClaimFloor.zone`):
/// each has a bit of `Tracked.outside` (at most 8 such recognizers in a graph; any more take
/// every contact, as before zones).
struct LandingZones: Sendable {
    /// Bit j: the j-th zoned recognizer's zone.
    var zones: [LandingZone] = []
    /// Per recognizer, its bit (0: it takes every contact).
    var bits: [UInt8]
    /// The recognizers (bit i) with a bit.
    var members: UInt64 = 0

    init(_ zones: [LandingZone?]) {
        bits = Array(repeating: 0, count: zones.count)
        for (i, zone) in zones.enumerated() {
            guard let zone, self.zones.count < 8, i < 64 else { continue }
            bits[i] = UInt8(1) << UInt8(self.zones.count)
            self.zones.append(zone)
            members |= 1 &<< UInt64(i)
        }
    }

    /// The bits of the zones a contact landing at `p` is outside.
    func outside(_ p: Point, on surface: Size) -> UInt8 {
        var bits: UInt8 = 0
        for j in zones.indices where !zones[j].contains(p, on: surface) { bits |= UInt8(1) << UInt8(j) }
        return bits
    }
}
