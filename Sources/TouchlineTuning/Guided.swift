import TouchlineCore
import TouchlineGestures

// `touchline record --guided PLAN`: a plan of gestures and counts, the prompts a person follows,
// and the labels of what they did (docs/tuning.md#recording-with-a-plan). An attempt is a touch:
// from the first finger down (BTN_TOUCH 1, of any device) to the last one up; its window is
// padded as the shared labels' are (0.1 s before, 0.5 s after the lift, for a tap's wait for a
// second one). A step may say with what fields (`edgeSwipe 10 edge=left`) and what must not
// happen over each of its attempts (a `none GESTURE [FIELD=VALUE…]` line after it), so that the
// labels bound a parameter from both sides. Pure: the recording's events come in, prompts and
// labels go out.

public struct GuidedPlan: Sendable, Equatable {
    /// `FIELD=VALUE` (or `==`, `!=`, `<`, `<=`, `>`, `>=`): a label's condition, as written.
    public struct Condition: Sendable, Equatable {
        public var field: String
        public var op: String
        public var value: String
        /// As a label's JSON writes it: `"edge": ["==", "left"]`.
        var json: String {
            // The field and operator are checked words; the value a number or a word, escaped.
            let word = value.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "\\" + String($0) : ($0.value < 0x20 ? " " : String($0)) }.joined()
            return "\"\(field)\": [\"\(op)\", \(Double(value) != nil ? value : "\"\(word)\"")]"
        }
    }

    /// What must not happen over each attempt of a step.
    public struct Forbidden: Sendable, Equatable {
        public var gesture: String
        public var conditions: [Condition]
    }

    public struct Step: Sendable, Equatable {
        public var gesture: String
        public var count: Int
        public var prompt: String
        public var conditions: [Condition] = []
        public var forbidden: [Forbidden] = []
    }

    public var steps: [Step]

    /// What to ask for when the plan gives no words.
    public static let prompts: [String: String] = [
        "tap": "tap with one finger",
        "longPress": "touch and hold one finger still",
        "pan": "drag one finger slowly",
        "swipe": "flick one finger quickly across the screen",
        "edgeSwipe": "swipe in from an edge",
        "pinch": "pinch two fingers together or apart",
        "rotate": "turn two fingers about their middle",
    ]

    /// The largest plan file read.
    public static let maximumBytes = 64 << 10

    /// Most attempts of one step (a plan is a few minutes of a person's time).
    public static let mostAttempts = 1000

    /// A plan file, one step a line: `GESTURE COUNT [FIELD=VALUE…] [PROMPT…]`, each followed by
    /// any `none GESTURE [FIELD=VALUE…]` lines (`#` starts a comment); or a list
    /// `GESTURE:COUNT[:FIELD=VALUE…],none:GESTURE[:FIELD=VALUE…],…` as one argument. A field
    /// must be one of the gesture's events' and the value of its sort, as a label's (docs/labels.md).
    public static func parse(_ text: String, gestures known: [String]) throws(LabelError) -> GuidedPlan {
        var steps: [Step] = []
        let isList = !text.contains("\n") && text.contains(":")
        let items: [(Int, String)] = isList
            ? text.split(separator: ",").enumerated().map { ($0.offset + 1, String($0.element)) }
            : text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { ($0.offset + 1, String($0.element)) }
        for (number, raw) in items {
            let line = String(raw.prefix { $0 != "#" })
            let words = isList ? line.split(separator: ":").map { String($0.filter { $0 != " " }) } : line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if words.isEmpty { continue }
            let at = isList ? "plan item \(number)" : "plan line \(number)"
            if words[0] == "none" {
                guard words.count >= 2 else { throw LabelError("\(at): '\(line)': expected none GESTURE [FIELD=VALUE…]") }
                guard !steps.isEmpty else { throw LabelError("\(at): '\(line)': a none line follows the step whose attempts it applies to") }
                guard LabelReader.gestures.contains(where: { $0.name == words[1] }) else {
                    throw LabelError("\(at): '\(words[1])' is no gesture; gestures: \(LabelReader.gestures.map(\.name).joined(separator: ", "))")
                }
                var conditions: [Condition] = []
                for word in words.dropFirst(2) {
                    guard let c = try condition(word, gesture: words[1], at: at) else {
                        throw LabelError("\(at): '\(word)': expected FIELD=VALUE (a none line takes no prompt)")
                    }
                    conditions.append(c)
                }
                steps[steps.count - 1].forbidden.append(Forbidden(gesture: words[1], conditions: conditions))
                continue
            }
            guard words.count >= 2, let count = Int(words[1]), count >= 1, count <= mostAttempts else {
                throw LabelError("\(at): '\(line)': expected GESTURE COUNT [PROMPT] (a count from 1 to \(mostAttempts))")
            }
            guard known.contains(words[0]) else {
                throw LabelError("\(at): '\(words[0])' is not a gesture of the graph; its gestures: \(known.joined(separator: ", "))")
            }
            var rest = words.dropFirst(2)
            var conditions: [Condition] = []
            while let word = rest.first, let c = try condition(word, gesture: words[0], at: at) {
                conditions.append(c)
                rest = rest.dropFirst()
            }
            if isList && !rest.isEmpty { throw LabelError("\(at): '\(line)': a list item is GESTURE:COUNT[:FIELD=VALUE…]") }
            let prompt = !rest.isEmpty ? rest.joined(separator: " ") : (prompts[words[0]] ?? words[0])
            steps.append(Step(gesture: words[0], count: count, prompt: prompt, conditions: conditions))
        }
        if steps.isEmpty { throw LabelError("the plan is empty: give GESTURE COUNT lines, or GESTURE:COUNT,…") }
        return GuidedPlan(steps: steps)
    }

    /// `FIELD=VALUE` (nil for a word without an operator: the prompt starts there), checked as a
    /// label's condition is: a field of `gesture`'s events, a value of its sort.
    static func condition(_ word: String, gesture: String, at: String) throws(LabelError) -> Condition? {
        // The field is letters; the operator starts at the first character that is not one.
        guard let start = word.firstIndex(where: { !$0.isLetter }) else { return nil }
        for op in ["==", "!=", "<=", ">=", "=", "<", ">"] where word[start...].hasPrefix(op) {
            let field = String(word[..<start])
            let value = String(word[word.index(start, offsetBy: op.count)...])
            guard !field.isEmpty, !value.isEmpty, field.allSatisfy({ $0.isLetter }) else { return nil }
            let written = op == "=" ? "==" : op
            let fields = ["phase"] + (LabelReader.gestures.first { $0.name == gesture }?.fields ?? [])
            guard fields.contains(field) else {
                throw LabelError("\(at): '\(word)': \(gesture) events have no field '\(field)'; their fields: \(fields.joined(separator: ", "))")
            }
            let operand: FieldFilter.Value = Double(value).map { .number($0) } ?? .word(value)
            if case .word = operand, written != "==", written != "!=" {
                throw LabelError("\(at): '\(word)': \(written) needs a number")
            }
            let expected = field == "phase"
                ? (LabelReader.phases.contains(value) ? nil : "one of \(LabelReader.phases.joined(separator: ", "))")
                : FieldFilter.expected(field, operand, gesture: gesture)
            if let expected { throw LabelError("\(at): '\(word)': \(field) takes \(expected)") }
            return Condition(field: field, op: written, value: value)
        }
        return nil
    }
}

