// `[[device]] passthrough = true` (docs/live.md#pass-through) on a source that cannot grab:
// refused before anything opens, naming the section's line, except in a dry run on a
// recording, which previews it, and on a recording with --passthrough-to, whose clone is a file. (The evdev source's grab and clone need a kernel:
// scripts/vm/e2e.sh.)
import Foundation
import Testing
import TouchlineCore
import TouchlineTrace

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
    /// Issue 35 (on 9b4ee5b: exit 64, as above): `daemon --dry-run --source trace:FILE`
    /// previews pass-through, each frame the clone would receive a line, and they are the
    /// frames of `replay --passthrough`'s record, time for time: the edge swipe consumed, the
    /// tap's and the pan's touches passed.
    @Test func aDryRunOnARecordingPreviewsPassThroughAsReplayDoes() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("edge-tap-pan.yml").path
        try ReplayPassThroughTests.edgeSwipeTapPan(into: trace)
        let config = dir.appendingPathComponent("kiosk.toml").path
        try (ReplayPassThroughTests.consumingEdgeSwipe + "\n\n[[device]]\nmatch.name = \"*\"\npassthrough = true\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        let clone = dir.appendingPathComponent("clone.yml").path
        let replay = try touchline("replay", trace, "--config", config, "--passthrough", clone)
        #expect(replay.status == 0, "\(replay.stderr)")
        var reader = try TraceReader(source: BytesSource(try Paths.bytes(clone)), fileName: "clone.yml")
        var expected: [String] = []
        var frame: [InputEvent] = []
        while let e = try reader.next() {
            frame.append(e.event)
            guard e.event.type == EventCodes.EV_SYN && e.event.code == EventCodes.SYN_REPORT else { continue }
            let events = frame.map { "\(EventCodes.typeName($0.type)!) \(EventCodes.codeName(type: $0.type, code: $0.code)!) \($0.value)" }
            expected.append("at \(formatFixed(e.event.time.microseconds, decimals: 6)): " + events.joined(separator: ", "))
            frame = []
        }
        #expect(expected.count > 4)

        let daemon = try CleanProcess(
            daemon: ["--config", config, "--dry-run", "--source", "trace:" + trace, "--speed", "20", "--socket", dir.path + "/t.sock"],
            outputIn: dir)
        #expect(daemon.wait()?.status == 0, "daemon: \(daemon.output)")
        let prefix = "touchline: dry run: pass-through (\(trace) device 0) "
        let lines = daemon.output.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        #expect(lines == expected, "daemon: \(daemon.output)")
        // The whole log of a trace played to its end is the same each run (its times are the
        // trace's): the start line, the clone as lines, those lines, the pass-through summary.
        expectReport(Report.normalized(daemon.output, scratch: dir.path), "daemon-dry-run-passthrough.txt")
    }

    /// Issue 31's measurement without uinput: `--passthrough-to FILE` makes each clone the file,
    /// which receives the kernel's binary input_event records (24 bytes, zero times: uinput
    /// stamps its own), one frame per write, the frames of `replay --passthrough` in order.
    @Test func aCloneThatIsAFileGetsReplaysFramesAsInputEventRecords() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("edge-tap-pan.yml").path
        try ReplayPassThroughTests.edgeSwipeTapPan(into: trace)
        let config = dir.appendingPathComponent("kiosk.toml").path
        try (ReplayPassThroughTests.consumingEdgeSwipe + "\n\n[[device]]\nmatch.name = \"*\"\npassthrough = true\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        let clone = dir.appendingPathComponent("clone.yml").path
        let replay = try touchline("replay", trace, "--config", config, "--passthrough", clone)
        #expect(replay.status == 0, "\(replay.stderr)")
        var reader = try TraceReader(source: BytesSource(try Paths.bytes(clone)), fileName: "clone.yml")
        var expected: [[Int]] = []
        while let e = try reader.next() { expected.append([Int(e.event.type), Int(e.event.code), Int(e.event.value)]) }
        #expect(expected.count > 20)

        let file = dir.appendingPathComponent("clone.bin").path
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        let daemon = try CleanProcess(
            daemon: ["--config", config, "--source", "trace:" + trace, "--speed", "20", "--socket", dir.path + "/t.sock", "--passthrough-to", file],
            outputIn: dir)
        #expect(daemon.wait()?.status == 0, "daemon: \(daemon.output)")
        expectReport(Report.normalized(daemon.output, scratch: dir.path), "daemon-passthrough-to-file.txt")
        let bytes = try Paths.bytes(file)
        #expect(bytes.count % 24 == 0)
        func field(_ at: Int, _ size: Int) -> Int {
            var v = 0
            for i in (0..<size).reversed() { v = v << 8 | Int(bytes[at + i]) }
            return size == 4 ? Int(Int32(truncatingIfNeeded: v)) : v
        }
        var got: [[Int]] = []
        for at in stride(from: 0, to: bytes.count - bytes.count % 24, by: 24) {
            #expect(field(at, 8) == 0 && field(at + 8, 8) == 0, "record \(at / 24): a time")
            got.append([field(at + 16, 2), field(at + 18, 2), field(at + 20, 4)])
        }
        #expect(got == expected)
    }
}
