import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

// Issue 12: a graph configuration is validated before anything runs (docs/config.md#validation).
// One test per rule: the error's rule, subject and key, and a message that names the subject
// and says what was expected. On 532b116 every one of these built a graph (GestureGraph.init
// repaired what it could and ignored the rest).

@Suite struct ValidationTests {
    let surface = Size(width: 200, height: 120)

    /// The error `validate()` throws, after checking that building a graph throws the same.
    func problem(_ config: GraphConfiguration, sourceLocation: SourceLocation = #_sourceLocation) -> GraphConfigurationError? {
        var found: GraphConfigurationError?
        do { try config.validate() } catch { found = error }
        do {
            _ = try GestureGraph(configuration: config, surface: surface)
            #expect(found == nil, "the graph was built from an invalid configuration", sourceLocation: sourceLocation)
        } catch {
            #expect(error == found, "the graph refused it differently", sourceLocation: sourceLocation)
        }
        #expect(found != nil, "accepted", sourceLocation: sourceLocation)
        return found
    }

    func recognizer(_ name: String, _ kind: RecognizerKind, target: String = "surface", simultaneousWith: [String] = [], requiresFailureOf: [String] = []) -> RecognizerSpec {
        RecognizerSpec(name: name, kind: kind, target: target, simultaneousWith: simultaneousWith, requiresFailureOf: requiresFailureOf)
    }

    func tap(_ change: (inout TapParameters) -> Void = { _ in }) -> RecognizerKind {
        var p = TapParameters()
        change(&p)
        return .tap(p)
    }

    @Test func defaultGraphIsValid() throws {
        try GraphConfiguration.default.validate()
        _ = try GestureGraph(configuration: .default, surface: surface)
    }

    @Test func aGraphNeedsATarget() {
        let e = problem(GraphConfiguration(targets: [], recognizers: []))
        #expect(e?.rule == .count)
        #expect(e?.subject == .graph)
        #expect(e?.message == "a graph needs at least one target (GraphConfiguration.default has one, the whole surface)")
    }

    @Test func atMost64Recognizers() {
        let specs = (0..<65).map { recognizer("tap\($0)", tap()) }
        let e = problem(.only(specs))
        #expect(e?.rule == .count)
        #expect(e?.message == "a graph holds at most 64 recognizers, this one has 65")
    }

    @Test func namesAreNonEmpty() {
        let e = problem(.only([recognizer("", tap())]))
        #expect(e?.rule == .name)
        #expect(e?.subject == .recognizer("", 0))
        #expect(e?.key == "name")
        #expect(e?.message == "a recognizer's name cannot be empty (recognizer 1)")
        let t = problem(GraphConfiguration(targets: [.surface(), .surface(name: "")], recognizers: []))
        #expect(t?.subject == .target("", 1))
        #expect(t?.message == "a target's name cannot be empty (target 2)")
    }

    /// The names that crashed `replay` on 532b116 through the JSON writer (900 bytes: SIGILL;
    /// 3,000 bytes: SIGSEGV) are rejected, and the message shows them shortened.
    @Test func namesAreAtMost64BytesOfUTF8() throws {
        for length in [65, 900, 3000] {
            let name = String(repeating: "n", count: length)
            let e = problem(.only([recognizer(name, tap())]))
            #expect(e?.rule == .name)
            #expect(e?.subject.name == name)
            #expect(e?.message == "recognizer name '\(String(repeating: "n", count: 40))…' is \(length) bytes; a name is at most 64 bytes of UTF-8")
        }
        // Bytes, not characters: 32 × "é" is 64 bytes, 33 are 66.
        try GraphConfiguration.only([recognizer(String(repeating: "é", count: 32), tap())]).validate()
        try GraphConfiguration.only([recognizer(String(repeating: "n", count: 64), tap())]).validate()
        let e = problem(GraphConfiguration(targets: [.surface(name: String(repeating: "é", count: 33))], recognizers: []))
        #expect(e?.subject.kind == .target)
        #expect(e?.message.hasSuffix("is 66 bytes; a name is at most 64 bytes of UTF-8") == true)
    }

