import Foundation
import Testing
import TouchlineCore
@testable import TouchlineGestures
import TouchlineTesting

// Diagram and code move together (style principle 4): every recognizer is driven through every
// state it can reach with every input, and the transitions it takes, with the actions it
// answers, must be exactly the edges of its Mermaid diagram in docs/gestures.md. An input with
// no edge must be reported as impossible (our bug), never silently dropped. `rejected` → idle
// from any state is implicit.
//
// A diagram line reads `from --> to: input, input [guard] / action, action`:
// - inputs are the recognizer's (`contactDown`…), or `carried(over)` / `carried(captureLifted)`
//   from the carry; a remark in parentheses after a space, and guards in brackets, are prose;
// - an action is `claim`, `fail`, `hold`, `locate` (a remark in parentheses may follow), or an
//   event: its phase, after its gesture when that is not the kind's own (`pop recognized`),
//   then in parentheses the fields it carries, by key or word value (`ended (dropTarget)`,
//   `peek ended (released)`), or `endByCount` for an end by a finger-count change. No action:
//   the recognizer says nothing.
// A composite state `state Hold { pressing claimed }` draws a sub-machine that has its own
// section (`### Hold…`): its edges are part of the kind's diagram without being copied into it.

/// One thing an edge does: what the diagram writes after `/`, and what the code's action says.
struct Act: Hashable, CustomStringConvertible {
    /// `claim`, `fail`, `hold`, `locate`, or an event's `gesture phase`.
    var name: String
    var endByCount = false
    /// The diagram: the fields it names; the code: every field key and word value.
    var fields: Set<String> = []

    var description: String {
        let details = (endByCount ? ["endByCount"] : []) + fields.sorted()
        return details.isEmpty ? name : "\(name) (\(details.joined(separator: ", ")))"
    }

    /// The diagram's act covers `observed`: same name and ending, and the fields it names are there.
    func covers(_ observed: Act) -> Bool {
        name == observed.name && endByCount == observed.endByCount && fields.isSubset(of: observed.fields)
    }

    /// What the code's action says, event by event; nil when it is `impossible`.
    static func observed(_ action: RecognizerAction, kind: GestureKind) -> [Act]? {
        func event(_ e: Emission, phase: GesturePhase? = nil, endByCount: Bool = false) -> Act {
            var fields = Set<String>()
            e.detail.forEachField { key, value in
                fields.insert(key.description)
                if case let .word(word) = value { fields.insert(word.description) }
            }
            let gesture = e.detail.fieldsType.gesture ?? kind
            return Act(name: "\(gesture) \((phase ?? e.phase).name)", endByCount: endByCount, fields: fields)
        }
        switch action {
        case .none: return []
        case .claim: return [Act(name: "claim")]
        case .fail: return [Act(name: "fail")]
        case .hold: return [Act(name: "hold")]
        case .locate: return [Act(name: "locate")]
        case let .emit(e): return [event(e)]
        case let .finish(e, alsoEnded): return alsoEnded ? [event(e), event(e, phase: .ended)] : [event(e)]
        case let .endByCount(e, _, _, _): return [event(e, endByCount: true)]
        case .impossible: return nil
        }
    }
}

struct Edge: Hashable, CustomStringConvertible {
    var from: String
    var input: String
    var to: String
    var acts: [Act]
    var description: String { "\(from) --> \(to): \(input)" + (acts.isEmpty ? "" : " / " + acts.map(\.description).joined(separator: ", ")) }

    /// This diagram edge covers the observed one.
    func covers(_ observed: Edge) -> Bool {
        from == observed.from && input == observed.input && to == observed.to && acts.count == observed.acts.count
            && zip(acts, observed.acts).allSatisfy { $0.covers($1) }
    }
}

enum Diagrams {
    static let inputs: Set<String> = [
        "contactDown", "contactsMoved", "contactLifted", "contactCancelled", "deadlineReached", "accepted", "rejected",
        "carried(over)", "carried(captureLifted)",
    ]

    /// A diagram: its own edges and the composite states it draws (name → states inside).
    struct Diagram {
        var edges: Set<Edge> = []
        var composites: [String: Set<String>] = [:]
    }

