import TouchlineCore

// Events, schema version 1 (docs/events.md, docs/event-schema-v1.json). An event is a value
// with no heap storage of its own beyond the target and recognizer names it shares with the
// configuration, so emitting one allocates nothing; bytes are made only when a sink writes it.

/// What recognized the gesture; the `gesture` key of an event: a recognizer kind's name
/// (`GestureRecognizer.gesture`, each kind declares its own in its file), or `explain` for a
/// decision line.
public struct GestureKind: Hashable, Sendable, CustomStringConvertible {
    public let name: StaticString

    /// A kind's name; ASCII, as the schema's names are.
    public init(_ name: StaticString) { self.name = name }

    /// A decision line of `--explain`, not a gesture.
    public static let explain = GestureKind("explain")

    public var description: String { name.description }

    public static func == (a: GestureKind, b: GestureKind) -> Bool {
        let n = a.name.utf8CodeUnitCount
        guard n == b.name.utf8CodeUnitCount else { return false }
        if a.name.utf8Start == b.name.utf8Start { return true }
        for i in 0..<n where a.name.utf8Start[i] != b.name.utf8Start[i] { return false }
        return true
    }
    public func hash(into hasher: inout Hasher) {
        for i in 0..<name.utf8CodeUnitCount { hasher.combine(name.utf8Start[i]) }
    }
}

/// The `phase` key. Discrete gestures emit `recognized`; continuous ones `began`, `changed`…,
/// then `ended` or `cancelled`. Explain lines use the decision phases.
public enum GesturePhase: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case recognized, began, changed, ended, cancelled
    /// Explain: the recognizer won its arena.
    case won
    /// Explain: the recognizer claimed but waits for another to fail (`requiresFailureOf`).
    case waiting
    /// Explain: the recognizer keeps its arena open after the last lift (waiting for a next tap).
    case held
    /// Explain: the recognizer failed or was rejected.
    case failed
    /// Explain: an input the recognizer's state machine has no transition for (our bug); the
    /// recognizer was reset.
    case bug

    /// A discrete gesture's one phase.
    public static let discrete: [GesturePhase] = [.recognized]
    /// A continuous gesture's phases, in their order.
    public static let continuous: [GesturePhase] = [.began, .changed, .ended, .cancelled]
    /// Every phase a gesture event may have (the rest are explain lines').
    public static let gestures: [GesturePhase] = [.recognized, .began, .changed, .ended, .cancelled]

    public var name: StaticString {
        switch self {
        case .recognized: return "recognized"
        case .began: return "began"
        case .changed: return "changed"
        case .ended: return "ended"
        case .cancelled: return "cancelled"
        case .won: return "won"
        case .waiting: return "waiting"
        case .held: return "held"
        case .failed: return "failed"
        case .bug: return "bug"
        }
    }

    public var description: String { name.description }
}

/// A swipe's direction on the screen (y down).
public enum SwipeDirection: UInt8, BitwiseCopyable, Sendable, CaseIterable, CustomStringConvertible {
    case left, right, up, down
    public var name: StaticString {
        switch self {
        case .left: return "left"
        case .right: return "right"
        case .up: return "up"
        case .down: return "down"
        }
    }
    public var description: String { name.description }
}

/// The screen edge an edge swipe started from.
public enum ScreenEdge: UInt8, BitwiseCopyable, Sendable, CaseIterable, CustomStringConvertible {
    case left, right, top, bottom
    public var name: StaticString {
        switch self {
        case .left: return "left"
        case .right: return "right"
        case .top: return "top"
        case .bottom: return "bottom"
        }
    }
    public var description: String { name.description }
}

/// Up to `capacity` contact ids, stored inline so that an event never allocates. A gesture
/// with more contacts lists the first `capacity` (by id); `fingers` still counts them all.
public struct ContactList: Hashable, Sendable, Sequence, CustomStringConvertible {
    public static let capacity = 16
    @usableFromInline var storage: SIMD16<UInt32> = .zero
    /// The count (low 32 bits) and the tool (the next 8) in the one word the count alone had:
    /// the list keeps main's layout exactly. With a field of its own for the tool, every event
    /// built on the per-frame path cost 16 instructions more at 2 contacts (docs/performance.md).
    @usableFromInline var packed: Int = 0
    @inlinable public var count: Int { packed & 0xFFFF_FFFF }
    /// A pen when one of the contacts is a pen, else a finger (palms make no gesture): the
    /// event's `tool`, found when the list is made (a contact lands or leaves), never per frame.
    public var tool: ContactTool {
        get { ContactTool(rawValue: UInt8(truncatingIfNeeded: packed >> 32)) ?? .finger }
        set { packed = (packed & 0xFFFF_FFFF) | Int(newValue.rawValue) << 32 }
    }

    public init() {}

    public mutating func append(_ id: ContactID) {
        guard count < ContactList.capacity else { return }
        storage[count] = id.raw
        packed += 1
    }

    public func contains(_ id: ContactID) -> Bool {
        var i = 0
        while i < count {
            if storage[i] == id.raw { return true }
            i += 1
        }
        return false
    }

