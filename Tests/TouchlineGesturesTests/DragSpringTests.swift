import Testing
import TouchlineCore
@testable import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

// Drag and drop, several items, spring-loading (docs/gestures.md#carrying): whole logs of
// scripted touches, with explain lines, so each decision of the carry shows.

@Suite struct DragSpringTests {
    /// Two draggable items, a drop target `bin`, a spring-loaded `folder` that is a drop target
    /// too and answers taps, on a desk that answers nothing.
    static let desk = GraphConfiguration(
        targets: [
            TargetSpec(name: "desk", rect: Rect(x: 0, y: 0, width: 1, height: 1), units: .normalized),
            TargetSpec(name: "a", rect: Rect(x: 10, y: 10, width: 30, height: 30)),
            TargetSpec(name: "b", rect: Rect(x: 50, y: 10, width: 30, height: 30)),
            TargetSpec(name: "bin", rect: Rect(x: 120, y: 70, width: 40, height: 40)),
            TargetSpec(name: "folder", rect: Rect(x: 120, y: 10, width: 40, height: 40)),
        ],
        recognizers: [
            RecognizerSpec(name: "dragA", kind: .drag(), target: "a", dropTargets: ["bin", "folder"]),
            RecognizerSpec(name: "dragB", kind: .drag(), target: "b", dropTargets: ["bin", "folder"]),
            RecognizerSpec(name: "folderTap", kind: .tap(), target: "folder"),
            RecognizerSpec(name: "folderSpring", kind: .spring(), target: "folder"),
        ])

    static func harness() throws -> GestureHarness { try GestureHarness(configuration: desk, rate: 60, explain: true) }

    @Test func dragOntoDropTarget() throws {
        var h = try Self.harness()
        h.down(0, at: p(20, 20)); h.wait(600)
        h.move(0, to: p(140, 90), over: 50)
        h.up(0)
        expectLog(h, [
            "0.500000 explain won dragA: held 500.0 ms ≥ 500.0 ms (margin 0.0 ms)",
            "0.500000 drag began [dragA] f1 (20.00,20.00) items=[a] over=null",
            "0.616667 drag changed [dragA] f1 (60.00,43.33) items=[a] over=null",
            "0.633333 drag changed [dragA] f1 (100.00,66.67) items=[a] over=null",
            "0.650000 drag changed [dragA] f1 (140.00,90.00) items=[a] over=bin",
            "0.650000 drag ended [dragA] f1 (140.00,90.00) items=[a] dropTarget=bin",
        ])
        try h.expectNothingPending()
    }

    @Test func dragOntoNothing() throws {
        var h = try Self.harness()
        h.down(0, at: p(20, 20)); h.wait(600)
        h.move(0, to: p(100, 100), over: 50)
        h.up(0)
        expectLog(h, [
            "0.500000 explain won dragA: held 500.0 ms ≥ 500.0 ms (margin 0.0 ms)",
            "0.500000 drag began [dragA] f1 (20.00,20.00) items=[a] over=null",
            "0.616667 drag changed [dragA] f1 (46.67,46.67) items=[a] over=null",
            "0.633333 drag changed [dragA] f1 (73.33,73.33) items=[a] over=null",
            "0.650000 drag changed [dragA] f1 (100.00,100.00) items=[a] over=null",
            "0.650000 drag cancelled [dragA] f1 (100.00,100.00) items=[a]",
        ])
        try h.expectNothingPending()
    }

    @Test func secondFingerTapAddsItem() throws {
        var h = try Self.harness()
        h.down(0, at: p(20, 20)); h.wait(600)
        h.down(1, at: p(60, 20)); h.wait(80); h.up(1)
        h.move(0, to: p(140, 90), over: 50)
        h.up(0)
        expectLog(h, [
            "0.500000 explain won dragA: held 500.0 ms ≥ 500.0 ms (margin 0.0 ms)",
            "0.500000 drag began [dragA] f1 (20.00,20.00) items=[a] over=null",
            "0.680000 drag changed [dragA] f1 (20.00,20.00) items=[a,b] over=null",
            "0.696667 drag changed [dragA] f1 (60.00,43.33) items=[a,b] over=null",
            "0.713333 drag changed [dragA] f1 (100.00,66.67) items=[a,b] over=null",
            "0.730000 drag changed [dragA] f1 (140.00,90.00) items=[a,b] over=bin",
            "0.730000 drag ended [dragA] f1 (140.00,90.00) items=[a,b] dropTarget=bin",
        ])
        try h.expectNothingPending()
    }

