import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

// Each recognizer's success and failure paths, on the default graph, as scripted touches in
// virtual time. Every test compares the whole event log and ends with nothing pending.

@Suite struct TapTests {
    @Test func singleTap() throws {
        var h = try GestureHarness()
        h.down(0, at: p(50, 50))
        h.wait(80)
        h.up(0)
        expectLog(h, [
            "0.080000 tap recognized f1 (50.00,50.00) count=1",
        ])
        try h.expectNothingPending()
    }

    @Test func tapsCountUpWithinIntervalAndDistance() throws {
        var h = try GestureHarness()
        for x in [50.0, 52, 49] {
            h.down(0, at: p(x, 50)); h.wait(60); h.up(0); h.wait(200)
        }
        // Too late (400 ms after the lift): a new series.
        h.wait(200)
        h.down(0, at: p(50, 50)); h.wait(60); h.up(0); h.wait(100)
        // Too far (20 mm): a new series.
        h.down(0, at: p(70, 50)); h.wait(60); h.up(0)
        expectLog(h, [
            "0.060000 tap recognized f1 (50.00,50.00) count=1",
            "0.320000 tap recognized f1 (52.00,50.00) count=2",
            "0.580000 tap recognized f1 (49.00,50.00) count=3",
            "1.040000 tap recognized f1 (50.00,50.00) count=1",
            "1.200000 tap recognized f1 (70.00,50.00) count=1",
        ])
        try h.expectNothingPending()
    }

    @Test func twoFingerTap() throws {
        var h = try GestureHarness()
        h.down([(0, p(50, 50)), (1, p(80, 50))])
        h.wait(90)
        h.up([0, 1])
        expectLog(h, [
            "0.090000 tap recognized f2 (65.00,50.00) count=1",
        ])
        try h.expectNothingPending()
    }

