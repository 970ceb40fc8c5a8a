import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

// Peek and pop (docs/gestures.md#peek), scripted: a finger lands, presses harder in place,
// lifts. The graph is the default one with a peek recognizer declared first that requires the
// tap's failure, as docs/config.md#peek declares it (`peekFromTheDocsParses`): so a quick
// touch, however hard, stays a tap, and the peek begins once the tap has failed (at 300 ms, or at the
// press if later).

/// The default graph with `peek` declared first, waiting for the tap to fail.
func peekGraph(_ parameters: PeekParameters = PeekParameters()) -> GraphConfiguration {
    var c = GraphConfiguration.default
    c.recognizers.insert(RecognizerSpec(name: "peek", kind: .peek(parameters), requiresFailureOf: ["tap"]), at: 0)
    return c
}

@Suite struct PeekTests {
    /// Pressed past 0.4 and lifted before 0.85: began (once the tap has failed), changed with
    /// the progress toward the pop, ended with `end=dismissed`.
    @Test func peekAndDismiss() throws {
        var h = try GestureHarness(configuration: peekGraph(), rate: 30)
        h.down(0, at: p(60, 60), pressure: 0.1)
        h.press(0, pressure: 0.5, over: 100)
        h.wait(250)
        h.press(0, pressure: 0.6, over: 60)
        h.up(0)
        expectLog(h, [
            "0.300000 peek began f1 (60.00,60.00) source=pressure pressure=0.500 progress=0.222",
            "0.380000 peek changed f1 (60.00,60.00) source=pressure pressure=0.550 progress=0.333",
            "0.410000 peek changed f1 (60.00,60.00) source=pressure pressure=0.600 progress=0.444",
            "0.410000 peek ended f1 (60.00,60.00) source=pressure pressure=0.600 progress=0.444 end=dismissed",
        ])
        try h.expectNothingPending()
    }

    /// Pressed on past 0.85: `pop` (recognized), then the peek ends at the lift (`end=popped`).
    @Test func peekThenPop() throws {
        var h = try GestureHarness(configuration: peekGraph(), rate: 30)
        h.down(0, at: p(60, 60), pressure: 0.2)
        h.press(0, pressure: 0.5, over: 100)
        h.wait(250)
        h.press(0, pressure: 0.9, over: 100)
        h.press(0, pressure: 0.95, over: 30)
        h.up(0)
        expectLog(h, [
            "0.300000 peek began f1 (60.00,60.00) source=pressure pressure=0.500 progress=0.222",
            "0.383333 peek changed f1 (60.00,60.00) source=pressure pressure=0.633 progress=0.519",
            "0.416667 peek changed f1 (60.00,60.00) source=pressure pressure=0.767 progress=0.815",
            "0.450000 pop recognized [peek] f1 (60.00,60.00) source=pressure pressure=0.900",
            "0.480000 peek ended f1 (60.00,60.00) source=pressure pressure=0.950 progress=1.000 end=popped",
        ])
        try h.expectNothingPending()
    }

    /// A pressure wobbling around 0.4 (0.42, 0.37, 0.43, 0.36…) begins the peek once: falling to
    /// 0.36 is within the 0.05 of hysteresis. With no hysteresis, each dip releases the peek and
    /// each rise begins it again.
    @Test func aWobbleAtTheThresholdBeginsOnce() throws {
        var h = try GestureHarness(configuration: peekGraph(), rate: 30)
        h.down(0, at: p(60, 60), pressure: 0.3)
        h.wait(300)
        for level in [0.42, 0.37, 0.43, 0.36, 0.41] { h.press(0, pressure: level, over: 30) }
        h.up(0)
        expectLog(h, [
            "0.330000 peek began f1 (60.00,60.00) source=pressure pressure=0.420 progress=0.044",
            "0.360000 peek changed f1 (60.00,60.00) source=pressure pressure=0.370 progress=0.000",
            "0.390000 peek changed f1 (60.00,60.00) source=pressure pressure=0.430 progress=0.067",
            "0.420000 peek changed f1 (60.00,60.00) source=pressure pressure=0.360 progress=0.000",
            "0.450000 peek changed f1 (60.00,60.00) source=pressure pressure=0.410 progress=0.022",
            "0.450000 peek ended f1 (60.00,60.00) source=pressure pressure=0.410 progress=0.022 end=dismissed",
        ])
        try h.expectNothingPending()

        var parameters = PeekParameters()
        parameters.hysteresis = 0
        var bare = try GestureHarness(configuration: peekGraph(parameters), rate: 30)
        bare.down(0, at: p(60, 60), pressure: 0.3)
        bare.wait(300)
        for level in [0.42, 0.37, 0.43, 0.36, 0.41] { bare.press(0, pressure: level, over: 30) }
        bare.up(0)
        expectLog(bare, [
            "0.330000 peek began f1 (60.00,60.00) source=pressure pressure=0.420 progress=0.044",
            "0.360000 peek ended f1 (60.00,60.00) source=pressure pressure=0.370 progress=0.000 end=released",
            "0.390000 peek began f1 (60.00,60.00) source=pressure pressure=0.430 progress=0.067",
            "0.420000 peek ended f1 (60.00,60.00) source=pressure pressure=0.360 progress=0.000 end=released",
            "0.450000 peek began f1 (60.00,60.00) source=pressure pressure=0.410 progress=0.022",
            "0.450000 peek ended f1 (60.00,60.00) source=pressure pressure=0.410 progress=0.022 end=dismissed",
        ])
        try bare.expectNothingPending()
    }

