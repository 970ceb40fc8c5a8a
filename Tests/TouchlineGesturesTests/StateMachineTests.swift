import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

// Diagram and code move together (style principle 4): every recognizer is driven through every
// state it can reach with every input, and the transitions it takes must be exactly the edges
// of its Mermaid diagram in docs/gestures.md. An input with no edge must be reported as
// impossible (our bug), never silently dropped. `rejected` → idle from any state is implicit.

struct Edge: Hashable, CustomStringConvertible {
    var from: String
    var input: String
    var to: String
    var description: String { "\(from) --> \(to): \(input)" }
}

enum Diagrams {
    /// The edges of each recognizer's diagram, by section heading.
    static func edges(section: String) throws -> Set<Edge> {
        let text = try String(contentsOfFile: Paths.root.appendingPathComponent("docs/gestures.md").path, encoding: .utf8)
        guard let start = text.range(of: "\n## \(section)\n") else { throw TestFailure("docs/gestures.md has no section '## \(section)'") }
        let rest = text[start.upperBound...]
        guard let open = rest.range(of: "```mermaid\n"), let close = rest[open.upperBound...].range(of: "```") else {
            throw TestFailure("section \(section) has no mermaid diagram")
        }
        var edges = Set<Edge>()
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n") {
            let parts = line.trimmingCharacters(in: .whitespaces).components(separatedBy: " --> ")
            guard parts.count == 2, let colon = parts[1].firstIndex(of: ":") else { continue }
            let to = String(parts[1][..<colon])
            let input = parts[1][parts[1].index(after: colon)...].trimmingCharacters(in: .whitespaces).components(separatedBy: " ")[0]
            edges.insert(Edge(from: parts[0], input: input, to: to))
        }
        return edges
    }
}

struct Walk {
    /// Inputs that reach every guard of every recognizer, at time `t`.
    static func inputs(at t: Timestamp, deadline: Timestamp?) -> [RecognizerInput] {
        func s(_ configure: (inout GroupSample) -> Void) -> GroupSample {
            var sample = GroupSample(time: t)
            sample.present = 1
            sample.remaining = 1
            sample.centroid = Point(x: 100, y: 60)
            sample.elapsed = .milliseconds(100)
            configure(&sample)
            return sample
        }
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

    /// Breadth-first over the states reachable in `depth` inputs; every (state, input) pair of
    /// a reached state is tried.
    static func explore(_ start: AnyRecognizer, depth: Int) -> (edges: Set<Edge>, impossible: Set<Edge>, states: Set<String>) {
        var edges = Set<Edge>()
        var impossible = Set<Edge>()
        var states = Set<String>()
        var frontier: [AnyRecognizer] = [start]
        var seen: Set<AnyRecognizer> = [start]
        for level in 0..<depth {
            var next: [AnyRecognizer] = []
            let t = Timestamp(microseconds: Int64(level + 1) * 100_000)
            for recognizer in frontier {
                let from = recognizer.stateName.description
                states.insert(from)
                for input in inputs(at: t, deadline: recognizer.deadline) {
                    var r = recognizer
                    let action = r.handle(input)
                    let edge = Edge(from: from, input: input.name.description, to: r.stateName.description)
                    if case .impossible = action { impossible.insert(edge) } else { edges.insert(edge) }
                    if seen.insert(r).inserted { next.append(r) }
                }
            }
            frontier = next
        }
        return (edges, impossible, states)
    }

    static func check(section: String, _ recognizers: [AnyRecognizer]) throws {
        let diagram = try Diagrams.edges(section: section)
        var observed = Set<Edge>()
        var impossible = Set<Edge>()
        for r in recognizers {
            let result = explore(r, depth: 6)
            observed.formUnion(result.edges)
            impossible.formUnion(result.impossible)
        }
        let implicit = Set(observed.filter { $0.input == "rejected" && $0.to == "idle" })
        let taken = observed.subtracting(implicit)
        #expect(taken.subtracting(diagram).isEmpty, "\(section): transitions missing from the diagram: \(taken.subtracting(diagram).sorted { $0.description < $1.description })")
        #expect(diagram.subtracting(taken).isEmpty, "\(section): diagram edges never taken: \(diagram.subtracting(taken).sorted { $0.description < $1.description })")
        // A pair reported impossible has no edge in the diagram.
        let diagramPairs = Set(diagram.map { "\($0.from) \($0.input)" })
        let wronglyImpossible = impossible.filter { diagramPairs.contains("\($0.from) \($0.input)") }
        #expect(wronglyImpossible.isEmpty, "\(section): inputs reported impossible although the diagram has an edge: \(wronglyImpossible)")
        // Every state × input pair was either a diagram transition or reported impossible.
        let states = Set(diagram.map(\.from))
        for state in states {
            for input in ["contactDown", "contactsMoved", "contactLifted", "contactCancelled", "deadlineReached", "accepted", "rejected"] {
                let handled = observed.contains { $0.from == state && $0.input == input } || impossible.contains { $0.from == state && $0.input == input }
                #expect(handled, "\(section): \(state) × \(input) was never tried")
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
}
