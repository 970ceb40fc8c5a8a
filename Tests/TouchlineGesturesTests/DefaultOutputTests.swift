import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

// What the default graph makes of the three motions a newcomer tries first, one test per
// sentence of docs/gestures.md#what-the-default-graph-reports, so the text cannot drift from
// the output. Whole logs with explain lines (the "why"), as JSON: 30 Hz keeps them short (the
// winners do not depend on the rate, PropertyTests).

/// Compares the whole JSON log; on a mismatch prints the actual one as Swift source to review.
func expectJSONLog(_ h: GestureHarness, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    let actual = h.jsonLines
    if actual != expected {
        print("ACTUAL \(sourceLocation.fileName):\(sourceLocation.line)\n" + actual.map { "            #\"\($0)\"#," }.joined(separator: "\n") + "\nEND")
    }
    #expect(actual == expected, sourceLocation: sourceLocation)
}

@Suite struct DefaultOutputTests {
    /// One finger, 40 mm to the right in 100 ms: the pan begins once the finger has moved 3 mm and
    /// follows it; at the lift the stroke is also a swipe (15 mm or more at 100 mm/s or more, within
    /// 500 ms), reported alongside because swipe and pan are simultaneous.
    @Test func aQuickStrokeIsAPanAndASwipe() throws {
        var h = try GestureHarness(rate: 30, explain: true)
        h.down(0, at: p(60, 60))
        h.move(0, to: p(100, 60), over: 100)
        h.up(0)
        expectJSONLog(h, [
            #"{"v":1,"seq":0,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":1,"x":60.00,"y":60.00,"recognizer":"edgeSwipe","reason":"distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)","contacts":[0]}"#,
            #"{"v":1,"seq":1,"time":0.033333,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":1,"x":73.33,"y":60.00,"recognizer":"tap","reason":"movement 13.33 mm > 3.00 mm (by 10.33 mm)","contacts":[0]}"#,
            #"{"v":1,"seq":2,"time":0.033333,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":1,"x":73.33,"y":60.00,"recognizer":"longPress","reason":"movement 13.33 mm > 3.00 mm (by 10.33 mm)","contacts":[0]}"#,
            #"{"v":1,"seq":3,"time":0.033333,"device":0,"gesture":"explain","phase":"won","target":"surface","fingers":1,"x":73.33,"y":60.00,"recognizer":"pan","reason":"translation 13.33 mm ≥ 3.00 mm (margin 10.33 mm)","contacts":[0]}"#,
            #"{"v":1,"seq":4,"time":0.033333,"device":0,"gesture":"pan","phase":"began","target":"surface","fingers":1,"x":73.33,"y":60.00,"recognizer":"pan","dx":13.33,"dy":0.00,"vx":400.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":5,"time":0.066667,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":86.67,"y":60.00,"recognizer":"pan","dx":26.67,"dy":0.00,"vx":400.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":6,"time":0.100000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":100.00,"y":60.00,"recognizer":"pan","dx":40.00,"dy":0.00,"vx":400.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":7,"time":0.100000,"device":0,"gesture":"explain","phase":"won","target":"surface","fingers":1,"x":100.00,"y":60.00,"recognizer":"swipe","reason":"simultaneous with pan, which already won","contacts":[0]}"#,
            #"{"v":1,"seq":8,"time":0.100000,"device":0,"gesture":"swipe","phase":"recognized","target":"surface","fingers":1,"x":100.00,"y":60.00,"recognizer":"swipe","direction":"right","dx":40.00,"dy":0.00,"vx":400.0,"vy":0.0,"duration":0.100000,"contacts":[0]}"#,
            #"{"v":1,"seq":9,"time":0.100000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":1,"x":100.00,"y":60.00,"recognizer":"pinch","reason":"lost to swipe, which won first and is not simultaneous with it","contacts":[0]}"#,
            #"{"v":1,"seq":10,"time":0.100000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":1,"x":100.00,"y":60.00,"recognizer":"rotate","reason":"lost to swipe, which won first and is not simultaneous with it","contacts":[0]}"#,
            #"{"v":1,"seq":11,"time":0.100000,"device":0,"gesture":"pan","phase":"ended","target":"surface","fingers":1,"x":100.00,"y":60.00,"recognizer":"pan","dx":40.00,"dy":0.00,"vx":400.0,"vy":0.0,"contacts":[0]}"#,
        ])
        try h.expectNothingPending()
    }

