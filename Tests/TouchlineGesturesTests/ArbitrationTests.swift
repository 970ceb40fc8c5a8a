import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

// Who wins, and why: every test runs with explain lines, so the log shows each decision.

@Suite struct ArbitrationTests {
    /// Single tap waits for double tap to fail (UIKit's require(toFail:)).
    static let waiting = GraphConfiguration.only([
        RecognizerSpec(name: "doubleTap", kind: .tap(.with(taps: 2))),
        RecognizerSpec(name: "singleTap", kind: .tap(.with(taps: 1)), requiresFailureOf: ["doubleTap"]),
    ])

    @Test func singleTapWaitsForDoubleTapToFail() throws {
        var h = try GestureHarness(configuration: Self.waiting, explain: true)
        h.down(0, at: p(50, 50)); h.wait(80); h.up(0)
        h.wait(400)
        expectLog(h, [
            "0.080000 explain held doubleTap: keeps the arena open for a next tap",
            "0.080000 explain waiting singleTap: requires failure of doubleTap, which is still possible",
            "0.380000 explain failed doubleTap: no next tap within 300.0 ms",
            "0.380000 explain waiting singleTap: doubleTap failed, so its waiting claim stands",
            "0.380000 explain won singleTap: lifted after 80.0 ms ≤ 300.0 ms (margin 220.0 ms)",
            "0.380000 tap recognized [singleTap] f1 (50.00,50.00) count=1",
        ])
        try h.expectNothingPending()
    }

    @Test func doubleTapWinsOverWaitingSingleTap() throws {
        var h = try GestureHarness(configuration: Self.waiting, explain: true)
        h.down(0, at: p(50, 50)); h.wait(80); h.up(0)
        h.wait(150)
        h.down(0, at: p(52, 51)); h.wait(70); h.up(0)
        expectLog(h, [
            "0.080000 explain held doubleTap: keeps the arena open for a next tap",
            "0.080000 explain waiting singleTap: requires failure of doubleTap, which is still possible",
            "0.300000 explain won doubleTap: lifted after 70.0 ms ≤ 300.0 ms (margin 230.0 ms)",
            "0.300000 tap recognized [doubleTap] f1 (52.00,51.00) count=2",
            "0.300000 explain failed singleTap: requires failure of doubleTap, which won",
        ])
        try h.expectNothingPending()
    }

    @Test func eagerTapReportsCountOneThenTwo() throws {
        var h = try GestureHarness(configuration: .only([
            RecognizerSpec(name: "doubleTap", kind: .tap(.with(taps: 2))),
            RecognizerSpec(name: "tap", kind: .tap(.with(eager: true))),
        ]), explain: true)
        h.down(0, at: p(50, 50)); h.wait(80); h.up(0)
        h.wait(150)
        h.down(0, at: p(52, 51)); h.wait(70); h.up(0)
        expectLog(h, [
            "0.080000 explain held doubleTap: keeps the arena open for a next tap",
            "0.080000 explain won tap: lifted after 80.0 ms ≤ 300.0 ms (margin 220.0 ms)",
            "0.080000 tap recognized f1 (50.00,50.00) count=1",
            "0.080000 explain failed doubleTap: lost to tap, which won first and is not simultaneous with it",
            "0.300000 explain held doubleTap: keeps the arena open for a next tap",
            "0.300000 explain won tap: lifted after 70.0 ms ≤ 300.0 ms (margin 230.0 ms)",
            "0.300000 tap recognized f1 (52.00,51.00) count=2",
            "0.300000 explain failed doubleTap: lost to tap, which won first and is not simultaneous with it",
        ])
        try h.expectNothingPending()
    }

