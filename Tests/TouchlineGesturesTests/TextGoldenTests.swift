import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

// `--format text` goldens: every Recordings/NAME.yml has Recordings/NAME.events.txt beside its
// NAME.events.jsonl, the same events as TextEventWriter writes them (no colour). A test never
// rewrites them: after a deliberate change, `scripts/update-goldens.sh` does, then review the diff.

enum TextGolden {
    static func expectedPath(_ recording: String) -> String {
        Paths.recordings.appendingPathComponent(String(recording.dropLast(4)) + ".events.txt").path
    }

    static func render(_ recording: String, color: Bool = false) throws -> String {
        var writer = TextEventWriter(color: color)
        for e in try Golden.events(recording) { writer.write(e) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

@Suite struct TextGoldenTests {
    @Test(arguments: Golden.recordings)
    func textMatchesGoldenFile(recording: String) throws {
        if let difference = Expected.difference(try TextGolden.render(recording), file: TextGolden.expectedPath(recording)) {
            Issue.record("\(recording): text \(difference)")
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
