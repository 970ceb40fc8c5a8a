import TouchlineCore
import TouchlineSettings

// Labels: what a person meant, per recording (docs/labels.md). The format is the one of
// ../shared/traces/labels.json (and its score.py), read by Core's JSONReader: a file is either
// that bare array of recordings or an object {"version": 1, "recordings": [...]}. A condition is
// an `[[action]]` filter's FieldFilter (ActionFilter.swift), so a label and an action compare an
// event's field the same way, as its JSON writes it.

public struct LabelError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One expectation: `has` (at least `minimum` matching events in the window) or `none`.
public struct Label: Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable { case has, none }
    public var kind: Kind
    /// The gesture names an event may have (a list when either answer is right).
    public var gestures: [String]
    /// Seconds from the recording's first event; nil: unbounded.
    public var from: Double?
    public var to: Double?
    public var minimum: Int
    public var conditions: [FieldFilter]
    /// The conditions as written (field, operator, the value's JSON text), for `describe`.
    var conditionTexts: [(field: String, op: String, value: String)]
    public var why: String?

    /// A short rendering, the same as score.py's: `has pan 0.01..0.67 s fingers==4`.
    public var description: String {
        var parts = [kind.rawValue]
        if kind == .has && minimum > 1 { parts.append(">=\(minimum)") }
        parts.append(gestures.joined(separator: "|"))
        if from != nil || to != nil {
            parts.append("\(from.map { formatFixed($0, decimals: 2) } ?? "")..\(to.map { formatFixed($0, decimals: 2) } ?? "") s")
        }
        for c in conditionTexts {
            parts.append(c.op.hasPrefix("abs") ? "abs(\(c.field))\(c.op.dropFirst(3))\(c.value)" : "\(c.field)\(c.op)\(c.value)")
        }
        return parts.joined(separator: " ")
    }

    /// Whether `t` (seconds from the recording's first event) is in the window.
    public func contains(_ t: Double) -> Bool { (from.map { $0 <= t } ?? true) && (to.map { t <= $0 } ?? true) }

    /// How far `t` lies outside the window (0 inside).
    func distance(_ t: Double) -> Double { max((from ?? t) - t, t - (to ?? t), 0) }
}

/// One recording and its labels.
public struct LabelledRecording: Sendable {
    /// The path as the labels file writes it (relative to that file), for messages.
    public var file: String
    /// The path to open: relative to the labels file's folder.
    public var path: String
    /// The evemu description for traces that need one (resolved as `path`).
    public var desc: String?
    /// Replay options the recording needs (`--size 476x268`, `--range …`).
    public var args: [String]
    public var labels: [Label]
}

public struct LabelSet: Sendable {
    public static let version = 1
    /// The largest labels file read (the shared one is 40 KB): a file past it is refused
    /// rather than held.
    public static let maximumBytes = 16 << 20
    public var recordings: [LabelledRecording]

    public init(recordings: [LabelledRecording]) { self.recordings = recordings }

    /// Reads a labels file; `directory` is its folder ("" for the current one), against which
    /// relative paths resolve. Errors name the file and the recording.
    public static func parse(_ bytes: [UInt8], file: String, directory: String) throws(LabelError) -> LabelSet {
        let value: JSONValue
        do { value = try JSONReader.read(bytes) } catch { throw LabelError("\(file): not JSON: \(error)") }
        var entries: [JSONValue]
        switch value {
        case let .array(items): entries = items
        case let .object(members):
            if let v = member(members, "version") {
                guard case let .integer(n) = v, n == Int64(version) else {
                    throw LabelError("\(file): \"version\" is \(render(v)); this touchline reads version \(version)")
                }
            }
            guard case let .array(items)? = member(members, "recordings") else {
                throw LabelError("\(file): an object of labels needs \"recordings\": a list of {\"file\": …, \"expect\": […]}")
            }
            for m in members where !["version", "recordings"].contains(m.key) {
                throw LabelError("\(file): unknown key \"\(m.key)\" (a labels object has version and recordings)")
            }
            entries = items
        default:
            throw LabelError("\(file): labels are a list of {\"file\": …, \"expect\": […]} (or {\"version\": 1, \"recordings\": […]})")
        }
        var recordings: [LabelledRecording] = []
        for (i, entry) in entries.enumerated() {
            recordings.append(try recording(entry, number: i + 1, file: file, directory: directory))
        }
        return LabelSet(recordings: recordings)
    }

    static func recording(_ entry: JSONValue, number: Int, file: String, directory: String) throws(LabelError) -> LabelledRecording {
        guard case let .object(members) = entry, case let .string(path)? = member(members, "file"), !path.isEmpty else {
            throw LabelError("\(file): recording \(number): needs \"file\", the recording's path")
        }
        let at = "\(file): \(path)"
        var desc: String?
        var args: [String] = []
        var labels: [Label] = []
        var sawExpect = false
        for m in members {
            switch (m.key, m.value) {
            case ("file", _), ("why", _), ("args_why", _): break
            case let ("desc", .string(d)): desc = resolve(d, directory)
            case let ("args", .array(items)):
                for item in items {
                    guard case let .string(s) = item else { throw LabelError("\(at): \"args\" is a list of strings (replay's options)") }
                    args.append(s)
                }
            case let ("expect", .array(items)):
                sawExpect = true
                for item in items { labels.append(try label(item, at: at)) }
            case ("desc", _), ("args", _), ("expect", _):
                throw LabelError("\(at): \"\(m.key)\" has the wrong type (desc: a path; args: a list of strings; expect: a list of labels)")
            default:
                throw LabelError("\(at): unknown key \"\(m.key)\" (a recording has file, desc, args, expect)")
            }
        }
        guard sawExpect else { throw LabelError("\(at): needs \"expect\", a list of labels") }
        return LabelledRecording(file: path, path: resolve(path, directory), desc: desc, args: args, labels: labels)
    }

