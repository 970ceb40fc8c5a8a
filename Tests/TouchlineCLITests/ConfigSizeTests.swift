// Item 5 of issue 24: a 15 MiB configuration (under the old 16 MiB cap) took 7.7 s and 2 GB to
// check, and SIGHUP with it took the daemon to 1.3 GB. Every reader of a configuration file
// (`--check-config`, `--config` of the daemon and of replay, a `[[device]] graph`) now holds it
// to 256 KiB and 16,384 keys and array elements, and refuses one past either with the line
// where it goes over (docs/config.md#size-limits). The caps are tested, not the time or memory
// of a large file (scripts/config-memory.py measures those; TOMLTests asserts a value's size).
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ConfigSizeTests {
    let recording = Paths.recordings.appendingPathComponent("tap.yml").path
    static let bytes = 256 * 1024
    static let values = 16_384

    /// A valid graph, then comments up to `size` bytes (lines of 100).
    func padded(to size: Int) -> String {
        var text = "[[recognizer]]\nkind = \"tap\"\n"
        let line = "#" + String(repeating: "-", count: 98) + "\n"
        while text.utf8.count + line.utf8.count <= size { text += line }
        text += "#" + String(repeating: "-", count: size - text.utf8.count - 1)
        return text
    }

    @Test func aFilePastTheByteCapIsRefusedWhereTheCapFalls() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let atCap = try dir.write("at.toml", padded(to: Self.bytes))
        #expect(try touchline("daemon", "--check-config", atCap).status == 0)
        #expect(try touchline("replay", recording, "--config", atCap).status == 0)
        let over = try dir.write("over.toml", padded(to: Self.bytes + 1))
        // Two lines of the graph, then lines of 100 bytes: byte 262,145 is on line 2 + 2,622
        // (over.toml:2624:17), by either reader.
        try expectErrors([(["daemon", "--check-config", over], 65), (["replay", recording, "--config", over], 65)],
                         "config-size-bytes.stderr.txt", scratch: dir.path)
    }

    /// A file of 64 MiB (sparse: no disk) is refused as one past the cap, of which only the
    /// cap and a byte are read; the old reader read 16 MiB of it first.
    @Test func aHugeFileIsReadOnlyToTheCap() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let huge = dir.path + "/huge.toml"
        #expect(FileManager.default.createFile(atPath: huge, contents: Data("# comment\n".utf8)))
        #expect(truncate(huge, 64 << 20) == 0)
        // huge.toml:2:262135, where the cap falls.
        try expectErrors([(["daemon", "--check-config", huge], 65)], "config-size-huge.stderr.txt", scratch: dir.path)
    }

    @Test func aFilePastTheValueCapIsRefusedAtTheValue() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        func device(_ numbers: Int) -> String {
            "[[device]]\nmatch.name = \"*\"\nsize = [" + Array(repeating: "100", count: numbers).joined(separator: ", ") + "]\n"
        }
        // [[device]] is two (the array and its element), match and match.name two, size one.
        let atCap = try dir.write("at.toml", device(Self.values - 5))
        let over = try dir.write("over.toml", device(Self.values - 4))
        // At the cap, the file is read and its size refused for what it is (not for the cap);
        // past it, the last number is named: line 3 after "size = [" and 16,379 numbers of
        // five bytes ("100, ").
        try expectErrors([(["daemon", "--check-config", atCap], 65), (["daemon", "--check-config", over], 65)],
                         "config-size-values.stderr.txt", scratch: dir.path)
    }

    /// A `[[device]] graph` file is held to the same caps, its own line named.
    @Test func aDeviceGraphPastTheCapIsRefusedInItsOwnFile() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        _ = try dir.write("kiosk.toml", (0...Self.values).map { "k\($0) = 1" }.joined(separator: "\n"))
        let config = try dir.write("daemon.toml", "[[device]]\nmatch.name = \"*\"\ngraph = \"kiosk.toml\"\n")
        // kiosk.toml:16385:1.
        try expectErrors([(["daemon", "--check-config", config], 65)], "config-size-device-graph.stderr.txt", scratch: dir.path)
    }
}
