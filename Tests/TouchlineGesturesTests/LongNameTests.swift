import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

/// An event may carry names of any length and any characters (a graph validates its own names,
/// but `GestureEvent` and `GestureName` are public and a library user can make them): the
/// writer still comes out with the piece-by-piece writer's bytes. On 532b116 a 900-byte name stopped the program (SIGILL) and a
/// 3,000-byte one overwrote the stack (SIGSEGV): the scratch's length was checked after writing.
@Suite struct LongNameTests {
    static let names: [String] = [
        String(repeating: "t", count: 900),
        String(repeating: "r", count: 3_000),
        // Every byte escaped: a control character becomes \u00XX, six times its length.
        String(repeating: "\u{01}", count: 900),
        String(repeating: "\"\\\n\t", count: 500),
        "é✓ \u{7f}" + String(repeating: "\u{1f}", count: 200),
    ]

    @Test(arguments: names)
    func eventsWithLongNamesAreTheSlowPathsBytes(name: String) throws {
        let configuration = GraphConfiguration(
            targets: [.surface()],
            recognizers: [
                RecognizerSpec(name: "tap", kind: .tap(.with(taps: 1))),
                RecognizerSpec(name: "pan", kind: .pan(PanParameters())),
                RecognizerSpec(name: "press", kind: .longPress(LongPressParameters())),
            ])
        var h = try GestureHarness(configuration: configuration, explain: true)
        h.down(0, at: p(50, 50)); h.wait(80); h.up(0)
        h.wait(400)
        h.down(0, at: p(50, 50)); h.move(0, to: p(90, 60), over: 300); h.up(0)
        h.down(0, at: p(20, 20)); h.wait(900); h.up(0)
        h.wait(400)
        try h.expectNothingPending()
        let kinds = Set(h.events.map(\.gesture))
        #expect(kinds.isSuperset(of: [.tap, .pan, .longPress, .explain]), "\(kinds)")

        // The graph's events, renamed: the target to the long name, each recognizer to the long
        // name joined to its own (reversed for long press, so that no two are alike).
        let renamed = h.events.map { event in
            var event = event
            event.target = GestureName(name)
            let own = event.recognizer.description
            event.recognizer = GestureName(own == "press" ? String(name.reversed()) : name + own)
            return event
        }
        var fast = JSONWriter(), reference = JSONWriter()
        for event in renamed {
            event.writeJSON(into: &fast)
            fast.newline()
            event.referenceJSON(into: &reference)
            reference.newline()
        }
        #expect(fast.bytes == reference.bytes)
        var escaped = JSONWriter()
        escaped.appendString(name)
        #expect(fast.string.contains(escaped.string))
    }
}

extension GestureEvent {
    /// The piece-by-piece writer's bytes (`writeJSONPieceByPiece`, internal to the module).
    func referenceJSON(into w: inout JSONWriter) {
        w.beginObject()
        writeMembers(&w)
        w.endObject()
    }
}