    /// The same finger, 20 mm in 400 ms (50 mm/s): a pan, and no swipe (too slow).
    @Test func aSlowStrokeIsOnlyAPan() throws {
        var h = try GestureHarness(rate: 30, explain: true)
        h.down(0, at: p(60, 60))
        h.move(0, to: p(80, 60), over: 400)
        h.up(0)
        expectJSONLog(h, [
            #"{"v":1,"seq":0,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":1,"x":60.00,"y":60.00,"recognizer":"edgeSwipe","reason":"distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)","contacts":[0]}"#,
            #"{"v":1,"seq":1,"time":0.066667,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":1,"x":63.33,"y":60.00,"recognizer":"tap","reason":"movement 3.33 mm > 3.00 mm (by 0.33 mm)","contacts":[0]}"#,
            #"{"v":1,"seq":2,"time":0.066667,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":1,"x":63.33,"y":60.00,"recognizer":"longPress","reason":"movement 3.33 mm > 3.00 mm (by 0.33 mm)","contacts":[0]}"#,
            #"{"v":1,"seq":3,"time":0.066667,"device":0,"gesture":"explain","phase":"won","target":"surface","fingers":1,"x":63.33,"y":60.00,"recognizer":"pan","reason":"translation 3.33 mm ≥ 3.00 mm (margin 0.33 mm)","contacts":[0]}"#,
            #"{"v":1,"seq":4,"time":0.066667,"device":0,"gesture":"pan","phase":"began","target":"surface","fingers":1,"x":63.33,"y":60.00,"recognizer":"pan","dx":3.33,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":5,"time":0.100000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":65.00,"y":60.00,"recognizer":"pan","dx":5.00,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":6,"time":0.133333,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":66.67,"y":60.00,"recognizer":"pan","dx":6.67,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":7,"time":0.166667,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":68.33,"y":60.00,"recognizer":"pan","dx":8.33,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":8,"time":0.200000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":70.00,"y":60.00,"recognizer":"pan","dx":10.00,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":9,"time":0.233333,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":71.67,"y":60.00,"recognizer":"pan","dx":11.67,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":10,"time":0.266667,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":73.33,"y":60.00,"recognizer":"pan","dx":13.33,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":11,"time":0.300000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":75.00,"y":60.00,"recognizer":"pan","dx":15.00,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":12,"time":0.333333,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":76.67,"y":60.00,"recognizer":"pan","dx":16.67,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":13,"time":0.366667,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":78.33,"y":60.00,"recognizer":"pan","dx":18.33,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":14,"time":0.400000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":1,"x":80.00,"y":60.00,"recognizer":"pan","dx":20.00,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
            #"{"v":1,"seq":15,"time":0.400000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":1,"x":80.00,"y":60.00,"recognizer":"swipe","reason":"average speed 50.0 mm/s < 100.0 mm/s (short by 50.0 mm/s)","contacts":[0]}"#,
            #"{"v":1,"seq":16,"time":0.400000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":1,"x":80.00,"y":60.00,"recognizer":"pinch","reason":"span change 0.00 mm < 5.00 mm (short by 5.00 mm)","contacts":[0]}"#,
            #"{"v":1,"seq":17,"time":0.400000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":1,"x":80.00,"y":60.00,"recognizer":"rotate","reason":"rotation 0.00° < 10.00° (short by 10.00°)","contacts":[0]}"#,
            #"{"v":1,"seq":18,"time":0.400000,"device":0,"gesture":"pan","phase":"ended","target":"surface","fingers":1,"x":80.00,"y":60.00,"recognizer":"pan","dx":20.00,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0]}"#,
        ])
        try h.expectNothingPending()
    }

