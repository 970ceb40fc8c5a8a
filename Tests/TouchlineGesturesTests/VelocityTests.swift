import FastPathScripts
import Testing
import TouchlineCore
import TouchlineGestures

// The velocity estimator keeps its samples in a ring read and written in place (it runs three
// times a frame). These tests hold it to the plain definition: a list of the last eight samples,
// newest first, walked back while inside the window, on random streams whose times repeat and
// run backwards as well as forwards.

/// The estimator as first written: the samples in an array, newest first.
struct ReferenceVelocity {
    var samples: [(t: Int64, x: Double, y: Double)] = []
    var ordered = true
    let window: Int64

    mutating func add(_ t: Int64, _ x: Double, _ y: Double) {
        if let newest = samples.first, newest.t == t {
            samples[0] = (t, x, y)
            return
        }
        if let newest = samples.first, t < newest.t { ordered = false }
        samples.insert((t, x, y), at: 0)
        if samples.count > 8 { samples.removeLast() }
    }

    func rate(at now: Int64) -> (Double, Double) {
        guard samples.count >= 2 else { return (0, 0) }
        let newest = samples[0]
        if now &- newest.t > window { return (0, 0) }
        var k = 1
        if ordered && samples.count == 8 && now &- samples[7].t <= window {
            k = 7
        } else {
            while k + 1 < samples.count && now &- samples[k + 1].t <= window { k += 1 }
        }
        let dt = newest.t &- samples[k].t
        guard dt > 0 else { return (0, 0) }
        let perSecond = 1_000_000 / Double(dt)
        return ((newest.x - samples[k].x) * perSecond, (newest.y - samples[k].y) * perSecond)
    }
}

@Suite struct VelocityTests {
    /// Same bits as the reference after every sample, through `record` (the frame's path) and
    /// through `add` then `rate(at:)` at a later time (the lift's path).
    @Test(arguments: Seeds.cases(300, base: 0x7E10_C177))
    func ringMatchesTheListDefinition(seed: UInt64) {
        check(seed: seed, backwards: true)
    }

    /// Times that never run backwards keep the ring in order, so once it is full every frame
    /// takes the rate's steady-state branch (the oldest sample without a walk), or leaves it
    /// after a pause: the same bits there.
    @Test(arguments: Seeds.cases(200, base: 0x0D0E_7ED5))
    func orderedStreamsMatchTheListDefinition(seed: UInt64) {
        check(seed: seed, backwards: false)
    }

    func check(seed: UInt64, backwards: Bool) {
        var rng = SeededRandom(seed: seed)
        let window = Int64(rng.int(0...120_000))
        var ring = VelocityEstimator(window: Interval(microseconds: window))
        var added = VelocityEstimator(window: Interval(microseconds: window))
        var reference = ReferenceVelocity(window: window)
        var t: Int64 = Int64(rng.int(0...1_000_000))
        var x = 0.0, y = 0.0
        for step in 0..<rng.int(1...(backwards ? 60 : 120)) {
            switch rng.int(0...9) {
            case 0: break                                        // the same time again
            case 1 where backwards: t -= Int64(rng.int(1...20_000))  // time runs backwards
            case 2: t += Int64(rng.int(50_000...300_000))        // a pause longer than the window
            default: t += Int64(rng.int(1...17_000))             // 60 Hz to 1 kHz
            }
            x += rng.double(-5...5)
            y += rng.double(-5...5)
            reference.add(t, x, y)
            let expected = reference.rate(at: t)
            let got = ring.record(Timestamp(microseconds: t), x, y)
            #expect(got.0.bitPattern == expected.0.bitPattern && got.1.bitPattern == expected.1.bitPattern,
                    "seed \(seed), step \(step): record \(got), reference \(expected)")
            added.add(Timestamp(microseconds: t), x, y)
            let later = t + Int64(rng.int(0...150_000))
            let expectedLater = reference.rate(at: later)
            let gotLater = added.rate(at: Timestamp(microseconds: later))
            #expect(gotLater.0.bitPattern == expectedLater.0.bitPattern && gotLater.1.bitPattern == expectedLater.1.bitPattern,
                    "seed \(seed), step \(step): rate \(gotLater) at +\(later - t) µs, reference \(expectedLater)")
            #expect(ring == added, "seed \(seed), step \(step): record and add leave different estimators")
        }
    }
}
