import TouchlineConfig
import TouchlineCore
import TouchlineGestures

// Recognizer parameters by their documented names: units, and the conversion of a TOML value (a
// number in the parameter's unit or a string with a unit) to the parameter's type. The limits
// are validation's (GraphConfiguration.Limits), asked for each value as it is set.

extension ConfigReader {
    /// Sets one parameter by its documented name, converting the value from its unit.
    func set(_ entry: TOMLEntry, in kind: inout RecognizerKind) throws(ConfigError) {
        let kindName = kind.gesture.name.description
        let name = entry.key
        let declared = kind.parameterNames
        guard let unit = declared.first(where: { $0.name == name })?.unit else {
            let known = declared.map(\.name).joined(separator: ", ")
            throw fail(entry.keyPosition, "\(kindName) has no parameter '\(name)'; its parameters: \(known)")
        }
        let key = "\(kindName).\(name)"
        let (number, count) = try convert(entry.value, to: unit, key: key)
        var word = ""
        if unit == .word, case let .string(s) = entry.value.kind { word = s }
        var words: [String] = []
        if unit == .words { words = try wordList(entry.value, key: key, allowed: kind.allowedWords(of: name) ?? []) }
        guard kind.set(name, ParameterValue(number: number, count: count, word: word, words: words)) else {
            // `parameterNames` and the setters come from one declaration; a miss is our bug.
            throw fail(entry.keyPosition, "\(key) is declared but not settable (a Touchline bug)")
        }
        // Every other parameter of `kind` is a default or was checked when it was set, so a
        // problem with this key is this value's.
        if let problem = kind.problem, problem.key == name, !problem.isRelation {
            throw wrong(entry.value, key, problem.expected)
        }
    }

    /// A value in the parameter's declared unit, and as a count; its limits are checked once it
    /// is set, so only what cannot be converted is refused here.
    func convert(_ value: TOMLValue, to unit: ParameterUnit, key: String) throws(ConfigError) -> (Double, count: Int) {
        switch unit {
        case .flag:
            guard case let .bool(b) = value.kind else { throw wrong(value, key, "true or false") }
            return (b ? 1 : 0, 0)
        case .count:
            guard case let .integer(n) = value.kind else { throw wrong(value, key, "a whole number") }
            return (Double(n), Int(clamping: n))
        case .normalized:
            switch value.kind {
            case let .integer(n): return (Double(n), 0)
            case let .float(d): return (d, 0)
            default: throw wrong(value, key, "a number from 0 to 1")
            }
        case .word:
            guard case .string = value.kind else { throw wrong(value, key, "a string") }
            return (0, 0)
        case .words:
            // The list itself is read by `wordList`, which knows the kind's words.
            return (0, 0)
        case .milliseconds, .millimetres, .millimetresPerSecond, .degrees:
            let expected = "a number of \(unit.rawValue) or a string with a unit (\(examples(unit)))"
            try refuseUnitSlip(value, key, unit)
            switch value.kind {
            case let .integer(n): return (Double(n), 0)
            case let .float(d): return (d, 0)
            case let .string(text):
                guard let n = GraphConfiguration.parseQuantity(text, unit: unit) else { throw wrong(value, key, expected) }
                return (n, 0)
            default:
                throw wrong(value, key, expected)
            }
        }
    }

    /// A list of one or more of `allowed` (`edges = ["left", "top"]`): a word it does not know
    /// is named at its own place in the list, an empty list at the list.
    func wordList(_ value: TOMLValue, key: String, allowed: [String]) throws(ConfigError) -> [String] {
        let quoted = allowed.map { "\"\($0)\"" }
        let names = quoted.count > 1 ? quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1] : quoted.joined()
        let example = allowed.first.map { "[\"\($0)\"]" } ?? "[]"
        guard case let .array(items) = value.kind else { throw wrong(value, key, "a list of one or more of \(names) (\(example))") }
        guard !items.isEmpty else {
            throw fail(value.position, "found an empty list for \(key); expected one or more of \(names); without any, leave the key out (all of them)")
        }
        var out: [String] = []
        for item in items {
            guard case let .string(s) = item.kind, allowed.contains(s) else { throw wrong(item, key, names) }
            out.append(s)
        }
        return out
    }

    func examples(_ unit: ParameterUnit) -> String {
        switch unit {
        case .milliseconds: return "\"300ms\", \"0.3s\""
        case .millimetres: return "\"3mm\", \"0.5cm\""
        case .millimetresPerSecond: return "\"100mm/s\", \"0.1m/s\""
        case .degrees: return "\"30deg\", \"0.5rad\""
        case .count, .flag, .normalized, .word, .words: return ""
        }
    }

}
