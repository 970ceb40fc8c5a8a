import Foundation
import Testing

/// `touchline convert` writes libinput-record YAML (and evemu) that replays to the same frames
/// as the original, and that libinput's own tools accept.
@Suite struct ConvertTests {
    /// Frames as JSON objects with the time made relative to the first frame: libinput record
    /// rebases time to zero, so converted files differ from their source by one constant shift.
    func relativeFrames(_ path: String, extra: [String] = []) throws -> [String] {
        let result = try touchline(arguments: ["replay", "--frames"] + extra + [path])
        #expect(result.status == 0, "replay --frames \(path): \(result.stderr)")
        var base: Int64?
        return result.lines.map { line in
            // "time" is the first key: {"time":12.345678,...}
            guard let start = line.range(of: "\"time\":"), let end = line[start.upperBound...].firstIndex(of: ",") else {
                return String(line)
            }
            let text = line[start.upperBound..<end]
            let parts = text.split(separator: ".")
            let micros = Int64(parts[0])! * 1_000_000 + Int64(parts[1])!
            if base == nil { base = micros }
            return String(line[..<start.upperBound]) + "\(micros - base!)" + String(line[end...])
        }
    }

    @Test(arguments: sharedTraces)
    func roundTripsThroughLibinputRecord(_ trace: SharedTrace) throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("converted.yml").path
        let convert = try touchline("convert", Paths.trace(trace.path), "-o", out)
        #expect(convert.status == 0, "\(convert.stderr)")
        let original = try relativeFrames(Paths.trace(trace.path))
        let converted = try relativeFrames(out)
        #expect(!original.isEmpty)
        #expect(original == converted)
    }

    @Test(arguments: sharedTraces)
    func roundTripsThroughEvemu(_ trace: SharedTrace) throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("converted.evemu").path
        let convert = try touchline("convert", "--format", "evemu", Paths.trace(trace.path), "-o", out)
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(try relativeFrames(Paths.trace(trace.path)) == relativeFrames(out))
    }

    @Test(arguments: sharedTraces)
    func libinputAnalyzeAcceptsConvertedFiles(_ trace: SharedTrace) throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("converted.yml").path
        #expect(try touchline("convert", Paths.trace(trace.path), "-o", out).status == 0)
        let analyze = try libinput("analyze", "per-slot-delta", out)
        #expect(analyze.status == 0, "libinput analyze per-slot-delta \(trace.path): \(analyze.stderr.suffix(800))")
    }

    @Test func bundledRecordingsAreAcceptedByLibinput() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Paths.recordings.path).filter { $0.hasSuffix(".yml") }
        #expect(files.count >= 10)
        for file in files {
            let analyze = try libinput("analyze", "per-slot-delta", Paths.recordings.appendingPathComponent(file).path)
            #expect(analyze.status == 0, "\(file): \(analyze.stderr.suffix(500))")
        }
    }

    /// What convert writes, whole, in each format: a bundled recording as evemu (the header's
    /// comments and masks as evemu 1.3 writes them) and back to libinput record.
    @Test(arguments: ["evemu", "libinput-record"])
    func convertedRecordingIsWhole(_ format: String) throws {
        try touchline(in: Paths.recordings, "convert", "--format", format, "tap.yml", "-o", "-")
            .expect(status: 0, stdout: "convert-tap.\(format == "evemu" ? "evemu" : "yml")")
    }

    @Test func refusesToOverwriteItsInput() throws {
        // "is the same file as the input": ExitStatusTests' convert errors, whole.
        let path = Paths.recordings.appendingPathComponent("tap.yml").path
        let result = try touchline("convert", path, "-o", path)
        #expect(result.status == 64)
    }
}