    @Test func namesHoldNoControlCharacters() {
        let e = problem(.only([recognizer("tap\u{1B}[31m", tap())]))
        #expect(e?.rule == .name)
        #expect(e?.key == "name")
        // Escaped in the message: a terminal shows it, it does not obey it.
        #expect(e?.message == "recognizer name 'tap\\u{1B}[31m' holds the control character U+001B; a name holds no control characters")
        for bad in ["a\u{0}b", "line\nbreak", "tab\t", "del\u{7F}", "c1\u{85}"] {
            #expect(problem(GraphConfiguration(targets: [.surface(name: bad)], recognizers: []))?.rule == .name, "\(bad.debugDescription)")
        }
    }

    @Test func duplicateTargetNames() {
        let e = problem(GraphConfiguration(targets: [.surface(), .surface()], recognizers: []))
        #expect(e?.rule == .duplicate)
        #expect(e?.subject == .target("surface", 1))
        #expect(e?.message == "target 'surface' is declared twice (targets 1 and 2); give each a unique name")
    }

    @Test func duplicateRecognizerNames() {
        let e = problem(.only([recognizer("tap", tap()), recognizer("pan", .pan(PanParameters())), recognizer("tap", tap())]))
        #expect(e?.rule == .duplicate)
        #expect(e?.subject == .recognizer("tap", 2))
        #expect(e?.key == "name")
        #expect(e?.message == "recognizer 'tap' is declared twice (recognizers 1 and 3); give each a unique name")
    }

    @Test func unknownTarget() {
        let e = problem(.only([recognizer("tap", tap(), target: "nowhere")]))
        #expect(e?.rule == .reference)
        #expect(e?.subject == .recognizer("tap", 0))
        #expect(e?.key == "target")
        #expect(e?.message == "recognizer 'tap' names target 'nowhere', which is not declared; targets: 'surface'")
    }

    @Test func unknownRelations() {
        let s = problem(.only([recognizer("pinch", .pinch(PinchParameters()), simultaneousWith: ["rotate"])]))
        #expect(s?.rule == .reference)
        #expect(s?.key == "simultaneousWith")
        #expect(s?.message == "recognizer 'pinch' names recognizer 'rotate' in simultaneousWith, which is not declared; recognizers: 'pinch'")
        let r = problem(.only([recognizer("tap", tap(), requiresFailureOf: ["doubleTap"])]))
        #expect(r?.rule == .reference)
        #expect(r?.key == "requiresFailureOf")
        #expect(r?.message == "recognizer 'tap' names recognizer 'doubleTap' in requiresFailureOf, which is not declared; recognizers: 'tap'")
    }

    @Test func simultaneousWithItself() {
        let e = problem(.only([recognizer("pan", .pan(PanParameters()), simultaneousWith: ["pan"])]))
        #expect(e?.rule == .reference)
        #expect(e?.message == "recognizer 'pan' names itself in simultaneousWith; a recognizer is always simultaneous with itself")
    }

    /// Arenas are per target: a relation across targets could never apply, and 532b116 ignored
    /// it without a word.
    @Test func relationsStayWithinOneTarget() {
        let config = GraphConfiguration(
            targets: [.surface(), TargetSpec(name: "button", rect: Rect(x: 80, y: 40, width: 30, height: 20), z: 1)],
            recognizers: [recognizer("doubleTap", tap { $0.taps = 2 }), recognizer("ok", tap(), target: "button", requiresFailureOf: ["doubleTap"])])
        let e = problem(config)
        #expect(e?.rule == .crossTarget)
        #expect(e?.subject == .recognizer("ok", 1))
        #expect(e?.key == "requiresFailureOf")
        #expect(e?.message == "recognizer 'ok' (target 'button') names recognizer 'doubleTap' (target 'surface') in requiresFailureOf; arenas are per target, so a relation holds only between recognizers of one target")
    }

    /// The cycle that made the recognizers wait on each other for ever on 532b116.
    @Test func requiresFailureCycleIsNamed() {
        let e = problem(.only([
            recognizer("tap", tap(), requiresFailureOf: ["doubleTap"]),
            recognizer("doubleTap", tap { $0.taps = 2 }, requiresFailureOf: ["tap"]),
        ]))
        #expect(e?.rule == .cycle)
        #expect(e?.subject == .recognizer("tap", 0))
        #expect(e?.key == "requiresFailureOf")
        #expect(e?.message == "requiresFailureOf makes recognizers wait for each other's failure for ever: tap → doubleTap → tap; remove one of these relations")
    }