    @Test func tapAgainstLongPress() throws {
        var h = try GestureHarness(explain: true)
        // Short: a tap.
        h.down(0, at: p(50, 50)); h.wait(120); h.up(0)
        h.wait(400)
        // Between the tap's 300 ms and the long press's 500 ms: neither.
        h.down(0, at: p(50, 50)); h.wait(400); h.up(0)
        h.wait(400)
        // Long: a long press.
        h.down(0, at: p(50, 50)); h.wait(650); h.up(0)
        expectLog(h, [
            "0.000000 explain failed edgeSwipe: distance from the nearest edge 50.00 mm > 3.00 mm (by 47.00 mm)",
            "0.120000 explain won tap: lifted after 120.0 ms ≤ 300.0 ms (margin 180.0 ms)",
            "0.120000 tap recognized f1 (50.00,50.00) count=1",
            "0.120000 explain failed longPress: lost to tap, which won first and is not simultaneous with it",
            "0.120000 explain failed swipe: lost to tap, which won first and is not simultaneous with it",
            "0.120000 explain failed pinch: lost to tap, which won first and is not simultaneous with it",
            "0.120000 explain failed rotate: lost to tap, which won first and is not simultaneous with it",
            "0.120000 explain failed pan: lost to tap, which won first and is not simultaneous with it",
            "0.520000 explain failed edgeSwipe: distance from the nearest edge 50.00 mm > 3.00 mm (by 47.00 mm)",
            "0.820000 explain failed tap: no lift within 300.0 ms",
            "0.920000 explain failed longPress: held 400.0 ms < 500.0 ms (short by 100.0 ms)",
            "0.920000 explain failed swipe: distance 0.00 mm < 15.00 mm (short by 15.00 mm)",
            "0.920000 explain failed pinch: span change 0.00 mm < 5.00 mm (short by 5.00 mm)",
            "0.920000 explain failed rotate: rotation 0.00° < 10.00° (short by 10.00°)",
            "0.920000 explain failed pan: lifted before moving the slop",
            "1.320000 explain failed edgeSwipe: distance from the nearest edge 50.00 mm > 3.00 mm (by 47.00 mm)",
            "1.620000 explain failed tap: no lift within 300.0 ms",
            "1.820000 explain won longPress: held 500.0 ms ≥ 500.0 ms (margin 0.0 ms)",
            "1.820000 longPress began f1 (50.00,50.00) duration=500ms",
            "1.820000 explain failed swipe: lost to longPress, which won first and is not simultaneous with it",
            "1.820000 explain failed pinch: lost to longPress, which won first and is not simultaneous with it",
            "1.820000 explain failed rotate: lost to longPress, which won first and is not simultaneous with it",
            "1.820000 explain failed pan: lost to longPress, which won first and is not simultaneous with it",
            "1.970000 longPress ended f1 (50.00,50.00) duration=650ms",
        ])
        try h.expectNothingPending()
    }

    /// Pan waits for swipe to fail, so a flick is only a swipe.
    static let panAfterSwipe = GraphConfiguration.only([
        RecognizerSpec(name: "swipe", kind: .swipe(SwipeParameters())),
        RecognizerSpec(name: "pan", kind: .pan(PanParameters()), requiresFailureOf: ["swipe"]),
    ])

    @Test func flickIsASwipeNotAPan() throws {
        var h = try GestureHarness(configuration: Self.panAfterSwipe, rate: 60, explain: true)
        h.down(0, at: p(100, 60))
        h.move(0, to: p(140, 60), over: 80)
        h.up(0)
        expectLog(h, [
            "0.016000 explain waiting pan: requires failure of swipe, which is still possible",
            "0.080000 explain won swipe: average speed 500.0 mm/s ≥ 100.0 mm/s (margin 400.0 mm/s)",
            "0.080000 swipe recognized f1 (140.00,60.00) right d=(40.00,0.00) v=(500,0)",
            "0.080000 explain failed pan: requires failure of swipe, which won",
        ])
        try h.expectNothingPending()
    }

    @Test func slowDragIsAPanOnceSwipeTimesOut() throws {
        var h = try GestureHarness(configuration: Self.panAfterSwipe, rate: 10, explain: true)
        h.down(0, at: p(100, 60))
        h.move(0, to: p(100, 100), over: 800)
        h.up(0)
        expectLog(h, [
            "0.100000 explain waiting pan: requires failure of swipe, which is still possible",
            "0.500000 explain failed swipe: no last lift within 500.0 ms",
            "0.500000 explain waiting pan: swipe failed, so its waiting claim stands",
            "0.500000 explain won pan: translation 5.00 mm ≥ 3.00 mm (margin 2.00 mm)",
            "0.500000 pan began f1 (100.00,85.00) d=(0.00,25.00)",
            "0.600000 pan changed f1 (100.00,90.00) d=(0.00,30.00)",
            "0.700000 pan changed f1 (100.00,95.00) d=(0.00,35.00)",
            "0.800000 pan changed f1 (100.00,100.00) d=(0.00,40.00)",
            "0.800000 pan ended f1 (100.00,100.00) d=(0.00,40.00)",
        ])
        try h.expectNothingPending()
    }

