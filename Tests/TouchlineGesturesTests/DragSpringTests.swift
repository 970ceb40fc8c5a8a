import Testing
import TouchlineCore
import TouchlineGestures
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