    /// Two fingers 30 mm apart dragged 20 mm down together: one pan with `fingers` 2 (the pan
    /// follows their centroid); no pinch (their span does not change by 5 mm) and no rotate (they
    /// do not turn).
    @Test func aTwoFingerDragIsATwoFingerPan() throws {
        var h = try GestureHarness(rate: 30, explain: true)
        h.down([(0, p(80, 60)), (1, p(110, 60))])
        h.move([(0, p(80, 80)), (1, p(110, 80))], over: 400)
        h.up([0, 1])
        expectJSONLog(h, [
            #"{"v":1,"seq":0,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":95.00,"y":60.00,"recognizer":"longPress","reason":"2 fingers, needs 1","contacts":[0,1]}"#,
            #"{"v":1,"seq":1,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":95.00,"y":60.00,"recognizer":"edgeSwipe","reason":"distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":2,"time":0.066667,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":95.00,"y":63.33,"recognizer":"tap","reason":"movement 3.33 mm > 3.00 mm (by 0.33 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":3,"time":0.066667,"device":0,"gesture":"explain","phase":"won","target":"surface","fingers":2,"x":95.00,"y":63.33,"recognizer":"pan","reason":"translation 3.33 mm ≥ 3.00 mm (margin 0.33 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":4,"time":0.066667,"device":0,"gesture":"pan","phase":"began","target":"surface","fingers":2,"x":95.00,"y":63.33,"recognizer":"pan","dx":0.00,"dy":3.33,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":5,"time":0.100000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":65.00,"recognizer":"pan","dx":0.00,"dy":5.00,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":6,"time":0.133333,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":66.67,"recognizer":"pan","dx":0.00,"dy":6.67,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":7,"time":0.166667,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":68.33,"recognizer":"pan","dx":0.00,"dy":8.33,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":8,"time":0.200000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":70.00,"recognizer":"pan","dx":0.00,"dy":10.00,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":9,"time":0.233333,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":71.67,"recognizer":"pan","dx":0.00,"dy":11.67,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":10,"time":0.266667,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":73.33,"recognizer":"pan","dx":0.00,"dy":13.33,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":11,"time":0.300000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":75.00,"recognizer":"pan","dx":0.00,"dy":15.00,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":12,"time":0.333333,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":76.67,"recognizer":"pan","dx":0.00,"dy":16.67,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":13,"time":0.366667,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":78.33,"recognizer":"pan","dx":0.00,"dy":18.33,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":14,"time":0.400000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":80.00,"recognizer":"pan","dx":0.00,"dy":20.00,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":15,"time":0.400000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":95.00,"y":80.00,"recognizer":"swipe","reason":"average speed 50.0 mm/s < 100.0 mm/s (short by 50.0 mm/s)","contacts":[0,1]}"#,
            #"{"v":1,"seq":16,"time":0.400000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":95.00,"y":80.00,"recognizer":"pinch","reason":"span change 0.00 mm < 5.00 mm (short by 5.00 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":17,"time":0.400000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":95.00,"y":80.00,"recognizer":"rotate","reason":"rotation 0.00° < 10.00° (short by 10.00°)","contacts":[0,1]}"#,
            #"{"v":1,"seq":18,"time":0.400000,"device":0,"gesture":"pan","phase":"ended","target":"surface","fingers":2,"x":95.00,"y":80.00,"recognizer":"pan","dx":0.00,"dy":20.00,"vx":0.0,"vy":50.0,"contacts":[0,1]}"#,
        ])
        try h.expectNothingPending()
    }

    /// Two fingers 40 mm apart turning 60° about their midpoint: a rotate once they have turned 10°
    /// (and carried 3 mm along their circle); no pan (the midpoint stays put), no pinch, and no
    /// swipe: swipe loses to rotate, with which it is not simultaneous.
    @Test func aTwoFingerRotationInPlaceIsOnlyARotate() throws {
        var h = try GestureHarness(rate: 30, explain: true)
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.turn(about: p(100, 60), by: 1.0471975511965976, over: 300)
        h.up([0, 1])
        expectJSONLog(h, [
            #"{"v":1,"seq":0,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"longPress","reason":"2 fingers, needs 1","contacts":[0,1]}"#,
            #"{"v":1,"seq":1,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"edgeSwipe","reason":"distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":2,"time":0.066667,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"tap","reason":"movement 4.64 mm > 3.00 mm (by 1.64 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":3,"time":0.066667,"device":0,"gesture":"explain","phase":"won","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","reason":"rotation 13.33° ≥ 10.00° (margin 3.33°)","contacts":[0,1]}"#,
            #"{"v":1,"seq":4,"time":0.066667,"device":0,"gesture":"rotate","phase":"began","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.2327,"rotationVelocity":3.4906,"contacts":[0,1]}"#,
            #"{"v":1,"seq":5,"time":0.066667,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"swipe","reason":"lost to rotate, which won first and is not simultaneous with it","contacts":[0,1]}"#,
            #"{"v":1,"seq":6,"time":0.100000,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.3491,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":7,"time":0.133333,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.4654,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":8,"time":0.166667,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.5818,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":9,"time":0.200000,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.6981,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":10,"time":0.233333,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.8145,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":11,"time":0.266667,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.9308,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":12,"time":0.300000,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":1.0472,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":13,"time":0.300000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pinch","reason":"span change 0.00 mm < 5.00 mm (short by 5.00 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":14,"time":0.300000,"device":0,"gesture":"rotate","phase":"ended","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":1.0472,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":15,"time":0.300000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pan","reason":"lifted before moving the slop","contacts":[0,1]}"#,
        ])
        try h.expectNothingPending()
    }

