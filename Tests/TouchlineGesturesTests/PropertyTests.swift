import FastPathScripts
import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

// Property-based tests over random touch streams. Each case has its own seed, printed in the
// failure message; rerun one case with TOUCHLINE_SEED=<seed>.

/// A random stream: fingers go down anywhere (edges included), move, rest, lift or are
/// cancelled, up to five at once; every finger is lifted at the end.
func randomScript(seed: UInt64, rate: Double = 120, pressure: Bool = false) -> TouchScript {
    var rng = SeededRandom(seed: seed)
    // With `pressure`, fingers land with a pressure and press harder or lighter in place (for
    // peek and pop); without it the scripts are the ones every seed always gave.
    var force = SeededRandom(seed: seed ^ 0x5EED_F0CE)
    var s = TouchScript(rate: rate)
    let size = TouchScript.defaultSurface
    var down: [Int] = []
    var nextFinger = 0
    func randomPoint(_ rng: inout SeededRandom) -> Point {
        if rng.chance(0.15) {
            // Near an edge, for edge swipes.
            return rng.chance(0.5) ? Point(x: rng.double(0...2.5), y: rng.double(5...115)) : Point(x: rng.double(5...195), y: size.height - rng.double(0...2.5))
        }
        return Point(x: rng.double(5...195), y: rng.double(5...115))
    }
    if pressure && force.chance(0.3) {
        // A drag from the every-kind graph's photo over its spring-loaded folder, held there for
        // a while, that the random steps then carry on (few random scripts hold still twice).
        s.down([(nextFinger, Point(x: 40, y: 35))], pressure: 0.2)
        down.append(nextFinger)
        nextFinger += 1
        s.wait(force.double(500...700))
        s.move([(down[0], Point(x: force.double(120...190), y: force.double(15...55)))], over: force.double(50...300))
        s.wait(force.double(300...1000))
    }
    for _ in 0..<rng.int(5...40) {
        switch rng.int(0...9) {
        case 0, 1, 2:
            if down.count < 5 {
                var touches: [(Int, Point)] = []
                for _ in 0..<(rng.chance(0.3) ? 2 : 1) where down.count + touches.count < 5 {
                    touches.append((nextFinger, randomPoint(&rng)))
                    nextFinger += 1
                }
                s.down(touches, pressure: pressure ? force.double(0...0.5) : nil)
                down += touches.map(\.0)
            }
        case 3, 4, 5:
            if !down.isEmpty {
                let moving = down.filter { _ in rng.chance(0.7) }
                if !moving.isEmpty {
                    let targets = moving.map { f -> (Int, Point) in
                        let at = s.position(of: f)!
                        let d = rng.chance(0.5) ? rng.double(0...4) : rng.double(0...80)
                        let a = rng.double(0...6.28)
                        let x = min(max(at.x + d * TouchScript.cosine(a), 0), size.width)
                        let y = min(max(at.y + d * TouchScript.sine(a), 0), size.height)
                        return (f, Point(x: x, y: y))
                    }
                    s.move(targets, over: rng.double(8...600))
                }
            }
        case 6, 7:
            if pressure, let f = down.first, force.chance(0.5) {
                s.press(f, pressure: force.double(0...1), over: force.double(8...400))
            }
            s.wait(rng.double(0...700))
        case 8:
            if !down.isEmpty {
                let lifting = down.filter { _ in rng.chance(0.6) }
                if !lifting.isEmpty {
                    s.up(lifting)
                    down.removeAll { lifting.contains($0) }
                }
            }
        default:
            if !down.isEmpty && rng.chance(0.2) {
                let f = down.randomElement(using: &rng)!
                s.cancel([f])
                down.removeAll { $0 == f }
            } else {
                s.wait(rng.double(0...50))
            }
        }
    }
    s.wait(rng.double(0...100))
    if !down.isEmpty { s.up(down) }
    return s
}

