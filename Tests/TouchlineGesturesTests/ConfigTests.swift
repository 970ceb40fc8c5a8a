import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

@Suite struct ConfigTests {
    func parse(_ text: String) throws(ConfigError) -> GraphConfiguration {
        try GraphConfiguration.parse(toml: text, file: "graph.toml")
    }

    func error(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func emptyFileIsTheDefaultGraph() throws {
        #expect(try parse("") == GraphConfiguration.default)
        #expect(try parse("# nothing\n\nversion = 1\n") == GraphConfiguration.default)
    }

    @Test func exampleFileParses() throws {
        let path = Paths.packageRoot.appendingPathComponent("docs/example-config.toml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let config = try GraphConfiguration.parse(toml: text, file: "docs/example-config.toml")
        #expect(config.targets.map(\.name) == ["screen", "okButton"])
        #expect(config.recognizers.map(\.name) == ["doubleTap", "tap", "press", "swipe", "pinch", "rotate", "pan", "ok"])
        #expect(config.recognizers[1].requiresFailureOf == ["doubleTap"])
        guard case let .tap(doubleTap) = config.recognizers[0].kind, case let .tap(tap) = config.recognizers[1].kind,
              case let .longPress(press) = config.recognizers[2].kind, case let .swipe(swipe) = config.recognizers[3].kind,
              case let .pan(pan) = config.recognizers[6].kind
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
            switch spec.kind {
            case let .tap(p): #expect(p.maxDuration == .milliseconds(200))
            case let .pinch(p): #expect(p.minimumSpanChange == 10)
            case let .rotate(p): #expect(abs(p.minimumAngle - 28.6479) < 0.001)
            case .longPress, .pan, .swipe, .edgeSwipe: break
            }
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

    @Test func errorsSayFileLineAndWhat() {
        #expect(error("version = 2\n") == "graph.toml:1: version must be 1, the only configuration version there is")
        #expect(error("\n[[recognizer]]\nkind = \"tapp\"\n") == "graph.toml:3: unknown recognizer kind \"tapp\"; kinds: tap, longPress, pan, swipe, edgeSwipe, pinch, rotate")
        #expect(error("[[recognizer]]\nkind = \"tap\"\nmaxDuraton = 3\n") == "graph.toml:3: tap has no parameter 'maxDuraton'; its parameters: fingers, taps, eager, maxDuration, slop, multiTapInterval, multiTapDistance")
        #expect(error("[[recognizer]]\nkind = \"tap\"\nmaxDuration = \"3 parsecs\"\n") == "graph.toml:3: tap.maxDuration is a number of ms or a string with a unit (\"300ms\", \"0.3s\"), not \"3 parsecs\"")
        #expect(error("[[recognizer]]\nkind = \"pan\"\ntarget = \"nowhere\"\n") == "graph.toml:1: recognizer 'pan' names target 'nowhere', which is not declared; targets: surface")
        #expect(error("[[recognizer]]\nkind = \"pan\"\nrequiresFailureOf = [\"swipe\"]\n") == "graph.toml:1: recognizer 'pan' names recognizer 'swipe', which is not declared; recognizers: pan")
        #expect(error("[[target]]\nname = \"a\"\nrect = [0, 0, 1]\n") == "graph.toml:3: a target's rect is [x, y, width, height], four numbers")
        #expect(error("[[target]]\nrect = [0, 0, 1, 1]\n") == "graph.toml:1: this [[target]] has no name")
        #expect(error("x = \"open\n") == "graph.toml:1: the string is not closed on its line")
        #expect(error("[[recognizer]]\nkind = \"tap\"\neager = yes\n") == "graph.toml:3: expected a value (a quoted string, a number, true, false or an array), found 'yes'; strings need quotes")
        #expect(error("a = [1, 2\n") == "graph.toml:2: the array opened on line 1 is not closed")
        #expect(error("[stuff]\n") == "graph.toml:1: unknown section [stuff]; expected [defaults], [[target]] or [[recognizer]]")
        #expect(error("[defaults]\ntap = 1\n") == "graph.toml:2: a [defaults] key is 'kind.parameter' (for example tap.maxDuration), not 'tap'")
        #expect(error("[defaults]\nswipe.speed = 1\n") == "graph.toml:2: swipe has no parameter 'speed'; its parameters: fingers, minimumDistance, minimumVelocity, maximumAngle, maximumDuration")
        #expect(error("[[recognizer]]\nkind = \"tap\"\n[[recognizer]]\nkind = \"tap\"\n") == "graph.toml:3: recognizer 'tap' is declared twice; give each a unique name")
        #expect(error("[[target]]\nname = \"a\"\nrect = [0, 0, 1, 1]\n[[target]]\nname = \"a\"\nrect = [0, 0, 1, 1]\n") == "graph.toml:4: target 'a' is declared twice; give each a unique name")
        #expect(error("a = {x = 1}\n") == "graph.toml:1: inline tables are not supported; use a [table] or [[array of tables]] section")
        #expect(error("[[recognizer]]\nkind = \"tap\"\nkind = \"pan\"\n") == "graph.toml:3: the key 'kind' is set twice in this table")
        #expect(error("[[recognizer]]\nkind = \"swipe\"\nminimumVelocity = -5\n") == "graph.toml:3: swipe.minimumVelocity cannot be negative")
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
        let path = Paths.packageRoot.appendingPathComponent("docs/example-config.toml").path
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
