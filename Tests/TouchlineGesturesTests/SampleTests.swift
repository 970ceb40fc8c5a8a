import FastPathScripts
import Testing
import TouchlineCore
import TouchlineTesting
@testable import TouchlineGestures

// Two common contacts (every frame of a two-finger gesture but its first) take a straight-line
// sample, `GestureGraph.samplePair`, instead of the general two-pass one. Replays must not
// change by a bit, so the two are compared field by field on their bit patterns, over random
// pairs that include equal points, negative zeros, far-off (wild) values and lifting contacts.

@Suite struct SampleTests {
    static func bits(_ s: GroupSample) -> [UInt64] {
        [UInt64(bitPattern: s.time.microseconds), UInt64(s.present), UInt64(s.remaining), UInt64(s.began), UInt64(s.ended), UInt64(s.cancelled),
         s.centroid.x.bitPattern, s.centroid.y.bitPattern, s.span.bitPattern, s.translationDelta.dx.bitPattern, s.translationDelta.dy.bitPattern,
         s.spanDelta.bitPattern, s.spanRatio.bitPattern, s.rotationDelta.bitPattern, s.maxTravel.bitPattern, UInt64(bitPattern: s.elapsed.microseconds)]
    }

    static func coordinate(_ rng: inout SeededRandom) -> Double {
        switch rng.int(0...9) {
        case 0: return -0.0
        case 1: return 0.0
        case 2: return rng.double(-1e6...1e6)         // wild values
        default: return rng.double(0...250)
        }
    }

    static func point(_ rng: inout SeededRandom) -> Point { Point(x: coordinate(&rng), y: coordinate(&rng)) }

    @Test(arguments: Seeds.cases(500, base: 0x5A3F_2E11))
    func pairSampleEqualsTheGeneralOne(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let phases: [ContactPhase] = [.moved, .moved, .stationary, .ended, .cancelled]
        var pair: [GestureGraph.Tracked] = []
        for k in 0..<2 {
            let previous = Self.point(&rng)
            // Often the same point, or a small step from it (a frame's motion).
            let position = rng.chance(0.3) ? previous : rng.chance(0.5) ? Self.point(&rng) : Point(x: previous.x + rng.double(-2...2), y: previous.y + rng.double(-2...2))
            pair.append(GestureGraph.Tracked(
                id: ContactID(UInt32(k)), target: 0, first: Self.point(&rng), position: position, previous: previous,
                phase: phases[rng.int(0...phases.count - 1)], isNew: false))
        }
        let time = Timestamp(microseconds: Int64(rng.int(0...10_000_000)))
        let lastTime: Timestamp? = rng.chance(0.2) ? nil : Timestamp(microseconds: time.microseconds - Int64(rng.int(-100...20_000)))
        var movedPair = false, movedGeneral = false
        let fast = GestureGraph.samplePair(pair[0], pair[1], at: time, lastTime: lastTime, moved: &movedPair)
        let general = pair.withUnsafeBufferPointer { GestureGraph.sample($0, on: 0, at: time, lastTime: lastTime, moved: &movedGeneral) }
        #expect(Self.bits(fast) == Self.bits(general), "seed \(seed): \(fast) vs \(general)")
        #expect(movedPair == movedGeneral, "seed \(seed)")

        // Without a recognizer that reads the turn (docs/gestures.md#rotate): both samples still
        // agree bit for bit, only the turn differs from the full sample, and it is measured
        // anyway when a contact lifts or is cancelled (its inputs go to every member).
        var moved = false
        let pairNoTurn = GestureGraph.samplePair(pair[0], pair[1], at: time, lastTime: lastTime, turns: false, moved: &moved)
        let generalNoTurn = pair.withUnsafeBufferPointer { GestureGraph.sample(Span(_unsafeElements: $0), on: 0, at: time, lastTime: lastTime, turns: false, moved: &moved) }
        #expect(Self.bits(pairNoTurn) == Self.bits(generalNoTurn), "seed \(seed): \(pairNoTurn) vs \(generalNoTurn)")
        var withTurn = fast
        withTurn.rotationDelta = 0
        let lifts = pair.contains { $0.phase == .ended || $0.phase == .cancelled }
        #expect(Self.bits(pairNoTurn) == Self.bits(lifts ? fast : withTurn), "seed \(seed)")
    }

