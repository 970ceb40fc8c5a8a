import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

// Golden files (style principle 13): every Recordings/NAME.yml has its expected events beside
// it as Recordings/NAME.events.jsonl: schema-v1 JSON lines from the default graph, or from
// Recordings/NAME.toml when the recording has one (targets a gesture needs: a draggable item, a
// drop target), as `touchline replay [--config NAME.toml] NAME.yml` prints them. Regenerate after a deliberate change with
//     TOUCHLINE_UPDATE_GOLDEN=1 swift test --filter GoldenTests
// and review the diff.

enum Golden {
    static var recordings: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Paths.recordings.path)) ?? []
        return names.filter { $0.hasSuffix(".yml") }.sorted()
    }

    static func expectedPath(_ recording: String) -> String {
        Paths.recordings.appendingPathComponent(String(recording.dropLast(4)) + ".events.jsonl").path
    }

    /// Recordings/NAME.toml beside NAME.yml, when there is one.
    static func configPath(_ recording: String) -> String? {
        let path = Paths.recordings.appendingPathComponent(String(recording.dropLast(4)) + ".toml").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    static func render(_ recording: String) throws -> String {
        let trace = try assemble(path: Paths.recordings.appendingPathComponent(recording).path)
        var configuration = GraphConfiguration.default
        if let path = configPath(recording) {
            configuration = try GraphConfiguration.parse(toml: String(contentsOfFile: path, encoding: .utf8), file: path)
        }
        let events = try GestureHarness.replay(trace.frames, configuration: configuration, surface: trace.surface)
        var writer = JSONWriter()
        for e in events {
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
        let actual = try Golden.render(recording)
        let path = Golden.expectedPath(recording)
        if ProcessInfo.processInfo.environment["TOUCHLINE_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("\(recording) has no golden file \(path); run TOUCHLINE_UPDATE_GOLDEN=1 swift test --filter GoldenTests")
            return
        }
        if actual != expected {
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let firstDifference = zip(a, e).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, e.count)
            let got = firstDifference < a.count ? String(a[firstDifference]) : "(end)"
            let want = firstDifference < e.count ? String(e[firstDifference]) : "(end)"
            Issue.record("\(recording): line \(firstDifference + 1) differs\n  expected: \(want)\n  actual:   \(got)")
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