/// Every kind at once, on targets where each has something to do: peek before the desk's tap,
/// two draggable items, a trash to drop on and a spring-loaded folder that also takes taps.
let everyKindGraph: GraphConfiguration = {
    let toml = """
        [[target]]
        name = "desk"
        rect = [0, 0, 1, 1]
        units = "normalized"
        [[target]]
        name = "photo"
        rect = [20, 20, 40, 30]
        z = 1
        [[target]]
        name = "note"
        rect = [20, 70, 40, 30]
        z = 1
        [[target]]
        name = "trash"
        rect = [110, 70, 90, 45]
        z = 1
        [[target]]
        name = "folder"
        rect = [110, 5, 90, 60]
        z = 1
        [[recognizer]]
        kind = "peek"
        target = "desk"
        requiresFailureOf = ["tap"]
        [[recognizer]]
        kind = "tap"
        target = "desk"
        eager = true
        [[recognizer]]
        kind = "longPress"
        target = "desk"
        [[recognizer]]
        kind = "edgeSwipe"
        target = "desk"
        [[recognizer]]
        kind = "swipe"
        target = "desk"
        simultaneousWith = ["pan", "edgeSwipe"]
        [[recognizer]]
        kind = "pinch"
        target = "desk"
        simultaneousWith = ["rotate", "pan"]
        [[recognizer]]
        kind = "rotate"
        target = "desk"
        simultaneousWith = ["pan"]
        [[recognizer]]
        kind = "pan"
        target = "desk"
        [[recognizer]]
        name = "dragPhoto"
        kind = "drag"
        target = "photo"
        dropTargets = ["trash", "folder"]
        [[recognizer]]
        name = "dragNote"
        kind = "drag"
        target = "note"
        dropTargets = ["trash"]
        [[recognizer]]
        name = "springFolder"
        kind = "spring"
        target = "folder"
        [[recognizer]]
        name = "tapFolder"
        kind = "tap"
        target = "folder"
        """
    // A literal of this file: a parse error is this test's bug.
    return try! GraphConfiguration.parse(toml: toml, file: "everyKindGraph")
}()

@Suite struct PropertyTests {
    /// Runs frames one at a time and returns, per event, the index of the frame whose feed
    /// produced it (frames.count for the end of input).
    static func run(_ frames: [TouchFrame], configuration: GraphConfiguration = .default, surface: Size = TouchScript.defaultSurface, explain: Bool) throws -> (events: [GestureEvent], frameOf: [Int], graph: GestureGraph) {
        var driver = try GraphDriver(configuration: configuration, surface: surface)
        driver.graph.explain = explain
        var events: [GestureEvent] = []
        var frameOf: [Int] = []
        for (k, f) in frames.enumerated() {
            driver.feed(f) { events.append($0); frameOf.append(k) }
        }
        driver.finish { events.append($0); frameOf.append(frames.count) }
        return (events, frameOf, driver.graph)
    }

    @Test(arguments: Seeds.cases(300, base: 0x70C4_0001))
    func everyBeganHasExactlyOneEnd(seed: UInt64) throws {
        try Self.everyBeganHasExactlyOneEnd(seed: seed, frames: randomScript(seed: seed).frames, configuration: .default)
    }

    /// The same with every kind attached (peek, drag and spring included) and pressure in the
    /// scripts.
    @Test(arguments: Seeds.cases(300, base: 0x70C4_0011))
    func everyBeganHasExactlyOneEndWithEveryKind(seed: UInt64) throws {
        try Self.everyBeganHasExactlyOneEnd(seed: seed, frames: randomScript(seed: seed, pressure: true).frames, configuration: everyKindGraph)
    }

    /// Peek, pop and actions happen alike at 60, 120 and 240 Hz: the same events in the same
    /// order with the same fields but the continuous values (a pressure ramp crosses a threshold
    /// between frames, so the frame that reports it depends on the rate).
    @Test func peekAndPopDoNotDependOnRate() throws {
        func run(_ rate: Double) throws -> [String] {
            var h = try GestureHarness(configuration: everyKindGraph, rate: rate)
            h.down(0, at: p(100, 100), pressure: 0.2); h.wait(400)
            h.press(0, pressure: 0.6, over: 200); h.wait(200)
            h.move(0, to: p(100, 85), over: 150); h.wait(100)
            h.press(0, pressure: 0.95, over: 200); h.wait(100)
            h.up(0)
            return h.gestures.filter { $0.phase != .changed }.map { e in
                "\(e.gesture) \(e.phase) f\(e.fingers) " + (e.detail.fields(as: PeekFields.self).map { "\($0.source) \($0.end)" } ?? "")
            }
        }
        let at60 = try run(60)
        #expect(at60.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["peek began", "peekActions recognized", "pop recognized", "peek ended"])
        #expect(try run(120) == at60)
        #expect(try run(240) == at60)
    }

    /// The random scripts reach every kind of the every-kind graph (else its properties say
    /// nothing about the kinds they miss).
    @Test func everyKindScriptsReachEveryKind() throws {
        var seen = Set<String>()
        for seed in Seeds.cases(300, base: 0x70C4_0011) {
            let (events, _, _) = try Self.run(randomScript(seed: seed, pressure: true).frames, configuration: everyKindGraph, explain: false)
            for e in events { seen.insert("\(e.gesture) \(e.phase)") }
        }
        for expected in ["peek began", "pop recognized", "peek ended", "drag began", "drag ended", "drag cancelled", "spring began",
                         "tap recognized", "pan began", "pinch began", "rotate began", "longPress began", "swipe recognized"] {
            #expect(seen.contains(expected), "no \(expected) in 300 scripts; seen: \(seen.sorted())")
        }
    }

