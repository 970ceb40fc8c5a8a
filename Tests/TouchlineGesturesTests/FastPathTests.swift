import Testing
import TouchlineCore
import TouchlineTesting
@testable import TouchlineGestures

// The graph's per-frame fast paths (the two-contact sample, the in-place update of an active
// continuous recognizer, the cached contact lists, the target mask, the guessed contact index)
// must change nothing: random scripted touches go through the graph twice, once as it runs and
// once with `usesFastPaths` off (the general path for each of them), and the two runs must give
// the same event log, explain lines included, and the same states after every frame. Each case
// prints its seed; rerun one with TOUCHLINE_SEED=<seed>.
//
// The switch exists in debug builds (in release it is the constant `true`), as do the asserts of
// the invariants the fast paths rely on (FastPathChecks.swift), which these scripts exercise
// too; and in an optimized build made with `-Xswiftc -DTOUCHLINE_PATH_SWITCH`, where CI runs
// these tests again (.ci/run: `swift test -c release … --filter FastPathTests`), so that the
// fast paths are held to the general path as the optimizer compiles them.

#if DEBUG || TOUCHLINE_PATH_SWITCH
@Suite struct FastPathTests {
    /// Two halves with their own recognizers and a button over the left one: contacts on two
    /// targets in one frame, a target with many members and one with two, simultaneous
    /// recognizers, and requires-failure-of (a double tap over a single, a pan waiting for a
    /// swipe).
    static let multiTarget = GraphConfiguration(
        targets: [
            TargetSpec(name: "left", rect: Rect(x: 0, y: 0, width: 100, height: 120)),
            TargetSpec(name: "right", rect: Rect(x: 100, y: 0, width: 100, height: 120)),
            TargetSpec(name: "button", rect: Rect(x: 30, y: 40, width: 30, height: 20), z: 1),
        ],
        recognizers: [
            RecognizerSpec(name: "doubleTap", kind: .tap(.with(taps: 2)), target: "left"),
            RecognizerSpec(name: "singleTap", kind: .tap(.with(taps: 1)), target: "left", requiresFailureOf: ["doubleTap"]),
            RecognizerSpec(name: "leftLongPress", kind: .longPress(LongPressParameters()), target: "left"),
            RecognizerSpec(name: "leftPinch", kind: .pinch(PinchParameters()), target: "left", simultaneousWith: ["leftRotate"]),
            RecognizerSpec(name: "leftRotate", kind: .rotate(RotateParameters()), target: "left"),
            RecognizerSpec(name: "leftPan", kind: .pan(PanParameters()), target: "left"),
            RecognizerSpec(name: "rightTap", kind: .tap(.with(eager: true)), target: "right"),
            RecognizerSpec(name: "rightEdgeSwipe", kind: .edgeSwipe(EdgeSwipeParameters()), target: "right"),
            RecognizerSpec(name: "rightSwipe", kind: .swipe(SwipeParameters()), target: "right", simultaneousWith: ["rightEdgeSwipe"]),
            RecognizerSpec(name: "rightRotate", kind: .rotate(RotateParameters()), target: "right", simultaneousWith: ["rightPan", "rightPinch"]),
            RecognizerSpec(name: "rightPinch", kind: .pinch(PinchParameters()), target: "right", simultaneousWith: ["rightPan"]),
            RecognizerSpec(name: "rightPan", kind: .pan(PanParameters()), target: "right", requiresFailureOf: ["rightSwipe"]),
            RecognizerSpec(name: "buttonTap", kind: .tap(.with()), target: "button"),
            RecognizerSpec(name: "buttonLongPress", kind: .longPress(LongPressParameters()), target: "button"),
        ])

