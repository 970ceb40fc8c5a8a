// An action skipped at `[actions] maxRunning`, as a user meets it: the real daemon on a pan
// played in real time (96 `changed` events in a second, one every 8–10 ms) with a command still
// running from the first of them; what it writes to stderr (the journal) is read at its exit.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ActionSkipReportTests {
    /// Issue 24, item 11 (on 8d7af8f: one stderr line per skipped event, here 95 lines of
    /// "action (line 4) skipped: 1 action already running ([actions] maxRunning)"): the first
    /// skip is said, the rest counted and said once, here at exit, with how many and over how
    /// long.
    @Test func skipsAreSaidOnceThenCounted() throws {
        let recording = Paths.recordings.appendingPathComponent("pan.yml").path
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let config = try dir.write("daemon.toml", """
            [actions]
            maxRunning = 1

            [[action]]
            gesture = "pan"
            phase = "changed"
            timeout = "60s"
            argv = ["sleep", "60"]
            """)
        let socket = dir.path + "/s.sock"
        let daemon = try CleanProcess(
            daemon: ["--config", config, "--source", "trace:" + recording, "--start-delay", "0.5", "--socket", socket],
            outputIn: URL(fileURLWithPath: dir.path))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        let client = try DaemonClient(path: socket)
        try client.send(#"{"subscribe": ["pan"]}"# + "\n")
        #expect(try client.line()?.hasPrefix(#"{"ok":{"subscribe":"#) == true)
        var changed = 0
        while let line = try client.line(), !line.contains(#""phase":"ended""#) {
            if line.contains(#""phase":"changed""#) { changed += 1 }
        }
        #expect(changed == 96)

        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait()?.status == 0, "daemon: \(daemon.output)")
        ended = true
        let skips = daemon.output.split(separator: "\n").filter { $0.contains("skipped") }
        try #require(skips.count == 2, "daemon: \(daemon.output)")
        #expect(skips[0] == "touchline: action (line 4) skipped: 1 action already running ([actions] maxRunning) (more skips of it are counted and reported every 10 s)")
        let counted = try #require(skips[1].firstMatch(of: /^touchline: action \(line 4\) skipped (\d+) more times in the last (\d+\.\d) s: 1 action already running \(\[actions\] maxRunning\)$/), "\(skips[1])")
        // 96 events: one started the command, one was said, the rest counted.
        #expect(Int(counted.output.1) == 94)
        #expect(Double(counted.output.2).map { $0 > 0.5 && $0 < 10 } == true, "\(skips[1])")
    }
}
