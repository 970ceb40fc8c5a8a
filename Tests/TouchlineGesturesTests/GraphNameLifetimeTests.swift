// A graph keeps its own names while it lives (GestureGraph.nameHold).
//
// Issue 37: one whole-suite run in three crashed. A core of one such run
// (LiveEqualsReplayTests.twoScreensLiveGiveTheReplaysBytes, its two cases in parallel) showed
// `Fatal error: failed to allocate 140667576803014 bytes` in InternedString.appendJSON: an
// event's name read from a freed entry. The replay's graph had taken its names without keeping
// them (`init(sharing:)`), finding the entries that the other case's live session held; when
// that session ended, its hold freed them under the replay.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

@Suite struct GraphNameLifetimeTests {
    // Names no other test uses: the table is the process's.
    static let configuration = GraphConfiguration(
        targets: [TargetSpec(name: "heldElsewhereZone", rect: Rect(x: 0, y: 0, width: 1, height: 1), units: .normalized, z: 0)],
        recognizers: [RecognizerSpec(name: "heldElsewhereTap", kind: .tap(.with()), target: "heldElsewhereZone")])

    /// On main 9b4ee5b the first two expectations fail: the names are gone once the other
    /// hold is, while the graph still carries them in its events.
    @Test func aGraphKeepsNamesAnotherHoldTookFirst() throws {
        let names = ["heldElsewhereZone", "heldElsewhereTap"]
        var driver: ReplayDriver?
        do {
            // Another party (a live session's graph, in the crash) holds the names first.
            let other = InternedString.Hold(names)
            driver = try ReplayDriver(configuration: Self.configuration, surface: TouchScript.defaultSurface)
            withExtendedLifetime(other) {}
        }
        #expect(names.map(InternedString.isStored) == [true, true])
        var s = TouchScript()
        s.down(0, at: Point(x: 20, y: 20))
        s.wait(50)
        s.up(0)
        s.wait(500)
        var lines: [String] = []
        for frame in s.frames {
            driver?.feed(frame) { event in
                var w = JSONWriter()
                event.writeJSON(into: &w)
                lines.append(String(decoding: w.bytes, as: UTF8.self))
            }
        }
        #expect(lines.count == 1)
        #expect(lines.allSatisfy { $0.contains(#""target":"heldElsewhereZone""#) && $0.contains(#""recognizer":"heldElsewhereTap""#) }, "\(lines)")
        // Once no graph has them, they are freed (issue 24, item 7).
        driver = nil
        #expect(names.map(InternedString.isStored) == [false, false])
    }
}
