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
    static let bytesMessage = "found more than 262144 bytes (256 KiB), the cap falling here; expected a configuration of at most 256 KiB"
    static let valuesMessage = "found more than 16384 keys and array elements by this one; expected at most 16384 in a configuration"

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
        // Two lines of the graph, then lines of 100 bytes: byte 262,145 is on line 2 + 2,622.
        let place = "\(over):\(2 + (Self.bytes - 28) / 100 + 1):\((Self.bytes - 28) % 100 + 1): "
        for arguments in [["daemon", "--check-config", over], ["replay", recording, "--config", over]] {
            let result = try touchline(arguments: arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(place + Self.bytesMessage), "\(arguments): \(result.stderr)")
        }
    }

    /// A file of 64 MiB (sparse: no disk) is refused as one past the cap, of which only the
    /// cap and a byte are read; the old reader read 16 MiB of it first.
    @Test func aHugeFileIsReadOnlyToTheCap() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let huge = dir.path + "/huge.toml"
        #expect(FileManager.default.createFile(atPath: huge, contents: Data("# comment\n".utf8)))
        #expect(truncate(huge, 64 << 20) == 0)
        let result = try touchline("daemon", "--check-config", huge)
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(huge):2:\(Self.bytes - 10 + 1): \(Self.bytesMessage)"), "stderr: \(result.stderr)")
    }

    @Test func aFilePastTheValueCapIsRefusedAtTheValue() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        func device(_ numbers: Int) -> String {
            "[[device]]\nmatch.name = \"*\"\nsize = [" + Array(repeating: "100", count: numbers).joined(separator: ", ") + "]\n"
        }
        // [[device]] is two (the array and its element), match and match.name two, size one.
        let atCap = try dir.write("at.toml", device(Self.values - 5))
        let check = try touchline("daemon", "--check-config", atCap)
        #expect(check.status == 65)
        #expect(!check.stderr.contains(Self.valuesMessage), "stderr: \(check.stderr)")
        #expect(check.stderr.contains("for a device's size"), "stderr: \(check.stderr)")
        let over = try dir.write("over.toml", device(Self.values - 4))
        let result = try touchline("daemon", "--check-config", over)
        #expect(result.status == 65)
        // The last number, on line 3 after "size = [" and 16,379 numbers of five bytes ("100, ").
        #expect(result.stderr.contains("\(over):3:\(9 + 5 * (Self.values - 5)): \(Self.valuesMessage)"), "stderr: \(result.stderr)")
    }

    /// A `[[device]] graph` file is held to the same caps, its own line named.
    @Test func aDeviceGraphPastTheCapIsRefusedInItsOwnFile() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let graph = try dir.write("kiosk.toml", (0...Self.values).map { "k\($0) = 1" }.joined(separator: "\n"))
        let config = try dir.write("daemon.toml", "[[device]]\nmatch.name = \"*\"\ngraph = \"kiosk.toml\"\n")
        let result = try touchline("daemon", "--check-config", config)
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(graph):\(Self.values + 1):1: \(Self.valuesMessage)"), "stderr: \(result.stderr)")
    }
}
