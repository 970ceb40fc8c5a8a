import Foundation
import Testing

/// Bad input: a non-zero exit, exactly one message naming file:line and what was expected, no
/// crash, and every frame before the bad line still printed.
@Suite struct BadInputTests {
    let dir = Paths.temporaryDirectory()

    func write(_ name: String, _ content: String) -> String {
        let url = dir.appendingPathComponent(name)
        try! Data(content.utf8).write(to: url)
        return url.path
    }

    func write(_ name: String, bytes: [UInt8]) -> String {
        let url = dir.appendingPathComponent(name)
        try! Data(bytes).write(to: url)
        return url.path
    }

    /// The error is one line on stderr, "touchline: FILE:LINE: …", and the process did not crash.
    func expectError(_ result: CLIResult, file: String, line: Int, mentions words: [String],
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status != 0, sourceLocation: sourceLocation)
        #expect(result.status < 128, "killed by a signal: \(result.status)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "expected one message, got:\n\(result.stderr)", sourceLocation: sourceLocation)
        let message = String(lines.first ?? "")
        #expect(message.hasPrefix("touchline: \(file):\(line): "), "got: \(message)", sourceLocation: sourceLocation)
        for word in words {
            #expect(message.lowercased().contains(word.lowercased()), "'\(word)' not in: \(message)", sourceLocation: sourceLocation)
        }
    }

    static let header = """
        # EVEMU 1.3
        N: Bad Input Screen
        I: 0018 0000 0000 0000
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 02 00 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        B: 04 00 00 00 00 00 00 00 00
        B: 05 00 00 00 00 00 00 00 00
        B: 11 00 00 00 00 00 00 00 00
        B: 12 00 00 00 00 00 00 00 00
        B: 14 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        A: 00 0 799 0 0 5
        A: 01 0 479 0 0 5
        A: 2f 0 9 0 0 0
        A: 35 0 799 0 0 5
        A: 36 0 479 0 0 5
        A: 39 0 65535 0 0 0

        """
    /// Two good frames (a contact down, then moved) on lines 33–39.
    static let twoFrames = """
        E: 0.000000 0003 0039 1
        E: 0.000000 0003 0035 100
        E: 0.000000 0003 0036 200
        E: 0.000000 0000 0000 0000
        E: 0.010000 0003 0035 110
        E: 0.010000 0000 0000 0000

        """
    static let firstBadLine = header.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        + twoFrames.split(separator: "\n", omittingEmptySubsequences: false).count

    func replay(_ path: String) throws -> CLIResult { try touchline("replay", "--frames", path) }

    @Test func emptyFile() throws {
        let path = write("empty.evemu", "")
        expectError(try replay(path), file: path, line: 1, mentions: ["empty"])
        expectError(try touchline("inspect", path), file: path, line: 1, mentions: ["empty"])
    }

    @Test func binaryGarbage() throws {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let path = write("garbage.bin", bytes: [0x7f, 0x45, 0x4c, 0x46, 0, 1] + bytes)
        let result = try replay(path)
        #expect(result.status != 0 && result.status < 128)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("touchline: \(path):1: "), "\(result.stderr)")
    }

    @Test func truncatedLastLine() throws {
        let path = write("truncated.evemu", Self.header + Self.twoFrames + "E: 0.020000 0003 00")
        let result = try replay(path)
        expectError(result, file: path, line: Self.firstBadLine, mentions: [])
        #expect(result.lines.count == 2, "the frames before the bad line are printed first")
    }

    @Test func badHexCode() throws {
        let path = write("badhex.evemu", Self.header + Self.twoFrames + "E: 0.020000 0003 00zz 5\n")
        let result = try replay(path)
        expectError(result, file: path, line: Self.firstBadLine, mentions: ["hex"])
        #expect(result.lines.count == 2)
    }

    @Test func unknownEventType() throws {
        let path = write("badtype.evemu", Self.header + Self.twoFrames + "E: 0.020000 0042 0000 5\n")
        let result = try replay(path)
        expectError(result, file: path, line: Self.firstBadLine, mentions: ["type"])
        #expect(result.lines.count == 2)
    }

    @Test func headerWithNoEvents() throws {
        let path = write("header-only.evemu", Self.header)
        // The header's last line: the file ends where events were expected.
        expectError(try replay(path), file: path, line: Self.firstBadLine - 7, mentions: ["no events"])
    }

    @Test func eventsWithoutDescription() throws {
        let path = write("lonely.events", Self.twoFrames)
        expectError(try replay(path), file: path, line: 1, mentions: [".desc"])
    }

    @Test func descriptionFoundBesideTheEvents() throws {
        let desc = Self.header.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n"
        _ = write("Screen.desc", desc)
        let events = write("Screen.two-frames.events", Self.twoFrames)
        let result = try replay(events)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 2)
    }

    @Test func libinputRecordWithABrokenEventRow() throws {
        let original = try String(contentsOf: Paths.recordings.appendingPathComponent("tap.yml"), encoding: .utf8)
        var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Break the first row of the second frame (the lift), after the first frame.
        let rows = lines.indices.filter { lines[$0].hasPrefix("    - [") }
        let syns = rows.filter { lines[$0].contains("SYN_REPORT") }
        let broken = syns[0] + 2  // skip "  - evdev:" after the first SYN_REPORT
        lines[broken] = "    - [  0,  48000,   3,  53, oops] # broken"
        let path = write("broken.yml", lines.joined(separator: "\n"))
        let result = try replay(path)
        expectError(result, file: path, line: broken + 1, mentions: [])
        #expect(result.lines.count >= 1, "the first frame is printed before the error")
    }

    @Test func missingFileSaysSo() throws {
        try expectErrors([(["replay", "--frames", dir.appendingPathComponent("nope.yml").path], 66)], "replay-missing-file.stderr.txt", scratch: dir.path)
    }
}