    /// The first Mermaid diagram after the heading `## section` (or `### section`, or a
    /// heading that starts with `section:`), read for the kind named `kind`.
    static func diagram(section: String, kind: GestureKind) throws -> Diagram {
        let text = try String(contentsOf: Paths.root.appendingPathComponent("docs/gestures.md"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        guard let heading = lines.firstIndex(where: { line in
            guard line.hasPrefix("## ") || line.hasPrefix("### ") else { return false }
            let title = line.drop { $0 == "#" }.dropFirst()
            return title == section || title.hasPrefix(section + ":")
        }) else { throw TestFailure("docs/gestures.md has no section '## \(section)'") }
        guard let open = lines[heading...].firstIndex(of: "```mermaid"),
              let close = lines[(open + 1)...].firstIndex(of: "```") else { throw TestFailure("section \(section) has no mermaid diagram") }
        var diagram = Diagram()
        var composite: String?
        for raw in lines[(open + 1)..<close] {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("state ") && line.hasSuffix("{") {
                let name = line.dropFirst("state ".count).dropLast().trimmingCharacters(in: .whitespaces)
                composite = name
                diagram.composites[name] = []
                continue
            }
            if let name = composite {
                if line == "}" { composite = nil } else if !line.isEmpty { diagram.composites[name]!.insert(line) }
                continue
            }
            let parts = line.components(separatedBy: " --> ")
            guard parts.count == 2, let colon = parts[1].firstIndex(of: ":") else { continue }
            let to = String(parts[1][..<colon])
            let label = String(parts[1][parts[1].index(after: colon)...])
            let (inputs, acts) = try parse(label: label, kind: kind, line: line)
            for input in inputs { diagram.edges.insert(Edge(from: parts[0], input: input, to: to, acts: acts)) }
        }
        return diagram
    }

    /// `input, input [guard] / act, act` → the inputs and the acts.
    static func parse(label: String, kind: GestureKind, line: String) throws -> ([String], [Act]) {
        let halves = label.components(separatedBy: " / ")
        guard halves.count <= 2 else { throw TestFailure("'\(line)': more than one ' / '") }
        let inputText = halves[0].replacing(/\[[^\]]*\]/, with: "").replacing(/\ \([^)]*\)/, with: "")
        let inputs = inputText.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for input in inputs where !Self.inputs.contains(input) { throw TestFailure("'\(line)': unknown input '\(input)'") }
        guard halves.count == 2 else { return (inputs, []) }
        // Split the acts at the commas outside parentheses.
        var items: [String] = [], current = "", depth = 0
        for c in halves[1] {
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
            if c == "," && depth == 0 { items.append(current); current = "" } else { current.append(c) }
        }
        items.append(current)
        var acts: [Act] = []
        for item in items.map({ $0.trimmingCharacters(in: .whitespaces) }) {
            var head = item, details: [String] = []
            if let paren = item.range(of: " (") {
                head = String(item[..<paren.lowerBound])
                guard item.hasSuffix(")") else { throw TestFailure("'\(line)': '\(item)' has no closing parenthesis") }
                details = item[paren.upperBound..<item.index(before: item.endIndex)].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            if ["claim", "fail", "hold", "locate"].contains(head) {
                // A remark may follow; these acts carry no fields.
                acts.append(Act(name: head))
                continue
            }
            let words = head.split(separator: " ").map(String.init)
            guard (1...2).contains(words.count), GesturePhase.allCases.contains(where: { $0.name.description == words.last! }) else {
                throw TestFailure("'\(line)': '\(item)' is not an action (claim, fail, hold, locate, or [gesture] phase)")
            }
            var act = Act(name: words.count == 1 ? "\(kind) \(words[0])" : head)
            for detail in details {
                guard detail.allSatisfy({ $0.isLetter }) else { throw TestFailure("'\(line)': '\(detail)' is not a field key or word") }
                if detail == "endByCount" { act.endByCount = true } else { act.fields.insert(detail) }
            }
            acts.append(act)
        }
        return (inputs, acts)
    }

    /// The kind's whole diagram: its own edges and those of every sub-machine it draws as a
    /// composite state, read once from that sub-machine's section. An edge written in both is
    /// a copy, which fails.
    static func edges(section: String, kind: GestureKind) throws -> Set<Edge> {
        let diagram = try diagram(section: section, kind: kind)
        var edges = diagram.edges
        for (name, states) in diagram.composites {
            let sub = try Self.diagram(section: name, kind: kind)
            let inside = Set(sub.edges.flatMap { [$0.from, $0.to] }).subtracting(["idle"])
            #expect(inside == states, "\(section): the composite \(name) draws \(states.sorted()), its section's diagram has \(inside.sorted())")
            let copied = diagram.edges.intersection(sub.edges)
            #expect(copied.isEmpty, "\(section): edges copied from the sub-machine \(name): \(copied.sorted { $0.description < $1.description })")
            edges.formUnion(sub.edges)
        }
        return edges
    }
}

struct Walk {
    /// What the graph hands a recognizer: an input, or an answer of the carry.
    enum Step {
        case input(RecognizerInput)
        case carried(CarryInput)
        var name: String {
            switch self {
            case let .input(i): return i.name.description
            case let .carried(c): return "carried(\(c.name))"
            }
        }
    }

