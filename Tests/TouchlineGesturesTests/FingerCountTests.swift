import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

// The finger-count rule (docs/gestures.md#finger-count-changes), in libinput's model: when a
// contact joins or leaves the contacts a gesture has won, the gesture goes on if it takes the
// new count and ends otherwise; once nothing owns the contacts still down, a new arbitration
// round opens for them, measured from that moment.

@Suite struct FingerCountTests {
    static let quarterTurn = Double.pi / 2
    static let sixtyDegrees = Double.pi / 3

    /// Acceptance 4: a finger held still for 1 s is a long press; a second finger joining it
    /// ends the hold (a hold ends when a finger is added), and the two turning 60° together
    /// are a rotation in the new round (they turn about their centroid, so no pan, and keep
    /// their span, so no pinch). On 58e2b73 the rotation "lost to longPress".
    @Test func heldFingerJoinedByASecondThatTurnsIsARotation() throws {
        var h = try GestureHarness()
        h.down(0, at: p(100, 60))
        h.wait(1000)
        h.down(1, at: p(130, 60))
        h.turn(about: p(115, 60), by: Self.sixtyDegrees, over: 250)
        h.up([0, 1])
        expectLog(h, [
            "0.500000 longPress began f1 (100.00,60.00) duration=500ms",
            "1.000000 longPress ended f1 (100.00,60.00) duration=1000ms",
            "1.050000 rotate began f2 (115.00,60.00) rotation=0.2094",
            "1.058333 rotate changed f2 (115.00,60.00) rotation=0.2443",
            "1.066667 rotate changed f2 (115.00,60.00) rotation=0.2793",
            "1.075000 rotate changed f2 (115.00,60.00) rotation=0.3142",
            "1.083333 rotate changed f2 (115.00,60.00) rotation=0.3491",
            "1.091667 rotate changed f2 (115.00,60.00) rotation=0.3840",
            "1.100000 rotate changed f2 (115.00,60.00) rotation=0.4189",
            "1.108333 rotate changed f2 (115.00,60.00) rotation=0.4538",
            "1.116667 rotate changed f2 (115.00,60.00) rotation=0.4887",
            "1.125000 rotate changed f2 (115.00,60.00) rotation=0.5236",
            "1.133333 rotate changed f2 (115.00,60.00) rotation=0.5585",
            "1.141667 rotate changed f2 (115.00,60.00) rotation=0.5934",
            "1.150000 rotate changed f2 (115.00,60.00) rotation=0.6283",
            "1.158333 rotate changed f2 (115.00,60.00) rotation=0.6632",
            "1.166667 rotate changed f2 (115.00,60.00) rotation=0.6981",
            "1.175000 rotate changed f2 (115.00,60.00) rotation=0.7330",
            "1.183333 rotate changed f2 (115.00,60.00) rotation=0.7679",
            "1.191667 rotate changed f2 (115.00,60.00) rotation=0.8029",
            "1.200000 rotate changed f2 (115.00,60.00) rotation=0.8378",
            "1.208333 rotate changed f2 (115.00,60.00) rotation=0.8727",
            "1.216667 rotate changed f2 (115.00,60.00) rotation=0.9076",
            "1.225000 rotate changed f2 (115.00,60.00) rotation=0.9425",
            "1.233333 rotate changed f2 (115.00,60.00) rotation=0.9774",
            "1.241667 rotate changed f2 (115.00,60.00) rotation=1.0123",
            "1.250000 rotate changed f2 (115.00,60.00) rotation=1.0472",
            "1.250000 rotate ended f2 (115.00,60.00) rotation=1.0472",
        ])
        try h.expectNothingPending()
    }

