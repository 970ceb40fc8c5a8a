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
    /// `calibrate --daemon ARGUMENTS` against it; returns calibrate's result and the recording
    /// (in `dir`).
    func fromDaemon(_ taps: [(x: Int, y: Int)], _ arguments: [String], in dir: URL) throws -> (CLIResult, String) {
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
        return (result, recording)
    }

    @Test func cornersFromTheDaemonAreTheRecordingsOwn() throws {
        let corners = [(0.07, 0.07), (0.93, 0.07), (0.93, 0.93), (0.07, 0.93)]
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (result, recording) = try fromDaemon(turnedTaps(corners), ["--corners"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("touchline calibrate: device 0 of the daemon, Calibration Test Panel (panel 216.0 × 135.0 mm); --device N for another"), "\(result.stderr)")
        #expect(result.stderr.contains("touch the top-left corner of the screen, as near to it as you can (1 of 4)"), "\(result.stderr)")
        let direct = try touchline("calibrate", "--corners", "trace:" + recording)
        #expect(direct.status == 0)
        // The rotation the daemon applies does not reach the fit: the device's own coordinates.
        #expect(result.stdout == direct.stdout, "daemon:\n\(result.stdout)\ndirect:\n\(direct.stdout)")
        #expect(result.stdout.contains("ENV{LIBINPUT_CALIBRATION_MATRIX}=\"0.000000 -1.000741 1.000000 1.000463 0.000000 0.000000\""), "\(result.stdout)")
    }

    @Test func checkFromTheDaemonIsTheRecordingsOwn() throws {
        let seven = (0.42288, 0.16175)
        let matrix = "0.000000 -0.900667 0.950000 0.900417 0.000000 0.050000"
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (result, recording) = try fromDaemon(turnedTaps([seven]), ["--check", "--seed", "7", "--matrix", matrix], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let direct = try touchline("calibrate", "--check", "trace:" + recording, "--seed", "7", "--matrix", matrix)
        #expect(result.stdout == direct.stdout && result.stdout.contains("within the tolerance of 4.0 mm"), "daemon:\n\(result.stdout)\ndirect:\n\(direct.stdout)")
    }

    @Test func noDaemonOrAWrongCombinationIsSaid() throws {
        let none = try touchline("calibrate", "--daemon", "--socket", "/tmp/touchline-no-daemon-here.sock")
        #expect(none.status == 66 && none.stderr.contains("/tmp/touchline-no-daemon-here.sock: cannot connect"), "\(none.stderr)")
        let both = try touchline("calibrate", "--daemon", "/dev/input/event0")
        #expect(both.status == 64 && both.stderr.contains("--daemon reads the device the daemon holds; it goes without DEVICE"), "\(both.stderr)")
        let socket = try touchline("calibrate", "/dev/input/event0", "--socket", "/tmp/x.sock")
        #expect(socket.status == 64 && socket.stderr.contains("--socket goes with --daemon"), "\(socket.stderr)")
        let page = try touchline("calibrate", "--page", "/dev/input/event0")
        #expect(page.status == 64 && page.stderr.contains("--page goes with --check"), "\(page.stderr)")
    }
}
