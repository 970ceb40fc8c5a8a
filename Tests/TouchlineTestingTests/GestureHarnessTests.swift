// The harness: scripted touches through the one pipeline every mode runs, deadlines firing at
// their own virtual time, the whole log, and what is still pending at the end.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

@Suite struct GestureHarnessTests {
    @Test func aTapInVirtualTime() throws {
        var h = try GestureHarness()
        h.down(0, at: Point(x: 50, y: 50))
        h.wait(80)
        h.up(0)
        #expect(h.log == ["0.080000 tap recognized f1 (50.00,50.00) count=1"])
        try h.expectNothingPending()
    }

    /// A finger still down is pending, and says so; lifting it ends that.
    @Test func aFingerStillDownIsPending() throws {
        var h = try GestureHarness()
        h.down(0, at: Point(x: 50, y: 50))
        #expect(throws: PendingError.self) { try h.expectNothingPending() }
        h.move(0, to: Point(x: 150, y: 50), over: 200)
        h.up(0)
        h.wait(1000)
        try h.expectNothingPending()
        #expect(h.time == Timestamp(microseconds: 1_200_000))
    }

    /// `replay` of the harness's own frames gives the events the harness collected, and the
    /// JSON lines are one per event.
    @Test func replayOfTheScriptGivesTheSameEvents() throws {
        var h = try GestureHarness()
        h.down([(0, Point(x: 80, y: 60)), (1, Point(x: 120, y: 60))])
        h.move([(0, Point(x: 60, y: 60)), (1, Point(x: 140, y: 60))], over: 300)
        h.up([0, 1])
        h.wait(500)
        let replayed = try GestureHarness.replay(h.script.frames, surface: h.script.surface)
        #expect(replayed.map(\.logLine) == h.log)
        #expect(h.jsonLines.count == h.events.count)
        let expected: [String] = [
            "0.041667 pinch began f2 (100.00,60.00) scale=1.1389 span=45.56",
            "0.050000 pinch changed f2 (100.00,60.00) scale=1.1667 span=46.67",
            "0.058333 pinch changed f2 (100.00,60.00) scale=1.1944 span=47.78",
            "0.066667 pinch changed f2 (100.00,60.00) scale=1.2222 span=48.89",
            "0.075000 pinch changed f2 (100.00,60.00) scale=1.2500 span=50.00",
            "0.083333 pinch changed f2 (100.00,60.00) scale=1.2778 span=51.11",
            "0.091667 pinch changed f2 (100.00,60.00) scale=1.3056 span=52.22",
            "0.100000 pinch changed f2 (100.00,60.00) scale=1.3333 span=53.33",
            "0.108333 pinch changed f2 (100.00,60.00) scale=1.3611 span=54.44",
            "0.116667 pinch changed f2 (100.00,60.00) scale=1.3889 span=55.56",
            "0.125000 pinch changed f2 (100.00,60.00) scale=1.4167 span=56.67",
            "0.133333 pinch changed f2 (100.00,60.00) scale=1.4444 span=57.78",
            "0.141667 pinch changed f2 (100.00,60.00) scale=1.4722 span=58.89",
            "0.150000 pinch changed f2 (100.00,60.00) scale=1.5000 span=60.00",
            "0.158333 pinch changed f2 (100.00,60.00) scale=1.5278 span=61.11",
            "0.166667 pinch changed f2 (100.00,60.00) scale=1.5556 span=62.22",
            "0.175000 pinch changed f2 (100.00,60.00) scale=1.5833 span=63.33",
            "0.183333 pinch changed f2 (100.00,60.00) scale=1.6111 span=64.44",
            "0.191667 pinch changed f2 (100.00,60.00) scale=1.6389 span=65.56",
            "0.200000 pinch changed f2 (100.00,60.00) scale=1.6667 span=66.67",
            "0.208333 pinch changed f2 (100.00,60.00) scale=1.6944 span=67.78",
            "0.216667 pinch changed f2 (100.00,60.00) scale=1.7222 span=68.89",
            "0.225000 pinch changed f2 (100.00,60.00) scale=1.7500 span=70.00",
            "0.233333 pinch changed f2 (100.00,60.00) scale=1.7778 span=71.11",
            "0.241667 pinch changed f2 (100.00,60.00) scale=1.8056 span=72.22",
            "0.250000 pinch changed f2 (100.00,60.00) scale=1.8333 span=73.33",
            "0.258333 pinch changed f2 (100.00,60.00) scale=1.8611 span=74.44",
            "0.266667 pinch changed f2 (100.00,60.00) scale=1.8889 span=75.56",
            "0.275000 pinch changed f2 (100.00,60.00) scale=1.9167 span=76.67",
            "0.283333 pinch changed f2 (100.00,60.00) scale=1.9444 span=77.78",
            "0.291667 pinch changed f2 (100.00,60.00) scale=1.9722 span=78.89",
            "0.300000 pinch changed f2 (100.00,60.00) scale=2.0000 span=80.00",
            "0.300000 pinch ended f2 (100.00,60.00) scale=2.0000 span=80.00",
        ]
        if h.log != expected { print("ACTUAL\n" + h.log.joined(separator: "\n") + "\nEND") }
        #expect(h.log == expected)
        h.clearEvents()
        #expect(h.log == [])
    }

    /// With `explain`, the arena's decisions are in the log too; `gestures` leaves them out.
    @Test func explainLinesAreInTheLogNotInGestures() throws {
        var h = try GestureHarness(explain: true)
        h.down(0, at: Point(x: 50, y: 50))
        h.wait(80)
        h.up(0)
        h.wait(400)
        #expect(h.gestures.map(\.logLine) == ["0.080000 tap recognized f1 (50.00,50.00) count=1"])
        let expected: [String] = [
            "0.000000 explain failed edgeSwipe: distance from the nearest edge 50.00 mm > 3.00 mm (by 47.00 mm)",
            "0.080000 explain won tap: lifted after 80.0 ms ≤ 300.0 ms (margin 220.0 ms)",
            "0.080000 tap recognized f1 (50.00,50.00) count=1",
            "0.080000 explain failed longPress: lost to tap, which won first and is not simultaneous with it",
            "0.080000 explain failed swipe: lost to tap, which won first and is not simultaneous with it",
            "0.080000 explain failed pinch: lost to tap, which won first and is not simultaneous with it",
            "0.080000 explain failed rotate: lost to tap, which won first and is not simultaneous with it",
            "0.080000 explain failed pan: lost to tap, which won first and is not simultaneous with it",
        ]
        if h.log != expected { print("ACTUAL\n" + h.log.joined(separator: "\n") + "\nEND") }
        #expect(h.log == expected)
    }

    /// An invalid configuration is refused when the harness is made.
    @Test func anInvalidConfigurationThrows() {
        let config = GraphConfiguration(targets: [.surface()], recognizers: [
            RecognizerSpec(name: "t", kind: .tap()), RecognizerSpec(name: "t", kind: .tap()),
        ])
        #expect(throws: GraphConfigurationError.self) { try GestureHarness(configuration: config) }
    }
}