    /// While peeking, a swipe up of 10 mm gives `peekActions` once; the peek stays open (its
    /// `changed` events go on) and ends at the lift.
    @Test func peekThenSwipeUpForActions() throws {
        var h = try GestureHarness(configuration: peekGraph(), rate: 30)
        h.down(0, at: p(60, 60), pressure: 0.5)
        h.wait(300)
        h.move(0, to: p(60, 45), over: 100)
        h.up(0)
        expectLog(h, [
            "0.300000 peek began f1 (60.00,60.00) source=pressure pressure=0.500 progress=0.222",
            "0.333333 peek changed f1 (60.00,55.00) source=pressure pressure=0.500 progress=0.222",
            "0.366667 peekActions recognized [peek] f1 (60.00,50.00) source=pressure pressure=0.500",
            "0.400000 peek changed f1 (60.00,45.00) source=pressure pressure=0.500 progress=0.222",
            "0.400000 peek ended f1 (60.00,45.00) source=pressure pressure=0.500 progress=0.222 end=dismissed",
        ])
        try h.expectNothingPending()
    }

    /// A quick light touch is a tap; so is a quick hard one: the peek waits for the tap to fail
    /// and gives up when the contact lifts first.
    @Test func aQuickTouchStaysATap() throws {
        var h = try GestureHarness(configuration: peekGraph(), rate: 30, explain: true)
        h.down(0, at: p(60, 60), pressure: 0.1)
        h.wait(80)
        h.up(0)
        h.wait(500)
        h.down(0, at: p(60, 60), pressure: 0.7)
        h.wait(80)
        h.up(0)
        expectLog(h, [
            "0.000000 explain failed edgeSwipe: distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)",
            "0.080000 explain failed peek: pressure 0.100 < 0.400 (short by 0.300)",
            "0.080000 explain won tap: lifted after 80.0 ms ≤ 300.0 ms (margin 220.0 ms)",
            "0.080000 tap recognized f1 (60.00,60.00) count=1",
            "0.080000 explain failed longPress: lost to tap, which won first and is not simultaneous with it",
            "0.080000 explain failed swipe: lost to tap, which won first and is not simultaneous with it",
            "0.080000 explain failed pinch: lost to tap, which won first and is not simultaneous with it",
            "0.080000 explain failed rotate: lost to tap, which won first and is not simultaneous with it",
            "0.080000 explain failed pan: lost to tap, which won first and is not simultaneous with it",
            "0.580000 explain waiting peek: requires failure of tap, which is still possible",
            "0.580000 explain failed edgeSwipe: distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)",
            "0.660000 explain failed peek: lifted before its claim stood",
            "0.660000 explain won tap: lifted after 80.0 ms ≤ 300.0 ms (margin 220.0 ms)",
            "0.660000 tap recognized f1 (60.00,60.00) count=1",
            "0.660000 explain failed longPress: lost to tap, which won first and is not simultaneous with it",
            "0.660000 explain failed swipe: lost to tap, which won first and is not simultaneous with it",
            "0.660000 explain failed pinch: lost to tap, which won first and is not simultaneous with it",
            "0.660000 explain failed rotate: lost to tap, which won first and is not simultaneous with it",
            "0.660000 explain failed pan: lost to tap, which won first and is not simultaneous with it",
        ])
        try h.expectNothingPending()
    }

    /// No pressure, a touch major: the size drives the peek (14 mm, pop at 18 mm), and the
    /// events say `source=size` with the touch major.
    @Test func sizeFallback() throws {
        var h = try GestureHarness(configuration: peekGraph(), rate: 30)
        h.down(0, at: p(60, 60), touchMajor: 9)
        h.wait(300)
        h.press(0, touchMajor: 15, over: 100)
        h.press(0, touchMajor: 19, over: 100)
        h.up(0)
        expectLog(h, [
            "0.400000 peek began f1 (60.00,60.00) source=size touchMajor=15.00 progress=0.250",
            "0.433333 peek changed f1 (60.00,60.00) source=size touchMajor=16.33 progress=0.582",
            "0.466667 peek changed f1 (60.00,60.00) source=size touchMajor=17.67 progress=0.918",
            "0.500000 pop recognized [peek] f1 (60.00,60.00) source=size touchMajor=19.00",
            "0.500000 peek ended f1 (60.00,60.00) source=size touchMajor=19.00 progress=1.000 end=popped",
        ])
        try h.expectNothingPending()
    }

