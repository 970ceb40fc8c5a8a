import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

// Golden files (style principle 13): every Recordings/NAME.yml has its expected events beside
// it as Recordings/NAME.events.jsonl: schema-v1 JSON lines from the default graph, or from
// Recordings/NAME.toml when the recording has one (targets a gesture needs: a draggable item, a
// drop target), as `touchline replay [--config NAME.toml] NAME.yml` prints them. A test never
// rewrites them: after a deliberate change, `scripts/update-goldens.sh` does, then review the diff.

enum Golden {
    static var recordings: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Paths.recordings.path)) ?? []
        return names.filter { $0.hasSuffix(".yml") }.sorted()
    }

    static func expectedPath(_ recording: String) -> String {
        Paths.recordings.appendingPathComponent(String(recording.dropLast(4)) + ".events.jsonl").path
    }

    /// The recording's events: the default graph's, or those of Recordings/NAME.toml.
    static func events(_ recording: String) throws -> [GestureEvent] {
        let trace = try assemble(path: Paths.recordings.appendingPathComponent(recording).path)
        var configuration = GraphConfiguration.default
        if let path = Paths.recordingConfig(recording) {
            configuration = try GraphConfiguration.parse(toml: String(contentsOfFile: path, encoding: .utf8), file: path)
        }
        return try GestureHarness.replay(trace.frames, configuration: configuration, surface: trace.surface)
    }

    static func render(_ recording: String) throws -> String {
        var writer = JSONWriter()
        for e in try events(recording) {
            e.writeJSON(into: &writer)
            writer.newline()
        }
        return writer.string
    }
}

@Suite struct GoldenTests {
    @Test func recordingsExist() {
        #expect(!Golden.recordings.isEmpty, "no Recordings/*.yml in \(Paths.recordings.path)")
    }

    @Test(arguments: Golden.recordings)
    func replayMatchesGoldenFile(recording: String) throws {
        if let difference = Expected.difference(try Golden.render(recording), file: Golden.expectedPath(recording)) {
            Issue.record("\(recording): \(difference)")
        }
    }

    @Test func everyGoldenFileHasItsRecording() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Paths.recordings.path)) ?? []
        for golden in names where golden.hasSuffix(".events.jsonl") {
            let recording = String(golden.dropLast(".events.jsonl".count)) + ".yml"
            #expect(names.contains(recording), "\(golden) has no \(recording)")
        }
    }
}
