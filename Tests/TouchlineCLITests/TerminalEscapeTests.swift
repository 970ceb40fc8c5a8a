// A trace's device name is data: ESC, BEL and the other control characters in it reach the
// terminal as visible escapes from `inspect` and from warnings, never raw. YAML escapes in
// its quoted name are decoded (`\e` is ESC), and `convert` writes them back as escapes.
import Foundation
import Testing

@Suite struct TerminalEscapeTests {
    let pinch = Paths.recordings.appendingPathComponent("pinch.yml").path

    /// pinch.yml with its device name replaced by `quoted` (the YAML between the quotes).
    func trace(named quoted: String, in dir: URL) throws -> String {
        let text = try String(contentsOfFile: pinch, encoding: .utf8)
            .replacingOccurrences(of: "name: \"Touchline Synthetic Touchscreen\"", with: "name: \"" + quoted + "\"")
        let path = dir.appendingPathComponent("evil.yml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func hasControlBytes(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x1B || $0 == 0x07 || $0 == 0x7F || $0 == 0x0D }
    }

    @Test(arguments: [
        "Evil\u{1B}]0;pwned\u{07}\u{1B}[31mRed\r\u{7F}",  // raw bytes between the quotes
        "Evil\\e]0;pwned\\a\\x1b[31mRed\\r\\x7f",         // the same name as YAML escapes
    ])
    func inspectAndWarningsEscapeTheName(_ quoted: String) throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try trace(named: quoted, in: dir)
        // Shown as Evil\e]0;pwned\a\e[31mRed\r\x7F in each report.

        // "device 0: " and the name escaped (the same from either spelling).
        let inspect = try touchline(in: dir, "inspect", "evil.yml")
        #expect(!hasControlBytes(inspect.stdout))
        inspect.expect(status: 0, stdout: "inspect-escaped-name.txt")

        let config = dir.appendingPathComponent("ignore.toml").path
        try Data("[[device]]\nmatch.name = \"*\"\nignore = true\n".utf8).write(to: URL(fileURLWithPath: config))
        let replay = try touchline(in: dir, "replay", "evil.yml", "--config", config)
        #expect(!hasControlBytes(replay.stderr))
        expectReport(replay.stderr, "replay-escaped-name-ignored.stderr.txt")

        // convert writes the name with YAML escapes, and reading it back gives the same name.
        let converted = dir.appendingPathComponent("converted.yml").path
        #expect(try touchline("convert", path, "-o", converted).status == 0)
        let written = try String(contentsOfFile: converted, encoding: .utf8)
        #expect(!hasControlBytes(written))
        try touchline(in: dir, "inspect", "converted.yml").expect(status: 0, stdout: "inspect-escaped-name-converted.txt")
    }
}