    public subscript(index: Int) -> ContactID { ContactID(storage[index]) }

    public struct Iterator: IteratorProtocol {
        let list: ContactList
        var index = 0
        public mutating func next() -> ContactID? {
            guard index < list.count else { return nil }
            defer { index += 1 }
            return list[index]
        }
    }
    public func makeIterator() -> Iterator { Iterator(list: self) }

    public static func == (a: ContactList, b: ContactList) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a.storage[i] != b.storage[i] { return false }
        return true
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for i in 0..<count { hasher.combine(storage[i]) }
    }

    public var description: String { "[" + map { $0.description }.joined(separator: ",") + "]" }
}

/// The unit a reason's numbers are in.
public enum ReasonUnit: UInt8, BitwiseCopyable, Sendable {
    case millimetres, milliseconds, millimetresPerSecond, degrees, fingers
    /// Normalized 0…1 (pressure).
    case normalized

    var suffix: String {
        switch self {
        case .millimetres: return " mm"
        case .milliseconds: return " ms"
        case .millimetresPerSecond: return " mm/s"
        case .degrees: return "°"
        case .fingers, .normalized: return ""
        }
    }
    var decimals: Int {
        switch self {
        case .millimetres, .degrees: return 2
        case .milliseconds, .millimetresPerSecond: return 1
        case .fingers: return 0
        case .normalized: return 3
        }
    }
}

/// Why a recognizer claimed, failed, waited or won: the threshold crossed and the margin, or the
/// relation applied. Values only (no strings are built until an explain line is written).
public enum Reason: BitwiseCopyable, Hashable, Sendable, CustomStringConvertible {
    // StaticString is not Hashable; two reasons are equal when they read the same.
    public static func == (a: Reason, b: Reason) -> Bool { a.description == b.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// `quantity` reached `limit` (value ≥ limit): a claim.
    case reached(StaticString, value: Double, limit: Double, ReasonUnit)
    /// `quantity` stayed within `limit` (value ≤ limit): a claim such as "lifted after 90 ms".
    case within(StaticString, value: Double, limit: Double, ReasonUnit)
    /// `quantity` went past `limit`: a failure.
    case exceeded(StaticString, value: Double, limit: Double, ReasonUnit)
    /// `quantity` fell short of `limit`: a failure.
    case shortOf(StaticString, value: Double, limit: Double, ReasonUnit)
    /// A deadline passed: `what` did not happen within `limit`.
    case timedOut(StaticString, limit: Interval)
    /// The contact count is outside the recognizer's range.
    case fingers(count: Int, minimum: Int, maximum: Int)
    /// A fixed sentence.
    case note(StaticString)
    /// Another recognizer won and is not declared simultaneous with this one.
    case lostTo(GestureName)
    /// A recognizer this one `requiresFailureOf` is still possible.
    case waitingFor(GestureName)
    /// The recognizer it waited for failed, so its claim stands (with the claim's own reason).
    case blockerFailed(GestureName)
    /// The recognizer it waited for won.
    case blockerWon(GestureName)
    /// Won alongside a recognizer declared simultaneous with it.
    case simultaneousWith(GestureName)
    /// Undecided when its arena closed (the last contact lifted and no one held it).
    case swept
    /// The state machine had no transition for an input (our bug).
    case impossible(state: StaticString, input: StaticString)

    public var description: String {
        func num(_ v: Double, _ u: ReasonUnit) -> String { formatFixed(v, decimals: u.decimals) + u.suffix }
        switch self {
        case let .reached(q, value, limit, u):
            return "\(q) \(num(value, u)) ≥ \(num(limit, u)) (margin \(num(value - limit, u)))"
        case let .within(q, value, limit, u):
            return "\(q) \(num(value, u)) ≤ \(num(limit, u)) (margin \(num(limit - value, u)))"
        case let .exceeded(q, value, limit, u):
            return "\(q) \(num(value, u)) > \(num(limit, u)) (by \(num(value - limit, u)))"
        case let .shortOf(q, value, limit, u):
            return "\(q) \(num(value, u)) < \(num(limit, u)) (short by \(num(limit - value, u)))"
        case let .timedOut(what, limit):
            return "\(what) within \(formatFixed(limit.milliseconds, decimals: 1)) ms"
        case let .fingers(count, minimum, maximum):
            let counted = count == 1 ? "1 finger" : "\(count) fingers"
            // A maximum of every contact a graph tracks is no maximum a person can reach.
            if minimum == maximum { return "\(counted), needs \(minimum)" }
            if maximum >= GestureGraph.contactCapacity { return "\(counted), needs \(minimum) or more" }
            return "\(counted), needs \(minimum)…\(maximum)"
        case let .note(text):
            return text.description
        case let .lostTo(name):
            return "lost to \(name), which won first and is not simultaneous with it"
        case let .waitingFor(name):
            return "requires failure of \(name), which is still possible"
        case let .blockerFailed(name):
            return "\(name) failed, so its waiting claim stands"
        case let .blockerWon(name):
            return "requires failure of \(name), which won"
        case let .simultaneousWith(name):
            return "simultaneous with \(name), which already won"
        case .swept:
            return "undecided when its arena closed"
        case let .impossible(state, input):
            return "no transition from \(state) on \(input)"
        }
    }
}

/// An explain line's own field: the decision's reason.
public struct ExplainFields: GestureFields {
    public static var fieldNames: [StaticString] { ["reason"] }
    public var reason: Reason
    public init(reason: Reason) { self.reason = reason }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) { body("reason", .text(reason.description)) }
    public var summary: String { ": \(reason)" }
}

