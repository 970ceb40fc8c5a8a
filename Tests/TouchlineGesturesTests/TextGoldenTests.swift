import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

// `--format text` goldens: every Recordings/NAME.yml has Recordings/NAME.events.txt beside its
// NAME.events.jsonl, the same events as TextEventWriter writes them (no colour). Regenerate after
// a deliberate change with
//     TOUCHLINE_UPDATE_GOLDEN=1 swift test --filter TextGoldenTests
// and review the diff.

enum TextGolden {
    static func expectedPath(_ recording: String) -> String {
        Paths.recordings.appendingPathComponent(String(recording.dropLast(4)) + ".events.txt").path
    }

    static func render(_ recording: String, color: Bool = false) throws -> String {
        let trace = try assemble(path: Paths.recordings.appendingPathComponent(recording).path)
        var configuration = GraphConfiguration.default
        if let path = Golden.configPath(recording) {
            configuration = try GraphConfiguration.parse(toml: String(contentsOfFile: path, encoding: .utf8), file: path)
        }
        let events = try GestureHarness.replay(trace.frames, configuration: configuration, surface: trace.surface)
        var writer = TextEventWriter(color: color)
        for e in events { writer.write(e) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

@Suite struct TextGoldenTests {
    @Test(arguments: Golden.recordings)
    func textMatchesGoldenFile(recording: String) throws {
        let actual = try TextGolden.render(recording)
        let path = TextGolden.expectedPath(recording)
        if ProcessInfo.processInfo.environment["TOUCHLINE_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("\(recording) has no text golden file \(path); run TOUCHLINE_UPDATE_GOLDEN=1 swift test --filter TextGoldenTests")
            return
        }
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        if let first = zip(a, e).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset ?? (a.count == e.count ? nil : min(a.count, e.count)) {
            let got = first < a.count ? String(a[first]) : "(end)"
            let want = first < e.count ? String(e[first]) : "(end)"
            Issue.record("\(recording): text line \(first + 1) differs\n  expected: \(want)\n  actual:   \(got)")
        }
    }

    /// One row per JSON line, and each row holds the event's columns and every field the kind
    /// declares, as `key=value`: the writer reads the kinds generically, so a kind whose fields
    /// it skipped would show here.
    @Test(arguments: Golden.recordings)
    func everyFieldIsWritten(recording: String) throws {
        let text = try TextGolden.render(recording).split(separator: "\n")
        let json = try String(contentsOfFile: Golden.expectedPath(recording), encoding: .utf8).split(separator: "\n")
        #expect(text.count == json.count)
        for (row, line) in zip(text, json) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let columns = row.split(separator: " ").map(String.init)
            #expect(columns[2] == object["gesture"] as? String && columns[3] == object["phase"] as? String, "\(row)")
            #expect(columns[4] == "\(object["fingers"] ?? "")" && columns[5] == object["target"] as? String, "\(row)")
            let common: Set = ["v", "seq", "time", "device", "gesture", "phase", "target", "fingers", "x", "y", "recognizer", "contacts"]
            for key in object.keys where !common.contains(key) {
                #expect(row.contains(" \(key)="), "\(recording): \(row) lacks \(key)")
            }
        }
    }

    /// Colour codes only when asked, and around the phase and the gesture: a row without them
    /// reads the same.
    @Test func colourIsOnlyEscapes() throws {
        let plain = try TextGolden.render("pinch.yml")
        let coloured = try TextGolden.render("pinch.yml", color: true)
        #expect(!plain.contains("\u{1b}"))
        #expect(coloured.contains("\u{1b}[32mbegan\u{1b}[0m"))
        #expect(coloured.replacing(/\x1b\[[0-9;]*m/, with: "") == plain)
    }

    /// A name with control characters (a client's registered target, a configuration's) cannot
    /// drive the terminal: they print as `?`.
    @Test func controlCharactersInNamesAreReplaced() {
        var writer = TextEventWriter()
        let event = GestureEvent(
            seq: 0, time: Timestamp(microseconds: 1_234_567), device: 1, gesture: GestureKind("tap"), phase: .recognized,
            target: GestureName("evil\u{1b}[2J"), recognizer: "tap", fingers: 1, position: Point(x: 1, y: 2),
            contacts: ContactList(), detail: .none)
        writer.write(event)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "    1.235s   1  tap          recognized  1  evil?[2J\n")
    }
}
