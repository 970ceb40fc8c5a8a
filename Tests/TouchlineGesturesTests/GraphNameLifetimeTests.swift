// A graph built outside the daemon keeps its names for the life of the process, even one some
// hold kept when the graph took it; only the daemon, which holds its graphs' names itself,
// builds graphs that share them (GestureGraph.init's `sharingNames`).
//
// Issue 37: one whole-suite run in three crashed. A core of one such run
// (LiveEqualsReplayTests.twoScreensLiveGiveTheReplaysBytes, its two cases in parallel) showed
// `Fatal error: failed to allocate 140667576803014 bytes` in InternedString.appendJSON: an
// event's name read from a freed entry. The replay's graph had taken its names without keeping
// them (`init(sharing:)`), finding the entries that the other case's live session held; when
// that session's graph was replaced, its hold freed them under the replay. Events outlive
// their graph (a test collects them, a library user prints them later), so the names must too.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

@Suite struct GraphNameLifetimeTests {
    // Names no other test uses: the table is the process's.
    static let configuration = GraphConfiguration(
        targets: [TargetSpec(name: "heldElsewhereZone", rect: Rect(x: 0, y: 0, width: 1, height: 1), units: .normalized, z: 0)],
        recognizers: [RecognizerSpec(name: "heldElsewhereTap", kind: .tap(.with()), target: "heldElsewhereZone")])

    /// On main 9b4ee5b the first expectation fails: the names are gone once the other hold is,
    /// while the graph and its events still carry them.
    @Test func aGraphKeepsNamesAnotherHoldTookFirst() throws {
        let names = ["heldElsewhereZone", "heldElsewhereTap"]
        var events: [GestureEvent] = []
        do {
            // Another party (a live session's graph, in the crash) holds the names first.
            let other = InternedString.Hold(names)
            var driver = try GraphDriver(configuration: Self.configuration, surface: TouchScript.defaultSurface)
            withExtendedLifetime(other) {}
            var s = TouchScript()
            s.down(0, at: Point(x: 20, y: 20))
            s.wait(50)
            s.up(0)
            s.wait(500)
            for frame in s.frames { driver.feed(frame) { events.append($0) } }
        }
        // The other hold and the graph are gone; the events are still read, names and all.
        #expect(names.map(InternedString.isStored) == [true, true])
        let lines = events.map { event in
            var w = JSONWriter()
            event.writeJSON(into: &w)
            return String(decoding: w.bytes, as: UTF8.self)
        }
        #expect(lines.count == 1)
        #expect(lines.allSatisfy { $0.contains(#""target":"heldElsewhereZone""#) && $0.contains(#""recognizer":"heldElsewhereTap""#) }, "\(lines)")
    }

    /// The daemon's way: it holds the names and builds the graph sharing them; once its hold is
    /// gone (the graph replaced), a name nobody else made permanent is freed (issue 24, item 7).
    @Test func aSharingGraphLeavesTheNamesToItsHold() throws {
        let names = ["sharedOnlyZone", "sharedOnlyTap"]
        let configuration = GraphConfiguration(
            targets: [TargetSpec(name: names[0], rect: Rect(x: 0, y: 0, width: 1, height: 1), units: .normalized, z: 0)],
            recognizers: [RecognizerSpec(name: names[1], kind: .tap(.with()), target: names[0])])
        do {
            let hold = InternedString.Hold(names)
            let driver = try GraphDriver(configuration: configuration, surface: TouchScript.defaultSurface, sharingNames: true)
            #expect(names.map(InternedString.isStored) == [true, true])
            withExtendedLifetime((hold, driver)) {}
        }
        #expect(names.map(InternedString.isStored) == [false, false])
    }
}
