// Pass-through (docs/live.md#pass-through): scripted touches in virtual time through the graph
// and the planner; the clone's whole output compared frame by frame, on every path: forwarded,
// held and released, held and dropped, the hold bound, and the clone's slots balanced.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

@Suite struct PassThroughTests {
    /// The default graph with `consume = true` on the recognizers named.
    static func consuming(_ names: Set<String>, in base: GraphConfiguration = .default) -> GraphConfiguration {
        var configuration = base
        for i in configuration.recognizers.indices where names.contains(configuration.recognizers[i].name) {
            configuration.recognizers[i].consume = true
        }
        return configuration
    }

    struct Run {
        var clone: [String] = []
        var gestures: [String] = []
        var reports: [String] = []
        var counters = PassThroughCounters()
        /// Step by step: the arena's decisions the planner was told (`0.010000 told pan won
        /// c0`), then the clone frames it wrote in that step.
        var timeline: [String] = []
    }

    /// The script's frames through a pipeline and its pass-through planner, as replay and the
    /// daemon step them: hold bounds and graph deadlines before each frame in time order, the
    /// frame, then the end (pending deadlines, then the clone's contacts lifted).
    /// `stopped`: the end is a stop (the daemon's SIGTERM) at the script's time: no deadline
    /// fires, the clone is closed at once.
    static func run(_ script: TouchScript, _ configuration: GraphConfiguration, slots: Int = 10, bound: PassThroughBound = .standard, stopped: Bool = false,
                    keepsReports: Bool = true) throws -> Run {
        var pipeline = GesturePipeline(configuration: configuration, passThrough: PassThroughSet(bound: bound, keepsReports: keepsReports))
        let surface = script.surface
        pipeline.start(device: 0, assembler: FrameAssembler(device: DeviceDescription(name: "script")), transform: nil,
                       surface: surface, driver: try GraphDriver(configuration: configuration, surface: surface))
        pipeline.passThrough.keepsDecisions = true
        pipeline.startPassThrough(device: 0, slotCount: slots)
        var out = Output()
        // After each step of the pipeline: what its planner was told, then what it wrote.
        func told() {
            for (_, d) in pipeline.passThrough.drainTold() {
                out.run.timeline.append("\(d.time) told \(configuration.recognizers[d.recognizer].name) \(d.verdict)"
                    + (d.contacts.count == 0 ? "" : " " + d.contacts.map { $0.description }.joined(separator: ",")))
            }
            out.run.timeline += out.step
            out.step = []
        }
        for frame in script.frames {
            pipeline.advance(before: frame.time, into: &out)
            told()
            pipeline.feed(device: 0, frame: frame, into: &out)
            told()
        }
        if !stopped {
            while let d = pipeline.nextDeadline { pipeline.advance(to: d, into: &out) }
        }
        told()
        pipeline.finishPassThrough(device: 0, at: script.time, into: &out)
        pipeline.finish(into: &out)
        out.run.counters = pipeline.passThrough.counters
        return out.run
    }

    /// The gestures, the clone's frames as lines, the hold reports.
    struct Output: PipelineSink {
        var run = Run()
        var step: [String] = []
        mutating func event(_ e: GestureEvent) { if e.gesture != .explain { run.gestures.append(e.logLine) } }
        mutating func clone(device: Int, _ f: PassThroughFrame) {
            guard let l = PassThroughTests.line(f) else { return }
            run.clone.append(l)
            step.append(l)
        }
        mutating func hold(device: Int, _ r: HoldReport) {
            run.reports.append("\(r.time) c\(r.contact.raw) \(r.outcome) held=\(r.held.microseconds / 1000)ms d=\(formatFixed(r.distance, decimals: 1))")
        }
    }

    /// `0.150000 s0#0 began (1.00,60.00); s1#1 ended (…)`: the clone's slot and tracking id;
    /// a contact that did not move is left out (the encoder writes nothing for it), and so is
    /// a frame of only those.
    static func line(_ f: PassThroughFrame) -> String? {
        let moved = f.contacts.filter { $0.contact.phase != .stationary }
        guard !moved.isEmpty else { return nil }
        return "\(f.time) " + moved.map { c in
            "s\(c.slot)#\(c.trackingID) \(c.contact.phase) (\(formatFixed(c.contact.position.x, decimals: 2)),\(formatFixed(c.contact.position.y, decimals: 2)))"
        }.joined(separator: "; ")
    }

    /// Every contact the clone saw go down, it saw lift, and no slot holds two at once.
    static func expectBalanced(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        var down: [String: String] = [:]
        for line in lines {
            for part in line.split(separator: " ", maxSplits: 1)[1].split(separator: ";") {
                let words = part.split(separator: " ")
                let slot = String(words[0].split(separator: "#")[0])
                switch words[1] {
                case "began":
                    #expect(down[slot] == nil, "slot \(slot) taken twice: \(line)", sourceLocation: sourceLocation)
                    down[slot] = String(words[0])
                case "ended": #expect(down.removeValue(forKey: slot) == String(words[0]), "lift of a contact not down: \(line)", sourceLocation: sourceLocation)
                default: #expect(down[slot] == String(words[0]), "motion of a contact not down: \(line)", sourceLocation: sourceLocation)
                }
            }
        }
        #expect(down.isEmpty, "still down on the clone: \(down)", sourceLocation: sourceLocation)
    }

