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
    /// Held at most until it moved this far from where it landed, mm. 16 mm: far past an edge
    /// swipe's 3 mm slop. A drag held that far is visibly late; every frame of it still reaches
    /// the app, only later. A swipe is decided at its lift, so a consuming swipe longer than
    /// this is released, not consumed (docs/live.md#pass-through, "What the bound does not
    /// allow yet").
    public var distance: Double

    public init(time: Interval = .milliseconds(150), distance: Double = 16) {
        self.time = time
        self.distance = distance
    }

    public static let standard = PassThroughBound()
    /// The longest a configuration may set (`hold`, `holdDistance`): 2 s and 300 mm.
    public static let longestTime = Interval.milliseconds(2000)
    public static let longestDistance = 300.0
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

    public var name: StaticString {
        switch self {
        case .forwarded: return "forwarded"
        case .released: return "released"
        case .bound: return "bound"
        case .dropped: return "dropped"
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
    /// Contacts sent (forwarded, released or bound) that found every clone slot taken and
    /// waited, still held, for the next free one: a released contact's frames come late, so
    /// the clone can have more contacts down than the device (two-slot panels). Counted besides
    /// their outcome, not instead of it.
    public var waitedForSlot = 0
    /// The hold times of the latest `recentCapacity` contacts that were held (released, bound
    /// or dropped), µs, in the order decided; the distribution over every one is `holds`.
    public private(set) var holdTimes: [Int64] = []
    /// The hold time of every contact that was held, in a histogram of fixed size: a daemon
    /// passes a device through for months, and keeping each time (main did) grew without end.
    public private(set) var holds = HoldHistogram()
    public static let recentCapacity = 64
    public init() {}

    /// Counts one contact's hold.
    public mutating func held(_ time: Interval) {
        if holdTimes.count == Self.recentCapacity { holdTimes.removeFirst() }
        holdTimes.append(time.microseconds)
        holds.add(time.microseconds)
    }

    /// For people: how many contacts took each path, the hold times' p50 and maximum, and how
    /// many waited for a clone slot. Every counter is printed, 0 too.
    public var summary: String {
        let times = holds.count == 0 ? "" : "; held p50 \(formatFixed(Double(holds.median) / 1000, decimals: 1)) ms, max \(formatFixed(Double(holds.maximum) / 1000, decimals: 1)) ms"
        return "\(forwarded) contacts sent at once, \(released) released, \(bound) released by the hold bound, \(dropped) dropped" + times
            + "; \(waitedForSlot) waited for a free clone slot"
    }

    public mutating func add(_ c: PassThroughCounters) {
        forwarded += c.forwarded
        released += c.released
        bound += c.bound
        dropped += c.dropped
        waitedForSlot += c.waitedForSlot
        holdTimes = Array((holdTimes + c.holdTimes).suffix(Self.recentCapacity))
        holds.add(c.holds)
    }
}

/// Hold times in 0.1 ms buckets up to the longest hold a configuration may set (2 s; longer
/// ones in the last), the exact maximum beside: the p50 `replay --passthrough` and the daemon
/// print, to the 0.1 ms they print it with, in 80 KB however many contacts come.
public struct HoldHistogram: Hashable, Sendable {
    public static let bucketWidth: Int64 = 100
    static let bucketCount = Int(PassThroughBound.longestTime.microseconds / bucketWidth) + 1
    /// Allocated at the first hold: a planner that holds nothing pays nothing.
    private var buckets: [UInt32] = []
    public private(set) var count = 0
    public private(set) var maximum: Int64 = 0

    public init() {}

    public mutating func add(_ microseconds: Int64) {
        if buckets.isEmpty { buckets = Array(repeating: 0, count: Self.bucketCount) }
        buckets[min(Self.bucketCount - 1, Int(max(0, microseconds) / Self.bucketWidth))] &+= 1
        count += 1
        maximum = max(maximum, microseconds)
    }

    public mutating func add(_ other: HoldHistogram) {
        guard other.count > 0 else { return }
        if buckets.isEmpty { buckets = Array(repeating: 0, count: Self.bucketCount) }
        for i in other.buckets.indices { buckets[i] &+= other.buckets[i] }
        count += other.count
        maximum = max(maximum, other.maximum)
    }

    /// The lower median, µs, to the bucket below (0.1 ms: 8.333 ms is 8.3); 0 when empty.
    public var median: Int64 {
        guard count > 0 else { return 0 }
        let rank = (count - 1) / 2
        var seen = 0
        for i in buckets.indices {
            seen += Int(buckets[i])
            if seen > rank { return Int64(i) * Self.bucketWidth }
        }
        return maximum
    }
}

/// Decides, per contact, what a pass-through clone receives (docs/live.md#pass-through):
/// forwarded in the frame it arrives when no consuming recognizer could take **that contact**;
/// held while one could; released (its held frames at once, in order) when every such
/// recognizer is out or the hold bound passed; dropped when one of them wins it. "Could take
/// it": a consuming recognizer of the contact's target whose landing zone holds it (an edge
/// swipe's watched edges: `GestureGraph.takers`), that the arena has not told is out; and, for
/// one that claims with N ≥ 2 fingers, only while N fingers may still land together: past the
/// join window (`joinWindow`) after the contact landed, with fewer than N contacts of its
/// target landed within that window of it, the recognizer no longer holds it.
/// The clone's contacts have their own slots and tracking ids and are always balanced: every
/// contact the clone saw go down it sees lift (`finish` lifts those still down). A contact to
/// send when every clone slot is taken waits, still held, for the next free one, and goes out
/// with all its frames then: none is ever lost to the slots.
///
/// Pure and deterministic: it is driven by the device's frames (as assembled, before any
/// `[[device]]` transform: the clone is the device), the decisions the graph's arena told
/// after each step (`GestureGraph.decisions`: who may claim, who won which contacts, who is
/// out; the planner never reads an arena's status and never matches names), and `advance` at
/// `nextDeadline` for the hold bound and the join window. The caller interleaves those with
/// the graph's own deadlines in time order (`GesturePipeline` does: one deadline order).
public struct PassThroughPlanner: Sendable {
    public let bound: PassThroughBound
    /// The clone's slots (the device's).
    public let slotCount: Int
    /// How long after a contact lands other fingers may still join it for a consuming
    /// recognizer that claims with two or more (`standardJoinWindow`).
    public let joinWindow: Interval
    public private(set) var counters = PassThroughCounters()
    /// Every decision since the last `drainReports()`, for `--explain`; kept only when
    /// `keepsReports` (a daemon's planner, which no one asks, keeps none).
    public private(set) var reports: [HoldReport] = []
    public var keepsReports: Bool
    /// Every arena decision it was told since the last `drainTold()`, in order; kept only when
    /// `keepsDecisions` (tests that show what the planner heard, frame by frame).
    public private(set) var told: [ArenaDecision] = []
    public var keepsDecisions = false
    private var consuming: UInt64
    /// Per recognizer: its own hold bound (nil: `bound`), and the fewest fingers it claims with.
    private var holds: [PassThroughBound?]
    private var fingers: [Int]
    /// The consuming recognizers that claim with two or more fingers (bit i).
    private var together: UInt64
    /// As the arena told: the recognizers that may still claim, and those that won and go on.
    private var pending: UInt64 = 0
    private var winning: UInt64 = 0

    /// `waiting`: decided for the app (forwarded, released or bound) but every clone slot was
    /// taken; its frames are kept as a held contact's until a slot frees.
    private enum State: UInt8 { case held, waiting, forwarded, dropped }

    private struct Entry {
        var id: ContactID
        var target: Int?
        /// The consuming recognizers that could take it (its target's, in whose landing zone it
        /// landed), less those whose join window passed without the fingers they need.
        var takers: UInt64
        var first: Timestamp
        var origin: Point
        var distance = 0.0
        /// Its hold bound now: the largest of the takers still undecided about it (their own
        /// `hold`, the planner's `bound` when they set none).
        var limit: PassThroughBound
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
        /// A consuming recognizer won it (the arena told so) while it was held: dropped at the
        /// next decision (after its frame is counted), even when the winner is done by then.
        var claimed = false
        /// Its join window was checked (`together` takers without their fingers let go).
        var joined = false
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
    /// The step's items set aside while waiting contacts are sent.
    private var spare: [(Int, ContactID, Contact)] = []
    private var outFrame = PassThroughFrame(time: Timestamp(microseconds: 0), contacts: [])
    private var freed: [Int32] = []

    /// 120 ms: the fingers of the shared recordings' multi-finger gestures that land together
    /// land within 115 ms of the first (a four-finger drag's fourth at 114.5 ms, a phone's
    /// two-finger drag 104 ms apart, a two-finger tap 75 ms); those further apart are fingers
    /// placed one after another (a four-finger pan built over 274 ms, a finger joining a long
    /// press 1.27 s later). Below the standard hold bound (150 ms): a lone finger waits less
    /// for a many-finger consumer than for any other. docs/live.md#pass-through, "Fingers
    /// that land together".
    public static let standardJoinWindow = Interval.milliseconds(120)

    public init(graph: GestureGraph, slotCount: Int, bound: PassThroughBound = .standard, keepsReports: Bool = true,
                joinWindow: Interval = PassThroughPlanner.standardJoinWindow) {
        self.bound = bound
        self.keepsReports = keepsReports
        self.joinWindow = joinWindow
        self.slotCount = max(1, slotCount)
        consuming = 0
        holds = []
        fingers = []
        together = 0
        slotUsed = Array(repeating: false, count: max(1, slotCount))
        read(graph)
    }

    /// The graph's consuming recognizers and what each needs.
    private mutating func read(_ graph: GestureGraph) {
        consuming = graph.consumingRecognizers
        let specs = graph.configuration.recognizers
        holds = specs.map { $0.consume ? $0.hold : nil }
        fingers = specs.map { $0.kind.claimFloor.fingers }
        together = 0
        for i in MemberIndices(consuming) where fingers[i] >= 2 { together |= 1 &<< UInt64(i) }
        pending = 0
        winning = 0
    }

    /// The graph was rebuilt (a reload, a registered target): its consuming recognizers again,
    /// and nothing told yet. A contact held stays held while a recognizer of the new graph
    /// could take it (none, for a contact down before: the new graph did not see it land).
    public mutating func graphChanged(_ graph: GestureGraph) {
        read(graph)
        for k in entries.indices where entries[k].state == .held { entries[k].takers = graph.takers(ofContact: entries[k].id, among: consuming) }
    }

    /// Contacts the planner follows (held, on the clone, or dropped and not yet lifted).
    public var contactCount: Int { entries.count }

    /// When the earliest held contact reaches its hold bound or the end of its join window;
    /// nil when none is held.
    public var nextDeadline: Timestamp? {
        var earliest: Timestamp?
        for e in entries where e.state == .held {
            var d = e.first + e.limit.time
            if !e.joined && e.takers & together != 0 { d = min(d, e.first + joinWindow) }
            if earliest.map({ d < $0 }) ?? true { earliest = d }
        }
        return earliest
    }

    /// Returns the reports and forgets them.
    public mutating func drainReports() -> [HoldReport] {
        defer { reports.removeAll() }
        return reports
    }

    /// Returns the decisions told (`keepsDecisions`) and forgets them.
    public mutating func drainTold() -> [ArenaDecision] {
        defer { told.removeAll() }
        return told
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
                entries.append(Entry(id: c.id, target: graph.target(ofContact: c.id), takers: graph.takers(ofContact: c.id, among: consuming),
                                     first: frame.time, origin: c.position, limit: bound, last: c))
                k = entries.count - 1
            }
            let i = k!
            entries[i].distance = max(entries[i].distance, c.position.distance(to: entries[i].origin))
            entries[i].last = c
            if c.phase.isFinal { entries[i].lifted = true }
            switch entries[i].state {
            case .held, .waiting: entries[i].buffer.append((frameNumber, c))
            case .forwarded: items.append((frameNumber, c.id, c))
            case .dropped: break
            }
        }
        listen(graph)
        decide(at: frame.time)
        flush(at: frame.time, emit)
    }

    /// Time moved to `time` without a frame (the hold bound, the join window, or a graph
    /// deadline): what the arena told is heard, and held contacts are decided again.
    public mutating func advance(to time: Timestamp, graph: GestureGraph, emit: (PassThroughFrame) -> Void) {
        lastTime = max(lastTime, time)
        items.removeAll(keepingCapacity: true)
        listen(graph)
        decide(at: time)
        flush(at: time, emit)
    }

    /// The end (the device removed, the daemon stopping, the end of a trace): contacts still
    /// down on the clone are lifted, held ones are dropped (the clone never saw them). One
    /// waiting for a slot is the app's: it goes out once the lifts free the slots, lifted.
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
            case .waiting where !entries[k].lifted:
                var c = entries[k].last
                c.phase = .ended
                entries[k].buffer.append((frameNumber, c))
                entries[k].lifted = true
            default: break
            }
        }
        flush(at: time, emit)
        entries.removeAll()
    }

    /// The arena's decisions since the graph's last step, in order (Flutter's
    /// `acceptGesture`/`rejectGesture`): a recognizer may claim (`possible`), won, or is out.
    /// A consuming winner takes every contact held for it: those it claimed (`contacts`) and
    /// those of its gesture that lifted before it won (a two-finger tap won at its second
    /// lift, a double tap's first tap), dropped even when it is done within the same step (a
    /// tap decided at its deadline closes its arena there).
    private mutating func listen(_ graph: GestureGraph) {
        for d in graph.decisions where d.recognizer < 64 {
            if keepsDecisions { told.append(d) }
            let bit = UInt64(1) << UInt64(d.recognizer)
            switch d.verdict {
            case .possible:
                pending |= bit
                winning &= ~bit
            case .won:
                pending &= ~bit
                winning |= bit
                guard consuming & bit != 0 else { continue }
                // Held for it: it could take them, and they are of its arena (a contact of an
                // earlier arena is no longer held: every taker was out when that one closed).
                for k in entries.indices where entries[k].state == .held && entries[k].takers & bit != 0 { entries[k].claimed = true }
            case .out:
                pending &= ~bit
                winning &= ~bit
            }
        }
    }

    /// A consuming recognizer that claims with N ≥ 2 fingers takes contact `k` only when N
    /// contacts of its target landed within the join window of it (this one included): once
    /// the window passed, those that find fewer let it go.
    private mutating func checkJoin(_ k: Int) {
        entries[k].joined = true
        guard let t = entries[k].target else { return }
        let first = entries[k].first
        var landed = 0
        for e in entries where e.target == t && abs((e.first - first).microseconds) <= joinWindow.microseconds { landed += 1 }
        for i in MemberIndices(entries[k].takers & together) where landed < fingers[i] { entries[k].takers &= ~(1 &<< UInt64(i)) }
    }

    /// The largest bound among the recognizers `mask` (their own, or the planner's).
    private func limit(of mask: UInt64) -> PassThroughBound {
        var limit: PassThroughBound?
        for i in MemberIndices(mask) {
            let own = holds[i] ?? bound
            limit = PassThroughBound(time: max(limit?.time ?? own.time, own.time), distance: max(limit?.distance ?? own.distance, own.distance))
        }
        return limit ?? bound
    }

    private mutating func decide(at time: Timestamp) {
        for k in entries.indices where entries[k].state == .held {
            if !entries[k].joined && entries[k].takers & together != 0 && time >= entries[k].first + joinWindow { checkJoin(k) }
            let takers = entries[k].takers
            // Won by a consuming recognizer that takes it (told so, or it adopted the contact
            // on landing). Cancelled while held (the device went away, a reload): the clone
            // never saw it, and a touch that did not end by a lift is nothing to show the app.
            if entries[k].claimed || takers & winning != 0 || (entries[k].lifted && entries[k].last.phase == .cancelled) {
                drop(k, at: time)
                continue
            }
            let undecided = takers & pending
            if undecided != 0 { entries[k].limit = limit(of: undecided) }
            let limit = entries[k].limit
            let bounded = time - entries[k].first >= limit.time || entries[k].distance >= limit.distance
            if undecided != 0 && !bounded { continue }
            // Sent in the frame it arrived: nothing was held.
            let atOnce = undecided == 0 && entries[k].buffer.count == 1 && entries[k].buffer[0].1.phase == .began && entries[k].first == time
            report(k, at: time, atOnce ? .forwarded : undecided != 0 ? .bound : .released)
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
        if keepsReports {
            reports.append(HoldReport(contact: entries[k].id, time: time, outcome: outcome, held: held, distance: outcome == .forwarded ? 0 : entries[k].distance))
        }
        switch outcome {
        case .forwarded: counters.forwarded += 1
        case .released: counters.released += 1
        case .bound: counters.bound += 1
        case .dropped: counters.dropped += 1
        }
        if outcome != .forwarded { counters.held(held) }
    }

    /// The step's items to the clone, then the contacts waiting for a slot that one of the
    /// step's lifts freed; the entries whose lift went out (or that were dropped) are forgotten.
    private mutating func flush(at time: Timestamp, _ emit: (PassThroughFrame) -> Void) {
        send(at: time, emit)
        sendWaiting(at: time, emit)
        entries.removeAll { $0.lifted && $0.state != .held && $0.state != .waiting && ($0.closed || $0.state == .dropped) }
    }

    /// `items` in the order of the frames they came in (a contact's own frames in order,
    /// contacts of one frame by id), one clone frame per source frame, all at `time`. A contact
    /// that needs a slot when every one is taken waits, its frames kept (`sendWaiting`).
    private mutating func send(at time: Timestamp, _ emit: (PassThroughFrame) -> Void) {
        guard !items.isEmpty else { return }
        if items.count > 1 { items.sort { ($0.0, $0.1) < ($1.0, $1.1) } }
        outFrame.time = time
        outFrame.contacts.removeAll(keepingCapacity: true)
        var number = items[0].0
        for i in items.indices {
            let (n, id, c) = items[i]
            if n != number {
                emitFrame(emit)
                number = n
            }
            guard let k = entries.firstIndex(where: { $0.id == id }) else { continue }
            if entries[k].state == .waiting {
                entries[k].buffer.append((n, c))
                continue
            }
            if entries[k].slot < 0 {
                guard let s = slotUsed.firstIndex(of: false) else {
                    // Every clone slot is taken: a released contact's frames come late, so the
                    // clone can have more down than the device has slots. It waits, still held,
                    // for the next free one; its outcome was counted when it was decided.
                    entries[k].state = .waiting
                    entries[k].buffer = [(n, c)]
                    counters.waitedForSlot += 1
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
        items.removeAll(keepingCapacity: true)
    }

    /// The contacts waiting for a slot, in the order they landed, while a slot is free: each
    /// with all its frames, in frames after those that freed the slot.
    private mutating func sendWaiting(at time: Timestamp, _ emit: (PassThroughFrame) -> Void) {
        while slotUsed.contains(false), let k = entries.firstIndex(where: { $0.state == .waiting }) {
            entries[k].state = .forwarded
            swap(&items, &spare)
            items.removeAll(keepingCapacity: true)
            for (n, c) in entries[k].buffer { items.append((n, c.id, c)) }
            entries[k].buffer = []
            send(at: time, emit)
            swap(&items, &spare)
        }
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
