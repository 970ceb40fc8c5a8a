// `[[device]] passthrough = true` (docs/live.md#pass-through) on a source that cannot grab:
// refused before anything opens, naming the section's line. (The evdev source's grab and
// clone need a kernel: scripts/vm/e2e.sh.)
import Foundation
import Testing

@Suite struct DaemonPassThroughTests {
    @Test func theLibinputAndTraceSourcesRefusePassThrough() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("daemon.toml").path
        try "[[recognizer]]\nkind = \"edgeSwipe\"\nconsume = true\n\n[[device]]\nmatch.name = \"*\"\npassthrough = true\n".write(toFile: config, atomically: true, encoding: .utf8)
        let socket = dir.appendingPathComponent("t.sock").path
        let tap = Paths.recordings.appendingPathComponent("tap.yml").path
        for source in ["libinput", "trace:\(tap)"] {
            let result = try touchline("daemon", "--source", source, "--config", config, "--socket", socket)
            #expect(result.status == 64)
            #expect(result.stderr == "touchline: \(config):5: [[device]] passthrough = true needs the evdev source (--source evdev, the default); --source \(source) cannot grab a device nor give the system its clone\n")
            #expect(!FileManager.default.fileExists(atPath: socket))
        }
        let check = try touchline("daemon", "--check-config", config)
        #expect(check.status == 0)
    }
}