    /// The same turn while the midpoint drifts 15 mm (as real hands do): rotate and pan together,
    /// since pan is simultaneous with rotate.
    @Test func aRotationWhoseMidpointMovesIsARotateAndAPan() throws {
        var h = try GestureHarness(rate: 30, explain: true)
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.move(over: 300) { t in
            let c = p(100 + 15 * t, 60), a = 1.0471975511965976 * t
            let dx = 20 * TouchScript.cosine(a), dy = 20 * TouchScript.sine(a)
            return [(0, p(c.x - dx, c.y - dy)), (1, p(c.x + dx, c.y + dy))]
        }
        h.up([0, 1])
        expectJSONLog(h, [
            #"{"v":1,"seq":0,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"longPress","reason":"2 fingers, needs 1","contacts":[0,1]}"#,
            #"{"v":1,"seq":1,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"edgeSwipe","reason":"distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":2,"time":0.066667,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":103.33,"y":60.00,"recognizer":"tap","reason":"movement 6.02 mm > 3.00 mm (by 3.02 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":3,"time":0.066667,"device":0,"gesture":"explain","phase":"won","target":"surface","fingers":2,"x":103.33,"y":60.00,"recognizer":"rotate","reason":"rotation 13.33° ≥ 10.00° (margin 3.33°)","contacts":[0,1]}"#,
            #"{"v":1,"seq":4,"time":0.066667,"device":0,"gesture":"rotate","phase":"began","target":"surface","fingers":2,"x":103.33,"y":60.00,"recognizer":"rotate","rotation":0.2327,"rotationVelocity":3.4906,"contacts":[0,1]}"#,
            #"{"v":1,"seq":5,"time":0.066667,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":103.33,"y":60.00,"recognizer":"swipe","reason":"lost to rotate, which won first and is not simultaneous with it","contacts":[0,1]}"#,
            #"{"v":1,"seq":6,"time":0.066667,"device":0,"gesture":"explain","phase":"won","target":"surface","fingers":2,"x":103.33,"y":60.00,"recognizer":"pan","reason":"simultaneous with rotate, which already won","contacts":[0,1]}"#,
            #"{"v":1,"seq":7,"time":0.066667,"device":0,"gesture":"pan","phase":"began","target":"surface","fingers":2,"x":103.33,"y":60.00,"recognizer":"pan","dx":3.33,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":8,"time":0.100000,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":105.00,"y":60.00,"recognizer":"rotate","rotation":0.3491,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":9,"time":0.100000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":105.00,"y":60.00,"recognizer":"pan","dx":5.00,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":10,"time":0.133333,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":106.67,"y":60.00,"recognizer":"rotate","rotation":0.4654,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":11,"time":0.133333,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":106.67,"y":60.00,"recognizer":"pan","dx":6.67,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":12,"time":0.166667,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":108.33,"y":60.00,"recognizer":"rotate","rotation":0.5818,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":13,"time":0.166667,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":108.33,"y":60.00,"recognizer":"pan","dx":8.33,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":14,"time":0.200000,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":110.00,"y":60.00,"recognizer":"rotate","rotation":0.6981,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":15,"time":0.200000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":110.00,"y":60.00,"recognizer":"pan","dx":10.00,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":16,"time":0.233333,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":111.67,"y":60.00,"recognizer":"rotate","rotation":0.8145,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":17,"time":0.233333,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":111.67,"y":60.00,"recognizer":"pan","dx":11.67,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":18,"time":0.266667,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":113.33,"y":60.00,"recognizer":"rotate","rotation":0.9308,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":19,"time":0.266667,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":113.33,"y":60.00,"recognizer":"pan","dx":13.33,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":20,"time":0.300000,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":115.00,"y":60.00,"recognizer":"rotate","rotation":1.0472,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":21,"time":0.300000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":115.00,"y":60.00,"recognizer":"pan","dx":15.00,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":22,"time":0.300000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":115.00,"y":60.00,"recognizer":"pinch","reason":"span change 0.00 mm < 5.00 mm (short by 5.00 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":23,"time":0.300000,"device":0,"gesture":"rotate","phase":"ended","target":"surface","fingers":2,"x":115.00,"y":60.00,"recognizer":"rotate","rotation":1.0472,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":24,"time":0.300000,"device":0,"gesture":"pan","phase":"ended","target":"surface","fingers":2,"x":115.00,"y":60.00,"recognizer":"pan","dx":15.00,"dy":0.00,"vx":50.0,"vy":0.0,"contacts":[0,1]}"#,
        ])
        try h.expectNothingPending()
    }

