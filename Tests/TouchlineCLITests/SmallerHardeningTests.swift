// Issue 24's smaller items, each on the real binary: a closed --stdout ends the daemon with 0,
// socket paths that cannot be bound are usage errors named before anything opens, `convert
// -o ""` is refused before converting, and --size refuses sides that make no surface.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SmallerHardeningTests {
    let recording = Paths.recordings.appendingPathComponent("pinch.yml").path

    /// `touchline daemon --stdout | head -1`: the reader takes one line and goes; the daemon's
    /// next write gets EPIPE, and it ends with 0 (as `replay | head` does), its socket removed.
    @Test func daemonStdoutClosedByTheReaderExitsZero() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let socketPath = dir.path + "/touchline.sock"
        let process = Process()
        process.executableURL = Paths.binary
        // --stay: the reader's going, not the trace's end, must end it.
        process.arguments = ["daemon", "--source", "trace:" + recording, "--speed", "5", "--stay", "--socket", socketPath, "--stdout"]
        let out = Pipe()
        let errPath = dir.path + "/stderr.txt"
        FileManager.default.createFile(atPath: errPath, contents: nil)
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var first: [UInt8] = []
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "the daemon printed no line")
            first += chunk
        }
        try out.fileHandleForReading.close()
        #expect(ended(process), "the daemon did not end after its reader went away")
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        #expect(!process.isRunning && process.terminationStatus == 0, "stderr: \(stderr)")
        #expect(!stderr.contains("Broken pipe"), "stderr: \(stderr)")
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }

    @Test func unbindableSocketPathsAreUsageErrors() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let long = dir.path + "/" + String(repeating: "a", count: 120) + ".sock"
        // No folder to make it in; no path; longer than sun_path's 107 bytes (the scratch
        // folder's name has a fixed length, so the count is the same each run).
        try expectErrors([dir.path + "/missing/touchline.sock", "", long].map { (["daemon", "--source", "trace:" + recording, "--socket", $0], 64) },
                         "daemon-socket-path.stderr.txt", scratch: dir.path)
    }

    @Test func convertToAnEmptyNameIsRefusedBeforeConverting() throws {
        // "-o/--output needs a file name, or - for standard output", and nothing about a move.
        try expectErrors([(["convert", recording, "-o", ""], 64)], "convert-empty-output.stderr.txt")
    }

    @Test func sizesThatMakeNoSurfaceAreRefused() throws {
        // Each between 1 and 10000 mm.
        try expectErrors(["1e-308x1e-308", "0.5x100", "100x1e308", "20000x100"].map { (["replay", recording, "--size", $0], 64) },
                         "replay-size-no-surface.stderr.txt")
    }
}
