import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

// A recognizer kind made outside the library, as an application (or the next issue) makes one:
// this file is the whole kind — its state machine, its parameter with unit and limits, its
// explain reasons, its event fields — and one line (`registry` below) makes it known. The
// tests then use it as any kind: from a config file, in a graph, in the JSON, in `--explain`.

/// "Touch count": a discrete gesture recognized at the last lift when at least
/// `minimumTouches` contacts went down on the target, with the count in a `touches` field.
///
///     idle ──contactDown──▶ counting ──contactLifted (none left), touches ≥ minimum──▶ claimed ──accepted──▶ (recognized) idle
///                               │ └──contactLifted (none left), touches < minimum──▶ failed
///                               └──contactCancelled──▶ failed
struct TouchCountRecognizer: GestureRecognizer {
    struct Parameters: Hashable, Sendable {
        var minimumTouches = 2
    }

    enum State: Hashable, Sendable {
        case idle, counting, claimed
    }

    static let gesture = GestureKind("touchCount")
    static var eventFields: [any GestureFields.Type] { [TouchCountFields.self] }
    static var defaultParameters: Parameters { Parameters() }
    static let parameters: [RecognizerParameter<Parameters>] = [
        RecognizerParameter("minimumTouches", .count, set: { $0.minimumTouches = $1.count },
                            problem: { ParameterLimits.count($0.minimumTouches, 1, 10) }),
    ]

    let parameters: Parameters
    var state = State.idle
    var touches = 0
    var position = Point.zero

    init(parameters: Parameters, surface: Size) { self.parameters = parameters }

    var deadline: Timestamp? { nil }
    var stateName: StaticString {
        switch state {
        case .idle: return "idle"
        case .counting: return "counting"
        case .claimed: return "claimed"
        }
    }

    mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle, .contactDown(s)), let (.counting, .contactDown(s)):
            if state == .idle { touches = 0 }
            state = .counting
            touches += s.began
            position = s.centroid
            return .none
        case (.counting, .contactsMoved), (.claimed, .contactsMoved), (.claimed, .contactDown):
            return .none
        case let (.counting, .contactLifted(s)):
            guard s.remaining == 0 else { return .none }
            let limit = Double(parameters.minimumTouches)
            if touches < parameters.minimumTouches {
                state = .idle
                return .fail(.shortOf("touches", value: Double(touches), limit: limit, .fingers))
            }
            state = .claimed
            return .claim(.reached("touches", value: Double(touches), limit: limit, .fingers))
        case (.claimed, .contactLifted):
            return .none
        case (.claimed, .accepted):
            state = .idle
            return .finish(Emission(.recognized, fingers: touches, position: position, detail: GestureDetail(TouchCountFields(touches: touches))),
                           alsoEnded: false)
        case (_, .contactCancelled), (_, .rejected):
            state = .idle
            return .fail(.note("a contact was cancelled"))
        default:
            let name = stateName
            state = .idle
            return .impossible(state: name, input: input.name)
        }
    }
}

/// Its event field: `touches`.
struct TouchCountFields: GestureFields {
    var touches: Int
    static var fieldNames: [StaticString] { ["touches"] }
    func forEachField(_ body: (StaticString, FieldValue) -> Void) { body("touches", .integer(touches)) }
}

@Suite struct KindTableTests {
    /// The one registration line.
    let registry = RecognizerRegistry.standard.adding(TouchCountRecognizer.self)

    func graph(_ toml: String) throws(ConfigError) -> GraphConfiguration {
        try GraphConfiguration.parse(toml: toml, file: "graph.toml", registry: registry)
    }

    /// The error a config gives, or "" when it parses.
    func error(_ toml: String, registry: RecognizerRegistry? = nil) -> String {
        do { _ = try GraphConfiguration.parse(toml: toml, file: "graph.toml", registry: registry ?? self.registry) } catch { return error.description }
        return ""
    }

    @Test func aNewKindIsConfiguredRunAndWrittenLikeAnyOther() throws {
        let config = try graph("""
            [[recognizer]]
            kind = "touchCount"
            name = "chord"
            minimumTouches = 3
            """)
        #expect(config.recognizers.first?.kind.parameters(of: TouchCountRecognizer.self)?.minimumTouches == 3)
        var h = try GestureHarness(configuration: config, explain: true)
        // Three fingers land over two frames and lift: recognized, with its own field.
        h.down(0, at: p(40, 40)); h.down(1, at: p(60, 40)); h.wait(10)
        h.down(2, at: p(50, 60)); h.wait(50)
        h.up(0); h.up(1); h.up(2)
        // Two fingers: fewer than three, it fails and says why.
        h.wait(500)
        h.down(3, at: p(40, 40)); h.down(4, at: p(60, 40)); h.wait(50)
        h.up(3); h.up(4)
        expectLog(h, [
            "0.060000 explain won chord: touches 3 ≥ 3 (margin 0)",
            "0.060000 touchCount recognized [chord] f3 (50.00,46.67) touches=3",
            "0.610000 explain failed chord: touches 2 < 3 (short by 1)",
        ])
        let line = try #require(h.jsonLines.first { $0.contains("\"gesture\":\"touchCount\"") })
        #expect(line.contains("\"recognizer\":\"chord\""))
        // The contacts down on the target when it was made: the last to lift.
        #expect(line.contains("\"touches\":3,\"contacts\":[2]"))
        try h.expectNothingPending()
    }

    @Test func itsParameterIsCheckedByItsOwnLimits() {
        #expect(error("[[recognizer]]\nkind = \"touchCount\"\nminimumTouches = 0\n")
            == "graph.toml:3:18: found 0 for touchCount.minimumTouches; expected 1…10")
        #expect(error("[[recognizer]]\nkind = \"touchCount\"\ntouches = 2\n")
            == "graph.toml:3:1: touchCount has no parameter 'touches'; its parameters: minimumTouches")
        // [defaults] reach it as any kind.
        let defaulted = try? graph("[defaults]\ntouchCount.minimumTouches = 4\n[[recognizer]]\nkind = \"touchCount\"\n")
        #expect(defaulted?.recognizers.first?.kind.parameters(of: TouchCountRecognizer.self)?.minimumTouches == 4)
    }

    @Test func withoutItsRegistrationTheKindIsUnknown() {
        #expect(error("[[recognizer]]\nkind = \"touchCount\"\n", registry: .standard)
            .hasPrefix("graph.toml:2:8: found \"touchCount\" for kind; expected a recognizer kind: tap, longPress, pan"))
    }

    @Test func theStandardTableListsEveryKindOnce() {
        let names = RecognizerRegistry.standard.kinds.map { $0.gesture.description }
        #expect(names == ["tap", "longPress", "pan", "swipe", "edgeSwipe", "pinch", "rotate", "peek", "drag", "spring"])
        #expect(registry.kinds.count == 11)
        #expect(GraphConfiguration.parameters.count == 46)
    }
}