/// Follows a recording against a plan: which prompt is due, and the window of each attempt.
public struct GuidedSession: Sendable {
    public let plan: GuidedPlan
    /// The recording's first event: windows count from it, as labels do.
    public private(set) var origin: Timestamp?
    private var step = 0
    private var attempt = 1
    private var touchingDevices: Set<Int> = []
    private var down: Timestamp?
    /// Per attempt: gesture, window in seconds, the prompt with its number.
    public private(set) var attempts: [(gesture: String, from: Double, to: Double, prompt: String, step: Int)] = []

    /// The graph the recording is recognized with, for the feedback after each attempt
    /// (`observe`, `verdicts`): nil, no feedback.
    public var feedbackConfiguration: GraphConfiguration?
    /// Attempts (indices into `attempts`) whose verdict is not given yet: each is queued as
    /// `feed` ends it, when there is feedback to give.
    private var pending: [Int] = []
    /// The graph's events (explain lines too) since the oldest window still open; times from
    /// the recording's first event, as RecordSession gives them.
    private var seen: [GestureEvent] = []
    /// At most this many events are kept for the verdicts (a long attempt drops its oldest).
    static let mostSeen = 20_000

    public init(plan: GuidedPlan) { self.plan = plan }

    public var isFinished: Bool { step >= plan.steps.count }

