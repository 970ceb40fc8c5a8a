import TouchlineCore

// A gesture's own event fields (after the common keys) are declared by its kind, in its file:
// a small value type conforming to `GestureFields` that says, field by field, what its JSON
// holds. The writers (JSON here, text in TextEventWriter) render the fields they are given, so a
// new kind's events need no change anywhere else (docs/gestures.md#adding-a-recognizer-kind).

/// A kind's event fields.
public protocol GestureFields: BitwiseCopyable, Hashable, Sendable {
    /// Each field with its key, in the order docs/events.md lists them.
    func forEachField(_ body: (StaticString, FieldValue) -> Void)
    /// The fields as a test's log line shows them, after the common part (" count=2").
    var summary: String { get }
    /// The event's `gesture` when it is not the kind's own name: a kind whose recognizer says
    /// several gestures (peek: `pop`, `peekActions`) gives each its own fields type, which
    /// names it. Nil (the default): the kind's name.
    static var gesture: GestureKind? { get }
    /// `detail`'s fields, when they are this type's (GestureDetail holds any kind's fields):
    /// provided, not implemented by a kind.
    static func _forEachField(of detail: borrowing GestureDetail, _ body: (StaticString, FieldValue) -> Void)
    /// Every key `forEachField` may give, in its order (some only on some events: a peek's
    /// `end`), known without an event: what an `[[action]]` may filter on (docs/live.md#actions).
    /// Checked against every event of the recordings (FieldNamesTests).
    static var fieldNames: [StaticString] { get }
    /// The keys of `fieldNames` whose values are words or names (JSON strings: a direction, a
    /// drag's items), and those whose values are counts (whole numbers from 1: a tap's
    /// `count`); every other key's value is a number. An action's filter on a key must take a
    /// value of its sort (`count = "2"`, `count = 0` would never fire: docs/live.md#actions).
    /// Held to the recordings' events by FieldNamesTests. Default: none.
    static var wordFieldNames: [StaticString] { get }
    static var countFieldNames: [StaticString] { get }
}

extension GestureFields {
    public static var gesture: GestureKind? { nil }
    public static var wordFieldNames: [StaticString] { [] }
    public static var countFieldNames: [StaticString] { [] }

    /// Every field, `key=value`.
    public var summary: String {
        var text = ""
        forEachField { key, value in text += " \(key)=\(value)" }
        return text
    }
}

/// One field's value, and how the JSON writes it.
public enum FieldValue: Sendable, CustomStringConvertible {
    /// A whole number.
    case integer(Int)
    /// A number with `decimals` fixed decimals.
    case number(Double, decimals: Int)
    /// An interval, in seconds with 6 decimals.
    case duration(Interval)
    /// A fixed word of the schema (a direction, an edge), as a JSON string.
    case word(StaticString)
    /// A target's or recognizer's name, as a JSON string.
    case name(GestureName)
    /// Any text, escaped as JSON requires (made only for explain lines).
    case text(String)
    /// Target or recognizer names, as a JSON array of strings (a drag's `items`).
    case names(NameList)
    /// No value: JSON `null` (a drag's `over` when it is over no drop target).
    case null

    public var description: String {
        switch self {
        case let .integer(n): return "\(n)"
        case let .number(x, decimals): return formatFixed(x, decimals: decimals)
        case let .duration(d): return formatFixed(d.microseconds, decimals: 6) + "s"
        case let .word(w): return w.description
        case let .name(n): return n.description
        case let .text(t): return t
        case let .names(list): return list.description
        case .null: return "null"
        }
    }
}

/// No fields (a kind whose events carry only the common keys).
public struct NoFields: GestureFields {
    public init() {}
    public static var fieldNames: [StaticString] { [] }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) {}
}

extension GestureDetail {
    /// No fields of its own.
    public static let none = GestureDetail(NoFields())

    /// Each field with its key, in the order the kind declares.
    @inline(__always) public func forEachField(_ body: (StaticString, FieldValue) -> Void) {
        fieldsType._forEachField(of: self, body)
    }

    /// The fields as a test's log line shows them.
    public var summary: String {
        func summary<F: GestureFields>(_ type: F.Type) -> String { fields(as: type)?.summary ?? "" }
        return summary(fieldsType)
    }

    public var description: String {
        var text = "\(fieldsType)("
        var first = true
        forEachField { key, value in
            text += (first ? "" : ", ") + "\(key): \(value)"
            first = false
        }
        return text + ")"
    }

    public static func == (a: GestureDetail, b: GestureDetail) -> Bool {
        guard a.fieldsType == b.fieldsType else { return false }
        func equal<F: GestureFields>(_ type: F.Type) -> Bool { a.fields(as: type) == b.fields(as: type) }
        return equal(a.fieldsType)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(fieldsType))
        func hash<F: GestureFields>(_ type: F.Type) { hasher.combine(fields(as: type)) }
        hash(fieldsType)
    }
}
