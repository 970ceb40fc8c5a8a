import TouchlineCore

/// How long a contact may be held back from a pass-through clone while a consuming recognizer
/// could still claim it (docs/live.md#pass-through). Past either limit it is released to the
/// app, its held frames at once, and no consuming recognizer takes it from the clone any more.
public struct PassThroughBound: Hashable, Sendable {
    /// Held at most this long after it landed. 150 ms: a consuming edge swipe decides after its
    /// 3 mm slop, which a finger that means to swipe covers well within it (at 100 mm/s, the
    /// slowest swipe, in 30 ms), and a tap of up to 150 ms is decided at its lift; longer, and
    /// a finger that means to drag the app's content sees it stick (InputActions chose 50 ms
    /// for its hold and tap decisions, which leaves a tap no time).
    public var time: Interval
    /// Held at most until it moved this far from where it landed, mm. 16 mm: just past the
    /// 15 mm a default swipe needs (so a consuming swipe can decide), far past an edge swipe's
    /// 3 mm slop. A drag held that far is visibly late; every frame of it still reaches the
    /// app, only later.
    public var distance: Double

    public init(time: Interval = .milliseconds(150), distance: Double = 16) {
        self.time = time
        self.distance = distance
    }

    public static let standard = PassThroughBound()
}

/// One contact of a pass-through frame: the clone's own slot and tracking id, and the source
/// contact's values (its phase `began`, `moved`/`stationary`, or `ended`; a cancelled contact
/// is `ended` on the clone: evdev has no cancel).
public struct PassThroughContact: Hashable, Sendable {
    public var slot: Int32
    public var trackingID: Int32
    public var contact: Contact

    public init(slot: Int32, trackingID: Int32, contact: Contact) {
        self.slot = slot
        self.trackingID = trackingID
        self.contact = contact
    }
}

/// One frame for the clone (one `SYN_REPORT`), at the time it is written.
public struct PassThroughFrame: Hashable, Sendable {
    public var time: Timestamp
    public var contacts: [PassThroughContact]

    public init(time: Timestamp, contacts: [PassThroughContact]) {
        self.time = time
        self.contacts = contacts
    }
}

/// How a contact's hold ended.
public enum HoldOutcome: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// No consuming recognizer could take it when it landed: sent in the frame it arrived.
    case forwarded
    /// Held until every consuming candidate failed, then sent.
    case released
    /// Held until the hold bound passed, then sent.
    case bound
    /// A consuming recognizer won it: never sent.
    case dropped
    /// The clone had no free slot for it (more contacts than the device's slots): never sent.
    case overflow

    public var name: StaticString {
        switch self {
        case .forwarded: return "forwarded"
        case .released: return "released"
        case .bound: return "bound"
        case .dropped: return "dropped"
        case .overflow: return "overflow"
        }
    }

    public var description: String { name.description }
}

/// A contact's hold: when it was decided, how, and how long and far it was held.
public struct HoldReport: Hashable, Sendable {
    public var contact: ContactID
    public var time: Timestamp
    public var outcome: HoldOutcome
    public var held: Interval
    /// mm from where it landed, at the decision.
    public var distance: Double
}

/// Counters over a planner's life.
public struct PassThroughCounters: Hashable, Sendable {
    public var forwarded = 0
    public var released = 0
    public var bound = 0
    public var dropped = 0
    public var overflow = 0
    /// The hold time of every contact that was held (released, bound or dropped), µs, in the
    /// order decided: the distribution `replay --passthrough` summarizes.
    public var holdTimes: [Int64] = []
    public init() {}

    /// For people: how many contacts took each path, and the hold times' p50 and maximum.
    public var summary: String {
        let held = holdTimes.sorted()
        let times = held.isEmpty ? "" : "; held p50 \(formatFixed(Double(held[(held.count - 1) / 2]) / 1000, decimals: 1)) ms, max \(formatFixed(Double(held.last!) / 1000, decimals: 1)) ms"
        return "\(forwarded) contacts sent at once, \(released) released, \(bound) released by the hold bound, \(dropped) dropped" + times
    }

    public mutating func add(_ c: PassThroughCounters) {
        forwarded += c.forwarded
        released += c.released
        bound += c.bound
        dropped += c.dropped
        overflow += c.overflow
        holdTimes += c.holdTimes
    }
}

/// Decides, per contact, what a pass-through clone receives (docs/live.md#pass-through):
/// forwarded in the frame it arrives when no consuming recognizer can still claim it; held
/// while one could; released (its held frames at once, in order) when every consuming
/// candidate failed or the hold bound passed; dropped when a consuming recognizer wins it.
/// The clone's contacts have their own slots and tracking ids and are always balanced: every
/// contact the clone saw go down it sees lift (`finish` lifts those still down).
///
/// Pure and deterministic: it is driven by the device's frames (as assembled, before any
/// `[[device]]` transform: the clone is the device), the graph's state after each step, the
/// events the graph emitted, and `advance` at `nextDeadline` for the hold bound. The caller
/// interleaves those with the graph's own deadlines in time order (`PassThroughDriver` does).
public struct PassThroughPlanner: Sendable {
    public let bound: PassThroughBound
    /// The clone's slots (the device's).
    public let slotCount: Int
    public private(set) var counters = PassThroughCounters()
    /// Every decision since the last `drainReports()`, for `--explain`.
    public private(set) var reports: [HoldReport] = []
    private var consuming: UInt64
    private var consumingTargets: [(name: GestureName, target: Int)]