    /// A longer cycle, reached from a recognizer outside it, is named from its earliest declared
    /// member.
    @Test func longerCycleIsNamedFromItsFirstDeclaredMember() {
        let e = problem(.only([
            recognizer("entry", tap(), requiresFailureOf: ["c"]),
            recognizer("a", tap(), requiresFailureOf: ["b"]),
            recognizer("b", tap(), requiresFailureOf: ["c"]),
            recognizer("c", tap(), requiresFailureOf: ["a"]),
        ]))
        #expect(e?.subject == .recognizer("a", 1))
        #expect(e?.message == "requiresFailureOf makes recognizers wait for each other's failure for ever: a → b → c → a; remove one of these relations")
    }

    @Test func requiringItsOwnFailureIsACycle() {
        let e = problem(.only([recognizer("tap", tap(), requiresFailureOf: ["tap"])]))
        #expect(e?.rule == .cycle)
        #expect(e?.message == "recognizer 'tap' requires its own failure (tap → tap), so it would wait for ever; remove it from its requiresFailureOf")
    }

    /// Shared blockers without a cycle (a diamond, a chain) are fine.
    @Test func chainsAndDiamondsAreNoCycle() throws {
        try GraphConfiguration.only([
            recognizer("top", tap(), requiresFailureOf: ["left", "right"]),
            recognizer("left", tap(), requiresFailureOf: ["bottom"]),
            recognizer("right", tap(), requiresFailureOf: ["bottom"]),
            recognizer("bottom", tap { $0.taps = 3 }),
        ]).validate()
    }

    @Test func minimumFingersAboveMaximum() {
        var pan = PanParameters()
        pan.minimumFingers = 5
        pan.maximumFingers = 2
        let e = problem(.only([recognizer("pan", .pan(pan))]))
        #expect(e?.rule == .minimumAboveMaximum)
        #expect(e?.subject == .recognizer("pan", 0))
        #expect(e?.key == "minimumFingers")
        #expect(e?.message == "recognizer 'pan' (pan): minimumFingers 5 is more than maximumFingers 2; expected minimumFingers ≤ maximumFingers")
    }

    @Test func fingerAndTapCounts() {
        #expect(problem(.only([recognizer("t", tap { $0.fingers = 33 })]))?.message == "recognizer 't' (tap): fingers is 33; expected 0…32 (0: any number)")
        #expect(problem(.only([recognizer("t", tap { $0.fingers = -1 })]))?.key == "fingers")
        #expect(problem(.only([recognizer("t", tap { $0.taps = 0 })]))?.message == "recognizer 't' (tap): taps is 0; expected 1…64")
        var pan = PanParameters()
        pan.minimumFingers = 0
        #expect(problem(.only([recognizer("p", .pan(pan))]))?.message == "recognizer 'p' (pan): minimumFingers is 0; expected 1…32")
    }

