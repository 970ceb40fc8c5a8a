// Live equals replay by construction: the live session, `record`'s session and replay all drive
// one GesturePipeline, so what a live run prints is what the replay of its recording prints,
// with several devices too. Two screens whose long presses fall due at the same instant, on a
// virtual clock (and a timer that wakes late, as on a busy machine), are run live through a
// scripted source, recorded as libinput record YAML, read back and replayed as `touchline
// replay` does; the whole outputs are compared as bytes.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineLive
import TouchlineTesting
import TouchlineTrace

@Suite struct LiveEqualsReplayTests {
    /// Screen 0 and screen 1: a finger lands on each at the same instant and is held (two long
    /// presses due at 1.5 s); screen 1's finger moves a little just after that instant (5 ms:
    /// read before a late timer fires); both lift; then a tap on each at the same instant
    /// (their double-tap windows close together). Each frame is one event list, in the order
    /// the devices send them (screen 0 first on a tie, as a recording's reader merges them).
    static func twoScreens(firstOnScreen1: Bool = false) -> [(device: Int, events: [InputEvent])] {
        var frames: [(device: Int, time: Timestamp, events: [InputEvent])] = []
        func add(_ device: Int, _ finger: Finger) {
            var start = 0
            for (i, e) in finger.events.enumerated() where e.type == E.EV_SYN && e.code == E.SYN_REPORT {
                frames.append((device, e.time, Array(finger.events[start...i])))
                start = i + 1
            }
        }
        var a = Finger()
        a.down(at: ms(1000), x: 50, y: 25)
        a.up(at: ms(1700))
        var a2 = Finger(trackingID: 2)
        a2.down(at: ms(2000), x: 60, y: 30)
        a2.up(at: ms(2060))
        var b = Finger()
        if firstOnScreen1 {
            // Screen 1 sends first: the recording's times count from its event.
            b.down(at: ms(900), x: 80, y: 40)
            b.up(at: ms(950))
        }
        var b1 = Finger(trackingID: 5)
        b1.down(at: ms(1000), x: 20, y: 20)
        b1.move(at: ms(1505), x: 20.5, y: 20)
        b1.up(at: ms(1800))
        var b2 = Finger(trackingID: 6)
        b2.down(at: ms(2000), x: 30, y: 10)
        b2.up(at: ms(2060))
        for finger in [a, a2] { add(0, finger) }
        for finger in [b, b1, b2] { add(1, finger) }
        // In time order, screen 0 first at the same time.
        let order = frames.indices.sorted { (frames[$0].time, frames[$0].device, $0) < (frames[$1].time, frames[$1].device, $1) }
        return order.map { (frames[$0].device, frames[$0].events) }
    }

    /// The frames on a scripted source: two screens, then each frame at its time, then a stop.
    static func script(_ frames: [(device: Int, events: [InputEvent])], timerDelay: Interval, stopAt: Timestamp) -> ScriptedSource {
        var source = ScriptedSource(clock: VirtualClock())
        source.timerDelay = timerDelay
        source.add(0, path: "/dev/input/event5", description: screen)
        source.add(1, path: "/dev/input/event6", description: screen)
        for (device, events) in frames { source.events(device, events) }
        source.stop(at: stopAt)
        return source
    }

    /// A libinput record file of the frames, as `touchline record` writes it: device by device,
    /// times from the first event of any device.
    static func recording(_ frames: [(device: Int, events: [InputEvent])]) throws -> [UInt8] {
        var writer = LibinputRecordWriter(devices: [screen, screen], sink: BytesSink())
        writer.origin = frames.first?.events.first?.time
        for device in 0..<2 {
            for (d, events) in frames where d == device {
                for event in events { try writer.write(TraceEvent(device: device, event: event)) }
            }
        }
        try writer.finish()
        return try #require(writer.sink as? BytesSink).bytes
    }

    /// `touchline replay` (or `--frames`) of a recording, JSON Lines as it prints them.
    static func replay(_ recording: [UInt8], frames: Bool = false, explain: Bool = false) throws -> [UInt8] {
        var reader = try TraceReader.open(
            path: "recording.yml", openFile: { _ in BytesSource(recording) }, fileExists: { _ in false })
        var pipeline = GesturePipeline(recognizes: !frames, explain: explain)
        var out = JSONWriter()
        let emit: (GestureEvent) -> Void = { event in
            event.writeJSON(into: &out)
            out.newline()
        }
        while let read = try reader.next() {
            let event = pipeline.timed(read.event)
            if !pipeline.isStarted(read.device) { _ = try pipeline.start(device: read.device, reader.devices[read.device]) }
            guard pipeline.feed(device: read.device, event, emit: emit), frames else { continue }
            pipeline.frame(of: read.device).writeJSON(device: read.device, into: &out)
        }
        pipeline.finish(emit: emit)
        return out.bytes
    }