    static func sample(at t: Timestamp, _ configure: (inout GroupSample) -> Void = { _ in }) -> GroupSample {
        var sample = GroupSample(time: t)
        sample.present = 1
        sample.remaining = 1
        sample.centroid = Point(x: 100, y: 60)
        sample.elapsed = .milliseconds(100)
        configure(&sample)
        return sample
    }

    /// Inputs that reach every guard of every recognizer, at time `t`.
    static func inputs(at t: Timestamp, deadline: Timestamp?) -> [RecognizerInput] {
        func s(_ configure: (inout GroupSample) -> Void) -> GroupSample { sample(at: t, configure) }
        return [
            .contactDown(s { $0.began = 1 }),
            .contactDown(s { $0.began = 1; $0.centroid = Point(x: 1, y: 60) }),
            .contactDown(s { $0.began = 1; $0.present = 2; $0.remaining = 2; $0.span = 40 }),
            .contactDown(s { $0.began = 11; $0.present = 12; $0.remaining = 12; $0.span = 40 }),
            .contactsMoved(s { $0.present = 2; $0.remaining = 2; $0.translationDelta = Vector(dx: 0.5, dy: 0); $0.maxTravel = 0.5; $0.spanDelta = 0.5; $0.spanRatio = 1.01; $0.rotationDelta = 0.01; $0.span = 40 }),
            .contactsMoved(s { $0.present = 2; $0.remaining = 2; $0.translationDelta = Vector(dx: 30, dy: 0); $0.maxTravel = 30; $0.spanDelta = 30; $0.spanRatio = 1.5; $0.rotationDelta = 0.5; $0.span = 40 }),
            .contactsMoved(s { $0.translationDelta = Vector(dx: 0, dy: 30); $0.maxTravel = 30 }),
            .contactsMoved(s { $0.translationDelta = Vector(dx: 20, dy: 20); $0.maxTravel = 28 }),
            .contactLifted(s { $0.present = 2; $0.remaining = 1; $0.ended = 1 }),
            .contactLifted(s { $0.present = 3; $0.remaining = 2; $0.ended = 1 }),
            .contactLifted(s { $0.remaining = 0; $0.ended = 1 }),
            .contactCancelled(s { $0.remaining = 0; $0.cancelled = 1 }),
            .deadlineReached(deadline ?? t),
            .accepted(t),
            .rejected(t),
        ]
    }

    /// The carry's answers a carrier hears: where it is (after it asked with `locate`), and a
    /// captured contact lifting (a quick still tap on a new item, a slow one, one that moved).
    static func carried(at t: Timestamp) -> (over: [CarryInput], captures: [CarryInput]) {
        (over: [.over(nil, from: "photo", t), .over("bin", from: "photo", t)],
         captures: [
            .captureLifted(target: "note", held: .milliseconds(80), travel: 1, at: t),
            .captureLifted(target: "note", held: .milliseconds(600), travel: 1, at: t),
            .captureLifted(target: "card", held: .milliseconds(80), travel: 9, at: t),
         ])
    }

    /// A recognizer and whether its last action was `locate`: the graph then answers with
    /// `carried(over)` at once, and nothing else comes first.
    struct Node: Hashable {
        var recognizer: AnyRecognizer
        var located = false
    }

