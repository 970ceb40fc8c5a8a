// `daemon --source trace:` numbers a recording's devices as `replay` does: by the trace's
// index, not by which device sends first. Before, the session numbered devices in opening
// order, so a recording whose second device sent first came out with its devices swapped.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct DeviceNumberingTests {
    /// Two shared recordings as one libinput record file, `first` as device 0, which starts
    /// sending a second after device 1.
    static func twoDevices(first: String, second: String, in dir: String) throws -> String {
        // Device 0's events a second later, so that device 1 sends first (both recordings
        // start at 0, and a tie goes to device 0).
        let a = try String(contentsOfFile: Paths.trace(first), encoding: .utf8)
            .replacing(/- \[\s*(\d+),/) { "- [\(Int($0.output.1)! + 1)," }
        let b = try String(contentsOfFile: Paths.trace(second), encoding: .utf8)
        let node = try #require(b.range(of: "\n- node:"))
        let text = a.replacingOccurrences(of: "\nndevices: 1\n", with: "\nndevices: 2\n")
            + String(b[b.index(after: node.lowerBound)...]).replacingOccurrences(of: "/dev/input/event1", with: "/dev/input/event2")
        let path = dir + "/two-devices.yml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Both orders of the two recordings, device 1 sending first.
    @Test(arguments: [false, true])
    func daemonNumbersDevicesAsReplay(swapped: Bool) throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let (a, b) = (MultiDeviceCLITests.atmel, MultiDeviceCLITests.ep)
        let path = try Self.twoDevices(first: swapped ? b : a, second: swapped ? a : b, in: dir.path)
        let replay = try touchline("replay", path)
        #expect(replay.status == 0)
        let expected = replay.lines.map(String.init)
        #expect(Set(expected.compactMap { $0.firstMatch(of: /"device":(\d)/).map { String($0.output.1) } }) == ["0", "1"])

        let socketPath = dir.path + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--stdout", "--source", "trace:" + path, "--speed", "20", "--start-delay", "0.5", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir.path))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        let client = try DaemonClient(path: socketPath)
        try client.send("{\"subscribe\": []}\n")
        var received: [String] = []
        while received.count < expected.count + 1, let line = try client.line(timeout: 20) { received.append(line) }
        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait()?.status == 0)
        ended = true
        #expect(Array(received.dropFirst()) == expected)
        let stdout = daemon.output.split(separator: "\n").filter { !$0.hasPrefix("touchline:") }.map(String.init)
        #expect(Array(stdout.prefix(expected.count)) == expected)
    }
}