    /// "swipe in from an edge (3 of 10)", or nil once the plan is done.
    public var prompt: String? {
        guard !isFinished else { return nil }
        let s = plan.steps[step]
        return "\(s.prompt) (\(attempt) of \(s.count))"
    }

    /// One event of the recording, of `device`. Returns true when it ended an attempt (the next
    /// `prompt` is due).
    public mutating func feed(device: Int, _ event: InputEvent) -> Bool {
        if origin == nil { origin = event.time }
        guard !isFinished, event.type == EventCodes.EV_KEY, event.code == EventCodes.BTN_TOUCH else { return false }
        if event.value != 0 {
            if touchingDevices.isEmpty { down = event.time }
            touchingDevices.insert(device)
            return false
        }
        guard touchingDevices.remove(device) != nil, touchingDevices.isEmpty, let down, let origin else { return false }
        let s = plan.steps[step]
        let from = Double((down - origin).microseconds) / 1_000_000 - 0.1
        let to = Double((event.time - origin).microseconds) / 1_000_000 + 0.5
        attempts.append((s.gesture, (from * 1000).rounded() / 1000, (to * 1000).rounded() / 1000, prompt ?? s.prompt, step))
        if feedbackConfiguration != nil { pending.append(attempts.count - 1) }
        attempt += 1
        if attempt > s.count {
            step += 1
            attempt = 1
        }
        return true
    }

    // MARK: - Feedback, attempt by attempt

    /// An event the graph emitted while recording (its time counted from the recording's first
    /// event, as RecordSession's are); returns the verdicts it settles: an attempt whose
    /// gesture it is (in the attempt's window, meeting the plan's conditions) is told at once.
    public mutating func observe(_ event: GestureEvent) -> [String] {
        guard feedbackConfiguration != nil else { return [] }
        seen.append(event)
        if seen.count > Self.mostSeen { seen.removeFirst(seen.count - Self.mostSeen) }
        return verdicts(at: Double(event.time.microseconds) / 1_000_000)
    }

    /// The verdicts due once the recording has reached raw event `event` (after `feed`): an
    /// attempt just made whose gesture was seen, and one whose window has closed without it.
    public mutating func verdicts(after event: InputEvent) -> [String] {
        // Nothing to decide (the most common case: every raw event while a finger moves).
        guard feedbackConfiguration != nil, let origin, !pending.isEmpty else { return [] }
        return verdicts(at: Double((event.time - origin).microseconds) / 1_000_000)
    }

    /// Every verdict not given yet, at the end of the recording (each window is closed).
    public mutating func finishVerdicts() -> [String] {
        guard feedbackConfiguration != nil else { return [] }
        return verdicts(at: .infinity)
    }

