// The random touch scripts and the two-path comparison of the graph's fast paths, shared by
// FastPathTests (a debug test) and the `fast-paths` executable, which CI builds optimized with
// `-DTOUCHLINE_PATH_SWITCH` (so that the fast paths are held to the general path as the
// optimizer compiles them) without a release build of every test target: that build was CI's
// largest stage (README "Continuous integration").
//
// Why the switch: `GestureGraph.usesFastPaths` exists in debug builds and in builds with
// `-DTOUCHLINE_PATH_SWITCH` only (in release it is the constant `true`); reaching it needs
// `@testable`, so the optimized build also passes `-enable-testing`.
/// SplitMix64: the random numbers of the property tests and the fast-path scripts.
public struct SeededRandom: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    public mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    public mutating func chance(_ p: Double) -> Bool { double(0...1) < p }
}

#if DEBUG || TOUCHLINE_PATH_SWITCH
import TouchlineCore
@testable import TouchlineGestures
import TouchlineTesting

/// A tap's parameters with these fields set, the others default.
private func tap(taps: Int = 1, eager: Bool = false) -> TapParameters {
    var t = TapParameters()
    t.taps = taps
    t.eager = eager
    return t
}

public enum FastPathScripts {
    /// `count` seeds from a fixed base (so CI is reproducible) mixed with the case index.
    public static func seeds(_ count: Int, base: UInt64) -> [UInt64] {
        (0..<UInt64(count)).map { base &+ $0 &* 0x1000_0000_01 }
    }

    /// The seeds of the default graph's cases and of the multi-target graph's.
    public static let defaultBase: UInt64 = 0xFA57_0001
    public static let multiTargetBase: UInt64 = 0xFA57_0002

    /// Two halves with their own recognizers and a button over the left one: contacts on two
    /// targets in one frame, a target with many members and one with two, simultaneous
    /// recognizers, and requires-failure-of (a double tap over a single, a pan waiting for a
    /// swipe).
    public static let multiTarget = GraphConfiguration(
        targets: [
            TargetSpec(name: "left", rect: Rect(x: 0, y: 0, width: 100, height: 120)),
            TargetSpec(name: "right", rect: Rect(x: 100, y: 0, width: 100, height: 120)),
            TargetSpec(name: "button", rect: Rect(x: 30, y: 40, width: 30, height: 20), z: 1),
        ],
        recognizers: [
            RecognizerSpec(name: "doubleTap", kind: .tap(tap(taps: 2)), target: "left"),
            RecognizerSpec(name: "singleTap", kind: .tap(tap(taps: 1)), target: "left", requiresFailureOf: ["doubleTap"]),
            RecognizerSpec(name: "leftLongPress", kind: .longPress(LongPressParameters()), target: "left"),
            RecognizerSpec(name: "leftPinch", kind: .pinch(PinchParameters()), target: "left", simultaneousWith: ["leftRotate"]),
            RecognizerSpec(name: "leftRotate", kind: .rotate(RotateParameters()), target: "left"),
            RecognizerSpec(name: "leftPan", kind: .pan(PanParameters()), target: "left"),
            RecognizerSpec(name: "rightTap", kind: .tap(tap(eager: true)), target: "right"),
            RecognizerSpec(name: "rightEdgeSwipe", kind: .edgeSwipe(EdgeSwipeParameters()), target: "right"),
            RecognizerSpec(name: "rightSwipe", kind: .swipe(SwipeParameters()), target: "right", simultaneousWith: ["rightEdgeSwipe"]),
            RecognizerSpec(name: "rightRotate", kind: .rotate(RotateParameters()), target: "right", simultaneousWith: ["rightPan", "rightPinch"]),
            RecognizerSpec(name: "rightPinch", kind: .pinch(PinchParameters()), target: "right", simultaneousWith: ["rightPan"]),
            RecognizerSpec(name: "rightPan", kind: .pan(PanParameters()), target: "right", requiresFailureOf: ["rightSwipe"]),
            RecognizerSpec(name: "buttonTap", kind: .tap(tap()), target: "button"),
            RecognizerSpec(name: "buttonLongPress", kind: .longPress(LongPressParameters()), target: "button"),
        ])

    /// A random script of 1–4 fingers at 60, 120 or 240 Hz: landing (alone, in pairs, near an
    /// edge or near the other fingers), dragging together, turning and spreading about their
    /// centroid, one finger moving, trembling within the slops, tapping once or twice, resting
    /// past the deadlines (tap, double tap, swipe, long press), lifting and being cancelled.
    public static func script(seed: UInt64) -> TouchScript {
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
    public static func run(_ script: TouchScript, _ configuration: GraphConfiguration, fastPaths: Bool) throws -> (events: [String], states: [String], final: String) {
        var driver = try GraphDriver(configuration: configuration, surface: script.surface)
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
    public static func firstDifference(_ a: [String], _ b: [String]) -> Int? {
        if let k = a.indices.first(where: { $0 < b.count && a[$0] != b[$0] }) { return k }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    /// Where the fast and the general path part for one script: each difference described
    /// (the first differing event, the first differing states, the final summaries); empty when
    /// the two runs are the same and the graph reported no internal error.
    public static func differences(seed: UInt64, _ configuration: GraphConfiguration) throws -> [String] {
        let script = Self.script(seed: seed)
        let fast = try run(script, configuration, fastPaths: true)
        let general = try run(script, configuration, fastPaths: false)
        var found: [String] = []
        if let k = firstDifference(fast.events, general.events) {
            found.append("seed \(seed): event \(k) differs\n fast:    \(k < fast.events.count ? fast.events[k] : "(none)")\n general: \(k < general.events.count ? general.events[k] : "(none)")")
        }
        if let k = firstDifference(fast.states, general.states), k < fast.states.count, k < general.states.count {
            found.append("seed \(seed): states after frame \(k) differ\n fast:    \(fast.states[k])\n general: \(general.states[k])")
        }
        if fast.final != general.final { found.append("seed \(seed): final differs\n fast:    \(fast.final)\n general: \(general.final)") }
        if !(fast.final.hasPrefix("seq ") && fast.final.contains("internalErrors 0 ")) { found.append("seed \(seed): \(fast.final)") }
        return found
    }
}
#endif