    /// The two fingers dragged 30 mm in 100 ms: the two-finger pan, and at the lift a swipe with
    /// `fingers` 2 (swipe is simultaneous with pan, as for one finger).
    @Test func aQuickTwoFingerDragIsAlsoATwoFingerSwipe() throws {
        var h = try GestureHarness(rate: 30, explain: true)
        h.down([(0, p(80, 60)), (1, p(110, 60))])
        h.move([(0, p(80, 90)), (1, p(110, 90))], over: 100)
        h.up([0, 1])
        expectJSONLog(h, [
            #"{"v":1,"seq":0,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":95.00,"y":60.00,"recognizer":"longPress","reason":"2 fingers, needs 1","contacts":[0,1]}"#,
            #"{"v":1,"seq":1,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":95.00,"y":60.00,"recognizer":"edgeSwipe","reason":"distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":2,"time":0.033333,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":95.00,"y":70.00,"recognizer":"tap","reason":"movement 10.00 mm > 3.00 mm (by 7.00 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":3,"time":0.033333,"device":0,"gesture":"explain","phase":"won","target":"surface","fingers":2,"x":95.00,"y":70.00,"recognizer":"pan","reason":"translation 10.00 mm ≥ 3.00 mm (margin 7.00 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":4,"time":0.033333,"device":0,"gesture":"pan","phase":"began","target":"surface","fingers":2,"x":95.00,"y":70.00,"recognizer":"pan","dx":0.00,"dy":10.00,"vx":0.0,"vy":300.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":5,"time":0.066667,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":80.00,"recognizer":"pan","dx":0.00,"dy":20.00,"vx":0.0,"vy":300.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":6,"time":0.100000,"device":0,"gesture":"pan","phase":"changed","target":"surface","fingers":2,"x":95.00,"y":90.00,"recognizer":"pan","dx":0.00,"dy":30.00,"vx":0.0,"vy":300.0,"contacts":[0,1]}"#,
            #"{"v":1,"seq":7,"time":0.100000,"device":0,"gesture":"explain","phase":"won","target":"surface","fingers":2,"x":95.00,"y":90.00,"recognizer":"swipe","reason":"simultaneous with pan, which already won","contacts":[0,1]}"#,
            #"{"v":1,"seq":8,"time":0.100000,"device":0,"gesture":"swipe","phase":"recognized","target":"surface","fingers":2,"x":95.00,"y":90.00,"recognizer":"swipe","direction":"down","dx":0.00,"dy":30.00,"vx":0.0,"vy":300.0,"duration":0.100000,"contacts":[0,1]}"#,
            #"{"v":1,"seq":9,"time":0.100000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":95.00,"y":90.00,"recognizer":"pinch","reason":"lost to swipe, which won first and is not simultaneous with it","contacts":[0,1]}"#,
            #"{"v":1,"seq":10,"time":0.100000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":95.00,"y":90.00,"recognizer":"rotate","reason":"lost to swipe, which won first and is not simultaneous with it","contacts":[0,1]}"#,
            #"{"v":1,"seq":11,"time":0.100000,"device":0,"gesture":"pan","phase":"ended","target":"surface","fingers":2,"x":95.00,"y":90.00,"recognizer":"pan","dx":0.00,"dy":30.00,"vx":0.0,"vy":300.0,"contacts":[0,1]}"#,
        ])
        try h.expectNothingPending()
    }