    private enum State: UInt8 { case held, forwarded, dropped }

    private struct Entry {
        var id: ContactID
        var target: Int?
        var first: Timestamp
        var origin: Point
        var distance = 0.0
        var state = State.held
        /// Held frames: the frame's number and the contact in it.
        var buffer: [(Int, Contact)] = []
        var last: Contact
        var slot: Int32 = -1
        var trackingID: Int32 = -1
        /// Its last frame (ended, cancelled) came.
        var lifted = false
        /// Its lift went to the clone (or it never went down there).
        var closed = false
        /// A consuming recognizer's event said it won this contact's target while it was
        /// held: dropped at the next decision (after its frame is counted).
        var claimed = false
    }

    private var entries: [Entry] = []
    private var frameNumber = 0
    /// The latest time stepped to: `finish` never writes before it.
    private var lastTime = Timestamp(microseconds: 0)
    private var nextTrackingID: Int32 = 0
    private var slotUsed: [Bool]
    /// One step's items (frame number, contact, its values), the frame being made and the
    /// slots it frees: reused, so a step allocates only while they grow.
    private var items: [(Int, ContactID, Contact)] = []
    private var outFrame = PassThroughFrame(time: Timestamp(microseconds: 0), contacts: [])
    private var freed: [Int32] = []

    public init(graph: GestureGraph, slotCount: Int, bound: PassThroughBound = .standard) {
        self.bound = bound
        self.slotCount = max(1, slotCount)
        consuming = graph.consumingRecognizers
        consumingTargets = graph.consumingTargets
        slotUsed = Array(repeating: false, count: max(1, slotCount))
    }

    /// The graph was rebuilt (a reload, a registered target): its consuming recognizers again.
    /// Contacts held stay held until the new graph decides.
    public mutating func graphChanged(_ graph: GestureGraph) {
        consuming = graph.consumingRecognizers
        consumingTargets = graph.consumingTargets
    }

    /// Contacts the planner follows (held, on the clone, or dropped and not yet lifted).
    public var contactCount: Int { entries.count }

    /// When the earliest held contact reaches the hold bound; nil when none is held.
    public var nextDeadline: Timestamp? {
        var earliest: Timestamp?
        for e in entries where e.state == .held {
            let d = e.first + bound.time
            if earliest.map({ d < $0 }) ?? true { earliest = d }
        }
        return earliest
    }

    /// Returns the reports and forgets them.
    public mutating func drainReports() -> [HoldReport] {
        defer { reports.removeAll() }
        return reports
    }

    /// An event the graph emitted (every one, in order): a consuming recognizer's event means
    /// it won its target's contacts, so those held then are dropped at the step's decision,
    /// even when the arena closed in between (a tap decided at its deadline closes its arena
    /// in the same step).
    /// Explain lines never count: a decision line is not a win.
    public mutating func note(_ event: GestureEvent) {
        guard event.gesture != .explain, let t = consumingTargets.first(where: { $0.name == event.recognizer })?.target else { return }
        for k in entries.indices where entries[k].state == .held && entries[k].target == t { entries[k].claimed = true }
    }

    /// A frame of the device, after the graph processed it.
    public mutating func frame(_ frame: TouchFrame, graph: GestureGraph, emit: (PassThroughFrame) -> Void) {
        frameNumber += 1
        lastTime = max(lastTime, frame.time)
        items.removeAll(keepingCapacity: true)
        for c in frame.contacts {
            var k = entries.firstIndex { $0.id == c.id }
            if k == nil {
                // A contact already down when the planner started (pass-through turned on
                // mid-touch) never went down on the clone: it is not the clone's.
                guard c.phase == .began else { continue }
                entries.append(Entry(id: c.id, target: graph.target(ofContact: c.id), first: frame.time, origin: c.position, last: c))
                k = entries.count - 1
            }
            let i = k!
            entries[i].distance = max(entries[i].distance, c.position.distance(to: entries[i].origin))
            entries[i].last = c
            if c.phase.isFinal { entries[i].lifted = true }
            switch entries[i].state {
            case .held: entries[i].buffer.append((frameNumber, c))
            case .forwarded: items.append((frameNumber, c.id, c))
            case .dropped: break
            }
        }
        decide(at: frame.time, graph: graph)
        flush(at: frame.time, emit)
    }

    /// Time moved to `time` without a frame (the hold bound, or a graph deadline): held
    /// contacts are decided again.
    public mutating func advance(to time: Timestamp, graph: GestureGraph, emit: (PassThroughFrame) -> Void) {
        lastTime = max(lastTime, time)
        items.removeAll(keepingCapacity: true)
        decide(at: time, graph: graph)
        flush(at: time, emit)
    }

