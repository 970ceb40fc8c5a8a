import TouchlineCore
import TouchlineGestures

// Labels: what a person meant, per recording (docs/labels.md). The format is the one of
// ../shared/traces/labels.json (and its score.py), read by Core's JSONReader: a file is either
// that bare array of recordings or an object {"version": 1, "recordings": [...]}. A condition is
// an `[[action]]` filter's FieldFilter (FieldFilter.swift), so a label and an action compare an
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

    /// Reads a labels file whole; `directory` is its folder ("" for the current one), against
    /// which relative paths resolve. As `LabelStream` reads it.
    public static func parse(_ bytes: [UInt8], file: String, directory: String) throws(LabelError) -> LabelSet {
        var stream = try LabelStream(bytes, file: file, directory: directory)
        var recordings: [LabelledRecording] = []
        while let next = try stream.next() { recordings.append(next) }
        return LabelSet(recordings: recordings)
    }

    static func member(_ members: [JSONMember], _ key: String) -> JSONValue? { members.value(key) }

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

/// A labels file read one recording at a time, so that `score` holds one window of them and
/// prints its first lines at once, however long the file (200,000 recordings: docs/labels.md).
/// Every label is checked as an `[[action]]`'s filters are (known gestures, their fields, the
/// values' types) and its window; errors say `FILE:LINE:COLUMN: RECORDING: what`, as a
/// configuration's do. In an object `{"version": 1, "recordings": [...]}`, a key after the
/// list is read when the list is done.
public struct LabelStream {
    let bytes: [UInt8]
    let file: String
    let directory: String
    private var reader: JSONPieceReader
    private var number = 0
    private var inObject = false
    private var inList = false
    private var firstInList = true
    private var firstMember = true
    private var keys: [String] = []
    private var finished = false

    public init(_ bytes: [UInt8], file: String, directory: String) throws(LabelError) {
        self.bytes = bytes
        self.file = file
        self.directory = directory
        reader = JSONPieceReader(bytes)
        do {
            switch reader.peek() {
            case UInt8(ascii: "[")?:
                try reader.open(UInt8(ascii: "["))
                inList = true
            case UInt8(ascii: "{")?:
                try reader.open(UInt8(ascii: "{"))
                inObject = true
            default:
                throw fail(reader.offset(), "labels are a list of {\"file\": …, \"expect\": […]} (or {\"version\": 1, \"recordings\": […]})")
            }
        } catch {
            throw converted(error)
        }
    }

    /// The next recording, checked; nil at the end of the file.
    public mutating func next() throws(LabelError) -> LabelledRecording? {
        do { return try advance() } catch { throw converted(error) }
    }

    private func converted(_ error: any Error) -> LabelError {
        switch error {
        case let e as LabelError: return e
        case let e as JSONReadError:
            let (line, column) = LabelReader.lineColumn(bytes, e.column - 1)
            return LabelError("\(file):\(line):\(column): not JSON: \(e.reason)")
        default: return LabelError("\(file): \(error)")
        }
    }

    private func fail(_ offset: Int, _ message: String) -> LabelError {
        let (line, column) = LabelReader.lineColumn(bytes, offset)
        return LabelError("\(file):\(line):\(column): \(message)")
    }

    private mutating func advance() throws -> LabelledRecording? {
        while !finished {
            if inList {
                if try reader.more(UInt8(ascii: "]"), first: firstInList) {
                    firstInList = false
                    number += 1
                    let (value, offsets) = try reader.value()
                    let item = LabelReader(bytes: bytes, offsets: offsets, file: file, directory: directory)
                    return try item.recording(LabelReader.Located(value: value, index: 0), number: number)
                }
                inList = false
                if !inObject {
                    try reader.end()
                    finished = true
                }
                continue
            }
            // In the outer object: its members up to the list, or to its end.
            guard try reader.more(UInt8(ascii: "}"), first: firstMember) else {
                guard keys.contains("recordings") else {
                    throw fail(0, "an object of labels needs \"recordings\": a list of {\"file\": …, \"expect\": […]}")
                }
                try reader.end()
                finished = true
                continue
            }
            firstMember = false
            let (key, at) = try reader.key()
            if keys.contains(key) { throw fail(at, "not JSON: the key \"\(key)\" again in one object; expected each key once") }
            keys.append(key)
            switch key {
            case "version":
                let start = reader.offset()
                let (value, _) = try reader.value()
                guard case let .integer(n) = value, n == Int64(LabelSet.version) else {
                    throw fail(start, "\"version\" is \(LabelSet.render(value)); this touchline reads version \(LabelSet.version)")
                }
            case "recordings":
                guard reader.peek() == UInt8(ascii: "[") else {
                    throw fail(reader.offset(), "\"recordings\" is a list of {\"file\": …, \"expect\": […]}")
                }
                try reader.open(UInt8(ascii: "["))
                inList = true
            default:
                throw fail(at, "unknown key \"\(key)\" (a labels object has version and recordings)")
            }
        }
        return nil
    }
}