    /// A turn in place while the fingers spread from 40 to 60 mm: rotate, and pinch joins it once the
    /// span has changed 5 mm (pinch is simultaneous with rotate); still no pan, the midpoint stays.
    @Test func aTurnThatAlsoSpreadsIsARotateAndAPinch() throws {
        var h = try GestureHarness(rate: 30, explain: true)
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.turn(about: p(100, 60), by: 1.0471975511965976, scale: 1.5, over: 300)
        h.up([0, 1])
        expectJSONLog(h, [
            #"{"v":1,"seq":0,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"longPress","reason":"2 fingers, needs 1","contacts":[0,1]}"#,
            #"{"v":1,"seq":1,"time":0.000000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"edgeSwipe","reason":"distance from the nearest edge 60.00 mm > 3.00 mm (by 57.00 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":2,"time":0.066667,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"tap","reason":"movement 5.38 mm > 3.00 mm (by 2.38 mm)","contacts":[0,1]}"#,
            #"{"v":1,"seq":3,"time":0.066667,"device":0,"gesture":"explain","phase":"won","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","reason":"rotation 13.33° ≥ 10.00° (margin 3.33°)","contacts":[0,1]}"#,
            #"{"v":1,"seq":4,"time":0.066667,"device":0,"gesture":"rotate","phase":"began","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.2327,"rotationVelocity":3.4906,"contacts":[0,1]}"#,
            #"{"v":1,"seq":5,"time":0.066667,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"swipe","reason":"lost to rotate, which won first and is not simultaneous with it","contacts":[0,1]}"#,
            #"{"v":1,"seq":6,"time":0.100000,"device":0,"gesture":"explain","phase":"won","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pinch","reason":"simultaneous with rotate, which already won","contacts":[0,1]}"#,
            #"{"v":1,"seq":7,"time":0.100000,"device":0,"gesture":"pinch","phase":"began","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pinch","scale":1.1667,"scaleVelocity":1.6667,"span":46.67,"contacts":[0,1]}"#,
            #"{"v":1,"seq":8,"time":0.100000,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.3491,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":9,"time":0.133333,"device":0,"gesture":"pinch","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pinch","scale":1.2222,"scaleVelocity":1.6667,"span":48.89,"contacts":[0,1]}"#,
            #"{"v":1,"seq":10,"time":0.133333,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.4654,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":11,"time":0.166667,"device":0,"gesture":"pinch","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pinch","scale":1.2778,"scaleVelocity":1.6667,"span":51.11,"contacts":[0,1]}"#,
            #"{"v":1,"seq":12,"time":0.166667,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.5818,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":13,"time":0.200000,"device":0,"gesture":"pinch","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pinch","scale":1.3333,"scaleVelocity":1.6667,"span":53.33,"contacts":[0,1]}"#,
            #"{"v":1,"seq":14,"time":0.200000,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.6981,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":15,"time":0.233333,"device":0,"gesture":"pinch","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pinch","scale":1.3889,"scaleVelocity":1.6667,"span":55.56,"contacts":[0,1]}"#,
            #"{"v":1,"seq":16,"time":0.233333,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.8145,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":17,"time":0.266667,"device":0,"gesture":"pinch","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pinch","scale":1.4444,"scaleVelocity":1.6667,"span":57.78,"contacts":[0,1]}"#,
            #"{"v":1,"seq":18,"time":0.266667,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":0.9308,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":19,"time":0.300000,"device":0,"gesture":"pinch","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pinch","scale":1.5000,"scaleVelocity":1.6667,"span":60.00,"contacts":[0,1]}"#,
            #"{"v":1,"seq":20,"time":0.300000,"device":0,"gesture":"rotate","phase":"changed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":1.0472,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":21,"time":0.300000,"device":0,"gesture":"pinch","phase":"ended","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pinch","scale":1.5000,"scaleVelocity":1.6667,"span":60.00,"contacts":[0,1]}"#,
            #"{"v":1,"seq":22,"time":0.300000,"device":0,"gesture":"rotate","phase":"ended","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"rotate","rotation":1.0472,"rotationVelocity":3.4907,"contacts":[0,1]}"#,
            #"{"v":1,"seq":23,"time":0.300000,"device":0,"gesture":"explain","phase":"failed","target":"surface","fingers":2,"x":100.00,"y":60.00,"recognizer":"pan","reason":"lifted before moving the slop","contacts":[0,1]}"#,
        ])
        try h.expectNothingPending()
    }
}
