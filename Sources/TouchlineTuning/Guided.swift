import TouchlineCore

// `touchline record --guided PLAN`: a plan of gestures and counts, the prompts a person follows,
// and the labels of what they did (docs/tuning.md#recording-with-a-plan). An attempt is a touch:
// from the first finger down (BTN_TOUCH 1, of any device) to the last one up; its window is
// padded as the shared labels' are (0.1 s before, 0.5 s after the lift, for a tap's wait for a
// second one). Pure: the recording's events come in, prompts and labels go out.

public struct GuidedPlan: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public var gesture: String
        public var count: Int
        public var prompt: String
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

    /// A plan file, one step a line: `GESTURE COUNT [PROMPT…]` (`#` starts a comment), or a
    /// list `GESTURE:COUNT,GESTURE:COUNT` as one argument.
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
            guard words.count >= 2, let count = Int(words[1]), count >= 1, count <= mostAttempts else {
                throw LabelError("\(at): '\(line)': expected GESTURE COUNT [PROMPT] (a count from 1 to \(mostAttempts))")
            }
            guard known.contains(words[0]) else {
                throw LabelError("\(at): '\(words[0])' is not a gesture of the graph; its gestures: \(known.joined(separator: ", "))")
            }
            if isList && words.count > 2 { throw LabelError("\(at): '\(line)': a list item is GESTURE:COUNT") }
            let prompt = words.count > 2 ? words[2...].joined(separator: " ") : (prompts[words[0]] ?? words[0])
            steps.append(Step(gesture: words[0], count: count, prompt: prompt))
        }
        if steps.isEmpty { throw LabelError("the plan is empty: give GESTURE COUNT lines, or GESTURE:COUNT,…") }
        return GuidedPlan(steps: steps)
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
    public private(set) var attempts: [(gesture: String, from: Double, to: Double, prompt: String)] = []

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
        attempts.append((s.gesture, (from * 1000).rounded() / 1000, (to * 1000).rounded() / 1000, prompt ?? s.prompt))
        attempt += 1
        if attempt > s.count {
            step += 1
            attempt = 1
        }
        return true
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
        var lines = ["{\"version\": \(LabelSet.version), \"recordings\": [", " {\"file\": \(quoted(file)), \"expect\": ["]
        for (i, a) in attempts.enumerated() {
            let comma = i + 1 < attempts.count ? "," : ""
            lines.append("   {\"has\": \(quoted(a.gesture)), \"from\": \(formatFixed(a.from, decimals: 3)), \"to\": \(formatFixed(a.to, decimals: 3)), \"why\": \(quoted("guided: " + a.prompt))}\(comma)")
        }
        lines.append(" ]}")
        lines.append("]}")
        return lines.joined(separator: "\n") + "\n"
    }
}
