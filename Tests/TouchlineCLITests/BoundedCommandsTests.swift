// Issue 24, item 11 (smaller points of the round-two attack on 8d7af8f, outside the daemon):
// `play`'s timing options bounded before anything opens, and the evemu writer's device name
// escaped.
import Foundation
import Testing

@Suite struct BoundedCommandsTests {
    /// On 8d7af8f `play tap.yml --device FILE --start-delay 1e300` (and NaN, and `--hold 1e300`)
    /// died of SIGILL once FILE opened (status 132: "Double value cannot be converted to
    /// Int64"; with this missing node it got as far as opening it, 73): each is now a usage
    /// error, as the daemon's `--start-delay`, before the node is even opened.
    @Test func playsTimingOptionsAreBounded() throws {
        let tap = Paths.recordings.appendingPathComponent("tap.yml").path
        // Each "must be between 0 and 86400 seconds (a day)", with the value found.
        try expectErrors([["--start-delay", "1e300"], ["--start-delay", "nan"], ["--start-delay=-1"], ["--hold", "1e300"], ["--unplug-at", "9.3e12"]]
            .map { (["play", tap, "--device", "/nonexistent/event0"] + $0, 64) }, "play-timing-options.stderr.txt")
    }

    /// On 8d7af8f the evemu writer wrote the device name raw on its `N:` line: ESC and BEL
    /// reached whoever printed the file, and a newline in the name started a line of its own
    /// (here an `E:` event). Escaped now, as the libinput writer's `# Name:` comment (211764b).
    @Test func theEvemuNameLineEscapesControlCharacters() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pinch = Paths.recordings.appendingPathComponent("pinch.yml").path
        let text = try String(contentsOfFile: pinch, encoding: .utf8)
            .replacingOccurrences(of: "name: \"Touchline Synthetic Touchscreen\"", with: #"name: "Evil\e]0;pwned\a\nE: 0.000001 0003 0035 9999""#)
        let evil = dir.appendingPathComponent("evil.yml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: evil))
        let converted = dir.appendingPathComponent("evil.evemu").path
        let convert = try touchline("convert", evil, "--format", "evemu", "-o", converted)
        #expect(convert.status == 0, "stderr: \(convert.stderr)")
        let written = try String(contentsOfFile: converted, encoding: .utf8)
        #expect(!written.utf8.contains { $0 == 0x1B || $0 == 0x07 })
        let names = written.split(separator: "\n").filter { $0.hasPrefix("N: ") }
        #expect(names == [#"N: Evil\e]0;pwned\a\nE: 0.000001 0003 0035 9999"#])
        // The file reads back: one line per header field, the events as they were.
        let back = try touchline("replay", converted, "--relative-time")
        let original = try touchline("replay", pinch, "--relative-time")
        #expect(back.status == 0, "stderr: \(back.stderr)")
        #expect(back.stdout == original.stdout)
    }
}