    @Test func tapFailsWhenHeldTooLong() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "tap", kind: .tap(.with()))]), explain: true)
        h.down(0, at: p(50, 50))
        h.wait(350)
        h.up(0)
        expectLog(h, [
            "0.300000 explain failed tap: no lift within 300.0 ms",
        ])
        try h.expectNothingPending()
    }

    @Test func tapFailsWhenMovedPastSlop() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "tap", kind: .tap(.with()))]), rate: 60, explain: true)
        h.down(0, at: p(50, 50))
        h.move(0, to: p(54, 50), over: 50)
        h.up(0)
        expectLog(h, [
            "0.050000 explain failed tap: movement 4.00 mm > 3.00 mm (by 1.00 mm)",
        ])
        try h.expectNothingPending()
    }

    @Test func tapWithExactFingerCountRejectsOthers() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "twoFingerTap", kind: .tap(.with(fingers: 2)))]), explain: true)
        h.down(0, at: p(50, 50)); h.wait(50); h.up(0)
        h.wait(400)
        h.down([(0, p(50, 50)), (1, p(70, 50))]); h.wait(50); h.up([0, 1])
        expectLog(h, [
            "0.050000 explain failed twoFingerTap: 1 finger, needs 2",
            "0.500000 explain won twoFingerTap: lifted after 50.0 ms ≤ 300.0 ms (margin 250.0 ms)",
            "0.500000 tap recognized [twoFingerTap] f2 (60.00,50.00) count=1",
        ])
        try h.expectNothingPending()
    }

    /// Issue 12: taps count up only with the same number of fingers. On 532b116 the one-finger
    /// tap after a two-finger tap was `count=2`.
    @Test func tapCountRestartsWhenTheFingerCountChanges() throws {
        var h = try GestureHarness()
        h.down([(0, p(50, 50)), (1, p(60, 50))]); h.wait(60); h.up([0, 1]); h.wait(150)
        h.down(0, at: p(55, 50)); h.wait(60); h.up(0); h.wait(150)
        h.down(0, at: p(55, 50)); h.wait(60); h.up(0); h.wait(150)
        // Back to two fingers: a new series again.
        h.down([(0, p(50, 50)), (1, p(60, 50))]); h.wait(60); h.up([0, 1]); h.wait(150)
        h.down([(0, p(50, 50)), (1, p(60, 50))]); h.wait(60); h.up([0, 1])
        expectLog(h, [
            "0.060000 tap recognized f2 (55.00,50.00) count=1",
            "0.270000 tap recognized f1 (55.00,50.00) count=1",
            "0.480000 tap recognized f1 (55.00,50.00) count=2",
            "0.690000 tap recognized f2 (55.00,50.00) count=1",
            "0.900000 tap recognized f2 (55.00,50.00) count=2",
        ])
        try h.expectNothingPending()
    }

    /// The finger count is the tap's whole: a second finger landing late in the next tap makes
    /// it a two-finger tap, which continues a two-finger series.
    @Test func tapCountComparesEachTapsFingersAtItsLift() throws {
        var h = try GestureHarness()
        h.down([(0, p(50, 50)), (1, p(60, 50))]); h.wait(60); h.up([0, 1]); h.wait(150)
        h.down(0, at: p(50, 50)); h.wait(30); h.down(1, at: p(60, 50)); h.wait(30); h.up([0, 1])
        expectLog(h, [
            "0.060000 tap recognized f2 (55.00,50.00) count=1",
            "0.270000 tap recognized f2 (55.00,50.00) count=2",
        ])
        try h.expectNothingPending()
    }

    /// A double tap (`taps = 2`) needs two taps with the same fingers: a two-finger tap then a
    /// one-finger tap is no double tap; the one-finger tap starts the series a next one ends.
    @Test func doubleTapNeedsTheSameFingersTwice() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "doubleTap", kind: .tap(.with(taps: 2)))]), explain: true)
        h.down([(0, p(50, 50)), (1, p(60, 50))]); h.wait(60); h.up([0, 1]); h.wait(150)
        h.down(0, at: p(55, 50)); h.wait(60); h.up(0); h.wait(150)
        h.down(0, at: p(55, 50)); h.wait(60); h.up(0)
        expectLog(h, [
            "0.060000 explain held doubleTap: keeps the arena open for a next tap",
            "0.270000 explain held doubleTap: keeps the arena open for a next tap",
            "0.480000 explain won doubleTap: lifted after 60.0 ms ≤ 300.0 ms (margin 240.0 ms)",
            "0.480000 tap recognized [doubleTap] f1 (55.00,50.00) count=2",
        ])
        try h.expectNothingPending()
    }
}

@Suite struct LongPressTests {
    @Test func longPressBeginsAt500msChangesAndEnds() throws {
        var h = try GestureHarness(rate: 60)
        h.down(0, at: p(50, 50))
        h.wait(600)
        h.move(0, to: p(60, 50), over: 50)
        h.wait(100)
        h.up(0)
        expectLog(h, [
            "0.500000 longPress began f1 (50.00,50.00) duration=500ms",
            "0.616667 longPress changed f1 (53.33,50.00) duration=617ms",
            "0.633333 longPress changed f1 (56.67,50.00) duration=633ms",
            "0.650000 longPress changed f1 (60.00,50.00) duration=650ms",
            "0.750000 longPress ended f1 (60.00,50.00) duration=750ms",
        ])
        try h.expectNothingPending()
    }

    @Test func longPressFailsWhenMovedBeforeItsTime() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "longPress", kind: .longPress(LongPressParameters()))]), rate: 60, explain: true)
        h.down(0, at: p(50, 50))
        h.wait(200)
        h.move(0, to: p(55, 50), over: 50)
        h.wait(500)
        h.up(0)
        expectLog(h, [
            "0.233333 explain failed longPress: movement 3.33 mm > 3.00 mm (by 0.33 mm)",
        ])
        try h.expectNothingPending()
    }

    @Test func longPressFailsWhenLiftedEarly() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "longPress", kind: .longPress(LongPressParameters()))]), explain: true)
        h.down(0, at: p(50, 50))
        h.wait(450)
        h.up(0)
        expectLog(h, [
            "0.450000 explain failed longPress: held 450.0 ms < 500.0 ms (short by 50.0 ms)",
        ])
        try h.expectNothingPending()
    }

    @Test func longPressCancelledWithItsContact() throws {
        var h = try GestureHarness()
        h.down(0, at: p(50, 50))
        h.wait(700)
        h.cancel([0])
        expectLog(h, [
            "0.500000 longPress began f1 (50.00,50.00) duration=500ms",
            "0.700000 longPress cancelled f1 (50.00,50.00) duration=700ms",
        ])
        try h.expectNothingPending()
    }
}