    static func label(_ value: JSONValue, at: String) throws(LabelError) -> Label {
        guard case let .object(members) = value else { throw LabelError("\(at): a label is an object: {\"has\": \"tap\", …}") }
        let shown = render(value)
        var kind: Label.Kind?
        var gestures: [String] = []
        var label = Label(kind: .has, gestures: [], minimum: 1, conditions: [], conditionTexts: [])
        for m in members {
            switch m.key {
            case "has", "none":
                guard kind == nil else { throw LabelError("\(at): a label needs exactly one of \"has\"/\"none\": \(shown)") }
                kind = Label.Kind(rawValue: m.key)
                switch m.value {
                case let .string(g): gestures = [g]
                case let .array(items):
                    for item in items {
                        guard case let .string(g) = item else { gestures = []; break }
                        gestures.append(g)
                    }
                    if gestures.count != items.count { gestures = [] }
                default: break
                }
                if gestures.isEmpty { throw LabelError("\(at): \"\(m.key)\" takes a gesture name or a list of them: \(shown)") }
            case "from", "to":
                guard let t = number(m.value) else { throw LabelError("\(at): \"\(m.key)\" is a time in seconds: \(shown)") }
                if m.key == "from" { label.from = t } else { label.to = t }
            case "min":
                guard case let .integer(n) = m.value, n >= 1, n <= 1_000_000 else {
                    throw LabelError("\(at): \"min\" must be a whole number of at least 1: \(shown)")
                }
                label.minimum = Int(n)
            case "where":
                guard case let .object(conditions) = m.value else { throw LabelError("\(at): \"where\" is an object of FIELD: [OP, VALUE]: \(shown)") }
                for c in conditions {
                    let (filter, text) = try condition(c, at: at, shown: shown)
                    label.conditions.append(filter)
                    label.conditionTexts.append(text)
                }
            case "why":
                if case let .string(w) = m.value { label.why = w }
            default:
                throw LabelError("\(at): unknown label key \"\(m.key)\" (has, none, from, to, min, where, why): \(shown)")
            }
        }
        guard let kind else { throw LabelError("\(at): a label needs exactly one of \"has\"/\"none\" with a gesture name: \(shown)") }
        label.kind = kind
        label.gestures = gestures
        return label
    }

    /// `FIELD: [OP, VALUE]`: the comparisons of an action's filter (==, !=, <, <=, >, >=) and
    /// the magnitude ones (abs>=, abs<=); words compare with == and != only.
    static func condition(_ c: JSONMember, at: String, shown: String) throws(LabelError) -> (FieldFilter, (field: String, op: String, value: String)) {
        guard case let .array(pair) = c.value, pair.count == 2, case let .string(o) = pair[0], let op = FieldFilter.Operator(rawValue: o) else {
            throw LabelError("\(at): bad condition \(c.key): \(render(c.value)) (a condition is [OP, VALUE], OP one of ==, !=, <, <=, >, >=, abs>=, abs<=)")
        }
        let operand: FieldFilter.Value
        if let n = number(pair[1]) {
            operand = .number(n)
        } else if case let .string(w) = pair[1], op == .equal || op == .notEqual {
            operand = .word(w)
        } else {
            throw LabelError("\(at): \(c.key): \(o) needs a number\(op == .equal || op == .notEqual ? " or a word" : ""): \(shown)")
        }
        let text: String
        if case let .string(w) = pair[1] { text = w } else { text = render(pair[1]) }
        return (FieldFilter(c.key, op, operand), (c.key, o, text))
    }

    static func member(_ members: [JSONMember], _ key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    static func number(_ v: JSONValue) -> Double? {
        switch v {
        case let .integer(n): return Double(n)
        case let .number(x): return x
        default: return nil
        }
    }

    static func resolve(_ path: String, _ directory: String) -> String {
        path.hasPrefix("/") || directory.isEmpty ? path : (directory.hasSuffix("/") ? directory : directory + "/") + path
    }

    /// A value as a message shows it (JSON-like, short).
    static func render(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .integer(n): return "\(n)"
        case let .number(x): return "\(x)"
        case let .string(s): return "\"\(s)\""
        case let .array(items): return "[" + items.map(render).joined(separator: ", ") + "]"
        case let .object(members):
            let text = "{" + members.map { "\"\($0.key)\": \(render($0.value))" }.joined(separator: ", ") + "}"
            return text.count > 200 ? String(text.prefix(200)) + "…}" : text
        }
    }
}