    @Test func springArmedActivatedCancelledArmedAgain() throws {
        var h = try Self.harness()
        h.down(0, at: p(20, 20)); h.wait(600)
        // Onto the folder, still: armed (began) after 500 ms, activated (ended) 300 ms later.
        h.move(0, to: p(140, 30), over: 50)
        h.wait(900)
        // Still there: no second activation without leaving.
        h.wait(600)
        // Off and back: armed again, then the drag leaves during the blink: cancelled.
        h.move(0, to: p(100, 30), over: 50)
        h.move(0, to: p(140, 30), over: 50)
        h.wait(600)
        h.move(0, to: p(100, 100), over: 50)
        h.up(0)
        expectLog(h, [
            "0.500000 explain won dragA: held 500.0 ms ≥ 500.0 ms (margin 0.0 ms)",
            "0.500000 drag began [dragA] f1 (20.00,20.00) items=[a] over=null",
            "0.616667 drag changed [dragA] f1 (60.00,23.33) items=[a] over=null",
            "0.633333 drag changed [dragA] f1 (100.00,26.67) items=[a] over=null",
            "0.650000 drag changed [dragA] f1 (140.00,30.00) items=[a] over=folder",
            "1.150000 explain won folderSpring: hovered still 500.0 ms ≥ 500.0 ms (margin 0.0 ms)",
            "1.150000 spring began [folderSpring] f1 (140.00,30.00)",
            "1.450000 spring ended [folderSpring] f1 (140.00,30.00)",
            "2.166667 drag changed [dragA] f1 (126.67,30.00) items=[a] over=folder",
            "2.183333 drag changed [dragA] f1 (113.33,30.00) items=[a] over=null",
            "2.200000 drag changed [dragA] f1 (100.00,30.00) items=[a] over=null",
            "2.216667 drag changed [dragA] f1 (113.33,30.00) items=[a] over=null",
            "2.233333 drag changed [dragA] f1 (126.67,30.00) items=[a] over=folder",
            "2.250000 drag changed [dragA] f1 (140.00,30.00) items=[a] over=folder",
            "2.750000 explain won folderSpring: hovered still 500.0 ms ≥ 500.0 ms (margin 0.0 ms)",
            "2.750000 spring began [folderSpring] f1 (140.00,30.00)",
            "2.866667 drag changed [dragA] f1 (126.67,53.33) items=[a] over=null",
            "2.866667 spring cancelled [folderSpring] f1 (140.00,30.00)",
            "2.883333 drag changed [dragA] f1 (113.33,76.67) items=[a] over=null",
            "2.900000 drag changed [dragA] f1 (100.00,100.00) items=[a] over=null",
            "2.900000 drag cancelled [dragA] f1 (100.00,100.00) items=[a]",
        ])
        try h.expectNothingPending()
    }

    /// More fingers land on an item while the drag carries than the graph tracks (32 in all):
    /// those beyond the room are ignored, and no capture is recorded for them. Before, each
    /// left a capture record for good (it is never tracked, so never lifts): 9 per round
    /// here, the list grown past its reserved room.
    @Test func contactsBeyondTheRoomLeaveNoCapture() throws {
        var h = try Self.harness()
        h.down(0, at: p(20, 20)); h.wait(600)
        for round in 0..<3 {
            let fingers = (1...40).map { k in (round * 100 + k, p(51 + Double(k) * 0.5, 20)) }
            h.down(fingers); h.wait(30); h.up(fingers.map(\.0))
            #expect(h.graph.carry.captures.isEmpty, "round \(round): \(h.graph.carry.captures.count) captures left")
        }
        h.up(0)
        expectLog(h, [
            "0.500000 explain won dragA: held 500.0 ms ≥ 500.0 ms (margin 0.0 ms)",
            "0.500000 drag began [dragA] f1 (20.00,20.00) items=[a] over=null",
            "0.630000 drag changed [dragA] f1 (20.00,20.00) items=[a,b] over=null",
            "0.690000 drag cancelled [dragA] f1 (20.00,20.00) items=[a,b]",
        ])
        #expect(h.graph.ignoredContacts == 27)
        try h.expectNothingPending()
    }

    @Test func springTargetTapped() throws {
        var h = try Self.harness()
        h.down(0, at: p(140, 30)); h.wait(80); h.up(0)
        h.wait(400)
        expectLog(h, [
            "0.080000 explain won folderTap: lifted after 80.0 ms ≤ 300.0 ms (margin 220.0 ms)",
            "0.080000 tap recognized [folderTap] f1 (140.00,30.00) count=1",
        ])
        try h.expectNothingPending()
    }
}

extension DragSpringTests {
    /// Every scenario above, with explain lines: for the schema test.
    static func everyScenario() throws -> [GestureEvent] {
        var h = try harness()
        h.down(0, at: p(20, 20)); h.wait(600)
        h.down(1, at: p(60, 20)); h.wait(80); h.up(1)
        h.move(0, to: p(140, 30), over: 50); h.wait(900)
        h.move(0, to: p(140, 90), over: 50); h.up(0)
        h.wait(400)
        h.down(0, at: p(20, 20)); h.wait(600)
        h.move(0, to: p(140, 30), over: 50); h.wait(600)
        h.move(0, to: p(100, 100), over: 50); h.up(0)
        h.wait(400)
        h.down(0, at: p(140, 30)); h.wait(80); h.up(0)
        h.wait(400)
        return h.events
    }

