import FastPathScripts
import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting
import TouchlineTestSupport

@Suite struct ConfigTests {
    func parse(_ text: String) throws(ConfigError) -> GraphConfiguration {
        try GraphConfiguration.parse(toml: text, file: "graph.toml")
    }

    func error(_ text: String) -> String { errorMessage { try parse(text) } }

    @Test func emptyFileIsTheDefaultGraph() throws {
        #expect(try parse("") == GraphConfiguration.default)
        #expect(try parse("# nothing\n\nversion = 1\n") == GraphConfiguration.default)
    }

    @Test func exampleFileParses() throws {
        let path = Paths.root.appendingPathComponent("docs/example-config.toml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let config = try GraphConfiguration.parse(toml: text, file: "docs/example-config.toml")
        #expect(config.targets.map(\.name) == ["screen", "okButton"])
        #expect(config.recognizers.map(\.name) == ["doubleTap", "tap", "press", "swipe", "pinch", "rotate", "pan", "ok"])
        #expect(config.recognizers[1].requiresFailureOf == ["doubleTap"])
        guard let doubleTap = config.recognizers[0].kind.parameters(of: TapRecognizer.self), let tap = config.recognizers[1].kind.parameters(of: TapRecognizer.self),
              let press = config.recognizers[2].kind.parameters(of: LongPressRecognizer.self), let swipe = config.recognizers[3].kind.parameters(of: SwipeRecognizer.self),
              let pan = config.recognizers[6].kind.parameters(of: PanRecognizer.self)
        else { Issue.record("kinds"); return }
        #expect(doubleTap.taps == 2)
        #expect(tap.maxDuration == .milliseconds(250))
        #expect(doubleTap.maxDuration == .milliseconds(250))
        #expect(press.minimumDuration == .milliseconds(600))
        #expect(swipe.minimumVelocity == 150)
        #expect(swipe.maximumAngle == 25)
        #expect(pan.slop == 4)
        #expect(config.targets[1].rect == Rect(x: 80, y: 40, width: 30, height: 12))
        try config.validate()
    }

    @Test func defaultsTuneTheDefaultGraph() throws {
        let config = try parse("[defaults]\ntap.maxDuration = \"0.2s\"\npinch.minimumSpanChange = \"1cm\"\nrotate.minimumAngle = \"0.5rad\"\n")
        #expect(config.recognizers.map(\.name) == GraphConfiguration.default.recognizers.map(\.name))
        for spec in config.recognizers {
            if let p = spec.kind.parameters(of: TapRecognizer.self) { #expect(p.maxDuration == .milliseconds(200)) }
            if let p = spec.kind.parameters(of: PinchRecognizer.self) { #expect(p.minimumSpanChange == 10) }
            if let p = spec.kind.parameters(of: RotateRecognizer.self) { #expect(abs(p.minimumAngle - 28.6479) < 0.001) }
        }
    }

    @Test func tomlSubset() throws {
        let text = """
        # comment
        version = 1 # trailing comment
        [[target]]
        name = 'literal \\ name'
        "rect" = [
            0, 0,   # across lines, with comments
            1.5e2, 1_00,
        ]
        [[recognizer]]
        kind = "tap"
        name = "t\\u00e9\\"x"
        eager = true
        """
        let config = try parse(text)
        #expect(config.targets[0].name == "literal \\ name")
        #expect(config.targets[0].rect == Rect(x: 0, y: 0, width: 150, height: 100))
        #expect(config.recognizers[0].name == "té\"x")
        #expect(config.recognizers[0].target == "literal \\ name")
    }

    @Test func errorsSayFileLineColumnKeyFoundAndExpected() {
        #expect(error("version = 2\n") == "graph.toml:1:11: found 2 for version; expected 1, the only configuration version there is")
        #expect(error("\n[[recognizer]]\nkind = \"tapp\"\n") == "graph.toml:3:8: found \"tapp\" for kind; expected a recognizer kind: tap, longPress, pan, swipe, edgeSwipe, pinch, rotate, peek, drag, spring")
        #expect(error("[[recognizer]]\nkind = \"tap\"\nmaxDuraton = 3\n") == "graph.toml:3:1: tap has no parameter 'maxDuraton'; its parameters: fingers, taps, eager, maxDuration, slop, multiTapInterval, multiTapDistance")
        #expect(error("[[recognizer]]\nkind = \"tap\"\nmaxDuration = \"3 parsecs\"\n") == "graph.toml:3:15: found \"3 parsecs\" for tap.maxDuration; expected a number of ms or a string with a unit (\"300ms\", \"0.3s\")")
        #expect(error("[[recognizer]]\nkind = \"pan\"\ntarget = \"nowhere\"\n") == "graph.toml:3:1: recognizer 'pan' names target 'nowhere', which is not declared; targets: 'surface'")
        #expect(error("[[recognizer]]\nkind = \"pan\"\nrequiresFailureOf = [\"swipe\"]\n") == "graph.toml:3:1: recognizer 'pan' names recognizer 'swipe' in requiresFailureOf, which is not declared; recognizers: 'pan'")
        #expect(error("[[target]]\nname = \"a\"\nrect = [0, 0, 1]\n") == "graph.toml:3:8: found an array for a target's rect; expected [x, y, width, height], four numbers")
        #expect(error("[[target]]\nname = \"a\"\nrect = [0, 0, 1, -2]\n") == "graph.toml:3:1: target 'a' has rect [0, 0, 1, -2] (mm); expected x and y within -3000…3000 mm, width and height greater than 0 and at most 3000 mm")
        #expect(error("[[target]]\nrect = [0, 0, 1, 1]\n") == "graph.toml:1:1: this [[target]] has no name")
        #expect(error("x = \"open\n") == "graph.toml:1:10: found the end of the line; expected the closing \" of the string on its line")
        #expect(error("[[recognizer]]\nkind = \"tap\"\neager = yes\n") == "graph.toml:3:9: found yes for 'eager'; expected a value (a quoted string, number, true, false, date, array or inline table); strings need quotes")
        #expect(error("a = [1, 2\n") == "graph.toml:2:1: found the end of the file; expected ',' or ']' in the array opened at 1:5")
        #expect(error("[stuff]\n") == "graph.toml:1:1: unknown section [stuff]; expected [defaults], [[target]] or [[recognizer]]")
        #expect(error("[defaults]\ntap = 1\n") == "graph.toml:2:1: a [defaults] key is 'kind.parameter' (for example tap.maxDuration), not 'tap'")
        #expect(error("[defaults]\nswipe.speed = 1\n") == "graph.toml:2:7: swipe has no parameter 'speed'; its parameters: fingers, minimumDistance, minimumVelocity, maximumAngle, maximumDuration")
        #expect(error("[[recognizer]]\nkind = \"tap\"\n[[recognizer]]\nkind = \"tap\"\n") == "graph.toml:3:1: recognizer 'tap' is declared twice (recognizers 1 and 2); give each a unique name")
        #expect(error("[[target]]\nname = \"a\"\nrect = [0, 0, 1, 1]\n[[target]]\nname = \"a\"\nrect = [0, 0, 1, 1]\n") == "graph.toml:5:1: target 'a' is declared twice (targets 1 and 2); give each a unique name")
        #expect(error("a = {x = 1}\n") == "graph.toml:1:5: unknown section [a]; expected [defaults], [[target]] or [[recognizer]]")
        #expect(error("[[recognizer]]\nkind = \"tap\"\nkind = \"pan\"\n") == "graph.toml:3:1: found 'kind' again; expected each key defined once (first at 2:1)")
        #expect(error("[[recognizer]]\nkind = \"swipe\"\nminimumVelocity = -5\n") == "graph.toml:3:19: found -5 for swipe.minimumVelocity; expected 0…10000 mm/s")
    }

    /// An empty target name is refused like any empty name; after 4ceb273 `target = ""` meant
    /// the first target, silently.
    @Test func anEmptyTargetNameIsAnError() {
        let text = "[[target]]\nname = \"a\"\nrect = [0, 0, 1, 1]\n[[recognizer]]\nkind = \"tap\"\ntarget = \"\"\n"
        #expect(error(text) == "graph.toml:6:10: found \"\" for a recognizer's target; expected a target's name (a non-empty string)")
    }

    /// One table of limits: a value just past validation's limit and one past the parser's old
    /// limit get the same message, at the value. After 4ceb273 the parser allowed fingers
    /// 0…64, 10,000 mm, 360°, 0 ms and validation then refused 33 fingers, 3,001 mm, 46°, 0 ms
    /// with other limits ("0…32"), so 33 and 65 fingers named two different ranges.
    @Test(arguments: [
        ("tap", "fingers = 33", "found 33 for tap.fingers; expected 0…32 (0: any number)"),
        ("tap", "fingers = 65", "found 65 for tap.fingers; expected 0…32 (0: any number)"),
        ("pan", "minimumFingers = 0", "found 0 for pan.minimumFingers; expected 1…32"),
        ("tap", "slop = 3001", "found 3001 for tap.slop; expected 0…3000 mm"),
        ("tap", "slop = \"11m\"", "found \"11m\" for tap.slop; expected 0…3000 mm"),
        ("tap", "maxDuration = 0", "found 0 for tap.maxDuration; expected more than 0 ms and at most 60000 ms"),
        ("swipe", "maximumAngle = 46", "found 46 for swipe.maximumAngle; expected more than 0° and at most 45° (the angle from the nearest axis)"),
        ("swipe", "maximumAngle = 361", "found 361 for swipe.maximumAngle; expected more than 0° and at most 45° (the angle from the nearest axis)"),
        ("swipe", "minimumVelocity = \"20m/s\"", "found \"20m/s\" for swipe.minimumVelocity; expected 0…10000 mm/s"),
        ("rotate", "minimumAngle = 181", "found 181 for rotate.minimumAngle; expected 0…180°"),
    ])
    func everyLimitIsValidationsAndReportedAtTheValue(kind: String, line: String, expected: String) {
        let column = line.distance(from: line.startIndex, to: line.range(of: "= ")!.upperBound) + 1
        #expect(error("[[recognizer]]\nkind = \"\(kind)\"\n\(line)\n") == "graph.toml:3:\(column): \(expected)")
        // The same in [defaults], at its value.
        #expect(error("[defaults]\n\(kind).\(line)\n") == "graph.toml:2:\(column + kind.count + 1): \(expected)")
    }

    /// 532b116 crashed (Int64 conversion of the microseconds) on a number past Int64; now the
    /// reader refuses it, and a number that fits Int64 but not the limits is refused by key.
    @Test func numbersPastTheirLimitsAreErrorsNotCrashes() {
        #expect(error("[defaults]\ntap.maxDuration = 99999999999999999999\n") == "graph.toml:2:19: found 99999999999999999999 for 'tap.maxDuration'; expected an integer from -9223372036854775808 to 9223372036854775807 (the 64-bit range)")
        #expect(error("[defaults]\ntap.maxDuration = 9223372036854775807\n") == "graph.toml:2:19: found 9223372036854775807 for tap.maxDuration; expected more than 0 ms and at most 60000 ms")
        #expect(error("[defaults]\ntap.maxDuration = 1e300\n") == "graph.toml:2:19: found 1e300 for tap.maxDuration; expected more than 0 ms and at most 60000 ms")
        #expect(error("[defaults]\ntap.maxDuration = \"1e400s\"\n") == "graph.toml:2:19: found \"1e400s\" for tap.maxDuration; expected more than 0 ms and at most 60000 ms")
        #expect(error("[defaults]\npan.slop = nan\n") == "graph.toml:2:12: found nan for pan.slop; expected 0…3000 mm")
        #expect(error("[defaults]\npan.slop = 1e400\n") == "graph.toml:2:12: found 1e400 for 'pan.slop'; expected a float from -1.7976931348623157e308 to 1.7976931348623157e308 (the 64-bit range), or inf")
        #expect(error("[[recognizer]]\nkind = \"tap\"\ntaps = 0\n") == "graph.toml:3:8: found 0 for tap.taps; expected 1…64")
        #expect(error("[[recognizer]]\nkind = \"tap\"\nfingers = 65\n") == "graph.toml:3:11: found 65 for tap.fingers; expected 0…32 (0: any number)")
        #expect(error("[[target]]\nname = \"a\"\nrect = [0, 0, 1, 1]\nz = 0x7FFFFFFFFFFFFFFF\n") == "graph.toml:4:5: found 0x7FFFFFFFFFFFFFFF for a target's z; expected an integer from -1000000 to 1000000 (higher is on top)")
    }

    /// 532b116 refused `0x2A` and every other TOML it did not hand-parse.
    @Test func anyTOMLSpellingOfANumberIsAccepted() throws {
        let config = try parse("[defaults]\ntap.taps = 0x2\ntap.maxDuration = 0x2A\nlongPress.minimumDuration = 1_000\npan.slop = 0b11\n")
        guard let tap = config.recognizers[0].kind.parameters(of: TapRecognizer.self), let press = config.recognizers[1].kind.parameters(of: LongPressRecognizer.self),
              let pan = config.recognizers[6].kind.parameters(of: PanRecognizer.self) else { Issue.record("kinds"); return }
        #expect(tap.taps == 2)
        #expect(tap.maxDuration == .milliseconds(42))
        #expect(press.minimumDuration == .milliseconds(1000))
        #expect(pan.slop == 3)
    }

    /// Inline tables, dotted keys and `[defaults.kind]` are TOML like any other.
    @Test func otherTOMLSpellingsOfTheSameConfiguration() throws {
        let a = try parse("[defaults.tap]\nmaxDuration = 250\n[[recognizer]]\nkind = \"tap\"\n")
        let b = try parse("defaults = { tap = { maxDuration = \"0.25s\" } }\nrecognizer = [{ kind = \"tap\" }]\n")
        #expect(a == b)
    }

    /// A recognizer's own setting wins over [defaults].
    @Test func ownSettingsWinOverDefaults() throws {
        let config = try parse("[defaults]\ntap.taps = 3\n[[recognizer]]\nkind = \"tap\"\ntaps = 2\n[[recognizer]]\nname = \"t3\"\nkind = \"tap\"\n")
        guard let own = config.recognizers[0].kind.parameters(of: TapRecognizer.self), let defaulted = config.recognizers[1].kind.parameters(of: TapRecognizer.self) else { Issue.record("kinds"); return }
        #expect(own.taps == 2)
        #expect(defaulted.taps == 3)
    }

    /// Positions kept for errors found after parsing (validation, GestureGraph.init).
    @Test func sourceMapNamesWhereEachPartIs() throws {
        let text = "[[target]]\nname = \"b\"\nrect = [0, 0, 10, 10]\n\n[[recognizer]]\nname = \"r\"\nkind = \"tap\"\n  target = \"b\"\n"
        let parsed = try GraphConfiguration.parseWithSource(bytes: Array(text.utf8), file: "graph.toml")
        #expect(parsed.source.target(named: "b")?.position == ConfigPosition(line: 1, column: 1))
        #expect(parsed.source.target(named: "b")?.position(ofKey: "rect") == ConfigPosition(line: 3, column: 1))
        let r = try #require(parsed.source.recognizer(named: "r"))
        #expect(r.position == ConfigPosition(line: 5, column: 1))
        #expect(r.position(ofKey: "target") == ConfigPosition(line: 8, column: 3))
        #expect(r.position(ofKey: "requiresFailureOf") == r.position)
        #expect(parsed.source.error(at: r.position(ofKey: "target"), "x").description == "graph.toml:8:3: x")
    }

    @Test func configuredGraphRuns() throws {
        let config = try parse("""
        [[recognizer]]
        name = "doubleTap"
        kind = "tap"
        taps = 2
        [[recognizer]]
        name = "singleTap"
        kind = "tap"
        requiresFailureOf = "doubleTap"
        """)
        var h = try GestureHarness(configuration: config)
        h.down(0, at: p(50, 50)); h.wait(80); h.up(0); h.wait(400)
        #expect(h.log == ["0.380000 tap recognized [singleTap] f1 (50.00,50.00) count=1"])
        try h.expectNothingPending()
    }
}

@Suite struct ConfigFuzzTests {
    /// Random byte edits of the example config: the parser never crashes, and every error names
    /// the file and a line that exists, then says what was expected.
    @Test(arguments: Seeds.cases(300, base: 0xC0F1_0001))
    func mutatedConfigsFailCleanly(seed: UInt64) throws {
        let path = Paths.root.appendingPathComponent("docs/example-config.toml").path
        var bytes = Array(try String(contentsOfFile: path, encoding: .utf8).utf8)
        var rng = SeededRandom(seed: seed)
        let alphabet = Array("[]=\"',.#\n \t{}0123456789abcxyz-_e+".utf8) + [0xC3, 0xA9, 0x00, 0xFF]
        for _ in 0..<rng.int(1...6) {
            let at = rng.int(0...(bytes.count - 1))
            switch rng.int(0...2) {
            case 0: bytes[at] = alphabet.randomElement(using: &rng)!
            case 1: bytes.insert(alphabet.randomElement(using: &rng)!, at: at)
            default: bytes.remove(at: at)
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        do {
            let config = try GraphConfiguration.parse(toml: text, file: "fuzz.toml")
            // `parse` validates: a configuration it accepts builds a graph.
            do { _ = try GestureGraph(configuration: config, surface: Size(width: 200, height: 120)) } catch {
                Issue.record("seed \(seed): parsed, but the graph refused it: \(error)")
            }
        } catch {
            #expect(error.file == "fuzz.toml", "seed \(seed)")
            #expect(error.line >= 0 && error.line <= lineCount + 1, "seed \(seed): line \(error.line) of \(lineCount): \(error)")
            #expect(!error.message.isEmpty && error.description.hasPrefix("fuzz.toml:"), "seed \(seed): \(error)")
        }
    }
}
