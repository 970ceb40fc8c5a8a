import FastPathScripts
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

/// Fingers that rest before they move (docs/gestures.md#resting-fingers): people put two
/// fingers down, hold them still for half a second, and only then pinch, turn or drag them.
/// The default long press takes one finger, so two resting fingers give nothing until they
/// move, and then the pinch, rotation or pan. On 8d7af8f the long press took any number of
/// fingers: 500 ms after the second finger landed it won a two-finger long press that kept
/// both fingers until the lift, and the pinch that followed was never reported.
@Suite struct RestingFingersTests {
    /// One finger held 1 s is a long press (right); a second joins 40 mm away, both rest 0.8 s,
    /// then the second closes in to a span of 12 mm: the long press ends when the second lands
    /// (finger-count rule), the two resting fingers give nothing, the closing is a pinch.
    @Test func aLongPressJoinedByAFingerThatRestsThenPinchesIsALongPressThenAPinch() throws {
        var h = try GestureHarness(rate: 60)
        h.down(0, at: p(80, 60))
        h.wait(1000)
        h.down(1, at: p(120, 60))
        h.wait(800)
        h.move(1, to: p(92, 60), over: 300)
        h.up([0, 1])
        expectLog(h, [
            "0.500000 longPress began f1 (80.00,60.00) duration=500ms",
            "1.000000 longPress ended f1 (80.00,60.00) duration=1000ms",
            "1.866667 pinch began f2 (96.89,60.00) scale=0.8444 span=33.78",
            "1.866667 pan began f2 (96.89,60.00) d=(-3.11,0.00)",
            "1.883333 pinch changed f2 (96.11,60.00) scale=0.8056 span=32.22",
            "1.883333 pan changed f2 (96.11,60.00) d=(-3.89,0.00)",
            "1.900000 pinch changed f2 (95.33,60.00) scale=0.7667 span=30.67",
            "1.900000 pan changed f2 (95.33,60.00) d=(-4.67,0.00)",
            "1.916667 pinch changed f2 (94.56,60.00) scale=0.7278 span=29.11",
            "1.916667 pan changed f2 (94.56,60.00) d=(-5.44,0.00)",
            "1.933333 pinch changed f2 (93.78,60.00) scale=0.6889 span=27.56",
            "1.933333 pan changed f2 (93.78,60.00) d=(-6.22,0.00)",
            "1.950000 pinch changed f2 (93.00,60.00) scale=0.6500 span=26.00",
            "1.950000 pan changed f2 (93.00,60.00) d=(-7.00,0.00)",
            "1.966667 pinch changed f2 (92.22,60.00) scale=0.6111 span=24.44",
            "1.966667 pan changed f2 (92.22,60.00) d=(-7.78,0.00)",
            "1.983333 pinch changed f2 (91.44,60.00) scale=0.5722 span=22.89",
            "1.983333 pan changed f2 (91.44,60.00) d=(-8.56,0.00)",
            "2.000000 pinch changed f2 (90.67,60.00) scale=0.5333 span=21.33",
            "2.000000 pan changed f2 (90.67,60.00) d=(-9.33,0.00)",
            "2.016667 pinch changed f2 (89.89,60.00) scale=0.4944 span=19.78",
            "2.016667 pan changed f2 (89.89,60.00) d=(-10.11,0.00)",
            "2.033333 pinch changed f2 (89.11,60.00) scale=0.4556 span=18.22",
            "2.033333 pan changed f2 (89.11,60.00) d=(-10.89,0.00)",
            "2.050000 pinch changed f2 (88.33,60.00) scale=0.4167 span=16.67",
            "2.050000 pan changed f2 (88.33,60.00) d=(-11.67,0.00)",
            "2.066667 pinch changed f2 (87.56,60.00) scale=0.3778 span=15.11",
            "2.066667 pan changed f2 (87.56,60.00) d=(-12.44,0.00)",
            "2.083333 pinch changed f2 (86.78,60.00) scale=0.3389 span=13.56",
            "2.083333 pan changed f2 (86.78,60.00) d=(-13.22,0.00)",
            "2.100000 pinch changed f2 (86.00,60.00) scale=0.3000 span=12.00",
            "2.100000 pan changed f2 (86.00,60.00) d=(-14.00,0.00)",
            "2.100000 pinch ended f2 (86.00,60.00) scale=0.3000 span=12.00",
            "2.100000 pan ended f2 (86.00,60.00) d=(-14.00,0.00)",
        ])
        try h.expectNothingPending()
    }