    /// A random script of 1–4 fingers at 60, 120 or 240 Hz: landing (alone, in pairs, near an
    /// edge or near the other fingers), dragging together, turning and spreading about their
    /// centroid, one finger moving, trembling within the slops, tapping once or twice, resting
    /// past the deadlines (tap, double tap, swipe, long press), lifting and being cancelled.
    static func script(seed: UInt64) -> TouchScript {
        var rng = SeededRandom(seed: seed)
        var s = TouchScript(rate: [60.0, 120, 240][rng.int(0...2)])
        let size = TouchScript.defaultSurface
        var down: [Int] = []
        var next = 0
        func clamp(_ p: Point) -> Point { Point(x: min(max(p.x, 0), size.width), y: min(max(p.y, 0), size.height)) }
        func landing(_ rng: inout SeededRandom) -> Point {
            if let f = down.first, rng.chance(0.6), let at = s.position(of: f) {
                // A second finger of the same hand: 10–50 mm from the first.
                let d = rng.double(10...50), a = rng.double(0...6.28)
                return clamp(Point(x: at.x + d * TouchScript.cosine(a), y: at.y + d * TouchScript.sine(a)))
            }
            if rng.chance(0.15) { return Point(x: rng.chance(0.5) ? rng.double(0...2.5) : size.width - rng.double(0...2.5), y: rng.double(5...115)) }
            return Point(x: rng.double(5...195), y: rng.double(5...115))
        }
        for _ in 0..<rng.int(3...18) {
            switch rng.int(0...12) {
            case 0, 1, 2:
                guard down.count < 4 else { continue }
                var touches: [(Int, Point)] = []
                for _ in 0..<(rng.chance(0.3) ? 2 : 1) where down.count + touches.count < 4 {
                    touches.append((next, landing(&rng)))
                    next += 1
                }
                s.down(touches)
                down += touches.map(\.0)
            case 3, 4:
                // All fingers down drag together.
                guard !down.isEmpty else { continue }
                let d = rng.double(0...60), a = rng.double(0...6.28)
                s.move(down.map { f in
                    let at = s.position(of: f)!
                    return (f, clamp(Point(x: at.x + d * TouchScript.cosine(a), y: at.y + d * TouchScript.sine(a))))
                }, over: rng.double(20...400))
            case 5, 6:
                // Turn and spread about the centroid (pinch, rotate, or both).
                guard down.count >= 2 else { continue }
                let points = down.map { s.position(of: $0)! }
                let c = Point(x: points.map(\.x).reduce(0, +) / Double(points.count), y: points.map(\.y).reduce(0, +) / Double(points.count))
                s.turn(about: c, by: rng.chance(0.3) ? 0 : rng.double(-1.6...1.6), scale: rng.chance(0.4) ? 1 : rng.double(0.5...1.8), over: rng.double(30...500))
            case 7:
                // One finger moves, the others stay.
                guard let f = down.randomElement(using: &rng) else { continue }
                let at = s.position(of: f)!
                let d = rng.chance(0.5) ? rng.double(0...4) : rng.double(4...60), a = rng.double(0...6.28)
                s.move(f, to: clamp(Point(x: at.x + d * TouchScript.cosine(a), y: at.y + d * TouchScript.sine(a))), over: rng.double(10...300))
            case 8:
                // Rest: within a tap, or past the tap, swipe and long-press deadlines.
                s.wait(rng.chance(0.5) ? rng.double(0...120) : rng.double(280...900))
            case 9:
                guard !down.isEmpty else { continue }
                let lifting = down.filter { _ in rng.chance(0.5) }
                guard !lifting.isEmpty else { continue }
                s.up(lifting)
                down.removeAll { lifting.contains($0) }
            case 10:
                guard let f = down.randomElement(using: &rng), rng.chance(0.4) else { continue }
                s.cancel([f])
                down.removeAll { $0 == f }
            case 11:
                // A tap or two at one place, by a finger not yet down.
                let at = landing(&rng)
                for _ in 0..<rng.int(1...2) {
                    s.down(next, at: at)
                    s.wait(rng.double(30...200))
                    s.up(next)
                    next += 1
                    s.wait(rng.double(40...250))
                }
            default:
                // Trembling fingers, within the slops.
                guard !down.isEmpty else { continue }
                let starts = down.map { ($0, s.position(of: $0)!) }
                s.move(over: rng.double(20...200)) { progress in
                    starts.map { f, at in
                        (f, clamp(Point(x: at.x + 0.8 * TouchScript.sine(progress * 9), y: at.y + 0.8 * TouchScript.cosine(progress * 7))))
                    }
                }
            }
        }
        s.wait(rng.double(0...600))
        if !down.isEmpty { s.up(down) }
        return s
    }

