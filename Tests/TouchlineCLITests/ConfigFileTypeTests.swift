// A configuration path that names a FIFO (or anything but a regular file) is refused with its
// path at once: opening a FIFO for reading waits for a writer, which hung `--check-config`,
// `replay --config`, a `[[device]] graph` and SIGHUP (the whole daemon, SIGTERM included).
// Each run is a CleanProcess bounded by its wait(), so the old behaviour fails, not hangs.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ConfigFileTypeTests {
    let recording = Paths.recordings.appendingPathComponent("pinch.yml").path

    /// Runs `touchline ARGUMENTS` to its end (nil: still running after 10 s, then killed).
    func finished(_ arguments: [String], in dir: ScratchDirectory) throws -> (status: Int32?, output: String) {
        let process = try CleanProcess(Paths.binary.path, arguments, outputIn: URL(fileURLWithPath: dir.path))
        let end = process.wait()
        return (end?.status, process.output)
    }

    @Test func checkConfigRefusesAFIFO() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let fifo = dir.path + "/config.toml"
        try #require(mkfifo(fifo, 0o600) == 0)
        let (status, output) = try finished(["daemon", "--check-config", fifo], in: dir)
        #expect(status == 66, "output: \(output)")
        #expect(output == "touchline: \(fifo): not a regular file (a FIFO); a configuration is read from a regular file\n")
    }

    @Test func replayConfigRefusesAFIFO() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let fifo = dir.path + "/graph.toml"
        try #require(mkfifo(fifo, 0o600) == 0)
        let (status, output) = try finished(["replay", recording, "--config", fifo], in: dir)
        #expect(status == 66, "output: \(output)")
        expectReport(Report.normalized(output, scratch: dir.path), "replay-config-fifo.stderr.txt")
    }

    @Test func deviceGraphRefusesAFIFO() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        try #require(mkfifo(dir.path + "/kiosk.toml", 0o600) == 0)
        let config = try dir.write("daemon.toml", "[[device]]\nmatch.name = \"*\"\ngraph = \"kiosk.toml\"\n")
        let (status, output) = try finished(["daemon", "--check-config", config], in: dir)
        #expect(status == 65, "output: \(output)")
        expectReport(Report.normalized(output, scratch: dir.path), "check-config-device-graph-fifo.stderr.txt")
    }

    /// The config replaced by a FIFO, then SIGHUP: the reload is refused naming the path, the
    /// daemon goes on (READY=1 again) and SIGTERM ends it with 0.
    @Test func reloadRefusesAFIFOAndKeepsServing() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let config = try dir.write("graph.toml", "[[recognizer]]\nkind = \"pinch\"\n")
        let daemon = try CleanProcess(
            daemon: ["--source", "trace:" + recording, "--start-delay", "30", "--socket", dir.path + "/touchline.sock", "--config", config],
            outputIn: URL(fileURLWithPath: dir.path))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        try #require(unlink(config) == 0 && mkfifo(config, 0o600) == 0)
        kill(daemon.pid, SIGHUP)
        _ = try daemon.notify?.message(containing: "RELOADING=1")
        _ = try daemon.notify?.message(containing: "READY=1")
        #expect(daemon.output.contains("\(config): not a regular file (a FIFO)"), "daemon: \(daemon.output)")
        #expect(daemon.output.contains("keeping the running configuration"), "daemon: \(daemon.output)")
        kill(daemon.pid, SIGTERM)
        let end = daemon.wait()
        ended = true
        #expect(end?.status == 0, "daemon: \(daemon.output)")
    }
}
