import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

// The code of the DocC article "Getting started" (TouchlineGestures.docc/GettingStarted.md) and
// of Examples/KioskGestures, run here so that the article's snippets keep compiling and saying
// what they print. Change the article with this file.
@Suite struct GettingStartedTests {
    static let kiosk = GraphConfiguration(
        targets: [
            TargetSpec(name: "photo", rect: Rect(x: 10, y: 10, width: 40, height: 30)),
            TargetSpec(name: "album", rect: Rect(x: 150, y: 10, width: 40, height: 40)),
            TargetSpec(name: "bin", rect: Rect(x: 150, y: 70, width: 40, height: 40)),
            TargetSpec(name: "print", rect: Rect(x: 10, y: 90, width: 30, height: 20)),
            TargetSpec(name: "map", rect: Rect(x: 60, y: 10, width: 80, height: 100)),
        ],
        recognizers: [
            RecognizerSpec(name: "photoDrag", kind: .drag(), target: "photo", dropTargets: ["album", "bin"]),
            RecognizerSpec(name: "albumSpring", kind: .spring(), target: "album"),
            RecognizerSpec(name: "printTap", kind: .tap(), target: "print"),
            RecognizerSpec(name: "mapPinch", kind: .pinch(), target: "map"),
        ])

    @Test func scriptedFramesThroughGraphDriver() throws {
        var script = TouchScript(rate: 60)
        script.down(0, at: Point(x: 25, y: 100))
        script.wait(80)
        script.up(0)
        script.wait(400)
        script.down([(0, Point(x: 85, y: 60)), (1, Point(x: 115, y: 60))])
        script.move([(0, Point(x: 70, y: 60)), (1, Point(x: 130, y: 60))], over: 300)
        script.up([0, 1])

        var driver = try GraphDriver(configuration: Self.kiosk, surface: script.surface)
        var events: [GestureEvent] = []
        for frame in script.frames { driver.feed(frame) { events.append($0) } }
        driver.finish { events.append($0) }

        #expect(events.first?.json == #"{"v":1,"seq":0,"time":0.080000,"device":0,"gesture":"tap","phase":"recognized","target":"print","fingers":1,"x":25.00,"y":100.00,"recognizer":"printTap","count":1,"duration":0.080000,"contacts":[0]}"#)
        let ended = events.filter { $0.phase == .ended }
        #expect(ended.count == 1)
        let pinch = try #require(ended.first?.detail.fields(as: PinchFields.self))
        #expect(ended.first?.gesture == .pinch)
        #expect(formatFixed(pinch.scale, decimals: 2) == "2.00")
    }

    @Test func dragOverTheSpringLoadedAlbumIntoTheBin() throws {
        var h = try GestureHarness(configuration: Self.kiosk, rate: 60)
        h.down(0, at: Point(x: 30, y: 25))
        h.wait(600)
        h.move(0, to: Point(x: 170, y: 30), over: 200)
        h.wait(900)
        h.move(0, to: Point(x: 170, y: 90), over: 200)
        h.up(0)
        let summary = h.gestures.filter { $0.gesture == .spring || $0.phase != .changed }.map(\.logLine)
        #expect(summary == [
            "0.500000 drag began [photoDrag] f1 (30.00,25.00) items=[photo] over=null",
            "1.300000 spring began [albumSpring] f1 (170.00,30.00)",
            "1.600000 spring ended [albumSpring] f1 (170.00,30.00)",
            "1.900000 drag ended [photoDrag] f1 (170.00,90.00) items=[photo] dropTarget=bin",
        ])
        let drop = try #require(h.gestures.last?.detail.fields(as: DragFields.self))
        #expect(drop.items.description == "[photo]" && drop.target?.description == "bin")
        try h.expectNothingPending()
    }

    @Test func harnessTapAsTheArticleShowsIt() throws {
        var h = try GestureHarness(configuration: Self.kiosk)
        h.down(0, at: Point(x: 25, y: 100))
        h.wait(80)
        h.up(0)
        #expect(h.log == ["0.080000 tap recognized [printTap] f1 (25.00,100.00) count=1"])
        try h.expectNothingPending()
    }
}