    /// Two fingers land 30 mm apart, rest 0.7 s, then spread to 70 mm: a pinch, and no long press.
    @Test func twoFingersThatRestThenSpreadAreAPinch() throws {
        var h = try GestureHarness(rate: 60)
        h.down([(0, p(85, 60)), (1, p(115, 60))])
        h.wait(700)
        h.move([(0, p(65, 60)), (1, p(135, 60))], over: 300)
        h.up([0, 1])
        expectLog(h, [
            "0.750000 pinch began f2 (100.00,60.00) scale=1.2222 span=36.67",
            "0.766667 pinch changed f2 (100.00,60.00) scale=1.2963 span=38.89",
            "0.783333 pinch changed f2 (100.00,60.00) scale=1.3704 span=41.11",
            "0.800000 pinch changed f2 (100.00,60.00) scale=1.4444 span=43.33",
            "0.816667 pinch changed f2 (100.00,60.00) scale=1.5185 span=45.56",
            "0.833333 pinch changed f2 (100.00,60.00) scale=1.5926 span=47.78",
            "0.850000 pinch changed f2 (100.00,60.00) scale=1.6667 span=50.00",
            "0.866667 pinch changed f2 (100.00,60.00) scale=1.7407 span=52.22",
            "0.883333 pinch changed f2 (100.00,60.00) scale=1.8148 span=54.44",
            "0.900000 pinch changed f2 (100.00,60.00) scale=1.8889 span=56.67",
            "0.916667 pinch changed f2 (100.00,60.00) scale=1.9630 span=58.89",
            "0.933333 pinch changed f2 (100.00,60.00) scale=2.0370 span=61.11",
            "0.950000 pinch changed f2 (100.00,60.00) scale=2.1111 span=63.33",
            "0.966667 pinch changed f2 (100.00,60.00) scale=2.1852 span=65.56",
            "0.983333 pinch changed f2 (100.00,60.00) scale=2.2593 span=67.78",
            "1.000000 pinch changed f2 (100.00,60.00) scale=2.3333 span=70.00",
            "1.000000 pinch ended f2 (100.00,60.00) scale=2.3333 span=70.00",
        ])
        try h.expectNothingPending()
    }

    /// The rule beyond the default: a long press declared with `fingers = 2` is what the graph
    /// asked for. Once it has won it keeps its contacts from the pinch that is not simultaneous
    /// with it (as UIKit's long press with two required touches makes a pinch fail), and a graph
    /// that wants both declares the relation: then the pinch begins alongside when the span
    /// changes, and the long press goes on (docs/gestures.md#resting-fingers, the table).
    @Test(arguments: [(0, false), (2, false), (2, true)])
    func aDeclaredTwoFingerLongPressKeepsItsContactsUnlessSimultaneous(fingers: Int, simultaneous: Bool) throws {
        var longPress = LongPressParameters()
        longPress.fingers = fingers
        let configuration = GraphConfiguration(
            targets: [.surface()],
            recognizers: [
                RecognizerSpec(name: "longPress", kind: .longPress(longPress), simultaneousWith: simultaneous ? ["pinch"] : []),
                RecognizerSpec(name: "pinch", kind: .pinch(PinchParameters())),
            ]
        )
        var h = try GestureHarness(configuration: configuration, rate: 60)
        h.down([(0, p(85, 60)), (1, p(115, 60))])
        h.wait(700)
        h.move([(0, p(65, 60)), (1, p(135, 60))], over: 300)
        h.up([0, 1])
        let gestures = h.log.map { $0.split(separator: " ")[1] + " " + $0.split(separator: " ")[2] }
        if simultaneous {
            #expect(gestures.first == "longPress began")
            #expect(gestures.contains("pinch began"))
            #expect(gestures.contains("pinch ended"))
            #expect(gestures.contains("longPress ended"))
        } else {
            #expect(gestures.first == "longPress began")
            #expect(!gestures.contains { $0.hasPrefix("pinch") })
            #expect(gestures.last == "longPress ended")
        }
        try h.expectNothingPending()
    }
}

/// Random resting fingers before a pinch or a rotation past its thresholds: one finger resting
/// then joined by a second, or two landing together, each rest 0–1.5 s, then the pair spreads or
/// closes by 8–30 mm or turns 20–60° about its midpoint. The default graph reports the pinch or
/// the rotation every time, at every rate (docs/gestures.md#resting-fingers).
@Suite struct RestingFingersPropertyTests {
    @Test(arguments: [60.0, 120.0, 240.0])
    func restingFingersThenAPinchOrATurnAreAlwaysReported(rate: Double) throws {
        for seed in Seeds.cases(150, base: 0x2E57_1A6) {
            var rng = SeededRandom(seed: seed)
            var h = try GestureHarness(rate: rate)
            let center = Point(x: rng.double(50...150), y: rng.double(35...85))
            let span = rng.double(25...50)
            let angle = rng.double(0...3.14159)
            let half = Vector(dx: span / 2 * TouchScript.cosine(angle), dy: span / 2 * TouchScript.sine(angle))
            let a = Point(x: center.x - half.dx, y: center.y - half.dy)
            let b = Point(x: center.x + half.dx, y: center.y + half.dy)
            var script = "seed \(seed) rate \(rate):"
            if rng.chance(0.5) {
                let first = rng.double(0...1500)
                h.down(0, at: a)
                h.wait(first)
                h.down(1, at: b)
                script += " one finger rests \(Int(first)) ms, a second joins"
            } else {
                h.down([(0, a), (1, b)])
                script += " two fingers land together"
            }
            let rest = rng.double(0...1500)
            h.wait(rest)
            let over = rng.double(150...500)
            let pinches = rng.chance(0.5)
            if pinches {
                let change = rng.double(8...30) * (rng.chance(0.5) ? 1 : -1)
                h.turn(about: center, by: 0, scale: (span + change) / span, over: over)
                script += ", both rest \(Int(rest)) ms, span \(Int(span)) mm changes \(Int(change)) mm over \(Int(over)) ms"
            } else {
                let turn = rng.double(0.35...1.05) * (rng.chance(0.5) ? 1 : -1)
                h.turn(about: center, by: turn, over: over)
                script += ", both rest \(Int(rest)) ms, turn \(Int(turn * 57.3))° over \(Int(over)) ms"
            }
            h.up([0, 1])
            let wanted = pinches ? "pinch began" : "rotate began"
            #expect(h.log.contains { $0.contains(wanted) }, "\(script): no \(wanted) in \(h.log)")
            try h.expectNothingPending()
        }
    }
}
