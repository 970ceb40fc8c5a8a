import TouchlineCore

// An `[[action]]`'s filters on the event's own fields (docs/live.md#actions): `edge = "left"`,
// `fingers = 3`, `scale = [">=", 1.5]`. A filter compares the value as the event's JSON writes
// it (what `touchline listen` prints), so a user reads the number to write off a real event.
// Which keys a gesture's events have is known without an event: the common ones below and the
// keys of its kind's fields types (`GestureRecognizer.eventFields`, `GestureFields.fieldNames`),
// so a filter on a key the gesture never carries is a `--check-config` error, not an action that
// silently never fires. Here, beside the events it reads, so that actions (TouchlineSettings,
// which reads it from TOML: ActionReader+Filters.swift) and labels (TouchlineTuning) get the one
// filter without either depending on the other.

/// One condition on an event's field.
public struct FieldFilter: Hashable, Sendable, Comparable, CustomStringConvertible {
    public enum Operator: String, CaseIterable, Hashable, Sendable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        /// On the magnitude (a rotation either way): the operators of ../shared/traces/labels.json's
        /// `where`, so that a label's condition and an action's filter are written alike.
        case absGreaterOrEqual = "abs>=", absLessOrEqual = "abs<="
    }

    public enum Value: Hashable, Sendable {
        /// A number, compared with the field's JSON number (durations in seconds).
        case number(Double)
        /// A word (an edge, a direction, a tool, a drag's target name).
        case word(String)
    }

    public var field: String
    public var op: Operator
    public var value: Value

    public init(_ field: String, _ op: Operator = .equal, _ value: Value) {
        self.field = field
        self.op = op
        self.value = value
    }

    /// The keys every event has that a filter may name; `phase`, `target` and `device` are an
    /// action's own keys (ActionSpec), `gesture` picks the action.
    public static let commonFields = ["fingers", "x", "y", "tool"]

    /// The words a field of a fixed vocabulary takes (the schema's enums): a filter with
    /// another word is refused, as `edge = "lef"` would otherwise never fire.
    public static let words: [String: [String]] = [
        "direction": SwipeDirection.allCases.map { $0.name.description },
        "edge": ScreenEdge.allCases.map { $0.name.description },
        "tool": ContactTool.allCases.filter { $0 != .palm }.map { $0.staticName.description },
    ]

    /// The kind whose recognizer writes events named `gesture`: its own (`peek`), or another it
    /// also writes (`pop`, `peekActions`); nil for a name no kind writes.
    public static func kind(writing gesture: String, in registry: RecognizerRegistry = .standard) -> (any GestureRecognizer.Type)? {
        registry.kinds.first { kind in
            kind.gesture.name.description == gesture || kind.eventFields.contains { $0.gesture?.name.description == gesture }
        }
    }

    /// What a value for `field` of `gesture`'s events must be when `value` is not it ("a number",
    /// "one of left, right, top, bottom"); nil when it fits. The field's sort is the kind's
    /// declaration (`sort(of:on:)`), as for an action's filter, so a label's condition and an
    /// action's filter are checked by one rule.
    public static func expected(_ field: String, _ value: Value, gesture: String, registry: RecognizerRegistry = .standard) -> String? {
        let sort = kind(writing: gesture, in: registry).map { Self.sort(of: field, on: $0) } ?? (field == "tool" ? .word : .number)
        switch (sort, value) {
        case (.word, .number):
            return words[field].map { "one of \($0.joined(separator: ", "))" } ?? "a word (\(field) is one)"
        case let (.word, .word(w)):
            guard let known = words[field], !known.contains(w) else { return nil }
            return "one of \(known.joined(separator: ", "))"
        case (.number, .word), (.count, .word):
            return "a number (\(field) is one)"
        case (.number, .number), (.count, .number):
            return nil
        }
    }

    /// Every gesture name events carry (each kind's own, and the others its recognizer says:
    /// `pop`, `peekActions`), with the fields its events may have, common ones first: what a
    /// label may name (docs/labels.md).
    public static func gestures(of registry: RecognizerRegistry = .standard) -> [(name: String, fields: [String])] {
        var out: [(name: String, fields: [String])] = []
        for kind in registry.kinds {
            var own = commonFields
            var others: [(name: String, fields: [String])] = []
            for type in kind.eventFields {
                if let gesture = type.gesture, gesture != kind.gesture {
                    others.append((gesture.name.description, commonFields + type.fieldNames.map(\.description).filter { !commonFields.contains($0) }))
                } else {
                    for name in type.fieldNames where !own.contains(name.description) { own.append(name.description) }
                }
            }
            out.append((kind.gesture.name.description, own))
            out += others
        }
        return out
    }

    /// The keys an action on `kind` may filter on, common ones first.
    public static func fields(of kind: any GestureRecognizer.Type) -> [String] {
        var names = commonFields
        for type in kind.eventFields {
            for name in type.fieldNames where !names.contains(name.description) { names.append(name.description) }
        }
        return names
    }

    /// Whether `event` passes; an event without the field (a peek's `end` before it ends) or
    /// with a value of another sort (a word against a number) does not.
    public func holds(for event: GestureEvent) -> Bool {
        switch field {
        case "fingers": return compare(.number(Double(event.fingers)))
        case "x": return compare(.number(event.position.x))
        case "y": return compare(.number(event.position.y))
        case "tool": return compare(.word(event.contacts.tool.staticName.description))
        default: break
        }
        var result = false
        event.detail.forEachField { key, value in
            guard key.description == field else { return }
            switch value {
            case let .integer(n): result = compare(.number(Double(n)))
            // Rounded as the JSON writes it, so that a value read off an event (`scale` 0.700
            // for 0.70004) compares as it reads.
            case let .number(x, decimals): result = compare(.number(Self.rounded(x, decimals)))
            case let .duration(d): result = compare(.number(Double(d.microseconds) / 1_000_000))
            case let .word(w): result = compare(.word(w.description))
            case let .name(n): result = compare(.word(n.description))
            case .text, .names, .null: result = false
            }
        }
        return result
    }

    private func compare(_ found: Value) -> Bool {
        switch (found, value) {
        case let (.number(a), .number(b)):
            switch op {
            case .equal: return a == b
            case .notEqual: return a != b
            case .less: return a < b
            case .lessOrEqual: return a <= b
            case .greater: return a > b
            case .greaterOrEqual: return a >= b
            case .absGreaterOrEqual: return abs(a) >= b
            case .absLessOrEqual: return abs(a) <= b
            }
        case let (.word(a), .word(b)):
            switch op {
            case .equal: return a == b
            case .notEqual: return a != b
            default: return false
            }
        default:
            return false
        }
    }

    static func rounded(_ x: Double, _ decimals: Int) -> Double {
        guard x.isFinite, decimals >= 0, decimals <= 9 else { return x }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (x * scale).rounded() / scale
    }

    public static func < (a: FieldFilter, b: FieldFilter) -> Bool {
        (a.field, a.op.rawValue, a.description) < (b.field, b.op.rawValue, b.description)
    }

    public var description: String {
        switch value {
        case let .number(x): "\(field) \(op.rawValue) \(x)"
        case let .word(w): "\(field) \(op.rawValue) \"\(w)\""
        }
    }
}