    /// Neither pressure nor size: a still hold. The peek begins at 500 ms (it is declared
    /// before the long press, which loses to it), pops at 1,000 ms, `progress` in between.
    @Test func timeFallback() throws {
        var h = try GestureHarness(configuration: peekGraph(), rate: 30)
        h.down(0, at: p(60, 60))
        h.wait(750)
        h.move(0, to: p(61, 60), over: 30)
        h.wait(500)
        h.up(0)
        expectLog(h, [
            "0.500000 peek began f1 (60.00,60.00) source=time progress=0.000",
            "0.780000 peek changed f1 (61.00,60.00) source=time progress=0.560",
            "1.000000 pop recognized [peek] f1 (61.00,60.00) source=time",
            "1.280000 peek ended f1 (61.00,60.00) source=time progress=1.000 end=popped",
        ])
        try h.expectNothingPending()
    }

    /// The snippet of docs/config.md#peek reads, and gives the graph these tests use.
    @Test func peekFromTheDocsParses() throws {
        let toml = """
            [[recognizer]]
            kind = "peek"
            requiresFailureOf = ["tap"]
            popPressure = 0.8

            [[recognizer]]
            kind = "tap"
            """
        let config = try GraphConfiguration.parse(toml: toml, file: "config.md")
        #expect(config.recognizers.map(\.name) == ["peek", "tap"])
        var expected = PeekParameters()
        expected.popPressure = 0.8
        #expect(config.recognizers[0].kind.parameters(of: PeekRecognizer.self) == expected)
        #expect(config.recognizers[0].requiresFailureOf == ["tap"])
    }

    /// Values outside their limits are errors at the value, saying what is allowed.
    @Test func badValuesAreErrorsAtTheValue() {
        func error(_ line: String) -> String {
            do {
                _ = try GraphConfiguration.parse(toml: "[[recognizer]]\nkind = \"peek\"\n" + line + "\n", file: "graph.toml")
                return ""
            } catch { return "\(error)" }
        }
        #expect(error("source = \"force\"") == #"graph.toml:3:10: found "force" for peek.source; expected "auto", "pressure", "size" or "time""#)
        #expect(error("peekPressure = 1.5") == "graph.toml:3:16: found 1.5 for peek.peekPressure; expected 0…1 (normalized)")
        #expect(error("source = 3") == "graph.toml:3:10: found 3 for peek.source; expected a string")
        #expect(error("popPressure = 0.3") == "graph.toml:3:1: recognizer 'peek' (peek): popPressure 0.3 is not more than peekPressure 0.4; expected peekPressure < popPressure")
    }

    /// A relation broken by the one key a file writes is located at that key, whichever of the
    /// two it is. Before, setting the other one (`peekPressure = 0.9` against the default
    /// `popPressure`, `peekDuration`, `peekSize`) or setting either in [defaults] pointed at
    /// the `[[recognizer]]` header (graph.toml:1:1), nowhere near the value to change.
    @Test func aBrokenRelationIsLocatedAtTheKeyWritten() {
        func error(_ text: String) -> String {
            do {
                _ = try GraphConfiguration.parse(toml: text, file: "graph.toml")
                return ""
            } catch { return "\(error)" }
        }
        let peek = "[[recognizer]]\nkind = \"peek\"\n"
        #expect(error(peek + "peekPressure = 0.9\n")
            == "graph.toml:3:1: recognizer 'peek' (peek): popPressure 0.85 is not more than peekPressure 0.9; expected peekPressure < popPressure")
        #expect(error(peek + "peekPressure = 0.02\n")
            == "graph.toml:3:1: recognizer 'peek' (peek): hysteresis 0.05 is more than peekPressure 0.02; expected hysteresis ≤ peekPressure")
        #expect(error(peek + "slop = 4\npeekDuration = 2000\n")
            == "graph.toml:4:1: recognizer 'peek' (peek): popDuration 1000 ms is not more than peekDuration 2000 ms; expected peekDuration < popDuration")
        #expect(error("[defaults]\npeek.peekSize = 20\n\n" + peek)
            == "graph.toml:2:6: recognizer 'peek' (peek): popSize 18 mm is not more than peekSize 20 mm; expected peekSize < popSize")
        #expect(error("[defaults]\npeek.popPressure = 0.3\n\n" + peek + "slop = 4\n")
            == "graph.toml:2:6: recognizer 'peek' (peek): popPressure 0.3 is not more than peekPressure 0.4; expected peekPressure < popPressure")
        #expect(error("[[recognizer]]\nkind = \"pan\"\nmaximumFingers = 0\n").hasPrefix("graph.toml:3:18: found 0"))
        #expect(error("[[recognizer]]\nkind = \"pan\"\nslop = 4\nmaximumFingers = 1\nminimumFingers = 1\n") == "")
        #expect(error("[[recognizer]]\nkind = \"tap\"\n[[recognizer]]\nkind = \"pan\"\nslop = 4\nminimumFingers = 3\nmaximumFingers = 2\n")
            == "graph.toml:6:1: recognizer 'pan' (pan): minimumFingers 3 is more than maximumFingers 2; expected minimumFingers ≤ maximumFingers")
    }
}