    /// Only rotate reads the turn: the default graph measures it for its rotate recognizer and
    /// for no other.
    @Test func onlyRotateRecognizersReadTheTurn() throws {
        let graph = try GestureGraph(configuration: .default, surface: Size(width: 200, height: 120))
        var expected: UInt64 = 0
        for (i, spec) in GraphConfiguration.default.recognizers.enumerated() where spec.kind.recognizer == RotateRecognizer.self { expected |= 1 << UInt64(i) }
        #expect(expected != 0)
        #expect(graph.rotationReaders == expected)
    }
}

/// The graph keeps its recognizers in storage it shares when copied and copies before a change:
/// a copy taken mid-gesture and the original, fed the same rest, must each give the events an
/// uncopied graph gives, as values do.
@Suite struct GraphValueSemanticsTests {
    /// The events of `frames` replayed whole, and by a driver copied after the first `split`
    /// frames, then by the copy and by its original. The copy runs first, so a change it made in
    /// shared storage would show in the original.
    static func replayWithCopy(_ frames: [TouchFrame], copiedAfter split: Int, surface: Size) throws
        -> (expected: [String], copy: [String], original: [String]) {
        func lines(_ driver: inout GraphDriver, _ frames: ArraySlice<TouchFrame>) -> [String] {
            var out: [String] = []
            for f in frames { driver.feed(f) { out.append($0.json) } }
            driver.finish { out.append($0.json) }
            return out
        }
        var whole = try GraphDriver(configuration: .default, surface: surface)
        let expected = lines(&whole, frames[...])
        var original = try GraphDriver(configuration: .default, surface: surface)
        var before: [String] = []
        for f in frames[..<split] { original.feed(f) { before.append($0.json) } }
        var copy = original
        let copyRest = lines(&copy, frames[split...])
        let originalRest = lines(&original, frames[split...])
        return (expected, before + copyRest, before + originalRest)
    }

    @Test func aCopyTakenMidGestureGoesOnAlone() throws {
        var script = TouchScript(rate: 120)
        script.down([(0, Point(x: 80, y: 60)), (1, Point(x: 120, y: 60))])
        script.turn(about: Point(x: 100, y: 60), by: 0.8, scale: 1.4, over: 300)
        script.up([0, 1])
        script.down(2, at: Point(x: 50, y: 50))
        script.wait(40)
        script.up(2)
        script.wait(400)
        let frames = script.frames
        let run = try Self.replayWithCopy(frames, copiedAfter: frames.count / 2, surface: script.surface)
        #expect(run.copy == run.expected)
        #expect(run.original == run.expected)
        #expect(run.expected.contains { $0.contains("\"rotate\"") }, "the script should turn: \(run.expected)")
    }

    /// The copy's first frame fires a deadline (the long press's) before it is processed: the
    /// deadline, too, must change only the copy.
    @Test func aCopyTakenWithADeadlinePendingGoesOnAlone() throws {
        var script = TouchScript(rate: 120)
        script.down(0, at: Point(x: 60, y: 60))
        script.wait(800)
        script.up(0)
        let frames = script.frames
        #expect(frames.count == 2, "a finger held still makes no frames in between: \(frames.count)")
        let run = try Self.replayWithCopy(frames, copiedAfter: 1, surface: script.surface)
        #expect(run.copy == run.expected)
        #expect(run.original == run.expected)
        #expect(run.expected.first?.contains("\"longPress\"") == true, "the hold should be a long press: \(run.expected)")
    }
}
