import Foundation
import Testing

/// `replay FILE… --jobs N`: files replayed on N threads print the same bytes as one thread, in
/// file order, and each file's part is what replaying it alone prints. The corpus mixes formats,
/// a two-device recording, files whose output passes the 64 KiB flush (so a later file spills to
/// its temporary while an earlier one writes standard output, then switches mid-file), and a file
/// with a bad line in the middle.
@Suite struct CorpusReplayTests {
    static let shared = [
        "libinput-record/Wacom DTH2242 Finger.yml",
        "libinput-record/Atmel maXTouch Touchscreen.1-finger-fast-taps.yml",
        "MonkeyHelper/galaxys-paint.txt",
        "evemu-devices/Wacom DTH2242 Finger.events",
        "libinput-record/n4.yml",
        "libinput-record/dell_canvas_touch.yml",
        "evemu-devices/N-Trig MultiTouch.2-fingers-touch-release.events",
        "MonkeyHelper/tablet-two-finger-drag.txt",
    ]

    /// The corpus: shared traces, the two-device recording, and `broken.yml` (pinch.yml with a
    /// bad line in its middle) third, so files after it still have to come out.
    static func corpus(in dir: URL) throws -> [String] {
        let pinch = try String(contentsOfFile: Paths.recordings.appendingPathComponent("pinch.yml").path, encoding: .utf8)
        var lines = pinch.split(separator: "\n", omittingEmptySubsequences: false)
        let rows = lines.indices.filter { lines[$0].hasPrefix("    - [") }
        lines.insert("    - [  0, 514000, 3, 53, not-a-number]", at: try #require(rows.dropFirst(rows.count / 2).first))
        let broken = dir.appendingPathComponent("broken.yml").path
        try lines.joined(separator: "\n").write(toFile: broken, atomically: true, encoding: .utf8)
        let paths = Self.shared.map(Paths.trace)
        return Array(paths[0..<2]) + [broken, try MultiDeviceCLITests.writeTwoDeviceRecording(in: dir)] + paths[2...]
    }

    @Test(arguments: [[], ["--frames"], ["--format", "text"]])
    func anyNumberOfJobsPrintsTheSameBytesAsOne(_ flags: [String]) throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try Self.corpus(in: dir)
        let one = try touchline(arguments: ["replay", "--jobs", "1"] + flags + files)
        // A bad line exits 65, as replaying the broken file alone does, and names it.
        #expect(one.status == 65)
        #expect(one.stderr.contains("broken.yml:"), "\(one.stderr)")
        #expect(one.stdout.utf8.count > 64 * 1024 * 4, "outputs past the flush size, so turns change mid-file")
        // Later files' output waits in memory (up to 4 MiB, more than any of these files
        // prints); with TOUCHLINE_REPLAY_MEMORY=0 in temporaries from their first flush, with
        // 100000 in memory first, then (the larger outputs) in temporaries.
        for (jobs, memory) in [("2", nil), ("3", nil), ("8", nil), ("2", "0"), ("3", "0"), ("2", "100000")] {
            var environment = ProcessInfo.processInfo.environment
            environment["TOUCHLINE_REPLAY_MEMORY"] = memory
            let many = try run(Paths.binary.path, ["replay", "--jobs", jobs] + flags + files, environment: environment)
            let label = "--jobs \(jobs), TOUCHLINE_REPLAY_MEMORY=\(memory ?? "unset")"
            #expect(many.status == one.status, "\(label): \(many.stderr)")
            #expect(many.stdout == one.stdout, "\(label): \(many.stdout.utf8.count) bytes against \(one.stdout.utf8.count)")
            #expect(many.stderr.contains("broken.yml:"))
        }
        // The default (the number of cores) too.
        let auto = try touchline(arguments: ["replay"] + flags + files)
        #expect(auto.stdout == one.stdout && auto.status == one.status)
        // Each file's part is the file replayed alone, the broken one's up to its bad line.
        var alone = ""
        for file in files {
            let result = try touchline(arguments: ["replay"] + flags + [file])
            #expect(result.status == (file.hasSuffix("broken.yml") ? 65 : 0), "\(file): \(result.stderr)")
            alone += result.stdout
        }
        #expect(one.stdout == alone)
    }

    /// The error is reported after the failing file's output and the others' output stays: the
    /// status is the first failing file's (66 for a missing one before the bad line's 65).
    @Test func errorsNameTheirFileAndTheFirstFailureSetsTheStatus() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try Self.corpus(in: dir)
        let missing = dir.appendingPathComponent("missing.yml").path
        let result = try touchline(arguments: ["replay", "--jobs", "2", missing] + files)
        #expect(result.status == 66)
        #expect(result.stderr.contains("missing.yml: cannot open"))
        #expect(result.stderr.contains("broken.yml:"))
        let rest = try touchline(arguments: ["replay", "--jobs", "1"] + files)
        #expect(result.stdout == rest.stdout && !rest.stdout.isEmpty)
    }

    /// --output-dir: one file per input, named after it, each what replaying it alone prints;
    /// nothing on standard output.
    @Test(arguments: ["1", "2"])
    func outputDirectoryHoldsOneOutputPerFile(_ jobs: String) throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try Self.corpus(in: dir)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let result = try touchline(arguments: ["replay", "--jobs", jobs, "--output-dir", out.path] + files)
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(written == files.map { URL(fileURLWithPath: $0).lastPathComponent + ".jsonl" }.sorted())
        for file in files {
            let alone = try touchline(arguments: ["replay", file])
            let name = URL(fileURLWithPath: file).lastPathComponent + ".jsonl"
            let bytes = try String(contentsOfFile: out.appendingPathComponent(name).path, encoding: .utf8)
            #expect(bytes == alone.stdout, "\(name)")
        }
    }

    /// Two inputs of the same name would overwrite each other's output: refused before any work.
    @Test func outputDirectoryRefusesTwoInputsOfTheSameName() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pinch = Paths.recordings.appendingPathComponent("pinch.yml").path
        let sub = dir.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: pinch, toPath: sub.appendingPathComponent("pinch.yml").path)
        let result = try touchline("replay", "--output-dir", dir.path, pinch, sub.appendingPathComponent("pinch.yml").path)
        #expect(result.status == 64)
        #expect(result.stderr.contains("pinch.yml.jsonl"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["sub"])
    }
}