    @Test func pinchWithRotateSimultaneously() throws {
        var h = try GestureHarness(configuration: .only([
            RecognizerSpec(name: "pinch", kind: .pinch(PinchParameters()), simultaneousWith: ["rotate"]),
            RecognizerSpec(name: "rotate", kind: .rotate(RotateParameters())),
            RecognizerSpec(name: "pan", kind: .pan(PanParameters())),
        ]), rate: 30, explain: true)
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.turn(about: p(100, 60), by: 0.6, scale: 1.5, over: 200)
        h.up([0, 1])
        expectLog(h, [
            "0.066667 explain won pinch: span change 6.67 mm ≥ 5.00 mm (margin 1.67 mm)",
            "0.066667 pinch began f2 (100.00,60.00) scale=1.1667 span=46.67",
            "0.066667 explain failed pan: lost to pinch, which won first and is not simultaneous with it",
            "0.066667 explain won rotate: simultaneous with pinch, which already won",
            "0.066667 rotate began f2 (100.00,60.00) rotation=0.2000",
            "0.100000 pinch changed f2 (100.00,60.00) scale=1.2500 span=50.00",
            "0.100000 rotate changed f2 (100.00,60.00) rotation=0.3000",
            "0.133333 pinch changed f2 (100.00,60.00) scale=1.3333 span=53.33",
            "0.133333 rotate changed f2 (100.00,60.00) rotation=0.4000",
            "0.166667 pinch changed f2 (100.00,60.00) scale=1.4167 span=56.67",
            "0.166667 rotate changed f2 (100.00,60.00) rotation=0.5000",
            "0.200000 pinch changed f2 (100.00,60.00) scale=1.5000 span=60.00",
            "0.200000 rotate changed f2 (100.00,60.00) rotation=0.6000",
            "0.200000 pinch ended f2 (100.00,60.00) scale=1.5000 span=60.00",
            "0.200000 rotate ended f2 (100.00,60.00) rotation=0.6000",
        ])
        try h.expectNothingPending()
    }

    /// Pinch and pan declared without a relation: whichever crosses its threshold first wins.
    static let pinchOrPan = GraphConfiguration.only([
        RecognizerSpec(name: "pinch", kind: .pinch(PinchParameters())),
        RecognizerSpec(name: "pan", kind: .pan(PanParameters())),
    ])

    @Test func spreadingFingersArePinchNotPan() throws {
        var h = try GestureHarness(configuration: Self.pinchOrPan, rate: 30, explain: true)
        h.down([(0, p(90, 60)), (1, p(110, 60))])
        h.move([(0, p(80, 61)), (1, p(120, 61))], over: 100)
        h.up([0, 1])
        expectLog(h, [
            "0.033333 explain won pinch: span change 6.67 mm ≥ 5.00 mm (margin 1.67 mm)",
            "0.033333 pinch began f2 (100.00,60.33) scale=1.3333 span=26.67",
            "0.033333 explain failed pan: lost to pinch, which won first and is not simultaneous with it",
            "0.066667 pinch changed f2 (100.00,60.67) scale=1.6667 span=33.33",
            "0.100000 pinch changed f2 (100.00,61.00) scale=2.0000 span=40.00",
            "0.100000 pinch ended f2 (100.00,61.00) scale=2.0000 span=40.00",
        ])
        try h.expectNothingPending()
    }

    @Test func parallelFingersArePanNotPinch() throws {
        var h = try GestureHarness(configuration: Self.pinchOrPan, rate: 30, explain: true)
        h.down([(0, p(90, 60)), (1, p(110, 60))])
        h.move([(0, p(90, 80)), (1, p(111, 80))], over: 100)
        h.up([0, 1])
        expectLog(h, [
            "0.033333 explain won pan: translation 6.67 mm ≥ 3.00 mm (margin 3.67 mm)",
            "0.033333 pan began f2 (100.17,66.67) d=(0.17,6.67)",
            "0.033333 explain failed pinch: lost to pan, which won first and is not simultaneous with it",
            "0.066667 pan changed f2 (100.33,73.33) d=(0.33,13.33)",
            "0.100000 pan changed f2 (100.50,80.00) d=(0.50,20.00)",
            "0.100000 pan ended f2 (100.50,80.00) d=(0.50,20.00)",
        ])
        try h.expectNothingPending()
    }