@Suite struct PanTests {
    @Test func panBeginsAtSlopWithTranslationAndVelocity() throws {
        var h = try GestureHarness(rate: 60)
        h.down(0, at: p(50, 50))
        h.move(0, to: p(50, 70), over: 200)
        h.wait(100)
        h.up(0)
        expectLog(h, [
            "0.033333 pan began f1 (50.00,53.33) d=(0.00,3.33)",
            "0.050000 pan changed f1 (50.00,55.00) d=(0.00,5.00)",
            "0.066667 pan changed f1 (50.00,56.67) d=(0.00,6.67)",
            "0.083333 pan changed f1 (50.00,58.33) d=(0.00,8.33)",
            "0.100000 pan changed f1 (50.00,60.00) d=(0.00,10.00)",
            "0.116667 pan changed f1 (50.00,61.67) d=(0.00,11.67)",
            "0.133333 pan changed f1 (50.00,63.33) d=(0.00,13.33)",
            "0.150000 pan changed f1 (50.00,65.00) d=(0.00,15.00)",
            "0.166667 pan changed f1 (50.00,66.67) d=(0.00,16.67)",
            "0.183333 pan changed f1 (50.00,68.33) d=(0.00,18.33)",
            "0.200000 pan changed f1 (50.00,70.00) d=(0.00,20.00)",
            "0.300000 pan ended f1 (50.00,70.00) d=(0.00,20.00)",
        ])
        let ended = h.gestures.last!
        guard let pan = ended.detail.fields(as: PanFields.self) else { Issue.record("not a pan"); return }
        let (translation, velocity) = (pan.translation, pan.velocity)
        #expect(translation == Vector(dx: 0, dy: 20))
        // It moved at 100 mm/s, then rested 100 ms (no frames) before lifting: a finger that
        // rests as long as the velocity window lifts at rest.
        #expect(velocity == .zero)
        let changed = h.gestures.filter { $0.phase == .changed }
        for e in changed {
            guard let v = e.detail.fields(as: PanFields.self)?.velocity else { continue }
            #expect(abs(v.dy - 100) < 0.001 && v.dx == 0)
        }
        try h.expectNothingPending()
    }

    @Test func panFailsBelowSlop() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "pan", kind: .pan(PanParameters()))]), rate: 60, explain: true)
        h.down(0, at: p(50, 50))
        h.move(0, to: p(52, 50), over: 100)
        h.up(0)
        expectLog(h, [
            "0.100000 explain failed pan: lifted before moving the slop",
        ])
        try h.expectNothingPending()
    }

    @Test func twoFingerPanReportsFingers() throws {
        var h = try GestureHarness(rate: 30)
        h.down([(0, p(50, 50)), (1, p(80, 50))])
        h.move([(0, p(50, 20)), (1, p(80, 20))], over: 300)
        h.up([0, 1])
        expectLog(h, [
            "0.033333 pan began f2 (65.00,46.67) d=(0.00,-3.33)",
            "0.066667 pan changed f2 (65.00,43.33) d=(0.00,-6.67)",
            "0.100000 pan changed f2 (65.00,40.00) d=(0.00,-10.00)",
            "0.133333 pan changed f2 (65.00,36.67) d=(0.00,-13.33)",
            "0.166667 pan changed f2 (65.00,33.33) d=(0.00,-16.67)",
            "0.200000 pan changed f2 (65.00,30.00) d=(0.00,-20.00)",
            "0.233333 pan changed f2 (65.00,26.67) d=(0.00,-23.33)",
            "0.266667 pan changed f2 (65.00,23.33) d=(0.00,-26.67)",
            "0.300000 pan changed f2 (65.00,20.00) d=(0.00,-30.00)",
            "0.300000 swipe recognized f2 (65.00,20.00) up d=(0.00,-30.00) v=(0,-100)",
            "0.300000 pan ended f2 (65.00,20.00) d=(0.00,-30.00)",
        ])
        try h.expectNothingPending()
    }
}

