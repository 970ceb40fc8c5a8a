// `[[device]]` in the real daemon process, fed by `--source trace:` (matched by the trace's
// device name), and SIGHUP reloading the actions; a device's own graph file's error names that
// file's line in --check-config.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct DaemonDeviceTests {
    let recording = Paths.recordings.appendingPathComponent("swipe-left.yml").path

    /// Runs the daemon on swipe-left.yml with `config` and returns the first swipe event a
    /// subscriber gets; `beforeStart` runs while the daemon waits out --start-delay.
    /// `afterEvent` runs before the daemon is stopped.
    func firstSwipe(_ config: String, beforeStart: (ScratchDirectory, Int32) throws -> Void = { _, _ in },
                    afterEvent: (ScratchDirectory) -> Void = { _ in }) throws -> (event: String?, output: String) {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let file = try dir.write("daemon.toml", config)
        let socketPath = dir.path + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--source", "trace:" + recording, "--speed", "10", "--start-delay", "1.5", "--socket", socketPath, "--config", file],
            outputIn: URL(fileURLWithPath: dir.path))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        let client = try DaemonClient(path: socketPath)
        try client.send("{\"subscribe\": [\"swipe\"]}\n")
        #expect(try client.line()?.hasPrefix("{\"ok\"") == true)
        try beforeStart(dir, daemon.pid)
        let event = try client.line()
        afterEvent(dir)
        kill(daemon.pid, SIGTERM)
        let end = daemon.wait()
        ended = true
        #expect(end?.status == 0, "daemon: \(daemon.output)")
        return (event, daemon.output)
    }

    @Test func rotation90TurnsTheRecordedSwipeLeftIntoASwipeUp() throws {
        let plain = try firstSwipe("")
        #expect(plain.event?.contains("\"direction\":\"left\"") == true, "\(plain)")
        let rotated = "[[device]]\nmatch.name = \"Touchline Synthetic*\"\nrotation = 90\n"
        let turned = try firstSwipe(rotated)
        #expect(turned.event?.contains("\"direction\":\"up\"") == true, "\(turned)")
        // replay --config applies the same section to the same trace: the same line.
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let replayed = try touchline("replay", recording, "--config", try dir.write("r.toml", rotated))
        #expect(replayed.status == 0)
        #expect(replayed.lines.map(String.init).first { $0.contains("\"gesture\":\"swipe\"") } == turned.event)
        // A section for another device changes nothing.
        let other = try firstSwipe("[[device]]\nmatch.name = \"Atmel*\"\nrotation = 90\n")
        #expect(other.event == plain.event)
    }

    /// SIGHUP brings an action in (the daemon started without any): the swipe after it runs it.
    @Test func sighupReloadsTheActions() throws {
        var ran: String?
        let (event, output) = try firstSwipe("", beforeStart: { dir, pid in
            _ = try dir.write("daemon.toml", """
                [[action]]
                gesture = "swipe"
                argv = ["/bin/sh", "-c", "printf %s \\"$TOUCHLINE_GESTURE\\" > \\"$1/swiped\\"", "sh", "\(dir.path)"]
                """)
            kill(pid, SIGHUP)
        }, afterEvent: { dir in
            _ = eventually(in: dir.path) { ((try? String(contentsOfFile: dir.path + "/swiped", encoding: .utf8)) ?? "") != "" }
            ran = try? String(contentsOfFile: dir.path + "/swiped", encoding: .utf8)
        })
        #expect(event?.contains("\"gesture\":\"swipe\"") == true)
        #expect(output.contains("reloaded"), "daemon: \(output)")
        #expect(ran == "swipe", "daemon: \(output)")
    }

    @Test func aDevicesGraphFileIsCheckedWithItsOwnLine() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        _ = try dir.write("kiosk.toml", "[[recognizer]]\nkind = \"tapp\"\n")
        let config = try dir.write("daemon.toml", "[[device]]\nmatch.name = \"*\"\ngraph = \"kiosk.toml\"\n")
        _ = try dir.write("other.toml", "[[device]]\nmatch.name = \"*\"\ngraph = \"none.toml\"\n")
        // The graph file's own line (kiosk.toml:2:8, a path made from the configuration's folder:
        // $TMP), and the [[device]] line of a graph file that is not there.
        try expectErrors([(["daemon", "--check-config", config], 65), (["daemon", "--check-config", dir.path + "/other.toml"], 65)],
                         "check-config-device-graph.stderr.txt", scratch: dir.path)
        _ = try dir.write("kiosk.toml", "[[recognizer]]\nkind = \"tap\"\n")
        #expect(try touchline("daemon", "--check-config", config).status == 0)
    }
}