    static func everyBeganHasExactlyOneEnd(seed: UInt64, frames: [TouchFrame], configuration: GraphConfiguration) throws {
        let (events, _, graph) = try Self.run(frames, configuration: configuration, explain: false)
        var open = Set<String>()
        for e in events where e.gesture != .explain {
            let key = "\(e.target)/\(e.recognizer)"
            switch e.phase {
            case .began:
                #expect(!open.contains(key), "seed \(seed): \(key) began twice at \(e.time)")
                open.insert(key)
            case .changed:
                #expect(open.contains(key), "seed \(seed): \(key) changed without began at \(e.time)")
            case .ended, .cancelled:
                #expect(open.remove(key) != nil, "seed \(seed): \(key) \(e.phase) without began at \(e.time)")
            case .recognized, .won, .waiting, .held, .failed, .bug:
                break
            }
        }
        #expect(open.isEmpty, "seed \(seed): began without end: \(open.sorted())")
        #expect(graph.internalErrors == 0, "seed \(seed): \(graph.internalErrors) impossible transitions")
        #expect(graph.isIdle, "seed \(seed): pending at the end: \(graph.pendingDescription)")
    }

    @Test(arguments: Seeds.cases(300, base: 0x70C4_0002))
    func noEventNamesAContactAfterItEnded(seed: UInt64) throws {
        try Self.noEventNamesAContactAfterItEnded(seed: seed, frames: randomScript(seed: seed).frames, configuration: .default)
    }

    @Test(arguments: Seeds.cases(300, base: 0x70C4_0012))
    func noEventNamesAContactAfterItEndedWithEveryKind(seed: UInt64) throws {
        try Self.noEventNamesAContactAfterItEnded(seed: seed, frames: randomScript(seed: seed, pressure: true).frames, configuration: everyKindGraph)
    }

    static func noEventNamesAContactAfterItEnded(seed: UInt64, frames: [TouchFrame], configuration: GraphConfiguration) throws {
        let (events, frameOf, _) = try Self.run(frames, configuration: configuration, explain: true)
        var endedAt: [ContactID: Int] = [:]
        for (k, f) in frames.enumerated() {
            for c in f.contacts where c.phase.isFinal { endedAt[c.id] = k }
        }
        for (e, k) in zip(events, frameOf) {
            for id in e.contacts {
                if let end = endedAt[id] {
                    #expect(k <= end, "seed \(seed): \(e.json) names \(id), which ended in frame \(end), while feeding frame \(k)")
                }
            }
        }
    }

    @Test(arguments: Seeds.cases(100, base: 0x70C4_0003))
    func outputIsIdenticalAcrossRuns(seed: UInt64) throws {
        let frames = randomScript(seed: seed).frames
        let first = try Self.run(frames, explain: true).events.map(\.json)
        let second = try Self.run(frames, explain: true).events.map(\.json)
        #expect(first == second, "seed \(seed)")
        // Explain lines are extra lines: without them the gesture lines are the same.
        let plain = try Self.run(frames, explain: false).events
        let explained = try Self.run(frames, explain: true).events.filter { $0.gesture != .explain }
        #expect(plain.map(\.logLine) == explained.map(\.logLine), "seed \(seed)")
    }

    /// A random gesture that is clearly one thing (margins away from every threshold), played
    /// at `rate`.
    static func clearGesture(seed: UInt64, rate: Double) -> (TouchScript, String) {
        var rng = SeededRandom(seed: seed)
        var s = TouchScript(rate: rate)
        var expected: [String] = []
        for _ in 0..<rng.int(1...4) {
            let center = Point(x: rng.double(40...160), y: rng.double(30...90))
            switch rng.int(0...3) {
            case 0:
                // Tap: 30–250 ms, jitter below 2 mm.
                s.down(0, at: center)
                s.move(0, to: Point(x: center.x + rng.double(-1...1), y: center.y + rng.double(-1...1)), over: rng.double(10...30))
                s.wait(rng.double(20...220))
                s.up(0)
                expected.append("tap")
            case 1:
                // Long press: 650–1200 ms, jitter below 2 mm.
                s.down(0, at: center)
                s.wait(rng.double(50...100))
                s.move(0, to: Point(x: center.x + rng.double(-1...1), y: center.y + rng.double(-1...1)), over: rng.double(10...40))
                s.wait(rng.double(500...1000))
                s.up(0)
                expected.append("longPress")
            case 2:
                // Swipe: 25–60 mm within 20° of an axis in 60–200 ms.
                let axis = rng.int(0...3)
                let length = rng.double(25...60)
                let off = rng.double(-0.35...0.35)
                let angle = Double(axis) * 1.5707963267948966 + off
                s.down(0, at: center)
                s.move(0, to: Point(x: center.x + length * TouchScript.cosine(angle), y: center.y + length * TouchScript.sine(angle)), over: rng.double(60...200))
                s.up(0)
                expected.append("swipe")
            default:
                // Pinch: span 30–60 mm scaled by 0.4–0.7 or 1.4–2.
                let span = rng.double(30...60)
                let scale = rng.chance(0.5) ? rng.double(0.4...0.7) : rng.double(1.4...2)
                s.down([(0, Point(x: center.x - span / 2, y: center.y)), (1, Point(x: center.x + span / 2, y: center.y))])
                s.turn(about: center, by: 0, scale: scale, over: rng.double(100...400))
                s.up([0, 1])
                expected.append("pinch")
            }
            s.wait(rng.double(350...800))
        }
        return (s, expected.joined(separator: " "))
    }