    /// A tap in the middle: no consuming recognizer could take it (the edge swipe refused it at
    /// its first frame, away from the edge), so every frame reaches the clone as it comes.
    @Test func aTapAwayFromTheEdgeIsForwardedInTheFrameItArrives() throws {
        var script = TouchScript()
        script.down(0, at: Point(x: 100, y: 60))
        script.wait(80)
        script.up(0)
        let run = try Self.run(script, Self.consuming(["edgeSwipe"]))
        #expect(run.clone == [
            "0.000000 s0#0 began (100.00,60.00)",
            "0.080000 s0#0 ended (100.00,60.00)",
        ])
        #expect(run.reports == ["0.000000 c0 forwarded held=0ms d=0.0"])
        #expect(run.counters.forwarded == 1 && run.counters.holdTimes.isEmpty)
        Self.expectBalanced(run.clone)
    }

    /// A left edge swipe with `consume = true`: held from its first frame (the edge swipe could
    /// claim it), dropped when the edge swipe wins: the clone sees nothing, the gesture goes out.
    @Test func aConsumedEdgeSwipeNeverReachesTheClone() throws {
        var script = TouchScript()
        script.down(0, at: Point(x: 1, y: 60))
        script.move(0, to: Point(x: 41, y: 60), over: 100)
        script.up(0)
        let run = try Self.run(script, Self.consuming(["edgeSwipe"]))
        #expect(run.clone == [])
        #expect(run.gestures.first?.contains("edgeSwipe began") == true)
        #expect(run.reports == ["0.008333 c0 dropped held=8ms d=3.3"])
        #expect(run.counters.dropped == 1 && run.counters.holdTimes == [8333])
    }

    /// A touch in the edge zone that moves along the edge: the edge swipe fails after its slop,
    /// and the held frames go out at once, in order, in that frame; then frames as they come.
    @Test func aTouchTheEdgeSwipeFailsIsReleasedWithItsHeldFrames() throws {
        var script = TouchScript(rate: 100)
        script.down(0, at: Point(x: 1, y: 20))
        script.move(0, to: Point(x: 1, y: 50), over: 60)
        script.up(0)
        let run = try Self.run(script, Self.consuming(["edgeSwipe"]))
        #expect(run.clone == [
            "0.010000 s0#0 began (1.00,20.00)",
            "0.010000 s0#0 moved (1.00,25.00)",
            "0.020000 s0#0 moved (1.00,30.00)",
            "0.030000 s0#0 moved (1.00,35.00)",
            "0.040000 s0#0 moved (1.00,40.00)",
            "0.050000 s0#0 moved (1.00,45.00)",
            "0.060000 s0#0 moved (1.00,50.00)",
            "0.060000 s0#0 ended (1.00,50.00)",
        ])
        #expect(run.reports == ["0.010000 c0 released held=10ms d=5.0"])
        Self.expectBalanced(run.clone)
    }

    /// A finger resting in the edge zone: nothing decides, so the hold bound (150 ms) releases
    /// it on its own deadline, with no frame; from then on the edge swipe cannot take it from
    /// the clone (it wins later, and the app still gets the rest of the touch).
    @Test func theHoldBoundReleasesAStillFingerAtItsDeadline() throws {
        var script = TouchScript(rate: 100)
        script.down(0, at: Point(x: 1, y: 60))
        script.wait(200)
        script.move(0, to: Point(x: 11, y: 60), over: 20)
        script.up(0)
        let run = try Self.run(script, Self.consuming(["edgeSwipe"]))
        #expect(run.clone == [
            "0.150000 s0#0 began (1.00,60.00)",
            "0.210000 s0#0 moved (6.00,60.00)",
            "0.220000 s0#0 moved (11.00,60.00)",
            "0.220000 s0#0 ended (11.00,60.00)",
        ])
        #expect(run.reports == ["0.150000 c0 bound held=150ms d=0.0"])
        #expect(run.gestures.first?.contains("edgeSwipe began") == true)
        Self.expectBalanced(run.clone)
    }

    /// The distance bound: a finger that moves 16 mm while a consuming recognizer is still
    /// undecided (a two-finger tap waits for a second finger or the lift; a 40 mm bound keeps
    /// the time out of the way) is released in that frame.
    @Test func theDistanceBoundReleasesAMovingFinger() throws {
        var tap = TapParameters()
        tap.fingers = 2
        tap.slop = 100
        let configuration = GraphConfiguration(targets: [.surface()], recognizers: [RecognizerSpec(name: "twoFingerTap", kind: .tap(tap))])
        var script = TouchScript(rate: 100)
        script.down(0, at: Point(x: 100, y: 60))
        script.move(0, to: Point(x: 120, y: 60), over: 40)
        script.up(0)
        let run = try Self.run(script, Self.consuming(["twoFingerTap"], in: configuration), bound: PassThroughBound(time: .milliseconds(1000), distance: 16))
        #expect(run.clone == [
            "0.040000 s0#0 began (100.00,60.00)",
            "0.040000 s0#0 moved (105.00,60.00)",
            "0.040000 s0#0 moved (110.00,60.00)",
            "0.040000 s0#0 moved (115.00,60.00)",
            "0.040000 s0#0 moved (120.00,60.00)",
            "0.040000 s0#0 ended (120.00,60.00)",
        ])
        #expect(run.reports == ["0.040000 c0 bound held=40ms d=20.0"])
        Self.expectBalanced(run.clone)
    }

    static var twoFingerTap: GraphConfiguration {
        var tap = TapParameters()
        tap.fingers = 2
        return consuming(["twoFingerTap"], in: GraphConfiguration(targets: [.surface()], recognizers: [
            RecognizerSpec(name: "twoFingerTap", kind: .tap(tap)),
            RecognizerSpec(name: "pan", kind: .pan(PanParameters())),
        ]))
    }

    /// A consuming two-finger tap that wins after one of its fingers lifted: both were held
    /// (the first lift too), both are dropped; the clone saw nothing, so nothing is unbalanced.
    @Test func aConsumingWinAfterAPartialLiftDropsEveryHeldFrame() throws {
        var script = TouchScript()
        script.down([(0, Point(x: 90, y: 60)), (1, Point(x: 110, y: 60))])
        script.wait(60)
        script.up(0)
        script.wait(20)
        script.up(1)
        let run = try Self.run(script, Self.twoFingerTap)
        #expect(run.gestures == ["0.080000 tap recognized [twoFingerTap] f2 (100.00,60.00) count=1"])
        #expect(run.clone == [])
        #expect(run.reports == ["0.080000 c0 dropped held=80ms d=0.0", "0.080000 c1 dropped held=80ms d=0.0"])
    }

    /// A consuming two-finger tap that wins after its first finger was released (the join
    /// window, 120 ms, passed with no second finger: the tap could not take it as a two-finger
    /// one landing together; main held it to the hold bound, 150 ms): that finger is the app's
    /// now and goes on to its lift on the clone; the second, held, is dropped. The clone's
    /// slots stay balanced.
    @Test func aConsumingWinAfterOneFingerWasReleasedKeepsTheClonesSlotsBalanced() throws {
        var script = TouchScript()
        script.down(0, at: Point(x: 90, y: 60))
        script.wait(160)
        script.down(1, at: Point(x: 110, y: 60))
        script.wait(40)
        script.up([0, 1])
        let run = try Self.run(script, Self.twoFingerTap)
        #expect(run.gestures == ["0.200000 tap recognized [twoFingerTap] f2 (100.00,60.00) count=1"])
        #expect(run.clone == [
            "0.120000 s0#0 began (90.00,60.00)",
            "0.200000 s0#0 ended (90.00,60.00)",
        ])
        #expect(run.reports == ["0.120000 c0 released held=120ms d=0.0", "0.200000 c1 dropped held=40ms d=0.0"])
        Self.expectBalanced(run.clone)
    }

    /// The clone's own slots and tracking ids: a slot is taken by the lowest free one, freed
    /// from the frame after its lift (here a lift and a landing in two frames of one instant:
    /// slot 0 again, a new tracking id). The second finger lands on the edge while the first
    /// is down: the target's one arena had the edge swipe fail on the first finger (its
    /// centroid away from the edge), so nothing can claim the second and it goes out at once.
    @Test func eachContactHasItsOwnSlotAndTrackingID() throws {
        var script = TouchScript()
        script.down(0, at: Point(x: 100, y: 60))
        script.wait(20)
        script.down(1, at: Point(x: 1, y: 60))
        script.wait(20)
        script.up(0)
        script.down(0, at: Point(x: 150, y: 60))
        script.wait(20)
        script.up([0, 1])
        let run = try Self.run(script, Self.consuming(["edgeSwipe"]))
        #expect(run.clone == [
            "0.000000 s0#0 began (100.00,60.00)",
            "0.020000 s1#1 began (1.00,60.00)",
            "0.040000 s0#0 ended (100.00,60.00)",
            "0.040000 s0#2 began (150.00,60.00)",
            "0.060000 s1#1 ended (1.00,60.00); s0#2 ended (150.00,60.00)",
        ])
        Self.expectBalanced(run.clone)
    }

    /// The end of input with a finger down on the clone: it is lifted there, at the end's
    /// time (the end of a trace first fires what was pending, here the long press at 0.5 s).
    /// A stop while a finger is held (the daemon's SIGTERM): dropped, the clone never saw it.
    /// The end of a trace with a finger held: time runs on as for the graph's deadlines, and
    /// the long press's, which rejects the edge swipe, releases it.
    @Test func theEndLiftsWhatIsDownAndDropsWhatIsHeld() throws {
        var script = TouchScript()
        script.down(0, at: Point(x: 100, y: 60))
        script.wait(10)
        let forwarded = try Self.run(script, Self.consuming(["edgeSwipe"]))
        #expect(forwarded.clone == ["0.000000 s0#0 began (100.00,60.00)", "0.500000 s0#0 ended (100.00,60.00)"])
        let stopped = try Self.run(script, Self.consuming(["edgeSwipe"]), stopped: true)
        #expect(stopped.clone == ["0.000000 s0#0 began (100.00,60.00)", "0.010000 s0#0 ended (100.00,60.00)"])
        var held = TouchScript()
        held.down(0, at: Point(x: 1, y: 60))
        held.wait(10)
        let unbounded = PassThroughBound(time: .milliseconds(1000), distance: 16)
        let released = try Self.run(held, Self.consuming(["edgeSwipe"]), bound: unbounded)
        #expect(released.clone == ["0.500000 s0#0 began (1.00,60.00)", "0.500000 s0#0 ended (1.00,60.00)"])
        #expect(released.reports == ["0.500000 c0 released held=500ms d=0.0"])
        let edgeOnly = GraphConfiguration(targets: [.surface()], recognizers: [RecognizerSpec(name: "edgeSwipe", kind: .edgeSwipe())])
        let run = try Self.run(held, Self.consuming(["edgeSwipe"], in: edgeOnly), bound: unbounded, stopped: true)
        #expect(run.clone == [])
        #expect(run.reports == ["0.010000 c0 dropped held=10ms d=0.0"])
    }

    /// A kiosk's menu on the left edge, `consume = true`, with the edge swipe and a pan.
    static func kiosk(edges: String) throws -> GraphConfiguration {
        try GraphConfiguration.parse(toml: """
            [[recognizer]]
            kind = "edgeSwipe"
            \(edges)
            consume = true

            [[recognizer]]
            kind = "pan"
            """, file: "kiosk.toml")
    }

    /// A pull-down from the top (a browser's pull-to-refresh), then a left edge swipe.
    static var pullDownThenLeftSwipe: TouchScript {
        var script = TouchScript(rate: 100)
        script.down(0, at: Point(x: 100, y: 1))
        script.move(0, to: Point(x: 100, y: 31), over: 30)
        script.up(0)
        script.wait(200)
        script.down(1, at: Point(x: 1, y: 60))
        script.move(1, to: Point(x: 31, y: 60), over: 30)
        script.up(1)
        return script
    }

    /// `edges = ["left"]` on a consuming edge swipe: only the left edge is watched, held and
    /// consumed. The pull-down lands in the top margin but the edge swipe refuses it at its
    /// first frame, so every frame of it reaches the clone as it comes (and it makes no
    /// `edgeSwipe`); the left edge swipe is held and dropped. With every edge watched (the
    /// default, all main had) the pull-down is held and dropped too: the app never sees it.
    @Test func aLeftOnlyEdgeSwipeLeavesTheOtherEdgesToTheApp() throws {
        let run = try Self.run(Self.pullDownThenLeftSwipe, Self.kiosk(edges: "edges = [\"left\"]"))
        #expect(run.clone == [
            "0.000000 s0#0 began (100.00,1.00)",
            "0.010000 s0#0 moved (100.00,11.00)",
            "0.020000 s0#0 moved (100.00,21.00)",
            "0.030000 s0#0 moved (100.00,31.00)",
            "0.030000 s0#0 ended (100.00,31.00)",
        ])
        #expect(run.reports == ["0.000000 c0 forwarded held=0ms d=0.0", "0.240000 c1 dropped held=10ms d=10.0"])
        #expect(run.gestures.filter { $0.contains("edgeSwipe") }.map { String($0.split(separator: " ")[1...2].joined(separator: " ")) }
            == ["edgeSwipe began", "edgeSwipe changed", "edgeSwipe changed", "edgeSwipe ended"])
        #expect(run.gestures.allSatisfy { !$0.contains("edgeSwipe") || $0.contains(" left d=") })
        Self.expectBalanced(run.clone)

        let every = try Self.run(Self.pullDownThenLeftSwipe, Self.kiosk(edges: ""))
        #expect(every.clone == [])
        #expect(every.reports == ["0.010000 c0 dropped held=10ms d=10.0", "0.240000 c1 dropped held=10ms d=10.0"])
    }

    /// `edges` is read as a list of edge names; a name it does not know is refused at its place
    /// in the list, an empty list and a bare string at the value.
    @Test func edgesIsAListOfEdgeNamesCheckedAtItsPlace() throws {
        let leftAndBottom = try Self.kiosk(edges: "edges = [\"left\", \"bottom\"]").recognizers[0].kind
        let every = try Self.kiosk(edges: "edges = [\"top\", \"left\", \"bottom\", \"right\", \"top\"]").recognizers[0].kind
        #expect(every == (try Self.kiosk(edges: "")).recognizers[0].kind && leftAndBottom != every)
        func refused(_ edges: String) -> String {
            do {
                _ = try Self.kiosk(edges: edges)
                return "parsed"
            } catch {
                return "\(error)"
            }
        }
        #expect(refused("edges = [\"left\", \"lfet\"]") == #"kiosk.toml:3:18: found "lfet" for edgeSwipe.edges; expected "left", "right", "top" or "bottom""#)
        #expect(refused("edges = []") == #"kiosk.toml:3:9: found an empty list for edgeSwipe.edges; expected one or more of "left", "right", "top" or "bottom"; without any, leave the key out (all of them)"#)
        #expect(refused("edges = \"left\"") == #"kiosk.toml:3:9: found "left" for edgeSwipe.edges; expected a list of one or more of "left", "right", "top" or "bottom" (["left"])"#)
    }

    /// A two-slot panel: a tap on a menu strip whose consuming double tap keeps it held (it
    /// waits for a second tap) while two fingers land on the content and take both clone
    /// slots. The hold bound releases the tap at 150 ms with no slot free: it waits, still
    /// held, and goes out whole (down and up) in the frame after the first content finger's
    /// lift frees a slot. Counted once (bound), its wait besides; the summary prints every
    /// counter. Main lost the tap (never sent), reported it `bound` then `overflow`, and its
    /// summary counted it released.
    @Test func aReleasedTapWaitsForAFreeCloneSlotAndIsNeverLost() throws {
        let configuration = try GraphConfiguration.parse(toml: """
            [[target]]
            name = "menu"
            rect = [0, 0, 20, 120]
            z = 1

            [[target]]
            name = "content"
            rect = [0, 0, 200, 120]

            [[recognizer]]
            name = "menuDoubleTap"
            kind = "tap"
            taps = 2
            target = "menu"
            consume = true

            [[recognizer]]
            kind = "pan"
            target = "content"
            """, file: "menu.toml")
        var script = TouchScript(rate: 100)
        script.down(0, at: Point(x: 5, y: 60))
        script.wait(10)
        script.down(1, at: Point(x: 100, y: 60))
        script.wait(30)
        script.up(0)
        script.wait(10)
        script.down(2, at: Point(x: 150, y: 60))
        script.wait(150)
        script.up(1)
        script.wait(20)
        script.up(2)
        let run = try Self.run(script, configuration, slots: 2)
        #expect(run.clone == [
            "0.010000 s0#0 began (100.00,60.00)",
            "0.050000 s1#1 began (150.00,60.00)",
            "0.200000 s0#0 ended (100.00,60.00)",
            "0.200000 s0#2 began (5.00,60.00)",
            "0.200000 s0#2 ended (5.00,60.00)",
            "0.220000 s1#1 ended (150.00,60.00)",
        ])
        #expect(run.reports == [
            "0.010000 c1 forwarded held=0ms d=0.0",
            "0.050000 c2 forwarded held=0ms d=0.0",
            "0.150000 c0 bound held=150ms d=0.0",
        ])
        #expect(run.counters.summary
            == "2 contacts sent at once, 0 released, 1 released by the hold bound, 0 dropped; held p50 150.0 ms, max 150.0 ms; 1 waited for a free clone slot")
        Self.expectBalanced(run.clone)
    }

    /// A consuming recognizer that cannot claim before its hold bound releases the contacts it
    /// could take never keeps a touch from the clone: a consuming three-finger long press
    /// (500 ms) with the standard bound (150 ms), which main's `--check-config` said was ok.
    /// Refused with both numbers and the fix, at `consume` (or the `hold` that is too short);
    /// with a hold long enough it is read. The same for a distance: a consuming 20 mm swipe
    /// against the standard 16 mm.
    @Test func aConsumingRecognizerThatCannotClaimWithinItsHoldIsRefused() {
        func check(_ toml: String) -> String {
            do {
                _ = try GraphConfiguration.parse(toml: toml, file: "kiosk.toml")
                return "ok"
            } catch {
                return error.description
            }
        }
        let press = "[[recognizer]]\nname = \"threeFingerPress\"\nkind = \"longPress\"\nfingers = 3\nconsume = true\n"
        #expect(check(press) == """
            kiosk.toml:5:1: recognizer 'threeFingerPress' (longPress) claims 500 ms after its contacts land at the earliest, but with consume = true a contact it could take is held at most 150 ms (the standard hold bound), so it would never keep a touch from the clone: raise hold to at least 500 ms (hold = "500ms"; fingers that land one after another need a little more)
            """)
        #expect(check(press + "hold = \"400ms\"\n") == """
            kiosk.toml:6:1: recognizer 'threeFingerPress' (longPress) claims 500 ms after its contacts land at the earliest, but with consume = true a contact it could take is held at most 400 ms (its own hold bound), so it would never keep a touch from the clone: raise hold to at least 500 ms (hold = "500ms"; fingers that land one after another need a little more)
            """)
        #expect(check(press + "hold = \"600ms\"\n") == "ok")
        #expect(check("[[recognizer]]\nkind = \"swipe\"\nminimumDistance = 20\nconsume = true\n") == """
            kiosk.toml:4:1: recognizer 'swipe' (swipe) claims after a contact moved 20 mm at the least, but with consume = true a contact it could take is held only until it moved 16 mm (the standard hold bound), so it would never keep a touch from the clone: raise holdDistance above 20 mm (holdDistance = "21mm")
            """)
        #expect(check("[[recognizer]]\nkind = \"swipe\"\nminimumDistance = 20\nconsume = true\nholdDistance = \"80mm\"\n") == "ok")
    }

    /// A daemon's planners (no `--explain`) keep nothing per contact: 1,000 taps at the edge,
    /// each held until the edge swipe fails at its lift, leave no report, the latest 64 hold
    /// times, and the p50 and maximum over all of them from the fixed histogram. Main kept a
    /// report and a hold time per contact for the device's life.
    @Test func aPlannerWithoutExplainKeepsNothingPerContact() throws {
        var script = TouchScript(rate: 100)
        for _ in 0..<1000 {
            script.down(0, at: Point(x: 1, y: 60))
            script.wait(20)
            script.up(0)
            script.wait(20)
        }
        let run = try Self.run(script, Self.consuming(["edgeSwipe"]), keepsReports: false)
        #expect(run.reports == [])
        #expect(run.counters.released == 1000 && run.counters.holdTimes == Array(repeating: 20_000, count: 64))
        #expect(run.counters.holds.count == 1000)
        #expect(run.counters.summary == "0 contacts sent at once, 1000 released, 0 released by the hold bound, 0 dropped; held p50 20.0 ms, max 20.0 ms; 0 waited for a free clone slot")
        #expect(run.clone.count == 2000)
    }

    /// Issue 31, item 2: per contact, not per target. A consumed left edge swipe, and a second
    /// finger landing mid-screen 0.17 s into it that drags for 2 s. No consuming recognizer can
    /// take that finger (it landed outside the edge swipe's zone), so every frame of it reaches
    /// the clone as it comes, in a slot of its own; the edge swipe follows only the finger that
    /// started it and ends at that finger's lift, and the drag becomes a pan there (a new
    /// round for the finger still down). On bead128 the drag was dropped whole (the planner
    /// asked the target's arena, which the edge swipe had won) and the edge swipe adopted it,
    /// reporting a left `edgeSwipe` for 2 s after the edge finger lifted.
    @Test func aFingerLandingMidScreenDuringAConsumedEdgeSwipeReachesTheCloneWhole() throws {
        var script = TouchScript(rate: 20)
        script.down(0, at: Point(x: 1, y: 60))
        script.move(0, to: Point(x: 17, y: 60), over: 100)
        script.wait(70)
        script.down(1, at: Point(x: 100, y: 40))
        script.move([(0, Point(x: 27, y: 60)), (1, Point(x: 100, y: 45))], over: 100)
        script.up(0)
        script.move(1, to: Point(x: 100, y: 100), over: 1900)
        script.up(1)
        let run = try Self.run(script, Self.kiosk(edges: "edges = [\"left\"]"))
        // The drag's own frames, at their own times: the whole clone output.
        let drag = script.frames.compactMap { f -> String? in
            guard let c = f.contacts.first(where: { $0.id == ContactID(1) && $0.phase != .stationary }) else { return nil }
            return "\(f.time) s0#0 \(c.phase) (\(formatFixed(c.position.x, decimals: 2)),\(formatFixed(c.position.y, decimals: 2)))"
        }
        #expect(drag.count == 42 && drag.first == "0.170000 s0#0 began (100.00,40.00)" && drag.last == "2.170000 s0#0 ended (100.00,100.00)")
        #expect(run.clone == drag)
        #expect(run.reports == ["0.050000 c0 dropped held=50ms d=8.0", "0.170000 c1 forwarded held=0ms d=0.0"])
        // The edge swipe: its own finger only (f1), ended at that finger's lift (0.27 s).
        let edge = run.gestures.filter { $0.contains("edgeSwipe") }.map { $0.split(separator: " ")[0...4].joined(separator: " ") }
        #expect(edge == [
            "0.050000 edgeSwipe began f1 (9.00,60.00)",
            "0.100000 edgeSwipe changed f1 (17.00,60.00)",
            "0.220000 edgeSwipe changed f1 (22.00,60.00)",
            "0.270000 edgeSwipe changed f1 (27.00,60.00)",
            "0.270000 edgeSwipe ended f1 (27.00,60.00)",
        ])
        #expect(run.gestures.filter { $0.contains(" pan ") }.first?.hasPrefix("0.420000 pan began f1") == true, "\(run.gestures)")
        Self.expectBalanced(run.clone)
    }

    /// The arena tells the planner its decisions (issue 31, "decisions told"): two consuming
    /// recognizers (a left edge swipe `menu` and a `doubleTap`) and a non-consuming `pan`
    /// compete, and the planner hears each decision as the arena makes it, then writes. A drag
    /// mid-screen: the menu cannot take it (outside its zone) and is out at its first frame;
    /// the double tap could, so it is held, and released with its held frames when the double
    /// tap is out; the pan's win changes nothing for the clone. A swipe from the left edge:
    /// held for both, dropped when the menu wins it. Step by step, the whole timeline.
    @Test func thePlannerIsToldEachDecisionOfTheArena() throws {
        let configuration = try GraphConfiguration.parse(toml: """
            [[recognizer]]
            name = "menu"
            kind = "edgeSwipe"
            edges = ["left"]
            consume = true

            [[recognizer]]
            name = "doubleTap"
            kind = "tap"
            taps = 2
            consume = true

            [[recognizer]]
            name = "pan"
            kind = "pan"
            """, file: "kiosk.toml")
        var script = TouchScript(rate: 100)
        script.down(0, at: Point(x: 100, y: 60))
        script.move(0, to: Point(x: 110, y: 60), over: 30)
        script.up(0)
        script.wait(100)
        script.down(1, at: Point(x: 2, y: 60))
        script.move(1, to: Point(x: 12, y: 60), over: 20)
        script.up(1)
        let run = try Self.run(script, configuration)
        #expect(run.timeline == [
            "0.000000 told menu possible",
            "0.000000 told doubleTap possible",
            "0.000000 told pan possible",
            "0.000000 told menu out",
            "0.010000 told doubleTap out",
            "0.010000 told pan won c0",
            "0.010000 s0#0 began (100.00,60.00)",
            "0.010000 s0#0 moved (103.33,60.00)",
            "0.020000 s0#0 moved (106.67,60.00)",
            "0.030000 s0#0 moved (110.00,60.00)",
            "0.030000 told pan out",
            "0.030000 s0#0 ended (110.00,60.00)",
            "0.130000 told menu possible",
            "0.130000 told doubleTap possible",
            "0.130000 told pan possible",
            "0.140000 told menu won c1",
            "0.140000 told doubleTap out",
            "0.140000 told pan out",
            "0.150000 told menu out",
        ])
        #expect(run.reports == ["0.010000 c0 released held=10ms d=3.3", "0.140000 c1 dropped held=10ms d=5.0"])
        Self.expectBalanced(run.clone)
    }

    /// Issue 31, item 3(b): fingers that must land together. A consuming three-finger long
    /// press (with its own hold, 600 ms, so that it can decide at 500 ms) holds a lone finger
    /// only for the join window (120 ms): past it, with no other finger landed within the
    /// window, the press cannot take that finger, and it is released with its held frames
    /// (main held it to its lift, 300 ms: its whole touch). Three fingers landing within the window
    /// are held until the press wins them: dropped, the clone never sees them.
    @Test func aManyFingerConsumerHoldsALoneFingerOnlyForTheJoinWindow() throws {
        let configuration = try GraphConfiguration.parse(toml: """
            [[recognizer]]
            name = "threeFingerPress"
            kind = "longPress"
            fingers = 3
            consume = true
            hold = "600ms"

            [[recognizer]]
            kind = "tap"
            """, file: "kiosk.toml")
        var script = TouchScript(rate: 100)
        script.down(0, at: Point(x: 100, y: 60))
        script.wait(300)
        script.up(0)
        script.wait(200)
        script.down(1, at: Point(x: 80, y: 60))
        script.wait(30)
        script.down(2, at: Point(x: 100, y: 60))
        script.wait(30)
        script.down(3, at: Point(x: 120, y: 60))
        script.wait(600)
        script.up([1, 2, 3])
        let run = try Self.run(script, configuration)
        #expect(run.clone == [
            "0.120000 s0#0 began (100.00,60.00)",
            "0.300000 s0#0 ended (100.00,60.00)",
        ])
        #expect(run.reports == [
            "0.120000 c0 released held=120ms d=0.0",
            "1.000000 c1 dropped held=500ms d=0.0",
            "1.000000 c2 dropped held=470ms d=0.0",
            "1.000000 c3 dropped held=440ms d=0.0",
        ])
        #expect(run.gestures.contains { $0.hasPrefix("1.000000 longPress began [threeFingerPress] f3") }, "\(run.gestures)")
        Self.expectBalanced(run.clone)
    }

    /// Frames of (slot, tracking id, phase, x, y in device units) through a clone encoder of
    /// `device`, then `liftAll`: the events by name and value.
    static func encoded(_ device: DeviceDescription, _ frames: [[(Int32, Int32, ContactPhase, Int32, Int32)]], liftAll: Bool = false) -> [String] {
        let geometry = SurfaceGeometry(device: device)
        var encoder = PassThroughEncoder(device: device, geometry: geometry)
        var events: [InputEvent] = []
        let t = Timestamp(microseconds: 1000)
        for frame in frames {
            encoder.encode(PassThroughFrame(time: t, contacts: frame.map { slot, id, phase, x, y in
                PassThroughContact(slot: slot, trackingID: id, contact: Contact(
                    id: ContactID(UInt32(id)), phase: phase, position: geometry.millimetres(x: x, y: y), normalized: geometry.normalized(x: x, y: y)))
            }), into: &events)
        }
        if liftAll { encoder.liftAll(at: t, into: &events) }
        return events.map { "\(EventCodes.codeName(type: $0.type, code: $0.code) ?? "?") \($0.value)" }
    }

    /// The encoder writes what a kernel driver would for the clone: slot, tracking id and
    /// position of what changed, BTN_TOUCH and the finger-count tool the device declares,
    /// ABS_X/Y following the first contact down, SYN_REPORT; nothing for a frame where nothing
    /// changed; and −1 on the lift.
    @Test func theEncoderWritesOnlyWhatChangedInTheDevicesUnits() {
        var device = DeviceDescription(name: "panel")
        device.codes[EventCodes.EV_KEY] = [EventCodes.BTN_TOUCH, EventCodes.BTN_TOOL_FINGER, EventCodes.BTN_TOOL_DOUBLETAP]
        device.codes[EventCodes.EV_ABS] = [EventCodes.ABS_X, EventCodes.ABS_Y, EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID]
        device.absinfo[EventCodes.ABS_X] = AbsInfo(minimum: 0, maximum: 4095, resolution: 20)
        device.absinfo[EventCodes.ABS_Y] = AbsInfo(minimum: 0, maximum: 2047, resolution: 20)
        device.absinfo[EventCodes.ABS_MT_POSITION_X] = AbsInfo(minimum: 0, maximum: 4095, resolution: 20)
        device.absinfo[EventCodes.ABS_MT_POSITION_Y] = AbsInfo(minimum: 0, maximum: 2047, resolution: 20)
        device.absinfo[EventCodes.ABS_MT_SLOT] = AbsInfo(minimum: 0, maximum: 9)
        device.absinfo[EventCodes.ABS_MT_TRACKING_ID] = AbsInfo(minimum: 0, maximum: 65535)
        let events = Self.encoded(device, [
            [(0, 5, .began, 1000, 500)], [(0, 5, .stationary, 1000, 500)], [(1, 6, .began, 3000, 1500)], [(0, 5, .ended, 1000, 500)],
        ], liftAll: true)
        #expect(events == [
            // The device's current slot is 0 already (its absinfo value): no ABS_MT_SLOT.
            "ABS_MT_TRACKING_ID 5", "ABS_MT_POSITION_X 1000", "ABS_MT_POSITION_Y 500",
            "BTN_TOUCH 1", "BTN_TOOL_FINGER 1", "ABS_X 1000", "ABS_Y 500", "SYN_REPORT 0",
            "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID 6", "ABS_MT_POSITION_X 3000", "ABS_MT_POSITION_Y 1500",
            "BTN_TOOL_FINGER 0", "BTN_TOOL_DOUBLETAP 1", "SYN_REPORT 0",
            "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "BTN_TOOL_DOUBLETAP 0", "BTN_TOOL_FINGER 1", "ABS_X 3000", "ABS_Y 1500", "SYN_REPORT 0",
            "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "BTN_TOOL_FINGER 0", "SYN_REPORT 0",
        ])
    }

    /// A protocol A device (no slots: N-Trig): every frame lists every contact down, each with
    /// SYN_MT_REPORT, and the lift is one empty SYN_MT_REPORT; the clone has as many slots as
    /// the graph tracks contacts.
    @Test func aProtocolADevicesCloneListsEveryContactEachFrame() {
        var device = DeviceDescription(name: "N-Trig")
        device.codes[EventCodes.EV_KEY] = [EventCodes.BTN_TOUCH]
        device.codes[EventCodes.EV_ABS] = [EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y]
        device.absinfo[EventCodes.ABS_MT_POSITION_X] = AbsInfo(minimum: 0, maximum: 9600)
        device.absinfo[EventCodes.ABS_MT_POSITION_Y] = AbsInfo(minimum: 0, maximum: 7200)
        #expect(PassThroughEncoder.slots(of: device) == GestureGraph.contactCapacity)
        let events = Self.encoded(device, [
            [(0, 0, .began, 100, 200), (1, 1, .began, 900, 700)], [(0, 0, .ended, 100, 200)], [(1, 1, .ended, 900, 700)],
        ])
        #expect(events == [
            "ABS_MT_POSITION_X 100", "ABS_MT_POSITION_Y 200", "SYN_MT_REPORT 0", "ABS_MT_POSITION_X 900", "ABS_MT_POSITION_Y 700", "SYN_MT_REPORT 0",
            "BTN_TOUCH 1", "SYN_REPORT 0",
            "ABS_MT_POSITION_X 900", "ABS_MT_POSITION_Y 700", "SYN_MT_REPORT 0", "SYN_REPORT 0",
            "SYN_MT_REPORT 0", "BTN_TOUCH 0", "SYN_REPORT 0",
        ])
    }
}