/// Reads one recording's JSON into its labels, naming the line and column of what it
/// refuses (the JSON reader's offsets, in preorder: JSONReader.readLocated).
struct LabelReader {
    /// A value and its index in `offsets`.
    struct Located {
        var value: JSONValue
        var index: Int
    }

    let bytes: [UInt8]
    let offsets: [Int]
    let file: String
    let directory: String
    /// What a label may name: each gesture and its events' fields.
    static let gestures = FieldFilter.gestures()
    var gestures: [(name: String, fields: [String])] { Self.gestures }
    /// The phases a label's `phase` condition may name (explain lines' `failed` is not a
    /// gesture's).
    static let phases = ["recognized", "began", "changed", "ended", "cancelled"]
    /// The most matching events a `min` may ask for.
    static let mostMatches = 1_000_000

    /// The line and column (in characters, from 1) of byte `offset`.
    static func lineColumn(_ bytes: [UInt8], _ offset: Int) -> (Int, Int) {
        var line = 1
        var column = 1
        for b in bytes[..<min(max(offset, 0), bytes.count)] {
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    func fail(_ index: Int, _ message: String) -> LabelError {
        let (line, column) = Self.lineColumn(bytes, index < offsets.count ? offsets[index] : 0)
        return LabelError("\(file):\(line):\(column): \(message)")
    }

    /// How many offsets a value takes (itself, its items, its members' keys and values).
    static func size(_ v: JSONValue) -> Int {
        switch v {
        case let .array(items): return items.reduce(1) { $0 + size($1) }
        case let .object(members): return members.reduce(1) { $0 + 1 + size($1.value) }
        default: return 1
        }
    }

    func items(_ l: Located) -> [Located] {
        guard case let .array(items) = l.value else { return [] }
        var out: [Located] = []
        var i = l.index + 1
        for item in items {
            out.append(Located(value: item, index: i))
            i += Self.size(item)
        }
        return out
    }

    func members(_ l: Located) -> [(key: String, at: Int, value: Located)] {
        guard case let .object(members) = l.value else { return [] }
        var out: [(key: String, at: Int, value: Located)] = []
        var i = l.index + 1
        for m in members {
            out.append((m.key, i, Located(value: m.value, index: i + 1)))
            i += 1 + Self.size(m.value)
        }
        return out
    }

    func recording(_ entry: Located, number: Int) throws(LabelError) -> LabelledRecording {
        guard case let .object(fields) = entry.value, case let .string(path)? = LabelSet.member(fields, "file"), !path.isEmpty else {
            throw fail(entry.index, "recording \(number): needs \"file\", the recording's path")
        }
        var desc: String?
        var args: [String] = []
        var labels: [Label] = []
        var sawExpect = false
        for m in members(entry) {
            switch (m.key, m.value.value) {
            case ("file", _), ("why", _), ("args_why", _): break
            case let ("desc", .string(d)): desc = LabelSet.resolve(d, directory)
            case ("args", .array):
                for item in items(m.value) {
                    guard case let .string(s) = item.value else { throw fail(item.index, "\(path): \"args\" is a list of strings (replay's options)") }
                    args.append(s)
                }
            case ("expect", .array):
                sawExpect = true
                for item in items(m.value) { labels.append(try label(item, at: path)) }
            case ("desc", _), ("args", _), ("expect", _):
                throw fail(m.value.index, "\(path): \"\(m.key)\" has the wrong type (desc: a path; args: a list of strings; expect: a list of labels)")
            default:
                throw fail(m.at, "\(path): unknown key \"\(m.key)\" (a recording has file, desc, args, expect)")
            }
        }
        guard sawExpect else { throw fail(entry.index, "\(path): needs \"expect\", a list of labels") }
        return LabelledRecording(file: path, path: LabelSet.resolve(path, directory), desc: desc, args: args, labels: labels)
    }

    func label(_ item: Located, at: String) throws(LabelError) -> Label {
        guard case .object = item.value else { throw fail(item.index, "\(at): a label is an object: {\"has\": \"tap\", …}") }
        let shown = LabelSet.render(item.value)
        var kind: Label.Kind?
        var label = Label(kind: .has, gestures: [], minimum: 1, conditions: [], conditionTexts: [])
        var conditions: Located?
        var minimum: Int?
        var fromAt = item.index
        for m in members(item) {
            switch m.key {
            case "has", "none":
                guard kind == nil else { throw fail(m.at, "\(at): a label needs exactly one of \"has\"/\"none\": \(shown)") }
                kind = Label.Kind(rawValue: m.key)
                let names: [Located]
                switch m.value.value {
                case .string: names = [m.value]
                case let .array(list) where !list.isEmpty: names = items(m.value)
                default: throw fail(m.value.index, "\(at): \"\(m.key)\" takes a gesture name or a list of them: \(shown)")
                }
                for name in names {
                    guard case let .string(g) = name.value else {
                        throw fail(name.index, "\(at): \"\(m.key)\" takes a gesture name or a list of them: \(shown)")
                    }
                    guard gestures.contains(where: { $0.name == g }) else {
                        throw fail(name.index, "\(at): \"\(m.key)\": '\(g)' is no gesture; gestures: \(gestures.map(\.name).joined(separator: ", "))")
                    }
                    label.gestures.append(g)
                }
            case "from", "to":
                guard let t = LabelSet.number(m.value.value) else {
                    throw fail(m.value.index, "\(at): \"\(m.key)\" is a time in seconds from the recording's first event: \(shown)")
                }
                // `from` may start before the first event (the shared labels pad by 0.1 s); a
                // window that ends before it can hold nothing.
                if m.key == "to" && t < 0 {
                    throw fail(m.value.index, "\(at): \"to\" \(LabelSet.render(m.value.value)) ends the window before the recording's first event (0 s): \(shown)")
                }
                if m.key == "from" {
                    label.from = t
                    fromAt = m.value.index
                } else {
                    label.to = t
                }
            case "min":
                let limit = Self.mostMatches
                guard let n = LabelSet.number(m.value.value), n >= 1, n <= Double(limit), n == n.rounded() else {
                    throw fail(m.value.index, "\(at): \"min\" is how many matching events at least, a whole number from 1 to \(limit): found \(LabelSet.render(m.value.value))")
                }
                minimum = Int(n)
            case "where":
                guard case .object = m.value.value else { throw fail(m.value.index, "\(at): \"where\" is an object of FIELD: [OP, VALUE]: \(shown)") }
                conditions = m.value
            case "why":
                if case let .string(w) = m.value.value { label.why = w }
            default:
                throw fail(m.at, "\(at): unknown label key \"\(m.key)\" (has, none, from, to, min, where, why): \(shown)")
            }
        }
        guard let kind else { throw fail(item.index, "\(at): a label needs exactly one of \"has\"/\"none\" with a gesture name: \(shown)") }
        label.kind = kind
        if let from = label.from, let to = label.to, from > to {
            throw fail(fromAt, "\(at): the window is empty: \"from\" \(LabelSet.render(.number(from))) is after \"to\" \(LabelSet.render(.number(to))): \(shown)")
        }
        if let minimum {
            guard kind == .has else { throw fail(item.index, "\(at): \"min\" applies to a has label (a none label holds with no matching event): \(shown)") }
            label.minimum = minimum
        }
        if let conditions {
            let fields = ["phase"] + gestures.filter { label.gestures.contains($0.name) }.flatMap(\.fields)
            for c in members(conditions) {
                let (filter, text) = try condition(c.key, c.value, keyAt: c.at, fields: fields, at: at, label: label)
                label.conditions.append(filter)
                label.conditionTexts.append(text)
            }
        }
        return label
    }

    /// `FIELD: [OP, VALUE]`: the comparisons of an action's filter (==, !=, <, <=, >, >=) and
    /// the magnitude ones (abs>=, abs<=), on a field the label's gestures have, with a value of
    /// the field's sort (FieldFilter.expected: the kind's declaration, as for an action's filter).
    func condition(_ field: String, _ value: Located, keyAt: Int, fields: [String], at: String, label: Label) throws(LabelError) -> (FieldFilter, (field: String, op: String, value: String)) {
        guard fields.contains(field) else {
            var seen: [String] = []
            for f in fields where !seen.contains(f) { seen.append(f) }
            throw fail(keyAt, "\(at): \(label.gestures.joined(separator: "|")) events have no field '\(field)'; their fields: \(seen.joined(separator: ", "))")
        }
        let pair = items(value)
        guard pair.count == 2, case let .string(o) = pair[0].value, let op = FieldFilter.Operator(rawValue: o) else {
            throw fail(value.index, "\(at): bad condition \(field): \(LabelSet.render(value.value)) (a condition is [OP, VALUE], OP one of ==, !=, <, <=, >, >=, abs>=, abs<=)")
        }
        let operand: FieldFilter.Value
        if let n = LabelSet.number(pair[1].value) {
            operand = .number(n)
        } else if case let .string(w) = pair[1].value, op == .equal || op == .notEqual {
            operand = .word(w)
        } else {
            throw fail(pair[1].index, "\(at): \(field): \(o) needs a number\(op == .equal || op == .notEqual ? " or a word" : ""): \(LabelSet.render(value.value))")
        }
        let expected: String?
        if field == "phase" {
            if case let .word(w) = operand, Self.phases.contains(w) { expected = nil } else { expected = "one of \(Self.phases.joined(separator: ", "))" }
        } else {
            expected = FieldFilter.expected(field, operand, gesture: label.gestures.first ?? "")
        }
        if let expected {
            throw fail(pair[1].index, "\(at): \(field): found \(LabelSet.render(pair[1].value)), expected \(expected)")
        }
        let text: String
        if case let .string(w) = pair[1].value { text = w } else { text = LabelSet.render(pair[1].value) }
        return (FieldFilter(field, op, operand), (field, o, text))
    }
}