    @Test func tiesBreakByDeclarationOrder() throws {
        // Both cross their threshold in the same frame; the earlier declared wins.
        var h = try GestureHarness(configuration: .only([
            RecognizerSpec(name: "edgeSwipe", kind: .edgeSwipe(EdgeSwipeParameters())),
            RecognizerSpec(name: "pan", kind: .pan(PanParameters())),
        ]), rate: 60, explain: true)
        h.down(0, at: p(1, 60))
        h.move(0, to: p(11, 60), over: 50)
        h.up(0)
        expectLog(h, [
            "0.016667 explain won edgeSwipe: inward movement 3.33 mm ≥ 3.00 mm (margin 0.33 mm)",
            "0.016667 edgeSwipe began f1 (4.33,60.00) left d=(3.33,0.00)",
            "0.016667 explain failed pan: lost to edgeSwipe, which won first and is not simultaneous with it",
            "0.033333 edgeSwipe changed f1 (7.67,60.00) left d=(6.67,0.00)",
            "0.050000 edgeSwipe changed f1 (11.00,60.00) left d=(10.00,0.00)",
            "0.050000 edgeSwipe ended f1 (11.00,60.00) left d=(10.00,0.00)",
        ])
        try h.expectNothingPending()
    }

    static let layered = GraphConfiguration(
        targets: [
            TargetSpec(name: "background", rect: Rect(x: 0, y: 0, width: 1, height: 1), units: .normalized, z: 0),
            TargetSpec(name: "button", rect: Rect(x: 80, y: 40, width: 30, height: 20), z: 1),
            // 2 mm square: its effective hit area is 7 mm square around (151, 61).
            TargetSpec(name: "dot", rect: Rect(x: 150, y: 60, width: 2, height: 2), z: 1),
            // The dot's neighbour at the same level, 1 mm to its right.
            TargetSpec(name: "neighbour", rect: Rect(x: 153, y: 50, width: 20, height: 20), z: 1),
            // A second small target, whose neighbour on the left lies below it (z 0) but not
            // under it: the small target's hit area must not take the neighbour's points.
            TargetSpec(name: "dot2", rect: Rect(x: 150, y: 90, width: 2, height: 2), z: 1),
            TargetSpec(name: "lowNeighbour", rect: Rect(x: 140, y: 85, width: 9, height: 12), z: 0),
        ],
        recognizers: [
            RecognizerSpec(name: "backgroundTap", kind: .tap(.with()), target: "background"),
            RecognizerSpec(name: "buttonTap", kind: .tap(.with()), target: "button"),
            RecognizerSpec(name: "dotTap", kind: .tap(.with()), target: "dot"),
            RecognizerSpec(name: "neighbourTap", kind: .tap(.with()), target: "neighbour"),
            RecognizerSpec(name: "dot2Tap", kind: .tap(.with()), target: "dot2"),
            RecognizerSpec(name: "lowNeighbourTap", kind: .tap(.with()), target: "lowNeighbour"),
        ])

    @Test func contactBelongsToTheTopmostTargetUnderIt() throws {
        var h = try GestureHarness(configuration: Self.layered)
        for point in [p(90, 50), p(30, 30), p(148, 61), p(153.5, 61), p(151, 64), p(148.5, 91), p(149.5, 91)] {
            h.down(0, at: point); h.wait(50); h.up(0); h.wait(400)
        }
        expectLog(h, [
            "0.050000 tap recognized [buttonTap] f1 (90.00,50.00) count=1",
            "0.500000 tap recognized [backgroundTap] f1 (30.00,30.00) count=1",
            "0.950000 tap recognized [dotTap] f1 (148.00,61.00) count=1",
            "1.400000 tap recognized [neighbourTap] f1 (153.50,61.00) count=1",
            "1.850000 tap recognized [dotTap] f1 (151.00,64.00) count=1",
            "2.300000 tap recognized [lowNeighbourTap] f1 (148.50,91.00) count=1",
            "2.750000 tap recognized [dot2Tap] f1 (149.50,91.00) count=1",
        ])
        #expect(h.gestures.map(\.target) == ["button", "background", "dot", "neighbour", "dot", "lowNeighbour", "dot2"])
        try h.expectNothingPending()
    }

