import TouchlineConfig
import TouchlineCore
import TouchlineGestures

// An `[[action]]`'s filter keys read from TOML (the filter itself: TouchlineGestures'
// FieldFilter.swift).
extension ActionReader {
    /// `KEY = VALUE` or `KEY = ["OP", VALUE]` for a field of `kind`'s events. A value that no
    /// event of the kind can match (a word for a number, 0 or 2.5 fingers) is refused at the
    /// value, not left to an action that never fires.
    func filter(_ key: String, _ v: TOMLValue, position: ConfigPosition, kind: any GestureRecognizer.Type) throws(ConfigError) -> FieldFilter {
        let fields = FieldFilter.fields(of: kind)
        guard fields.contains(key) else {
            throw fail(position, "unknown action key '\(key)': \(kind.gesture) events have no field '\(key)'; an action has gesture, phase, target, device, argv, shell, keys, button, timeout and repeat, and filters on the fields of \(kind.gesture) events: \(fields.joined(separator: ", ")) (a value, or [\"OP\", value] with OP one of ==, !=, <, <=, >, >=, abs>=, abs<=)")
        }
        let sort = FieldFilter.sort(of: key, on: kind)
        let expected = "a value (\(key) = 3, \(key) = \"left\") or a comparison [\"OP\", value] with OP one of ==, !=, <, <=, >, >=, abs>=, abs<= (words take == and != only)"
        func value(_ v: TOMLValue) throws(ConfigError) -> FieldFilter.Value {
            let operand: FieldFilter.Value
            switch v.kind {
            case let .integer(n): operand = .number(Double(n))
            case let .float(x) where x.isFinite: operand = .number(x)
            case let .string(s) where !s.isEmpty: operand = .word(s)
            default: throw wrong(v, "an action's filter on \(key)", expected)
            }
            switch (sort, operand) {
            case (.word, .word):
                if let known = FieldFilter.words[key], case let .word(w) = operand, !known.contains(w) {
                    throw wrong(v, "an action's \(key)", "one of \(known.joined(separator: ", "))")
                }
            case (.word, .number):
                throw wrong(v, "an action's filter on \(key)", "a word in quotes: \(kind.gesture) events write \(key) as a word (\(FieldFilter.words[key].map { "one of " + $0.joined(separator: ", ") } ?? "a name"))")
            case (.number, .number):
                break
            case (.count, .number(let x)):
                let range = FieldFilter.countRange(key)
                guard x.rounded() == x, x >= Double(range.lowerBound), x <= Double(range.upperBound) else {
                    throw wrong(v, "an action's filter on \(key)", "a whole number from \(range.lowerBound) to \(range.upperBound), as \(kind.gesture) events' \(key) is")
                }
            case (.number, .word), (.count, .word):
                throw wrong(v, "an action's filter on \(key)", "a number without quotes: \(kind.gesture) events write \(key) as a number\(key == "duration" ? " of seconds (0.2 for 200 ms)" : "") (what `touchline listen` prints)")
            }
            return operand
        }
        if case let .array(items) = v.kind {
            guard items.count == 2 else { throw wrong(v, "an action's filter on \(key)", expected) }
            guard case let .string(o) = items[0].kind, let op = FieldFilter.Operator(rawValue: o) else {
                throw wrong(items[0], "an action's filter on \(key)", expected)
            }
            if sort == .word, op != .equal, op != .notEqual { throw wrong(items[0], "an action's filter on \(key)", expected) }
            return FieldFilter(key, op, try value(items[1]))
        }
        return FieldFilter(key, .equal, try value(v))
    }
}