@Suite struct SwipeTests {
    @Test func quickStrokeIsASwipeWithDirection() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "swipe", kind: .swipe(SwipeParameters()))]), rate: 60)
        h.down(0, at: p(100, 50))
        h.move(0, to: p(60, 55), over: 100)
        h.up(0)
        expectLog(h, [
            "0.100000 swipe recognized f1 (60.00,55.00) left d=(-40.00,5.00) v=(-400,50)",
        ])
        try h.expectNothingPending()
    }

    @Test func slowStrokeIsNoSwipe() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "swipe", kind: .swipe(SwipeParameters()))]), rate: 30, explain: true)
        h.down(0, at: p(100, 50))
        h.move(0, to: p(100, 70), over: 400)
        h.up(0)
        expectLog(h, [
            "0.400000 explain failed swipe: average speed 50.0 mm/s < 100.0 mm/s (short by 50.0 mm/s)",
        ])
        try h.expectNothingPending()
    }

    @Test func diagonalStrokeIsNoSwipe() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "swipe", kind: .swipe(SwipeParameters()))]), rate: 60, explain: true)
        h.down(0, at: p(100, 50))
        h.move(0, to: p(130, 80), over: 100)
        h.up(0)
        expectLog(h, [
            "0.100000 explain failed swipe: angle from the axis 45.00° > 30.00° (by 15.00°)",
        ])
        try h.expectNothingPending()
    }

    @Test func strokeLongerThan500msIsNoSwipe() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "swipe", kind: .swipe(SwipeParameters()))]), rate: 10, explain: true)
        h.down(0, at: p(100, 50))
        h.move(0, to: p(100, 110), over: 600)
        h.up(0)
        expectLog(h, [
            "0.500000 explain failed swipe: no last lift within 500.0 ms",
        ])
        try h.expectNothingPending()
    }

    @Test func twoFingerSwipeDown() throws {
        var h = try GestureHarness(rate: 60)
        h.down([(0, p(90, 20)), (1, p(110, 20))])
        h.move([(0, p(90, 70)), (1, p(110, 70))], over: 150)
        h.up([0, 1])
        expectLog(h, [
            "0.016667 pan began f2 (100.00,25.56) d=(0.00,5.56)",
            "0.033333 pan changed f2 (100.00,31.11) d=(0.00,11.11)",
            "0.050000 pan changed f2 (100.00,36.67) d=(0.00,16.67)",
            "0.066667 pan changed f2 (100.00,42.22) d=(0.00,22.22)",
            "0.083333 pan changed f2 (100.00,47.78) d=(0.00,27.78)",
            "0.100000 pan changed f2 (100.00,53.33) d=(0.00,33.33)",
            "0.116667 pan changed f2 (100.00,58.89) d=(0.00,38.89)",
            "0.133333 pan changed f2 (100.00,64.44) d=(0.00,44.44)",
            "0.150000 pan changed f2 (100.00,70.00) d=(0.00,50.00)",
            "0.150000 swipe recognized f2 (100.00,70.00) down d=(0.00,50.00) v=(0,333)",
            "0.150000 pan ended f2 (100.00,70.00) d=(0.00,50.00)",
        ])
        try h.expectNothingPending()
    }
}

