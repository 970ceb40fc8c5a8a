// Issue 31 item 2: "a won edge swipe follows only the contacts that started it (a later finger
// is not adopted, on the clone or in the events)". A left edge finger (c0) still undecided (still,
// or short of the slop) when a second finger (c1) lands away from the edge, at several places,
// lifting before or after c0; the edge swipe then wins on c0's motion. Each of its events names
// c0 alone, with one finger, in a kiosk graph (left edge, consuming) and in the default one.
// On 9b4ee5b (before GestureGraph.deliverSplit) all 48 default-graph scenarios fail: the edge
// swipe adopts c1 (`"fingers":2,"contacts":[0,1]`) and reports it after c0 lifted, or fails
// with two fingers down (no edgeSwipe at all). scripts/issue31/edge-own-contacts.sh replays the
// same scenarios through a built binary: 48 of 48 on 9b4ee5b, 0 of 48 on main.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

@Suite struct EdgeSwipeOwnContactsTests {
    /// The edge swipe's events that name another contact than c0, or more than one finger.
    static func strayEvents(_ script: TouchScript, _ configuration: GraphConfiguration) throws -> [String] {
        var pipeline = GesturePipeline(configuration: configuration)
        let surface = script.surface
        pipeline.start(device: 0, assembler: FrameAssembler(device: DeviceDescription(name: "script")), transform: nil,
                       surface: surface, driver: try GraphDriver(configuration: configuration, surface: surface))
        var stray: [String] = []
        var seen = 0
        func gesture(_ e: GestureEvent) {
            guard e.gesture != .explain, "\(e.recognizer)" == "edgeSwipe" else { return }
            seen += 1
            let ids = e.contacts.map { $0.description }
            if ids != ["c0"] || e.fingers != 1 { stray.append(e.logLine + " [" + ids.joined(separator: ",") + "]") }
        }
        for frame in script.frames { pipeline.feed(device: 0, frame: frame, emit: gesture) }
        pipeline.finish { gesture($0) }
        if seen == 0 { stray.append("no edgeSwipe event") }
        return stray
    }

    @Test func aFingerLandingMidScreenWhileTheEdgeSwipeIsUndecidedIsNotInItsEvents() throws {
        let kiosk = try GraphConfiguration.parse(toml: """
            [[recognizer]]
            kind = "edgeSwipe"
            edges = ["left"]
            consume = true

            [[recognizer]]
            kind = "pan"
            """, file: "kiosk.toml")
        var stray: [String] = []
        for wait in [10.0, 20, 40, 100] {
            for edgeMove in [0.0, 2] {
                for c1x in [15.0, 50, 100] {
                    for c1Lifts in [false, true] {
                        var script = TouchScript(rate: 100)
                        script.down(0, at: Point(x: 1, y: 60))
                        script.move(0, to: Point(x: 1 + edgeMove, y: 60), over: wait)
                        script.down(1, at: Point(x: c1x, y: 40))
                        script.move([(0, Point(x: 27, y: 60)), (1, Point(x: c1x, y: 45))], over: 100)
                        if c1Lifts { script.up(1) }
                        script.move(0, to: Point(x: 40, y: 60), over: 50)
                        script.up(0)
                        if !c1Lifts {
                            script.move(1, to: Point(x: c1x, y: 90), over: 100)
                            script.up(1)
                        }
                        for (name, configuration) in [("kiosk", kiosk), ("default", GraphConfiguration.default)] {
                            stray += try Self.strayEvents(script, configuration).map { "\(name) wait=\(wait) edgeMove=\(edgeMove) c1x=\(c1x) c1Lifts=\(c1Lifts): \($0)" }
                        }
                    }
                }
            }
        }
        #expect(stray == [])
    }
}
