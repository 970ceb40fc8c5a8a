import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `touchline plot` on the bundled recordings and three shared traces (issue 16, acceptance 1):
/// each SVG is well-formed XML, holds one path per contact and one bar per continuous gesture
/// (counted against `replay`'s frames and events), names its gestures, converts to PNG with
/// rsvg-convert, and is the same bytes on a second run.
@Suite struct PlotTests {
    /// (trace, configuration) pairs: every bundled recording with its .toml when it has one.
    static let recordings: [(String, String?)] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Paths.recordings.path)) ?? []
        return names.filter { $0.hasSuffix(".yml") }.sorted().map { name in
            (Paths.recordings.appendingPathComponent(name).path, Paths.recordingConfig(name))
        }
    }()

    static let sharedTraces = [
        "evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events",
        "evemu-devices/Wacom ISDv4 E6 Finger.double-center-circle.events",
        "xorg-integration-tests/n4.events",
    ]

    @Test func bundledRecordingsHaveTheirFullPicture() throws {
        #expect(Self.recordings.count >= 14)
        for (trace, config) in Self.recordings { try checkPlot(trace, config: config) }
    }

    @Test(arguments: sharedTraces)
    func sharedTraceHasItsFullPicture(_ relative: String) throws {
        try checkPlot(Paths.trace(relative), config: nil)
    }

    /// What the SVG holds, as an XML parser sees it.
    final class Census: NSObject, XMLParserDelegate {
        var contacts = 0, bars = 0, ticks = 0
        var text = ""
        var inText = false
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            switch (name, attributes["class"]) {
            case ("path", "contact"): contacts += 1
            case ("rect", "bar"): bars += 1
            case ("line", "tick"): ticks += 1
            default: break
            }
            inText = name == "text" || name == "title"
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { if inText { text += string } }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            inText = false
            text += "\n"
        }
    }

    func checkPlot(_ trace: String, config: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = dir.appendingPathComponent("plot.svg").path
        let extra = config.map { ["--config", $0] } ?? []
        let result = try touchline(arguments: ["plot", trace, "-o", svg] + extra)
        try #require(result.status == 0, "plot \(trace): \(result.stderr)", sourceLocation: sourceLocation)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: svg))

        // What replay says: its events and its frames' contacts.
        let events = try touchline(arguments: ["replay", trace] + extra).lines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        var contacts = Set<String>()
        for line in try touchline(arguments: ["replay", "--frames", trace]).lines {
            let frame = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for contact in frame["contacts"] as? [[String: Any]] ?? [] {
                contacts.insert("\(frame["device"] ?? 0)/\(contact["id"] ?? -1)")
            }
        }
        let began = events.filter { $0["phase"] as? String == "began" }.count
        let recognized = events.filter { $0["phase"] as? String == "recognized" }.count

        let parser = XMLParser(data: bytes)
        let census = Census()
        parser.delegate = census
        #expect(parser.parse(), "\(trace): not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        #expect(census.contacts == contacts.count, "\(trace): one path per contact", sourceLocation: sourceLocation)
        #expect(census.bars == began, "\(trace): one bar per continuous gesture", sourceLocation: sourceLocation)
        #expect(census.ticks == recognized, "\(trace): one tick per discrete gesture", sourceLocation: sourceLocation)
        for name in Set(events.compactMap { $0["gesture"] as? String }) {
            #expect(census.text.contains(name), "\(trace): the gesture \(name) is named", sourceLocation: sourceLocation)
        }

        let png = dir.appendingPathComponent("plot.png").path
        let converted = try run("/usr/bin/rsvg-convert", [svg, "-o", png])
        #expect(converted.status == 0 && converted.stderr.isEmpty, "\(trace): rsvg-convert: \(converted.stderr) (install librsvg2-bin: scripts/setup.sh)", sourceLocation: sourceLocation)
        #expect(FileManager.default.fileExists(atPath: png), sourceLocation: sourceLocation)

        let again = try touchline(arguments: ["plot", trace, "-o", "-"] + extra)
        #expect(again.stdout == String(decoding: bytes, as: UTF8.self), "\(trace): the same bytes on a second run (and on standard output)", sourceLocation: sourceLocation)
    }

    /// A trace of two devices: a panel each, with the whole trace's paths and bars; `--device 1`
    /// draws device 1's panel only, with its own events (all devices are still replayed).
    @Test func severalDevicesGetAPanelEachOrTheOneChosen() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = try MultiDeviceCLITests.writeTwoDeviceRecording(in: dir)
        try checkPlot(trace, config: nil)
        let both = try touchline("plot", trace, "-o", "-")
        #expect(both.stdout.contains(">device 0: ") && both.stdout.contains(">device 1: "))
        let one = try touchline("plot", trace, "-o", "-", "--device", "1")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(!one.stdout.contains(">device 0: ") && one.stdout.contains(">device 1: "))
        let replayed = try touchline("replay", trace).lines.filter { $0.contains("\"device\":1,") }
        let began = replayed.filter { $0.contains("\"phase\":\"began\"") }.count
        let recognized = replayed.filter { $0.contains("\"phase\":\"recognized\"") }.count
        #expect(one.stdout.components(separatedBy: "<rect class=\"bar\"").count - 1 == began)
        #expect(one.stdout.components(separatedBy: "<line class=\"tick\"").count - 1 == recognized)
        #expect(began + recognized > 0)
    }

    /// Without -o the picture is FILE's base name with .svg, in the current directory.
    @Test func defaultOutputIsBesideTheCallerNamedAfterTheTrace() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = Paths.binary
        process.arguments = ["plot", Paths.recordings.appendingPathComponent("pinch.yml").path]
        process.currentDirectoryURL = dir
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("pinch.svg").path))
    }

    /// --from/--to draw a window: the two-finger tap recording's tap is after 0.05 s, so a
    /// window before it has no tick; hostile values are usage errors that name the option.
    @Test func windowAndBadOptions() throws {
        // Run in Recordings/, so that the picture's title names the trace as given. The pinch
        // begins after 0.01 s: this window has no bar.
        try touchline(in: Paths.recordings, "plot", "pinch.yml", "-o", "-", "--to", "0.01").expect(status: 0, stdout: "plot-window.svg")
        var errors: [(String, String)] = []
        for options in [["--from", "2", "--to", "1"], ["--from", "-1"], ["--device", "3"]] {
            let result = try run(Paths.binary.path, ["plot", "pinch.yml", "-o", "-"] + options, directory: Paths.recordings)
            #expect(result.status == 64 && result.stdout.isEmpty, "\(options): \(result.stderr)")
            errors.append((options.joined(separator: " "), result.stderr))
        }
        expectReport(Report.table(errors), "plot-bad-options.stderr.txt")
    }

    /// A trace with a bad line: no picture, and the error names the line (65); a trace on
    /// standard input gives its picture on standard output.
    @Test func badLineWritesNoPictureAndStandardInputPlotsToStandardOutput() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try String(contentsOfFile: Paths.trace(Self.sharedTraces[0]), encoding: .utf8)
        var lines = good.split(separator: "\n", omittingEmptySubsequences: false)
        lines[39] = "E: 1.5 zz 0003 0035 100"
        let bad = dir.appendingPathComponent("bad.events")
        try lines.joined(separator: "\n").write(to: bad, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("bad.svg")
        try touchline(in: dir, "plot", "bad.events", "-o", "bad.svg").expect(status: 65, stderr: "plot-bad-line.stderr.txt")
        #expect(!FileManager.default.fileExists(atPath: out.path))

        let tap = Paths.recordings.appendingPathComponent("tap.yml").path
        let piped = try touchline(arguments: ["plot", "-"], standardInput: tap)
        #expect(piped.status == 0, "\(piped.stderr)")
        expectReport(piped.stdout, "plot-stdin.svg")
    }

    /// The picture never replaces its own trace.
    @Test func outputIsNeverTheTrace() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("tap.yml")
        try FileManager.default.copyItem(at: Paths.recordings.appendingPathComponent("tap.yml"), to: copy)
        let before = try Data(contentsOf: copy)
        let result = try touchline("plot", copy.path, "-o", copy.path)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(try Data(contentsOf: copy) == before)
    }
}

/// The README's picture is what its command makes today (run from the repository root, as the
/// README gives it), so a change to the plot cannot leave a stale picture behind.
@Suite struct PlotReadmePictureTests {
    @Test func readmePictureIsCurrent() throws {
        let readme = try String(contentsOf: Paths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let command = try #require(readme.split(separator: "\n").first { $0.hasPrefix("touchline plot Recordings/") })
        #expect(readme.contains("](docs/images/drag-two-items.svg)"))
        var arguments = command.split(separator: " ").dropFirst().map(String.init)
        let o = try #require(arguments.firstIndex(of: "-o"))
        let picture = arguments[o + 1]
        arguments[o + 1] = "-"
        let (status, made) = try runCapturingOutput(Paths.binary, arguments, in: Paths.root)
        #expect(status == 0)
        let committed = try Data(contentsOf: Paths.root.appendingPathComponent(picture))
        #expect(made == committed, "regenerate it: \(command)")
    }
}