    /// The end (the device removed, the daemon stopping, the end of a trace): contacts still
    /// down on the clone are lifted, held ones are dropped (the clone never saw them).
    public mutating func finish(at end: Timestamp, emit: (PassThroughFrame) -> Void) {
        let time = max(end, lastTime)
        items.removeAll(keepingCapacity: true)
        frameNumber += 1
        for k in entries.indices {
            switch entries[k].state {
            case .held: drop(k, at: time)
            case .forwarded where !entries[k].closed:
                var c = entries[k].last
                c.phase = .ended
                items.append((frameNumber, c.id, c))
            default: break
            }
        }
        flush(at: time, emit)
        entries.removeAll()
    }

    private mutating func decide(at time: Timestamp, graph: GestureGraph) {
        for k in entries.indices where entries[k].state == .held {
            let verdict = entries[k].target.map { graph.consumption(onTarget: $0, consuming: consuming) } ?? .none
            // Cancelled while held (the device went away, a reload): the clone never saw it,
            // and a touch that did not end by a lift is nothing to show the app.
            if verdict == .won || entries[k].claimed || (entries[k].lifted && entries[k].last.phase == .cancelled) {
                drop(k, at: time)
                continue
            }
            let bounded = time - entries[k].first >= bound.time || entries[k].distance >= bound.distance
            if verdict == .pending && !bounded { continue }
            // Sent in the frame it arrived: nothing was held.
            let atOnce = verdict == .none && entries[k].buffer.count == 1 && entries[k].buffer[0].1.phase == .began && entries[k].first == time
            report(k, at: time, atOnce ? .forwarded : verdict == .pending ? .bound : .released)
            entries[k].state = .forwarded
            for (n, c) in entries[k].buffer { items.append((n, c.id, c)) }
            entries[k].buffer = []
        }
    }

    private mutating func drop(_ k: Int, at time: Timestamp) {
        report(k, at: time, .dropped)
        entries[k].state = .dropped
        entries[k].buffer = []
        entries[k].closed = true
    }

    private mutating func report(_ k: Int, at time: Timestamp, _ outcome: HoldOutcome) {
        let held = outcome == .forwarded ? Interval.zero : time - entries[k].first
        reports.append(HoldReport(contact: entries[k].id, time: time, outcome: outcome, held: held, distance: outcome == .forwarded ? 0 : entries[k].distance))
        switch outcome {
        case .forwarded: counters.forwarded += 1
        case .released: counters.released += 1
        case .bound: counters.bound += 1
        case .dropped: counters.dropped += 1
        case .overflow: counters.overflow += 1
        }
        if outcome != .forwarded && outcome != .overflow { counters.holdTimes.append(held.microseconds) }
    }

    /// The items in the order of the frames they came in (a contact's own frames in order,
    /// contacts of one frame by id), one clone frame per source frame, all at `time`.
    private mutating func flush(at time: Timestamp, _ emit: (PassThroughFrame) -> Void) {
        if !items.isEmpty {
            if items.count > 1 { items.sort { ($0.0, $0.1) < ($1.0, $1.1) } }
            outFrame.time = time
            outFrame.contacts.removeAll(keepingCapacity: true)
            freed.removeAll(keepingCapacity: true)
            var number = items[0].0
            for i in items.indices {
                let (n, id, c) = items[i]
                if n != number {
                    emitFrame(emit)
                    number = n
                }
                guard let k = entries.firstIndex(where: { $0.id == id }) else { continue }
                if entries[k].slot < 0 {
                    guard let s = slotUsed.firstIndex(of: false) else {
                        // More contacts than the device has slots: the kernel would not have
                        // sent this; the clone cannot take it.
                        entries[k].state = .dropped
                        entries[k].closed = true
                        report(k, at: time, .overflow)
                        continue
                    }
                    slotUsed[s] = true
                    entries[k].slot = Int32(s)
                    entries[k].trackingID = nextTrackingID
                    nextTrackingID = (nextTrackingID &+ 1) & 0xFFFF
                }
                guard entries[k].state == .forwarded else { continue }
                var contact = c
                if contact.phase == .cancelled { contact.phase = .ended }
                outFrame.contacts.append(PassThroughContact(slot: entries[k].slot, trackingID: entries[k].trackingID, contact: contact))
                if contact.phase == .ended {
                    entries[k].closed = true
                    freed.append(entries[k].slot)
                }
            }
            emitFrame(emit)
        }
        entries.removeAll { $0.lifted && $0.state != .held && ($0.closed || $0.state == .dropped) }
    }

    /// A slot lifted in a frame is free from the next one (one frame cannot end a contact in a
    /// slot and begin another in it).
    private mutating func emitFrame(_ emit: (PassThroughFrame) -> Void) {
        if !outFrame.contacts.isEmpty { emit(outFrame) }
        outFrame.contacts.removeAll(keepingCapacity: true)
        for s in freed { slotUsed[Int(s)] = false }
        freed.removeAll(keepingCapacity: true)
    }
}