    /// Breadth-first over the states reachable in `depth` steps; every (state, step) pair of
    /// a reached state is tried.
    static func explore(_ start: AnyRecognizer, depth: Int, extra: (Timestamp) -> [RecognizerInput])
        -> (edges: Set<Edge>, impossible: Set<String>, tried: Set<String>) {
        let kind = type(of: start.recognizer).gesture
        let carries = type(of: start.recognizer).carries
        var edges = Set<Edge>()
        var impossible = Set<String>()
        var tried = Set<String>()
        var frontier: [Node] = [Node(recognizer: start)]
        var seen: Set<Node> = [frontier[0]]
        for level in 0..<depth {
            var next: [Node] = []
            let t = Timestamp(microseconds: Int64(level + 1) * 100_000)
            for node in frontier {
                let from = node.recognizer.stateName.description
                var steps: [Step]
                if node.located {
                    steps = carried(at: t).over.map(Step.carried)
                } else {
                    steps = (inputs(at: t, deadline: node.recognizer.deadline) + extra(t)).map(Step.input)
                    if carries { steps += carried(at: t).captures.map(Step.carried) }
                }
                for step in steps {
                    var r = node.recognizer
                    let action: RecognizerAction
                    switch step {
                    case let .input(i): action = r.handle(i)
                    case let .carried(c): action = r.carried(c)
                    }
                    tried.insert("\(from) \(step.name)")
                    if let acts = Act.observed(action, kind: kind) {
                        edges.insert(Edge(from: from, input: step.name, to: r.stateName.description, acts: acts))
                    } else {
                        impossible.insert("\(from) \(step.name)")
                    }
                    var located = false
                    if case .locate = action { located = true }
                    let reached = Node(recognizer: r, located: located)
                    if seen.insert(reached).inserted { next.append(reached) }
                }
            }
            frontier = next
        }
        return (edges, impossible, tried)
    }

    static func check(section: String, _ recognizers: [AnyRecognizer], depth: Int = 6,
                      extra: @escaping (Timestamp) -> [RecognizerInput] = { _ in [] }) throws {
        let kind = type(of: recognizers[0].recognizer).gesture
        let diagram = try Diagrams.edges(section: section, kind: kind)
        var observed = Set<Edge>()
        var impossible = Set<String>()
        var tried = Set<String>()
        for r in recognizers {
            let result = explore(r, depth: depth, extra: extra)
            observed.formUnion(result.edges)
            impossible.formUnion(result.impossible)
            tried.formUnion(result.tried)
        }
        let taken = observed.filter { !($0.input == "rejected" && $0.to == "idle" && $0.acts.isEmpty) }
        let missing = taken.filter { edge in !diagram.contains { $0.covers(edge) } }
        #expect(missing.isEmpty, "\(section): transitions missing from the diagram (or with other actions): \(missing.sorted { $0.description < $1.description })")
        let untaken = diagram.filter { edge in !taken.contains { edge.covers($0) } }
        #expect(untaken.isEmpty, "\(section): diagram edges never taken: \(untaken.sorted { $0.description < $1.description })")
        // A pair reported impossible has no edge in the diagram.
        let wronglyImpossible = impossible.filter { pair in diagram.contains { "\($0.from) \($0.input)" == pair } }
        #expect(wronglyImpossible.isEmpty, "\(section): inputs reported impossible although the diagram has an edge: \(wronglyImpossible.sorted())")
        // Every state × input pair was tried: a transition or reported impossible. A state
        // entered only with `locate` hears nothing but the carry's answer.
        let located = Set(diagram.map(\.to)).filter { state in diagram.filter { $0.to == state }.allSatisfy { $0.acts.contains(Act(name: "locate")) } }
        for state in Set(diagram.map(\.from)).subtracting(located) {
            for input in ["contactDown", "contactsMoved", "contactLifted", "contactCancelled", "deadlineReached", "accepted", "rejected"] {
                #expect(tried.contains("\(state) \(input)"), "\(section): \(state) × \(input) was never tried")
            }
        }
    }
}

@Suite struct StateMachineTests {
    let surface = Size(width: 200, height: 120)