    /// The long presses' `began` lines, in output order: (device, time).
    static func longPressesBegan(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("\"gesture\":\"longPress\"") && $0.contains("\"phase\":\"began\"") }
            .map { line in
                let device = line.contains("\"device\":1") ? 1 : 0
                let time = line.split(separator: ",").first { $0.hasPrefix("\"time\":") }?.dropFirst(7) ?? ""
                return "device \(device) at \(time)"
            }
    }

    @Test(arguments: [0, 10])
    func twoScreensLiveGiveTheReplaysBytes(timerDelayMilliseconds: Int64) throws {
        let frames = Self.twoScreens()
        var source = Self.script(frames, timerDelay: Interval(microseconds: timerDelayMilliseconds * 1000), stopAt: ms(5000))
        let sink = JSONBytesSink()
        var session = LiveSession(output: .gestures, sink: sink, clock: source.clock)
        // As `run --relative-time`, whose output is replay's of a recording made alongside.
        session.relativeTime = true
        session.explain = true
        try session.start(&source)
        try session.run(&source)
        let replayed = try Self.replay(try Self.recording(frames), explain: true)
        expectSameBytes(sink.bytes, replayed)
        // Both long presses fall due at 0.5 s; screen 0's comes first (the lower device on a
        // tie), although screen 1's frame at 0.505 s was read before the late timer fired.
        #expect(Self.longPressesBegan(sink.bytes) == ["device 0 at 0.500000", "device 1 at 0.500000"])
        #expect(sink.warnings.isEmpty)
    }

    /// `record --gestures-output` and `--frames-output` are `touchline replay` and `replay
    /// --frames` of the recording, byte for byte, screen 1 sending first included.
    @Test func recordWritesWhatTheReplayOfItsRecordingPrints() throws {
        let frames = Self.twoScreens(firstOnScreen1: true)
        var source = Self.script(frames, timerDelay: Interval(microseconds: 0), stopAt: ms(5000))
        var warnings: [String] = []
        var session = RecordSession(options: .init(), configuration: .default, warn: { warnings.append($0) })
        try session.start(&source)
        #expect(session.descriptions == [screen, screen])
        let gestures = JSONBytesSink()
        let framesOut = JSONBytesSink()
        session.gestures = gestures
        session.frames = framesOut
        // As the executable writes the file: device 0 streams, the others are held to the end.
        var writer = LibinputRecordWriter(devices: session.descriptions, sink: BytesSink())
        var held: [[InputEvent]] = [[], []]
        try session.run(&source) { device, event in
            if writer.origin == nil { writer.origin = event.time }
            if device == 0 { try writer.write(TraceEvent(device: 0, event: event)) } else { held[device].append(event) }
        }
        for event in held[1] { try writer.write(TraceEvent(device: 1, event: event)) }
        try writer.finish()
        let recording = try #require(writer.sink as? BytesSink).bytes
        expectSameBytes(recording, try Self.recording(frames))
        expectSameBytes(gestures.bytes, try Self.replay(recording))
        expectSameBytes(framesOut.bytes, try Self.replay(recording, frames: true))
        #expect(Self.longPressesBegan(gestures.bytes) == ["device 0 at 0.600000", "device 1 at 0.600000"])
        #expect(session.origin == ms(900))
        #expect(warnings.isEmpty)
    }
}

/// Byte for byte; a difference shows both outputs as text (the lines, not thousands of numbers).
func expectSameBytes(_ actual: [UInt8], _ expected: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    guard actual != expected else { return }
    Issue.record("""
        not the same bytes
        actual:
        \(String(decoding: actual, as: UTF8.self))
        expected:
        \(String(decoding: expected, as: UTF8.self))
        """, sourceLocation: sourceLocation)
}

/// JSON Lines into memory, as JSONLinesSink writes them to a descriptor.
final class JSONBytesSink: LiveSink {
    var bytes: [UInt8] = []
    var warnings: [String] = []
    func gesture(_ event: GestureEvent) throws {
        var line = JSONWriter()
        event.writeJSON(into: &line)
        line.newline()
        bytes += line.bytes
    }
    func frame(_ frame: TouchFrame, device: Int) throws {
        var line = JSONWriter()
        frame.writeJSON(device: device, into: &line)
        bytes += line.bytes
    }
    func rawEvent(_ event: InputEvent, deviceName: String) throws {}
    func warn(_ message: String) { warnings.append(message) }
}