extension FieldFilter {
    /// What a field's value is: what a filter on it must compare with.
    public enum Sort: Sendable {
        /// A number (mm, mm/s, seconds, radians…).
        case number
        /// A whole number from 1 (`fingers`, a tap's `count`), up to `countRange`'s bound.
        case count
        /// A word or a name (an edge, a direction, a tool, a drag's target names).
        case word
    }

    /// The sort of `field` on `kind`'s events: the common keys', else as the kind's fields
    /// types declare it (`GestureFields.wordFieldNames`, `countFieldNames`).
    public static func sort(of field: String, on kind: any GestureRecognizer.Type) -> Sort {
        switch field {
        case "fingers": return .count
        case "x", "y": return .number
        case "tool": return .word
        default: break
        }
        for type in kind.eventFields {
            if type.wordFieldNames.contains(where: { $0.description == field }) { return .word }
            if type.countFieldNames.contains(where: { $0.description == field }) { return .count }
        }
        return .number
    }

    /// The values an event's count can take: `fingers` at most the contacts a graph tracks,
    /// another count (a tap series) at most Int32's largest.
    public static func countRange(_ field: String) -> ClosedRange<Int> {
        field == "fingers" ? 1...GraphConfiguration.Limits.mostFingers : 1...Int(Int32.max)
    }
}