extension GestureDetail {
    /// The decision line's reason.
    public static func explain(_ reason: Reason) -> GestureDetail { GestureDetail(ExplainFields(reason: reason)) }

    /// An explain line's reason; nil for a gesture's fields.
    public var reason: Reason? { fields(as: ExplainFields.self)?.reason }
}

/// One gesture event (or explain line), schema version 1.
public struct GestureEvent: Hashable, Sendable, CustomStringConvertible, JSONObjectMembers {
    public static let schemaVersion = 1
    /// The schema's minor version: additions a v1 reader may ignore (new gestures and keys),
    /// not written in events (docs/events.md#versions). 1.1: drag and spring; 1.2: `tool`.
    public static let schemaMinorVersion = 2

    /// Counts every line the graph emitted (explain lines included), from 0.
    public var seq: Int
    /// The input's own time: the frame's, or the deadline's for events fired by a deadline.
    public var time: Timestamp
    /// The index of the device the input came from, in the order the driver opened them (0 for
    /// a single trace).
    public var device: Int
    public var gesture: GestureKind
    public var phase: GesturePhase
    /// The target's name from the configuration ("surface" in the default graph).
    public var target: GestureName
    /// The recognizer's name from the configuration (the default graph names each after its
    /// kind).
    public var recognizer: GestureName
    public var fingers: Int
    /// Position in mm from the sensor's top-left corner: the contacts' centroid.
    public var position: Point
    /// The contacts down on the gesture's target when the event was made (those lifting in the
    /// frame included); empty for an event fired by a deadline after the last lift.
    public var contacts: ContactList
    public var detail: GestureDetail

    public init(
        seq: Int, time: Timestamp, device: Int, gesture: GestureKind, phase: GesturePhase, target: GestureName,
        recognizer: GestureName, fingers: Int, position: Point, contacts: ContactList, detail: GestureDetail
    ) {
        self.seq = seq
        self.time = time
        self.device = device
        self.gesture = gesture
        self.phase = phase
        self.target = target
        self.recognizer = recognizer
        self.fingers = fingers
        self.position = position
        self.contacts = contacts
        self.detail = detail
    }

    /// Writes the event as one JSON object (no newline): the common keys in the fixed order
    /// `v, seq, time, device, gesture, phase, target, fingers, x, y, recognizer`, then the
    /// gesture's own keys in the order docs/events.md lists, then `contacts`.
    public func writeJSON(into w: inout JSONWriter) {
        // Through stack scratch and appended once; an event that does not fit there (names or
        // an explain reason of any length) is noticed before it overruns and written piece by
        // piece instead, with the same bytes (JSONWriter.appendObject).
        w.appendObject(self)
    }

    /// The same bytes through `JSONWriter`'s methods alone: the reference the scratch path is
    /// tested against.
    func writeJSONPieceByPiece(into w: inout JSONWriter) {
        w.beginObject()
        writeMembers(&w)
        w.endObject()
    }

    /// The members, in schema order, through either writer.
    @inline(__always) public func writeMembers<W: JSONMembers>(_ w: inout W) {
        w.field("v", GestureEvent.schemaVersion)
        w.field("seq", seq)
        w.field("time", time)
        w.field("device", device)
        w.field("gesture", raw: gesture.name)
        w.field("phase", raw: phase.name)
        w.field("target", target.interned)
        w.field("fingers", fingers)
        w.field("x", position.x, decimals: 2)
        w.field("y", position.y, decimals: 2)
        w.field("recognizer", recognizer.interned)
        detail.forEachField { key, value in
            switch value {
            case let .integer(n): w.field(key, n)
            case let .number(x, decimals): w.field(key, x, decimals: decimals)
            case let .duration(d): w.key(key); w.fixed(d.microseconds, decimals: 6)
            case let .word(word): w.field(key, raw: word)
            case let .name(name): w.field(key, name.interned)
            case let .text(text): w.field(key, text)
            case let .names(list): w.names(key, list.count) { list[$0].interned }
            case .null: w.fieldNull(key)
            }
        }
        let list = contacts
        if list.tool != .finger { w.field("tool", raw: list.tool.staticName) }
        w.array("contacts", list.count) { list.storage[$0] }
    }

    /// The event as one JSON line without the trailing newline (for tests and small outputs).
    public var json: String {
        var w = JSONWriter(capacity: 256)
        writeJSON(into: &w)
        return w.string
    }

    public var description: String { json }
}