    @Test func tap() throws {
        var eager = TapParameters(); eager.eager = true
        var double = TapParameters(); double.taps = 2
        var two = TapParameters(); two.fingers = 2
        try Walk.check(section: "Tap", [TapParameters(), eager, double, two].map { AnyRecognizer(.tap($0), surface: surface) })
    }

    @Test func longPress() throws {
        var two = LongPressParameters(); two.fingers = 2
        try Walk.check(section: "Long press", [LongPressParameters(), two].map { AnyRecognizer(.longPress($0), surface: surface) })
    }

    @Test func pan() throws {
        var two = PanParameters(); two.minimumFingers = 2
        try Walk.check(section: "Pan", [PanParameters(), two].map { AnyRecognizer(.pan($0), surface: surface) })
    }

    @Test func swipe() throws {
        var two = SwipeParameters(); two.fingers = 2
        try Walk.check(section: "Swipe", [SwipeParameters(), two].map { AnyRecognizer(.swipe($0), surface: surface) })
    }

    @Test func edgeSwipe() throws {
        try Walk.check(section: "Edge swipe", [AnyRecognizer(.edgeSwipe(EdgeSwipeParameters()), surface: surface)])
    }

    @Test func pinch() throws {
        try Walk.check(section: "Pinch", [AnyRecognizer(.pinch(PinchParameters()), surface: surface)])
    }

    @Test func rotate() throws {
        try Walk.check(section: "Rotate", [AnyRecognizer(.rotate(RotateParameters()), surface: surface)])
    }

    /// Every source: pressure (auto, on a device that reports it), touch size, time (auto on a
    /// device with neither), and a configured source the device does not report.
    @Test func peek() throws {
        var size = PeekParameters(); size.source = "size"
        var pressure = PeekParameters(); pressure.source = "pressure"
        let forces: (Timestamp) -> [RecognizerInput] = { t in
            func s(_ force: Double, bySize: Bool = false, _ configure: (inout GroupSample) -> Void = { _ in }) -> GroupSample {
                Walk.sample(at: t) {
                    // Pressure 0…1 against 0.4 / 0.85 (hysteresis 0.05); size in mm against 14 / 18 (2).
                    if bySize { $0.touchMajor = 10 + force * 10 } else { $0.pressure = force }
                    configure(&$0)
                }
            }
            var inputs: [RecognizerInput] = []
            for bySize in [false, true] {
                inputs += [
                    .contactDown(s(0.2, bySize: bySize) { $0.began = 1 }),
                    .contactDown(s(0.6, bySize: bySize) { $0.began = 1; $0.present = 2; $0.remaining = 2 }),
                    .contactsMoved(s(0.2, bySize: bySize) { $0.maxTravel = 0.5 }),
                    .contactsMoved(s(0.5, bySize: bySize) { $0.maxTravel = 0.5 }),
                    .contactsMoved(s(0.6, bySize: bySize) { $0.maxTravel = 0.5 }),
                    .contactsMoved(s(0.9, bySize: bySize) { $0.maxTravel = 0.5 }),
                    // Up 15 mm: the quick actions once peeking; past the slop before.
                    .contactsMoved(s(0.5, bySize: bySize) { $0.centroid = Point(x: 100, y: 45); $0.maxTravel = 15 }),
                    .contactLifted(s(0.5, bySize: bySize) { $0.present = 2; $0.remaining = 1; $0.ended = 1 }),
                ]
            }
            return inputs
        }
        try Walk.check(section: "Peek", [PeekParameters(), size, pressure].map { AnyRecognizer(.peek($0), surface: surface) }, extra: forces)
    }

    @Test func drag() throws {
        try Walk.check(section: "Drag and drop", [AnyRecognizer(.drag(DragParameters()), surface: surface)], depth: 7)
    }

    @Test func spring() throws {
        try Walk.check(section: "Spring-loading", [AnyRecognizer(.spring(SpringParameters()), surface: surface)])
    }

    /// Every kind of the standard registry has its diagram checked above.
    @Test func everyKindIsWalked() {
        let walked: Set<String> = ["tap", "longPress", "pan", "swipe", "edgeSwipe", "pinch", "rotate", "peek", "drag", "spring"]
        #expect(Set(RecognizerRegistry.standard.kinds.map { $0.gesture.description }) == walked)
    }
}