@Suite struct EdgeSwipeTests {
    @Test func fromTheRightEdgeInward() throws {
        var h = try GestureHarness(rate: 60)
        h.down(0, at: p(198.5, 60))
        h.move(0, to: p(170, 60), over: 150)
        h.up(0)
        expectLog(h, [
            "0.016667 edgeSwipe began f1 (195.33,60.00) right d=(-3.17,0.00)",
            "0.033333 edgeSwipe changed f1 (192.17,60.00) right d=(-6.33,0.00)",
            "0.050000 edgeSwipe changed f1 (189.00,60.00) right d=(-9.50,0.00)",
            "0.066667 edgeSwipe changed f1 (185.83,60.00) right d=(-12.67,0.00)",
            "0.083333 edgeSwipe changed f1 (182.67,60.00) right d=(-15.83,0.00)",
            "0.100000 edgeSwipe changed f1 (179.50,60.00) right d=(-19.00,0.00)",
            "0.116667 edgeSwipe changed f1 (176.33,60.00) right d=(-22.17,0.00)",
            "0.133333 edgeSwipe changed f1 (173.17,60.00) right d=(-25.33,0.00)",
            "0.150000 edgeSwipe changed f1 (170.00,60.00) right d=(-28.50,0.00)",
            "0.150000 edgeSwipe ended f1 (170.00,60.00) right d=(-28.50,0.00)",
            "0.150000 swipe recognized f1 (170.00,60.00) left d=(-28.50,0.00) v=(-190,0)",
        ])
        try h.expectNothingPending()
    }

    @Test func awayFromTheEdgeIsAPan() throws {
        var h = try GestureHarness(rate: 60, explain: true)
        h.down(0, at: p(190, 60))
        h.move(0, to: p(170, 60), over: 150)
        h.up(0)
        #expect(h.gestures.map { "\($0.recognizer) \($0.phase)" }.first == "pan began")
        expectLog(h, [
            "0.000000 explain failed edgeSwipe: distance from the nearest edge 10.00 mm > 3.00 mm (by 7.00 mm)",
            "0.033333 explain failed tap: movement 4.44 mm > 3.00 mm (by 1.44 mm)",
            "0.033333 explain failed longPress: movement 4.44 mm > 3.00 mm (by 1.44 mm)",
            "0.033333 explain won pan: translation 4.44 mm ≥ 3.00 mm (margin 1.44 mm)",
            "0.033333 pan began f1 (185.56,60.00) d=(-4.44,0.00)",
            "0.050000 pan changed f1 (183.33,60.00) d=(-6.67,0.00)",
            "0.066667 pan changed f1 (181.11,60.00) d=(-8.89,0.00)",
            "0.083333 pan changed f1 (178.89,60.00) d=(-11.11,0.00)",
            "0.100000 pan changed f1 (176.67,60.00) d=(-13.33,0.00)",
            "0.116667 pan changed f1 (174.44,60.00) d=(-15.56,0.00)",
            "0.133333 pan changed f1 (172.22,60.00) d=(-17.78,0.00)",
            "0.150000 pan changed f1 (170.00,60.00) d=(-20.00,0.00)",
            "0.150000 explain won swipe: simultaneous with pan, which already won",
            "0.150000 swipe recognized f1 (170.00,60.00) left d=(-20.00,0.00) v=(-133,0)",
            "0.150000 explain failed pinch: lost to swipe, which won first and is not simultaneous with it",
            "0.150000 explain failed rotate: lost to swipe, which won first and is not simultaneous with it",
            "0.150000 pan ended f1 (170.00,60.00) d=(-20.00,0.00)",
        ])
        try h.expectNothingPending()
    }

    @Test func alongTheEdgeFails() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "edgeSwipe", kind: .edgeSwipe(EdgeSwipeParameters()))]), rate: 60, explain: true)
        h.down(0, at: p(1, 60))
        h.move(0, to: p(2, 80), over: 150)
        h.up(0)
        expectLog(h, [
            "0.033333 explain failed edgeSwipe: moved along or away from the edge",
        ])
        try h.expectNothingPending()
    }
}