    /// A one-finger pan joined by a second finger within its maximum goes on with both: one
    /// `began`, one `ended`, `fingers` 2 from the frame the second landed.
    @Test func panJoinedByASecondFingerWithinItsMaximumGoesOn() throws {
        var pan = PanParameters()
        pan.maximumFingers = 2
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "pan", kind: .pan(pan))]))
        h.down(0, at: p(50, 60))
        h.move(0, to: p(60, 60), over: 50)
        h.down(1, at: p(50, 80))
        h.move([(0, p(70, 60)), (1, p(60, 80))], over: 50)
        h.up([0, 1])
        expectLog(h, [
            "0.016667 pan began f1 (53.33,60.00) d=(3.33,0.00)",
            "0.025000 pan changed f1 (55.00,60.00) d=(5.00,0.00)",
            "0.033333 pan changed f1 (56.67,60.00) d=(6.67,0.00)",
            "0.041667 pan changed f1 (58.33,60.00) d=(8.33,0.00)",
            "0.050000 pan changed f1 (60.00,60.00) d=(10.00,0.00)",
            "0.058333 pan changed f2 (56.67,70.00) d=(11.67,0.00)",
            "0.066667 pan changed f2 (58.33,70.00) d=(13.33,0.00)",
            "0.075000 pan changed f2 (60.00,70.00) d=(15.00,0.00)",
            "0.083333 pan changed f2 (61.67,70.00) d=(16.67,0.00)",
            "0.091667 pan changed f2 (63.33,70.00) d=(18.33,0.00)",
            "0.100000 pan changed f2 (65.00,70.00) d=(20.00,0.00)",
            "0.100000 pan ended f2 (65.00,70.00) d=(20.00,0.00)",
        ])
        try h.expectNothingPending()
    }

    /// Past its maximum the pan ends at the frame the finger lands, with the reason in the
    /// explain lines, and the new round's pan does not begin with two fingers.
    @Test func panJoinedPastItsMaximumEndsWithTheReason() throws {
        var pan = PanParameters()
        pan.maximumFingers = 1
        var h = try GestureHarness(configuration: .only([RecognizerSpec(name: "pan", kind: .pan(pan))]), explain: true)
        h.down(0, at: p(50, 60))
        h.move(0, to: p(60, 60), over: 50)
        h.down(1, at: p(50, 80))
        h.move([(0, p(70, 60)), (1, p(60, 80))], over: 50)
        h.up([0, 1])
        expectLog(h, [
            "0.016667 explain won pan: translation 3.33 mm ≥ 3.00 mm (margin 0.33 mm)",
            "0.016667 pan began f1 (53.33,60.00) d=(3.33,0.00)",
            "0.025000 pan changed f1 (55.00,60.00) d=(5.00,0.00)",
            "0.033333 pan changed f1 (56.67,60.00) d=(6.67,0.00)",
            "0.041667 pan changed f1 (58.33,60.00) d=(8.33,0.00)",
            "0.050000 pan changed f1 (60.00,60.00) d=(10.00,0.00)",
            "0.050000 explain ended pan: 2 fingers, needs 1",
            "0.050000 pan ended f1 (60.00,60.00) d=(10.00,0.00)",
            "0.100000 explain failed pan: lifted before moving the slop",
        ])
        try h.expectNothingPending()
    }

    /// A two-finger pinch ends when one finger lifts, with `fingers` 2 (the fingers in the
    /// gesture, not the one still down), and the reason in the explain lines. The default graph
    /// then starts again with the finger left: moving it 20 mm at 50 mm/s is a pan measured
    /// from where it was when the other lifted (too slow for a swipe). During the pinch the
    /// centroid drifted 2 mm, under the pan's 3 mm slop: on 58e2b73 the pan counted that drift
    /// and began after 1 mm of the finger's own motion.
    @Test func pinchEndsWhenAFingerLiftsAndTheFingerLeftPans() throws {
        var h = try GestureHarness()
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.move([(0, p(70, 60)), (1, p(134, 60))], over: 100)
        h.up(1)
        h.move(0, to: p(90, 60), over: 400)
        h.up(0)
        expectLog(h, [
            "0.025000 pinch began f2 (100.50,60.00) scale=1.1500 span=46.00",
            "0.033333 pinch changed f2 (100.67,60.00) scale=1.2000 span=48.00",
            "0.041667 pinch changed f2 (100.83,60.00) scale=1.2500 span=50.00",
            "0.050000 pinch changed f2 (101.00,60.00) scale=1.3000 span=52.00",
            "0.058333 pinch changed f2 (101.17,60.00) scale=1.3500 span=54.00",
            "0.066667 pinch changed f2 (101.33,60.00) scale=1.4000 span=56.00",
            "0.075000 pinch changed f2 (101.50,60.00) scale=1.4500 span=58.00",
            "0.083333 pinch changed f2 (101.67,60.00) scale=1.5000 span=60.00",
            "0.091667 pinch changed f2 (101.83,60.00) scale=1.5500 span=62.00",
            "0.100000 pinch changed f2 (102.00,60.00) scale=1.6000 span=64.00",
            "0.100000 pinch ended f2 (102.00,60.00) scale=1.6000 span=64.00",
            "0.166667 pan began f1 (73.33,60.00) d=(3.33,0.00)",
            "0.175000 pan changed f1 (73.75,60.00) d=(3.75,0.00)",
            "0.183333 pan changed f1 (74.17,60.00) d=(4.17,0.00)",
            "0.191667 pan changed f1 (74.58,60.00) d=(4.58,0.00)",
            "0.200000 pan changed f1 (75.00,60.00) d=(5.00,0.00)",
            "0.208333 pan changed f1 (75.42,60.00) d=(5.42,0.00)",
            "0.216667 pan changed f1 (75.83,60.00) d=(5.83,0.00)",
            "0.225000 pan changed f1 (76.25,60.00) d=(6.25,0.00)",
            "0.233333 pan changed f1 (76.67,60.00) d=(6.67,0.00)",
            "0.241667 pan changed f1 (77.08,60.00) d=(7.08,0.00)",
            "0.250000 pan changed f1 (77.50,60.00) d=(7.50,0.00)",
            "0.258333 pan changed f1 (77.92,60.00) d=(7.92,0.00)",
            "0.266667 pan changed f1 (78.33,60.00) d=(8.33,0.00)",
            "0.275000 pan changed f1 (78.75,60.00) d=(8.75,0.00)",
            "0.283333 pan changed f1 (79.17,60.00) d=(9.17,0.00)",
            "0.291667 pan changed f1 (79.58,60.00) d=(9.58,0.00)",
            "0.300000 pan changed f1 (80.00,60.00) d=(10.00,0.00)",
            "0.308333 pan changed f1 (80.42,60.00) d=(10.42,0.00)",
            "0.316667 pan changed f1 (80.83,60.00) d=(10.83,0.00)",
            "0.325000 pan changed f1 (81.25,60.00) d=(11.25,0.00)",
            "0.333333 pan changed f1 (81.67,60.00) d=(11.67,0.00)",
            "0.341667 pan changed f1 (82.08,60.00) d=(12.08,0.00)",
            "0.350000 pan changed f1 (82.50,60.00) d=(12.50,0.00)",
            "0.358333 pan changed f1 (82.92,60.00) d=(12.92,0.00)",
            "0.366667 pan changed f1 (83.33,60.00) d=(13.33,0.00)",
            "0.375000 pan changed f1 (83.75,60.00) d=(13.75,0.00)",
            "0.383333 pan changed f1 (84.17,60.00) d=(14.17,0.00)",
            "0.391667 pan changed f1 (84.58,60.00) d=(14.58,0.00)",
            "0.400000 pan changed f1 (85.00,60.00) d=(15.00,0.00)",
            "0.408333 pan changed f1 (85.42,60.00) d=(15.42,0.00)",
            "0.416667 pan changed f1 (85.83,60.00) d=(15.83,0.00)",
            "0.425000 pan changed f1 (86.25,60.00) d=(16.25,0.00)",
            "0.433333 pan changed f1 (86.67,60.00) d=(16.67,0.00)",
            "0.441667 pan changed f1 (87.08,60.00) d=(17.08,0.00)",
            "0.450000 pan changed f1 (87.50,60.00) d=(17.50,0.00)",
            "0.458333 pan changed f1 (87.92,60.00) d=(17.92,0.00)",
            "0.466667 pan changed f1 (88.33,60.00) d=(18.33,0.00)",
            "0.475000 pan changed f1 (88.75,60.00) d=(18.75,0.00)",
            "0.483333 pan changed f1 (89.17,60.00) d=(19.17,0.00)",
            "0.491667 pan changed f1 (89.58,60.00) d=(19.58,0.00)",
            "0.500000 pan changed f1 (90.00,60.00) d=(20.00,0.00)",
            "0.500000 pan ended f1 (90.00,60.00) d=(20.00,0.00)",
        ])
        try h.expectNothingPending()
    }

    /// The finger a pinch leaves is a new round of its own: held still 500 ms it is a long
    /// press (libinput's hold, with the new count); lifted at once it is nothing: not a tap,
    /// which starts with its contacts landing, and this one was down before the round. On
    /// 58e2b73 the held finger gave nothing (the long press had lost to the pinch).
    @Test func fingerLeftByAPinchHeldIsALongPressAndLiftedIsNothing() throws {
        var h = try GestureHarness(explain: true)
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.move([(0, p(70, 60)), (1, p(130, 60))], over: 100)
        h.up(1)
        h.wait(600)
        h.up(0)
        h.wait(400)
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.move([(0, p(70, 60)), (1, p(130, 60))], over: 100)
        h.up(1)
        h.wait(100)
        h.up(0)
        expectLog(h, [
            "0.000000 explain failed longPress: 2 fingers, needs 1",
            "0.000000 explain failed edgeSwipe: distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)",
            "0.025000 explain won pinch: span change 5.00 mm ≥ 5.00 mm (margin 0.00 mm)",
            "0.025000 pinch began f2 (100.00,60.00) scale=1.1250 span=45.00",
            "0.025000 explain failed tap: lost to pinch, which won first and is not simultaneous with it",
            "0.025000 explain failed swipe: lost to pinch, which won first and is not simultaneous with it",
            "0.033333 pinch changed f2 (100.00,60.00) scale=1.1667 span=46.67",
            "0.041667 pinch changed f2 (100.00,60.00) scale=1.2083 span=48.33",
            "0.050000 pinch changed f2 (100.00,60.00) scale=1.2500 span=50.00",
            "0.058333 pinch changed f2 (100.00,60.00) scale=1.2917 span=51.67",
            "0.066667 pinch changed f2 (100.00,60.00) scale=1.3333 span=53.33",
            "0.075000 pinch changed f2 (100.00,60.00) scale=1.3750 span=55.00",
            "0.083333 pinch changed f2 (100.00,60.00) scale=1.4167 span=56.67",
            "0.091667 pinch changed f2 (100.00,60.00) scale=1.4583 span=58.33",
            "0.100000 pinch changed f2 (100.00,60.00) scale=1.5000 span=60.00",
            "0.100000 explain ended pinch: 1 finger, needs 2 or more",
            "0.100000 pinch ended f2 (100.00,60.00) scale=1.5000 span=60.00",
            "0.100000 explain failed rotate: a new round opened for the contacts still down",
            "0.100000 explain failed pan: a new round opened for the contacts still down",
            "0.100000 explain failed tap: its contacts were down before this round: a tap starts with its contacts landing",
            "0.100000 explain failed edgeSwipe: distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)",
            "0.600000 explain won longPress: held 500.0 ms ≥ 500.0 ms (margin 0.0 ms)",
            "0.600000 longPress began f1 (70.00,60.00) duration=500ms",
            "0.600000 explain failed swipe: lost to longPress, which won first and is not simultaneous with it",
            "0.600000 explain failed pinch: lost to longPress, which won first and is not simultaneous with it",
            "0.600000 explain failed rotate: lost to longPress, which won first and is not simultaneous with it",
            "0.600000 explain failed pan: lost to longPress, which won first and is not simultaneous with it",
            "0.700000 longPress ended f1 (70.00,60.00) duration=600ms",
            "1.100000 explain failed longPress: 2 fingers, needs 1",
            "1.100000 explain failed edgeSwipe: distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)",
            "1.125000 explain won pinch: span change 5.00 mm ≥ 5.00 mm (margin 0.00 mm)",
            "1.125000 pinch began f2 (100.00,60.00) scale=1.1250 span=45.00",
            "1.125000 explain failed tap: lost to pinch, which won first and is not simultaneous with it",
            "1.125000 explain failed swipe: lost to pinch, which won first and is not simultaneous with it",
            "1.133333 pinch changed f2 (100.00,60.00) scale=1.1667 span=46.67",
            "1.141667 pinch changed f2 (100.00,60.00) scale=1.2083 span=48.33",
            "1.150000 pinch changed f2 (100.00,60.00) scale=1.2500 span=50.00",
            "1.158333 pinch changed f2 (100.00,60.00) scale=1.2917 span=51.67",
            "1.166667 pinch changed f2 (100.00,60.00) scale=1.3333 span=53.33",
            "1.175000 pinch changed f2 (100.00,60.00) scale=1.3750 span=55.00",
            "1.183333 pinch changed f2 (100.00,60.00) scale=1.4167 span=56.67",
            "1.191667 pinch changed f2 (100.00,60.00) scale=1.4583 span=58.33",
            "1.200000 pinch changed f2 (100.00,60.00) scale=1.5000 span=60.00",
            "1.200000 explain ended pinch: 1 finger, needs 2 or more",
            "1.200000 pinch ended f2 (100.00,60.00) scale=1.5000 span=60.00",
            "1.200000 explain failed rotate: a new round opened for the contacts still down",
            "1.200000 explain failed pan: a new round opened for the contacts still down",
            "1.200000 explain failed tap: its contacts were down before this round: a tap starts with its contacts landing",
            "1.200000 explain failed edgeSwipe: distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)",
            "1.300000 explain failed longPress: held 100.0 ms < 500.0 ms (short by 400.0 ms)",
            "1.300000 explain failed swipe: distance 0.00 mm < 15.00 mm (short by 15.00 mm)",
            "1.300000 explain failed pinch: span change 0.00 mm < 5.00 mm (short by 5.00 mm)",
            "1.300000 explain failed rotate: rotation 0.00° < 10.00° (short by 10.00°)",
            "1.300000 explain failed pan: lifted before moving the slop",
        ])
        try h.expectNothingPending()
    }
}