    /// `ok` as soon as an attempt's gesture is seen; `MISS` with what the graph saw and the
    /// nearest failed attempt's reason (as `touchline score` says it) once its window has closed
    /// at `now` seconds.
    mutating func verdicts(at now: Double) -> [String] {
        guard let configuration = feedbackConfiguration else { return [] }
        let recording = Recording(devices: [], origin: .zero)
        var lines: [String] = []
        let plain = seen.filter { $0.gesture != .explain }
        pending.removeAll { index in
            let a = attempts[index]
            let step = plan.steps[a.step]
            let label = Self.label(.has, step.gesture, a.from, a.to, step.conditions)
            let hit = plain.contains { $0.gesture.description == step.gesture && label.contains(recording.seconds($0.time)) && Scoring.meets(label, $0) }
            guard hit || now > a.to else { return false }
            let also = step.forbidden.filter { f in
                let none = Self.label(.none, f.gesture, a.from, a.to, f.conditions)
                return plain.contains { $0.gesture.description == f.gesture && none.contains(recording.seconds($0.time)) && Scoring.meets(none, $0) }
            }
            let forbidden = also.isEmpty ? "" : "; but also " + also.map(\.gesture).joined(separator: ", ") + " (the plan says none)"
            if hit {
                lines.append("ok   \(a.prompt): \(step.gesture)\(forbidden)")
            } else {
                let why = Scoring.miss(label, explained: seen, in: recording, configuration: configuration).dropFirst()
                lines.append("MISS \(a.prompt): no \(step.gesture): " + why.joined(separator: "; ") + forbidden)
            }
            return true
        }
        // Events before every open window are no longer needed (an attempt's window starts at
        // most 0.1 s before its touch).
        let keepFrom = pending.map { attempts[$0].from }.min() ?? (now.isFinite ? now - 1 : 0)
        seen.removeAll { recording.seconds($0.time) < keepFrom }
        return lines
    }

    /// An attempt's label: what `labels(file:)` writes for it.
    static func label(_ kind: Label.Kind, _ gesture: String, _ from: Double, _ to: Double, _ conditions: [GuidedPlan.Condition]) -> Label {
        let filters = conditions.compactMap { c -> FieldFilter? in
            guard let op = FieldFilter.Operator(rawValue: c.op) else { return nil }
            return FieldFilter(c.field, op, Double(c.value).map { .number($0) } ?? .word(c.value))
        }
        return Label(kind: kind, gestures: [gesture], from: from, to: to, minimum: 1, conditions: filters,
                     conditionTexts: conditions.map { ($0.field, $0.op, $0.value) })
    }

    /// The labels file of the recording `file` (its name relative to the labels file).
    public func labels(file: String) -> String {
        func quoted(_ s: String) -> String {
            var out = "\""
            for c in s.unicodeScalars {
                switch c {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                // A plan's words are one line: a control character has no place in them.
                case _ where c.value < 0x20: out += " "
                default: out.unicodeScalars.append(c)
                }
            }
            return out + "\""
        }
        func conditions(_ list: [GuidedPlan.Condition]) -> String {
            list.isEmpty ? "" : ", \"where\": {" + list.map(\.json).joined(separator: ", ") + "}"
        }
        var labels: [String] = []
        for a in attempts {
            let s = plan.steps[a.step]
            let window = "\"from\": \(formatFixed(a.from, decimals: 3)), \"to\": \(formatFixed(a.to, decimals: 3))"
            labels.append("   {\"has\": \(quoted(a.gesture)), \(window)\(conditions(s.conditions)), \"why\": \(quoted("guided: " + a.prompt))}")
            for f in s.forbidden {
                labels.append("   {\"none\": \(quoted(f.gesture)), \(window)\(conditions(f.conditions)), \"why\": \(quoted("guided: " + a.prompt + ": no " + f.gesture))}")
            }
        }
        var lines = ["{\"version\": \(LabelSet.version), \"recordings\": [", " {\"file\": \(quoted(file)), \"expect\": ["]
        for (i, label) in labels.enumerated() { lines.append(label + (i + 1 < labels.count ? "," : "")) }
        lines.append(" ]}")
        lines.append("]}")
        return lines.joined(separator: "\n") + "\n"
    }
}