    @Test func durationsArePositiveAndAtMostAMinute() {
        #expect(problem(.only([recognizer("t", tap { $0.maxDuration = .zero })]))?.message
            == "recognizer 't' (tap): maxDuration is 0 ms; expected more than 0 ms and at most 60000 ms")
        #expect(problem(.only([recognizer("t", tap { $0.multiTapInterval = .milliseconds(-5) })]))?.message
            == "recognizer 't' (tap): multiTapInterval is -5 ms; expected more than 0 ms and at most 60000 ms")
        var press = LongPressParameters()
        press.minimumDuration = .milliseconds(60_001)
        let e = problem(.only([recognizer("press", .longPress(press))]))
        #expect(e?.rule == .range)
        #expect(e?.key == "minimumDuration")
        var pinch = PinchParameters()
        pinch.velocityWindow = .microseconds(0)
        #expect(problem(.only([recognizer("pinch", .pinch(pinch))]))?.key == "velocityWindow")
        // The limits themselves are allowed.
        #expect(throws: Never.self) { try GraphConfiguration.only([recognizer("t", tap { $0.maxDuration = .microseconds(1); $0.multiTapInterval = .milliseconds(60_000) })]).validate() }
    }

    @Test func distancesAreFiniteAndWithin3Metres() {
        #expect(problem(.only([recognizer("t", tap { $0.slop = -1 })]))?.message == "recognizer 't' (tap): slop is -1 mm; expected 0…3000 mm")
        #expect(problem(.only([recognizer("t", tap { $0.slop = .nan })]))?.message == "recognizer 't' (tap): slop is nan mm; expected 0…3000 mm")
        #expect(problem(.only([recognizer("t", tap { $0.multiTapDistance = .infinity })]))?.key == "multiTapDistance")
        var edge = EdgeSwipeParameters()
        edge.margin = 10_000_000
        #expect(problem(.only([recognizer("edge", .edgeSwipe(edge))]))?.message == "recognizer 'edge' (edgeSwipe): margin is 10000000 mm; expected 0…3000 mm")
        // Zero is allowed: no slop.
        #expect(throws: Never.self) { try GraphConfiguration.only([recognizer("t", tap { $0.slop = 0 })]).validate() }
    }

    @Test func speedsAndAngles() {
        var swipe = SwipeParameters()
        swipe.minimumVelocity = 1e9
        #expect(problem(.only([recognizer("s", .swipe(swipe))]))?.message == "recognizer 's' (swipe): minimumVelocity is 1000000000 mm/s; expected 0…10000 mm/s")
        swipe = SwipeParameters()
        swipe.maximumAngle = 90
        #expect(problem(.only([recognizer("s", .swipe(swipe))]))?.message
            == "recognizer 's' (swipe): maximumAngle is 90°; expected more than 0° and at most 45° (the angle from the nearest axis)")
        var rotate = RotateParameters()
        rotate.minimumAngle = -10
        #expect(problem(.only([recognizer("r", .rotate(rotate))]))?.message == "recognizer 'r' (rotate): minimumAngle is -10°; expected 0…180°")
    }

    @Test func targetRectangles() {
        func target(_ rect: Rect, _ units: TargetSpec.Units = .millimetres) -> GraphConfiguration {
            GraphConfiguration(targets: [TargetSpec(name: "button", rect: rect, units: units)], recognizers: [])
        }
        let e = problem(target(Rect(x: 10, y: 10, width: 0, height: 5)))
        #expect(e?.rule == .range)
        #expect(e?.subject == .target("button", 0))
        #expect(e?.key == "rect")
        #expect(e?.message == "target 'button' has rect [10, 10, 0, 5] (mm); expected x and y within -3000…3000 mm, width and height greater than 0 and at most 3000 mm")
        #expect(problem(target(Rect(x: .nan, y: 0, width: 5, height: 5)))?.key == "rect")
        #expect(problem(target(Rect(x: 0, y: 0, width: -5, height: 5)))?.key == "rect")
        #expect(problem(target(Rect(x: 0, y: 0, width: 2, height: 1), .normalized))?.message
            == "target 'button' has rect [0, 0, 2, 1] (normalized); expected x and y within -1…1, width and height greater than 0 and at most 1")
    }

    /// The TOML path: `parse` reports the same problems with the file, line and column of the key.
    @Test func parserReportsTheProblemWithTheDeclarationsLine() {
        func error(_ text: String) -> String {
            do {
                _ = try GraphConfiguration.parse(toml: text, file: "graph.toml")
                return "no error"
            } catch {
                return error.description
            }
        }
        #expect(error("""
            [[recognizer]]
            name = "tap"
            kind = "tap"
            requiresFailureOf = "doubleTap"

            [[recognizer]]
            name = "doubleTap"
            kind = "tap"
            taps = 2
            requiresFailureOf = "tap"
            """) == "graph.toml:4:1: requiresFailureOf makes recognizers wait for each other's failure for ever: tap → doubleTap → tap; remove one of these relations")
        #expect(error("""
            [[recognizer]]
            kind = "tap"

            [[recognizer]]
            kind = "pan"
            minimumFingers = 5
            maximumFingers = 2
            """) == "graph.toml:6:1: recognizer 'pan' (pan): minimumFingers 5 is more than maximumFingers 2; expected minimumFingers ≤ maximumFingers")
        #expect(error("[[target]]\nname = \"\(String(repeating: "x", count: 900))\"\nrect = [0, 0, 10, 10]\n")
            == "graph.toml:2:1: target name '\(String(repeating: "x", count: 40))…' is 900 bytes; a name is at most 64 bytes of UTF-8")
        // [defaults] applies to the default recognizers: a problem between their parameters is
        // theirs, and the line is the [defaults] key that set it. (A value out of its own limits
        // is refused at the value as it is read.)
        #expect(error("[defaults]\npan.minimumFingers = 12\n") == "graph.toml:2:5: recognizer 'pan' (pan): minimumFingers 12 is more than maximumFingers 10; expected minimumFingers ≤ maximumFingers")
        #expect(error("[defaults]\ntap.maxDuration = 0\n") == "graph.toml:2:19: found 0 for tap.maxDuration; expected more than 0 ms and at most 60000 ms")
    }
}