    /// Every event as JSON, and after every frame each recognizer's arena status and state,
    /// the contacts down, open arenas and the next deadline.
    static func run(_ script: TouchScript, _ configuration: GraphConfiguration, fastPaths: Bool) throws -> (events: [String], states: [String], final: String) {
        var driver = try ReplayDriver(configuration: configuration, surface: script.surface)
        driver.graph.explain = true
        driver.graph.usesFastPaths = fastPaths
        var events: [String] = []
        var states: [String] = []
        for frame in script.frames {
            driver.feed(frame) { events.append($0.json) }
            let g = driver.graph
            states.append("\(frame.time) \(g.recognizerStates.map { "\($0.name):\($0.status)/\($0.state)" }.joined(separator: " ")) | \(g.pendingDescription)")
        }
        driver.finish { events.append($0.json) }
        let g = driver.graph
        let final = "seq \(g.seq) internalErrors \(g.internalErrors) ignored \(g.ignoredContacts) idle \(g.isIdle) | \(g.pendingDescription)"
        return (events, states, final)
    }

    /// The first index where the two differ (one ending early counts), nil when equal.
    static func firstDifference(_ a: [String], _ b: [String]) -> Int? {
        if let k = a.indices.first(where: { $0 < b.count && a[$0] != b[$0] }) { return k }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    static func expectSamePaths(seed: UInt64, _ configuration: GraphConfiguration, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let script = Self.script(seed: seed)
        let fast = try run(script, configuration, fastPaths: true)
        let general = try run(script, configuration, fastPaths: false)
        if let k = firstDifference(fast.events, general.events) {
            Issue.record("seed \(seed): event \(k) differs\n fast:    \(k < fast.events.count ? fast.events[k] : "(none)")\n general: \(k < general.events.count ? general.events[k] : "(none)")", sourceLocation: sourceLocation)
        }
        if let k = firstDifference(fast.states, general.states), k < fast.states.count, k < general.states.count {
            Issue.record("seed \(seed): states after frame \(k) differ\n fast:    \(fast.states[k])\n general: \(general.states[k])", sourceLocation: sourceLocation)
        }
        #expect(fast.final == general.final, "seed \(seed)", sourceLocation: sourceLocation)
        #expect(fast.final.hasPrefix("seq ") && fast.final.contains("internalErrors 0 "), "seed \(seed): \(fast.final)", sourceLocation: sourceLocation)
    }

    @Test(arguments: Seeds.cases(300, base: 0xFA57_0001))
    func defaultGraph(seed: UInt64) throws {
        try Self.expectSamePaths(seed: seed, .default)
    }

    @Test(arguments: Seeds.cases(300, base: 0xFA57_0002))
    func multiTargetGraph(seed: UInt64) throws {
        try Self.expectSamePaths(seed: seed, Self.multiTarget)
    }

    /// The scripts reach what the comparison is about: two-contact frames, active continuous
    /// gestures changing (pan, pinch, rotate), deadlines, cancellations, contacts on two
    /// targets at once. Without this, a generator that drifted to trivial scripts would pass.
    @Test func scriptsReachEveryFastPath() throws {
        var seen = Set<String>()
        for seed in Seeds.cases(300, base: 0xFA57_0001) {
            let script = Self.script(seed: seed)
            if script.frames.contains(where: { $0.contacts.count == 2 && $0.contacts.allSatisfy { $0.phase == .moved || $0.phase == .stationary } }) { seen.insert("two contacts moving") }
            if script.frames.contains(where: { $0.contacts.contains { $0.phase == .cancelled } }) { seen.insert("cancelled") }
            for e in try GestureHarness.replay(script.frames, surface: script.surface) where e.phase == .changed {
                seen.insert("\(e.gesture) changed")
            }
            for e in try GestureHarness.replay(script.frames, configuration: Self.multiTarget, surface: script.surface) where e.gesture != .explain {
                seen.insert("target \(e.target)")
                if e.recognizer.description == "doubleTap" || e.recognizer.description == "leftLongPress" { seen.insert("\(e.recognizer) \(e.phase)") }
            }
        }
        let expected: Set<String> = [
            "two contacts moving", "cancelled", "pan changed", "pinch changed", "rotate changed", "edgeSwipe changed", "longPress changed",
            "target left", "target right", "target button", "doubleTap recognized", "leftLongPress began",
        ]
        #expect(expected.isSubset(of: seen), "not reached: \(expected.subtracting(seen).sorted())")
    }
}
#else
/// A release build without the switch has no general path to compare with: said, not silent.
@Suite(.disabled("a release build without -DTOUCHLINE_PATH_SWITCH has no general path (.ci/run builds one with it)"))
struct FastPathTests {
    @Test func fastPathsEqualTheGeneralPath() {}
}
#endif