    /// What must not depend on the rate: which recognizers won (began or recognized), in order,
    /// with swipe directions, tap counts and finger counts.
    static func winners(_ events: [GestureEvent]) -> [String] {
        events.compactMap { e in
            guard e.gesture != .explain, e.phase == .began || e.phase == .recognized else { return nil }
            if let swipe = e.detail.fields(as: SwipeFields.self) { return "swipe \(swipe.direction) f\(e.fingers)" }
            if let tap = e.detail.fields(as: TapFields.self) { return "tap \(tap.count) f\(e.fingers)" }
            return "\(e.recognizer) f\(e.fingers)"
        }
    }

    @Test(arguments: Seeds.cases(200, base: 0x70C4_0004))
    func winnersAndDirectionsDoNotDependOnRate(seed: UInt64) throws {
        var results: [[String]] = []
        var expected = ""
        for rate in [60.0, 120, 240] {
            let (script, kinds) = Self.clearGesture(seed: seed, rate: rate)
            expected = kinds
            results.append(Self.winners(try GestureHarness.replay(script.frames, surface: script.surface)))
        }
        #expect(results[0] == results[1] && results[1] == results[2], "seed \(seed) (\(expected)): 60 Hz \(results[0]) / 120 Hz \(results[1]) / 240 Hz \(results[2])")
        // And each intended gesture was recognized.
        let recognized = results[1].map { $0.split(separator: " ")[0] }.filter { ["tap", "longPress", "swipe", "pinch"].contains($0) }
        #expect(recognized.joined(separator: " ") == expected, "seed \(seed): expected \(expected), got \(results[1])")
    }
}

@Suite struct WildInputTests {
    /// Frames a broken device or a bad trace could produce: ids that end without beginning or
    /// come back after ending, positions far outside the sensor, time running backwards, 40
    /// contacts at once. The graph never crashes, never reports an impossible transition, and
    /// ends idle.
    @Test(arguments: Seeds.cases(200, base: 0x3117_0001))
    func wildFramesNeverBreakTheGraph(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        var frames: [TouchFrame] = []
        var time: Int64 = 1_000_000
        for _ in 0..<rng.int(1...80) {
            time += Int64(rng.int(-20_000...200_000))
            var frame = TouchFrame(time: Timestamp(microseconds: time))
            var ids = Set<UInt32>()
            for _ in 0..<rng.int(0...(rng.chance(0.05) ? 40 : 4)) {
                let id = UInt32(rng.int(0...45))
                guard ids.insert(id).inserted else { continue }
                let wild = rng.chance(0.1)
                let position = Point(x: wild ? rng.double(-1e6...1e6) : rng.double(0...200), y: wild ? rng.double(-1e6...1e6) : rng.double(0...120))
                let phase = ContactPhase.allCases.randomElement(using: &rng)!
                frame.contacts.append(Contact(id: ContactID(id), phase: phase, position: position, normalized: Point(x: position.x / 200, y: position.y / 120)))
            }
            frame.contacts.sort { $0.id < $1.id }
            frames.append(frame)
        }
        var driver = try GraphDriver(configuration: .default, surface: TouchScript.defaultSurface)
        driver.graph.explain = true
        var events: [GestureEvent] = []
        for f in frames { driver.feed(f) { events.append($0) } }
        driver.finish { events.append($0) }
        #expect(driver.graph.internalErrors == 0, "seed \(seed): \(events.filter { $0.phase == .bug }.map(\.json))")
        #expect(driver.graph.isIdle, "seed \(seed): \(driver.graph.pendingDescription)")
        // Time never runs backwards in the output.
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, "seed \(seed)")
    }
}
