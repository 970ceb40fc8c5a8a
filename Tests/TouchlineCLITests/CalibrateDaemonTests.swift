import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

// `touchline calibrate --daemon` (docs/calibrate.md#from-a-running-daemon): a daemon holds the
// panel (pass-through, previewed on a recording: --dry-run; its [[device]] also turns the
// frames 90°, so the raw positions are not the frames'), and calibrate takes its touches from
// the daemon's socket. The same touches give the same report and matrix as calibrate reading
// the recording itself, byte for byte. (The page in daemon mode, answered by headless Chromium:
// scripts/calibrate-page-test.py.)

@Suite struct CalibrateDaemonTests {
    /// Runs the daemon on `taps` (holding the panel as a pass-through daemon does) and
    /// `calibrate --daemon ARGUMENTS` against it (the recording in `dir`); returns calibrate's
    /// result.
    func fromDaemon(_ taps: [(x: Int, y: Int)], _ arguments: [String], in dir: URL) throws -> CLIResult {
        let recording = dir.appendingPathComponent("taps.yml").path
        try tapRecording(taps).write(toFile: recording, atomically: true, encoding: .utf8)
        let config = dir.appendingPathComponent("daemon.toml").path
        try "[[device]]\nmatch.name = \"Calibration Test Panel\"\nrotation = 90\npassthrough = true\n".write(toFile: config, atomically: true, encoding: .utf8)
        let socket = dir.path + "/touchline.sock"
        // Served once it says READY=1; its first touch comes 4.5 s after it started, calibrate
        // subscribed by then (on a loaded host too: as DaemonDeviceTests, a client in the delay).
        let daemon = try CleanProcess(
            daemon: ["--config", config, "--dry-run", "--source", "trace:" + recording, "--start-delay", "4", "--socket", socket],
            outputIn: dir)
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        let result = try touchline(arguments: ["calibrate", "--daemon", "--socket", socket] + arguments)
        let end = daemon.wait()
        ended = true
        #expect(end?.status == 0, "daemon: \(daemon.output)")
        return result
    }

    @Test func cornersFromTheDaemonAreTheRecordingsOwn() throws {
        let corners = [(0.07, 0.07), (0.93, 0.07), (0.93, 0.93), (0.07, 0.93)]
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try fromDaemon(turnedTaps(corners), ["--corners"], in: dir)
        // The rotation the daemon applies does not reach the fit: the device's own coordinates,
        // the report of `calibrate --corners trace:FILE` (CalibrateTests), after the device the
        // daemon holds and the prompts. Not the "waiting for the daemon" line: it is said only
        // when the daemon has not described its device within calibrate's first second, which
        // depends on how fast each process started (a loaded host skips it).
        #expect(result.status == 0, "\(result.stderr)")
        expectReport(result.stdout, "calibrate-corners.txt")
        expectReport(result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("touchline calibrate: waiting for the daemon") }.joined(separator: "\n"),
                     "calibrate-daemon-corners.stderr.txt")
    }

    @Test func checkFromTheDaemonIsTheRecordingsOwn() throws {
        let seven = (0.42288, 0.16175)
        let matrix = "0.000000 -0.900667 0.950000 0.900417 0.000000 0.050000"
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try fromDaemon(turnedTaps([seven]), ["--check", "--seed", "7", "--matrix", matrix], in: dir)
        // The report of `calibrate --check trace:FILE` (CalibrateTests).
        #expect(result.status == 0, "\(result.stderr)")
        expectReport(result.stdout, "calibrate-check.txt")
    }

    @Test func noDaemonOrAWrongCombinationIsSaid() throws {
        // Without a daemon: 66 and the error whole, before any page is offered (nothing on
        // standard output).
        let none = try touchline("calibrate", "--daemon", "--socket", "/tmp/touchline-no-daemon-here.sock")
        none.expect(status: 66, stderr: "calibrate-no-daemon.stderr.txt")
        try expectErrors([
            (["calibrate", "--daemon", "/dev/input/event0"], 64),
            (["calibrate", "/dev/input/event0", "--socket", "/tmp/x.sock"], 64),
            (["calibrate", "--page", "/dev/input/event0"], 64),
        ], "calibrate-daemon-refused.stderr.txt")
    }
}
