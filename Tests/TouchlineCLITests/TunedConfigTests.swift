import Foundation
import Testing

/// `tune -o` writes the input config with the tuned value edited where the document holds it
/// (issue 36, item 1): a config that writes its kinds as `[defaults.KIND]` tables got
/// `[defaults]` + `edgeSwipe.margin = 6` appended, which does not load. Each documented style
/// round-trips, and `score`, `replay --config` and `daemon --check-config` read what it wrote.
@Suite struct TunedConfigTests {
    /// Tunes the bezel panel (TuneTests) from `config`, margin only; returns the tuned text.
    func tuned(_ config: String, _ check: (String, URL) throws -> Void = { _, _ in }) throws -> String {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try TuneTests().write(TuneTests.bezelPanel(), in: dir)
        let input = dir.appendingPathComponent("panel.toml")
        try config.write(to: input, atomically: true, encoding: .utf8)
        let output = dir.appendingPathComponent("tuned.toml").path
        let result = try touchline("tune", labels, "--config", input.path, "--parameters", "edgeSwipe.margin", "-o", output)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.last == "wrote \(output): 20/20 labels hold with it", "\(result.stdout)\(result.stderr)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        // Every label holds with it: the report of TuneTests' tuned margin.
        expectReport(try touchline("score", "--config", output, labels).stdout, "score-bezel-tuned.txt")
        #expect(try touchline("replay", "--config", output, dir.appendingPathComponent("panel.evemu").path).status == 0, "\(text)")
        let daemon = try touchline("daemon", "--check-config", output)
        #expect(daemon.status == 0 && daemon.stdout == "\(output): ok\n", "\(daemon.stderr)\n\(text)")
        try check(text, dir)
        // Nothing beside it: the temporary it was written to went into place.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["labels.json", "panel.evemu", "panel.toml", "tuned.toml"])
        return text.replacingOccurrences(of: dir.path, with: "DIR")
    }

    static let header = "# tuned by `touchline tune` on DIR/labels.json: 14 -> 20 of 20 labels hold\n"

    @Test func aDefaultsKindTableKeepsItsKeyWhereItIs() throws {
        let config = """
            # a panel with a bezel
            [defaults.edgeSwipe]
            margin = 3          # the bezel
            slop = 3

            [defaults.tap]
            maxDuration = 300
            """
        #expect(try tuned(config + "\n") == Self.header + config.replacingOccurrences(of: "margin = 3 ", with: "margin = 6 ") + "\n")
    }

    @Test func aKeyMissingFromItsKindTableIsAddedToThatTable() throws {
        let config = "[defaults.edgeSwipe]\nslop = 3\n\n# taps\n[defaults.tap]\nmaxDuration = 300\n"
        #expect(try tuned(config) == Self.header + "[defaults.edgeSwipe]\nslop = 3\nmargin = 6\n\n# taps\n[defaults.tap]\nmaxDuration = 300\n")
    }

    @Test func aKindNotYetSetGetsATableWhenTheFileWritesTables() throws {
        let config = "[defaults.tap]\nmaxDuration = 300\n\n# the rest\n[defaults.pen]\ntap.slop = 6\n"
        #expect(try tuned(config) == Self.header + "[defaults.tap]\nmaxDuration = 300\n\n[defaults.edgeSwipe]\nmargin = 6\n\n# the rest\n[defaults.pen]\ntap.slop = 6\n")
    }

    @Test func aDottedKeyKeepsItsUnitAndComment() throws {
        let config = "# a panel\n[defaults]\ntap.maxDuration = \"0.3s\"\nedgeSwipe.margin = \"0.3cm\" # bezel\nedgeSwipe.slop = \"3mm\"\n"
        #expect(try tuned(config) == Self.header + config.replacingOccurrences(of: "\"0.3cm\"", with: "\"0.6cm\""))
    }

    @Test func aDottedKindGetsTheNewKeyBesideItsOthers() throws {
        let config = "[defaults]\nedgeSwipe.slop = \"3 mm\"\ntap.maxDuration = 300\n"
        #expect(try tuned(config) == Self.header + "[defaults]\nedgeSwipe.slop = \"3 mm\"\nedgeSwipe.margin = 6\ntap.maxDuration = 300\n")
    }

    @Test func inlineTablesTakeTheKeyInside() throws {
        #expect(try tuned("[defaults]\nedgeSwipe = { margin = \"3 mm\", slop = 3 }\n")
            == Self.header + "[defaults]\nedgeSwipe = { margin = \"6 mm\", slop = 3 }\n")
        #expect(try tuned("[defaults]\nedgeSwipe = { slop = 3 }\ntap = {}\n")
            == Self.header + "[defaults]\nedgeSwipe = { slop = 3, margin = 6 }\ntap = {}\n")
        #expect(try tuned("[defaults]\ntap = { maxDuration = 300 }\n")
            == Self.header + "[defaults]\ntap = { maxDuration = 300 }\nedgeSwipe = { margin = 6 }\n")
    }

    @Test func aFileWithoutDefaultsGetsThemAtTheEnd() throws {
        let config = "# nothing set yet\n"
        #expect(try tuned(config) == Self.header + config + "\n[defaults]\nedgeSwipe.margin = 6\n")
    }

    /// Refused before the search, with nothing written: an empty name, a FIFO, /dev/null, a
    /// folder, and the inputs themselves.
    @Test func anOutputThatIsNoRegularFileOrAnInputIsRefusedFirst() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try TuneTests().write(TuneTests.bezelPanel(), in: dir)
        let config = dir.appendingPathComponent("panel.toml").path
        try "[defaults]\ntap.maxDuration = 300\n".write(toFile: config, atomically: true, encoding: .utf8)
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases: [(String, Int32, String)] = [
            ("", 64, "-o \"\": expected the path of the file to write"),
            (fifo, 73, "\(fifo): is a FIFO, not a regular file; -o writes a regular file (written beside it, then renamed over it)"),
            ("/dev/null", 73, "/dev/null: is a character device, not a regular file; -o writes a regular file (written beside it, then renamed over it)"),
            (dir.path, 73, "\(dir.path): is a directory, not a regular file; -o writes a regular file (written beside it, then renamed over it)"),
            (labels, 64, "\(labels): is the same file as the input \(labels); writing there would destroy it: choose another output"),
            (config, 64, "\(config): is the same file as the input \(config); writing there would destroy it: choose another output"),
        ]
        for (output, status, message) in cases {
            let result = try touchline("tune", labels, "--config", config, "-o", output)
            #expect(result.status == status && result.stderr == "touchline: " + message + "\n", "\(output): \(result.stderr)")
            #expect(result.stdout.isEmpty, "searched before refusing \(output)")
        }
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "[defaults]\ntap.maxDuration = 300\n")
    }
}
