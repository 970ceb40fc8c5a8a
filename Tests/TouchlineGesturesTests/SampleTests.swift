import Testing
import TouchlineCore
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
    }
}