    /// The JSON of a drag: `items` an array of names, `over` null or a name, `dropTarget` at
    /// the drop; a spring's events carry the drag's contacts.
    @Test func jsonLinesOfADragWithTwoItemsAndASpring() throws {
        let lines = try Self.everyScenario().filter { $0.gesture != .explain }.map(\.json)
        #expect(lines.contains(#"{"v":1,"seq":1,"time":0.500000,"device":0,"gesture":"drag","phase":"began","target":"a","fingers":1,"x":20.00,"y":20.00,"recognizer":"dragA","items":["a"],"over":null,"contacts":[0]}"#))
        #expect(lines.contains { $0.contains(#""phase":"ended","target":"a","fingers":1,"x":140.00,"y":90.00,"recognizer":"dragA","items":["a","b"],"dropTarget":"bin","contacts":[0]}"#) })
        #expect(lines.contains { $0.contains(#""gesture":"spring","phase":"began","target":"folder","fingers":1,"x":140.00,"y":30.00,"recognizer":"folderSpring","contacts":[0]}"#) })
        #expect(lines.contains { $0.contains(#""items":["a","b"],"over":"folder""#) })
    }

    /// Every began ends, no impossible transition, nothing pending, on random touches over the
    /// desk (long holds lift items, taps land on items and on the folder while dragging).
    @Test(arguments: Seeds.cases(300, base: 0xD2A6_0001))
    func everyBeganEndsOnTheDesk(seed: UInt64) throws {
        // The property's one implementation (PropertyTests), on the desk graph.
        try PropertyTests.everyBeganHasExactlyOneEnd(seed: seed, frames: randomScript(seed: seed).frames, configuration: Self.desk)
    }

    /// A drag that carries pays a hit test per move; the same random streams at 60, 120 and
    /// 240 Hz give the same drag and spring events (thresholds on time and distance only).
    @Test func sameDragEventsAt60120And240Hz() throws {
        func run(_ rate: Double) throws -> [String] {
            var h = try GestureHarness(configuration: Self.desk, rate: rate)
            h.down(0, at: p(20, 20)); h.wait(600)
            h.down(1, at: p(60, 20)); h.wait(80); h.up(1)
            h.move(0, to: p(140, 30), over: 100); h.wait(900)
            h.move(0, to: p(140, 90), over: 100); h.up(0)
            return h.gestures.filter { $0.phase != .changed }.map(\.logLine)
        }
        let at60 = try run(60)
        #expect(at60.count == 4)
        #expect(try run(120) == at60)
        #expect(try run(240) == at60)
    }

    /// dropTargets is a validated relation: an undeclared target, the drag's own target, or
    /// the key on a kind that does not carry are errors at the key.
    @Test func dropTargetsAreValidatedAtTheKey() {
        func error(_ text: String) -> String {
            do {
                _ = try GraphConfiguration.parse(toml: text, file: "graph.toml")
                return "no error"
            } catch {
                return error.description
            }
        }
        let targets = "[[target]]\nname = \"a\"\nrect = [0, 0, 10, 10]\n[[target]]\nname = \"bin\"\nrect = [20, 0, 10, 10]\n"
        #expect(error(targets + "[[recognizer]]\nkind = \"drag\"\ntarget = \"a\"\ndropTargets = [\"bin\", \"trash\"]\n")
            == "graph.toml:10:1: recognizer 'drag' names target 'trash' in dropTargets, which is not declared; targets: 'a', 'bin'")
        #expect(error(targets + "[[recognizer]]\nkind = \"drag\"\ntarget = \"a\"\ndropTargets = \"a\"\n")
            == "graph.toml:10:1: recognizer 'drag' names its own target 'a' in dropTargets; an item is dropped somewhere else than where it was lifted")
        #expect(error(targets + "[[recognizer]]\nkind = \"tap\"\ntarget = \"a\"\ndropTargets = [\"bin\"]\n")
            == "graph.toml:10:1: recognizer 'tap' is a tap and names dropTargets; only a recognizer that carries its contacts across targets (drag) has drop targets")
        #expect(error(targets + "[[recognizer]]\nkind = \"drag\"\ntarget = \"a\"\ndropTargets = [3]\n")
            .hasPrefix("graph.toml:10:16: found 3 for dropTargets; expected an array of target names"))
        #expect(error(targets + "[[recognizer]]\nkind = \"drag\"\ntarget = \"a\"\ndropTargets = [\"bin\"]\n[[recognizer]]\nkind = \"spring\"\ntarget = \"bin\"\n") == "no error")
    }
}
