// `--format text` through the executable: replay prints the text goldens, every trace format
// gives one row per JSON line, the daemon's --stdout and `listen` print the same rows as replay,
// and the outputs without a text form refuse it.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct TextFormatTests {
    static let common: Set = ["v", "seq", "time", "device", "gesture", "phase", "target", "fingers", "x", "y", "recognizer", "contacts"]

    /// Each text row says what its JSON line says: gesture, phase, fingers, target, the time to
    /// the millisecond, and each of the kind's fields as `key=value`.
    static func expectRowsMatch(_ text: [Substring], _ json: [Substring], _ name: String) throws {
        #expect(text.count == json.count, "\(name): \(text.count) text rows, \(json.count) JSON lines")
        for (row, line) in zip(text, json) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let columns = row.split(separator: " ").map(String.init)
            let time = try #require(object["time"] as? Double)
            #expect(columns[0] == String(format: "%.3fs", time), "\(name): \(row)")
            #expect(columns[1] == "\(object["device"] ?? "")", "\(name): \(row)")
            #expect(columns[2] == object["gesture"] as? String && columns[3] == object["phase"] as? String, "\(name): \(row)")
            #expect(columns[4] == "\(object["fingers"] ?? "")" && columns[5] == object["target"] as? String, "\(name): \(row)")
            for key in object.keys where !common.contains(key) {
                #expect(row.contains(" \(key)="), "\(name): \(row) lacks \(key)")
            }
        }
    }

    @Test(arguments: ["pinch", "tap", "drag-two-items"])
    func replayPrintsTheGolden(_ name: String) throws {
        var arguments = ["replay", "--format", "text", Paths.recordings.appendingPathComponent(name + ".yml").path]
        if let config = Paths.recordingConfig(name) { arguments += ["--config", config] }
        let result = try touchline(arguments: arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let golden = try String(contentsOf: Paths.recordings.appendingPathComponent(name + ".events.txt"), encoding: .utf8)
        #expect(result.stdout == golden)
    }

    /// libinput record, evemu and getevent traces: the text has a row for every JSON line.
    @Test(arguments: [
        "libinput-record/Atmel maXTouch Touchscreen.4-finger-drag-down.yml",
        "evemu-devices/Wacom ISDv4 E6 Finger.double-center-circle.events",
        "MonkeyHelper/tablet-two-finger-drag.txt",
    ])
    func everyTraceFormat(_ trace: String) throws {
        let json = try touchline("replay", Paths.trace(trace))
        let text = try touchline("replay", "--format", "text", Paths.trace(trace))
        #expect(json.status == 0 && text.status == 0, "\(text.stderr)")
        #expect(!json.lines.isEmpty, "\(trace) gave no events")
        try Self.expectRowsMatch(text.lines, json.lines, trace)
    }

    @Test func explainRowsNameTheRecognizerAndReason() throws {
        // tap won (reason=lifted after …), longPress failed (lost to tap), between the events.
        try touchline(in: Paths.recordings, "replay", "--format", "text", "--explain", "tap.yml").expect(status: 0, stdout: "replay-explain-tap.txt")
    }

    @Test func colourOnlyWhenAsked() throws {
        let recording = Paths.recordings.appendingPathComponent("pinch.yml").path
        let piped = try touchline("replay", "--format", "text", recording)
        let always = try touchline("replay", "--format", "text", "--color", "always", recording)
        // Each phase in its colour (began green), whole: the escapes are what a terminal gets.
        expectReport(always.stdout, "replay-pinch-color.txt")
        #expect(always.stdout.replacing(/\x1b\[[0-9;]*m/, with: "") == piped.stdout)
        // The default stays JSON, byte for byte the golden.
        let json = try touchline("replay", recording)
        #expect(json.stdout == (try String(contentsOf: Paths.recordings.appendingPathComponent("pinch.events.jsonl"), encoding: .utf8)))
    }

    @Test func outputsWithoutTextRefuseIt() throws {
        let recording = Paths.recordings.appendingPathComponent("pinch.yml").path
        var errors: [(String, String)] = []
        for arguments in [["replay", "--frames", "--format", "text", recording], ["run", "--output", "frames", "--format", "text"],
                          ["daemon", "--format", "text", "--source", "trace:" + recording]] {
            let result = try touchline(arguments: arguments)
            #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
            errors.append((arguments.joined(separator: " ").replacingOccurrences(of: Paths.recordings.path + "/", with: ""), result.stderr))
        }
        expectReport(Report.table(errors), "format-text-refused.stderr.txt")
        let bad = try touchline("replay", "--format", "yaml", recording)
        #expect(bad.status == 64)
    }

    /// The daemon's --stdout and `listen` (converting the socket's JSON lines) print exactly
    /// replay's text rows for the same recording.
    @Test func daemonAndListenPrintReplaysRows() throws {
        let recording = Paths.recordings.appendingPathComponent("pinch.yml").path
        let json = try touchline("replay", recording).lines.map(String.init)
        let text = try touchline("replay", "--format", "text", recording).lines.map(String.init)
        try #require(!text.isEmpty)
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let socketPath = dir.path + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--stdout", "--format", "text", "--source", "trace:" + recording, "--speed", "100", "--start-delay", "1.5", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir.path))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        let client = try DaemonClient(path: socketPath)
        let listen = try CleanProcess(Paths.binary.path, ["listen", "--format", "text", "--socket", socketPath], outputIn: URL(fileURLWithPath: dir.path))
        defer { if !ended { kill(listen.pid, SIGKILL); _ = listen.wait() } }
        try client.send("{\"subscribe\": []}\n")
        var received: [String] = []
        while received.count < json.count + 1, let line = try client.line() { received.append(line) }
        // The socket still carries JSON Lines.
        #expect(received.dropFirst().elementsEqual(json))

        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait()?.status == 0)
        let end = listen.wait()
        ended = true
        #expect(end?.status == 0, "listen: \(listen.output)")
        #expect(listen.output.split(separator: "\n").map(String.init) == text)
        let stdout = daemon.output.split(separator: "\n").filter { !$0.hasPrefix("touchline:") }.map(String.init)
        #expect(stdout == text)
    }
}