    @Test func contactsOnDifferentTargetsHaveSeparateArenas() throws {
        var h = try GestureHarness(configuration: Self.layered)
        h.down(0, at: p(90, 50))
        h.wait(20)
        h.down(1, at: p(30, 30))
        h.wait(50)
        h.up(0)
        h.wait(20)
        h.up(1)
        expectLog(h, [
            "0.070000 tap recognized [buttonTap] f1 (90.00,50.00) count=1",
            "0.090000 tap recognized [backgroundTap] f1 (30.00,30.00) count=1",
        ])
        try h.expectNothingPending()
    }

    /// One button in the middle and nothing else: a contact that lands beside it lands on no
    /// target.
    static let lone = GraphConfiguration(
        targets: [TargetSpec(name: "button", rect: Rect(x: 80, y: 40, width: 30, height: 20))],
        recognizers: [
            RecognizerSpec(name: "buttonTap", kind: .tap(.with()), target: "button"),
            RecognizerSpec(name: "buttonPress", kind: .longPress(LongPressParameters()), target: "button"),
        ])

    /// Issue 12: a contact that lands on no target belongs to none for its whole life, and
    /// sliding onto a target does not hand it over. On 532b116 it was hit-tested again every
    /// frame, adopted by the button, and a long press fired for it (and a tap, had it lifted
    /// soon enough), timed from its entry.
    @Test func contactLandingOnNoTargetIsNeverAdopted() throws {
        var h = try GestureHarness(configuration: Self.lone, explain: true)
        h.down(0, at: p(30, 30))
        h.move(0, to: p(90, 50), over: 100)
        h.wait(700)
        h.up(0)
        h.wait(100)
        // The same for a slide that ends quickly, as a tap would.
        h.down(0, at: p(60, 50))
        h.move(0, to: p(85, 50), over: 30)
        h.wait(50)
        h.up(0)
        expectLog(h, [])
        // Counted once each, not once per frame.
        #expect(h.graph.ignoredContacts == 2)
        try h.expectNothingPending()
    }

    /// A finger that slid onto the button from outside is not one of the button's contacts: a
    /// tap beside it on the button is a one-finger tap, and holding it is no long press.
    @Test func slidOnContactIsNotCountedOnTheTarget() throws {
        var h = try GestureHarness(configuration: Self.lone)
        h.down(0, at: p(30, 30))
        h.move(0, to: p(90, 50), over: 100)
        h.wait(100)
        h.down(1, at: p(100, 50))
        h.wait(50)
        h.up(1)
        h.wait(700)
        h.up(0)
        expectLog(h, [
            "0.250000 tap recognized [buttonTap] f1 (100.00,50.00) count=1",
        ])
        #expect(h.gestures.map { $0.contacts.map(\.description) } == [["c1"]])
        #expect(h.graph.ignoredContacts == 1)
        try h.expectNothingPending()
    }

    /// The other half of the rule: a contact that lands on a target stays its own when it
    /// slides off, onto nothing.
    @Test func contactThatSlidesOffStaysWithItsTarget() throws {
        var h = try GestureHarness(configuration: Self.lone)
        h.down(0, at: p(90, 50))
        h.wait(600)
        h.move(0, to: p(10, 10), over: 25)
        h.up(0)
        expectLog(h, [
            "0.500000 longPress began [buttonPress] f1 (90.00,50.00) duration=500ms",
            "0.608333 longPress changed [buttonPress] f1 (63.33,36.67) duration=608ms",
            "0.616667 longPress changed [buttonPress] f1 (36.67,23.33) duration=617ms",
            "0.625000 longPress changed [buttonPress] f1 (10.00,10.00) duration=625ms",
            "0.625000 longPress ended [buttonPress] f1 (10.00,10.00) duration=625ms",
        ])
        try h.expectNothingPending()
    }
}

@Suite struct TransitionLogTests {
    @Test func transitionsAreObservable() throws {
        var driver = try GraphDriver(configuration: .only([RecognizerSpec(name: "tap", kind: .tap(.with()))]), surface: TouchScript.defaultSurface)
        driver.graph.recordsTransitions = true
        var s = TouchScript()
        s.down(0, at: p(50, 50)); s.wait(80); s.up(0)
        for f in s.frames { driver.feed(f) { _ in } }
        #expect(driver.graph.drainTransitions().map(\.description) == [
            "0.000000 tap: idle → contactDown → touching (none)",
            "0.080000 tap: touching → contactLifted → claimed (claim)",
            "0.080000 tap: claimed → accepted → idle (finish)",
        ])
        #expect(driver.graph.transitions.isEmpty)
    }
}