@Suite struct PinchTests {
    @Test func spreadingIsAPinchWithScale() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "pinch", kind: .pinch(PinchParameters()))]), rate: 30)
        h.down([(0, p(90, 60)), (1, p(110, 60))])
        h.move([(0, p(80, 60)), (1, p(120, 60))], over: 200)
        h.up([0, 1])
        expectLog(h, [
            "0.066667 pinch began f2 (100.00,60.00) scale=1.3333 span=26.67",
            "0.100000 pinch changed f2 (100.00,60.00) scale=1.5000 span=30.00",
            "0.133333 pinch changed f2 (100.00,60.00) scale=1.6667 span=33.33",
            "0.166667 pinch changed f2 (100.00,60.00) scale=1.8333 span=36.67",
            "0.200000 pinch changed f2 (100.00,60.00) scale=2.0000 span=40.00",
            "0.200000 pinch ended f2 (100.00,60.00) scale=2.0000 span=40.00",
        ])
        try h.expectNothingPending()
    }

    @Test func smallSpreadIsNoPinch() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "pinch", kind: .pinch(PinchParameters()))]), rate: 30, explain: true)
        h.down([(0, p(90, 60)), (1, p(110, 60))])
        h.move([(0, p(88, 60)), (1, p(112, 60))], over: 100)
        h.up([0, 1])
        expectLog(h, [
            "0.100000 explain failed pinch: span change 4.00 mm < 5.00 mm (short by 1.00 mm)",
        ])
        try h.expectNothingPending()
    }

    @Test func pinchOfCloseFingersHasNoMinimumSpan() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "pinch", kind: .pinch(PinchParameters()))]), rate: 30)
        h.down([(0, p(98, 60)), (1, p(102, 60))])
        h.move([(0, p(94, 60)), (1, p(106, 60))], over: 100)
        h.up([0, 1])
        expectLog(h, [
            "0.066667 pinch began f2 (100.00,60.00) scale=2.3333 span=9.33",
            "0.100000 pinch changed f2 (100.00,60.00) scale=3.0000 span=12.00",
            "0.100000 pinch ended f2 (100.00,60.00) scale=3.0000 span=12.00",
        ])
        try h.expectNothingPending()
    }

    @Test func pinchEndsWhenOneOfTwoFingersLifts() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "pinch", kind: .pinch(PinchParameters()))]), rate: 30)
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.move([(0, p(90, 60)), (1, p(110, 60))], over: 100)
        h.up(1)
        h.wait(50)
        h.up(0)
        expectLog(h, [
            "0.033333 pinch began f2 (100.00,60.00) scale=0.8333 span=33.33",
            "0.066667 pinch changed f2 (100.00,60.00) scale=0.6667 span=26.67",
            "0.100000 pinch changed f2 (100.00,60.00) scale=0.5000 span=20.00",
            "0.100000 pinch ended f2 (100.00,60.00) scale=0.5000 span=20.00",
        ])
        try h.expectNothingPending()
    }
}

@Suite struct RotateTests {
    @Test func turningClockwiseIsPositive() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "rotate", kind: .rotate(RotateParameters()))]), rate: 30)
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.turn(about: p(100, 60), by: 0.5, over: 200)
        h.up([0, 1])
        expectLog(h, [
            "0.100000 rotate began f2 (100.00,60.00) rotation=0.2500",
            "0.133333 rotate changed f2 (100.00,60.00) rotation=0.3333",
            "0.166667 rotate changed f2 (100.00,60.00) rotation=0.4167",
            "0.200000 rotate changed f2 (100.00,60.00) rotation=0.5000",
            "0.200000 rotate ended f2 (100.00,60.00) rotation=0.5000",
        ])
        try h.expectNothingPending()
    }

    @Test func turningCounterClockwiseIsNegative() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "rotate", kind: .rotate(RotateParameters()))]), rate: 30)
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.turn(about: p(100, 60), by: -0.3, over: 100)
        h.up([0, 1])
        expectLog(h, [
            "0.066667 rotate began f2 (100.00,60.00) rotation=-0.2000",
            "0.100000 rotate changed f2 (100.00,60.00) rotation=-0.3000",
            "0.100000 rotate ended f2 (100.00,60.00) rotation=-0.3000",
        ])
        try h.expectNothingPending()
    }

    @Test func smallTurnIsNoRotation() throws {
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "rotate", kind: .rotate(RotateParameters()))]), rate: 30, explain: true)
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.turn(about: p(100, 60), by: 0.1, over: 100)
        h.up([0, 1])
        expectLog(h, [
            "0.100000 explain failed rotate: rotation 5.73° < 10.00° (short by 4.27°)",
        ])
        try h.expectNothingPending()
    }
}
