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
    /// `clones`: each screen passed through to its clone at once (before its first event).
    static func script(_ frames: [(device: Int, events: [InputEvent])], timerDelay: Interval, stopAt: Timestamp,
                       clones: [any PassThroughClone] = [], description: DeviceDescription = screen) -> ScriptedSource {
        var source = ScriptedSource(clock: VirtualClock())
        source.timerDelay = timerDelay
        source.add(0, path: "/dev/input/event5", description: description)
        source.add(1, path: "/dev/input/event6", description: description)
        for (device, clone) in clones.enumerated() { source.clone(device, to: clone, at: .zero) }
        for (device, events) in frames { source.events(device, events) }
        source.stop(at: stopAt)
        return source
    }

    /// A libinput record file of the frames, as `touchline record` writes it: device by device,
    /// times from the first event of any device.
    static func recording(_ frames: [(device: Int, events: [InputEvent])], description: DeviceDescription = screen) throws -> [UInt8] {
        var writer = LibinputRecordWriter(devices: [description, description], sink: BytesSink())
        writer.origin = frames.first?.events.first?.time
        for device in 0..<2 {
            for (d, events) in frames where d == device {
                for event in events { try writer.write(TraceEvent(device: device, event: event)) }
            }
        }
        try writer.finish()
        return try #require(writer.sink as? BytesSink).bytes
    }

    /// `touchline replay` (or `--frames`, or `--passthrough`) of a recording, JSON Lines as it
    /// prints them, through the product's loop (`GesturePipeline.run`); with `passThrough`,
    /// every device's clone events (`replay --passthrough`'s record) too.
    static func replay(_ recording: [UInt8], frames: Bool = false, explain: Bool = false, configuration: GraphConfiguration = .default,
                       passThrough: Bool = false) throws -> (bytes: [UInt8], clones: [Int: [String]]) {
        let reader = try TraceReader.open(
            path: "recording.yml", openFile: { _ in BytesSource(recording) }, fileExists: { _ in false })
        var pipeline = GesturePipeline(configuration: configuration, recognizes: !frames, explain: explain,
                                       passThrough: PassThroughSet(keepsReports: false))
        var source = RecordingSource(reader: reader, passThrough: passThrough)
        var out = ReplayLines(frames: frames)
        try pipeline.run(&source, into: &out)
        return (out.json.bytes, out.clones)
    }

    /// A recording read as `touchline replay` reads it: every device started at its first event
    /// (passed through, as `replay --passthrough` passes every one).
    struct RecordingSource: PipelineSource {
        var reader: TraceReader
        let passThrough: Bool

        mutating func next() throws -> (device: Int, event: InputEvent)? {
            guard let e = try reader.next() else { return nil }
            return (e.device, e.event)
        }

        mutating func start(device: Int, in pipeline: inout GesturePipeline) throws -> Bool {
            _ = try pipeline.start(device: device, reader.devices[device])
            if passThrough { pipeline.startPassThrough(device: device, slotCount: PassThroughEncoder.slots(of: reader.devices[device])) }
            return true
        }
    }

    /// Replay's JSON Lines (gestures, or `--frames`' frames), and each clone's events as the
    /// encoder makes them (`replay --passthrough`'s record), one line per event.
    struct ReplayLines: PipelineSink {
        let frames: Bool
        var json = JSONWriter()
        var encoders: [Int: PassThroughEncoder] = [:]
        var clones: [Int: [String]] = [:]

        mutating func event(_ event: GestureEvent) {
            event.writeJSON(into: &json)
            json.newline()
        }

        mutating func started(device: Int, _ pipeline: GesturePipeline) {
            let assembler = pipeline.assembler(of: device)!
            encoders[device] = PassThroughEncoder(device: assembler.device, geometry: assembler.geometry)
        }

        mutating func frame(device: Int, _ pipeline: GesturePipeline) {
            if frames { pipeline.frame(of: device).writeJSON(device: device, into: &json) }
        }

        mutating func clone(device: Int, _ frame: PassThroughFrame) {
            var events: [InputEvent] = []
            encoders[device]!.encode(frame, into: &events)
            clones[device, default: []] += events.map(cloneLine)
        }
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
        session.settings.explain = true
        try session.start(&source)
        try session.run(&source)
        let replayed = try Self.replay(try Self.recording(frames), explain: true).bytes
        expectSameBytes(sink.bytes, replayed)
        // Both long presses fall due at 0.5 s; screen 0's comes first (the lower device on a
        // tie), although screen 1's frame at 0.505 s was read before the late timer fired.
        #expect(Self.longPressesBegan(sink.bytes) == ["device 0 at 0.500000", "device 1 at 0.500000"])
        #expect(sink.warnings.isEmpty)
    }

    /// With pass-through on for both screens (a consuming edge swipe, as a kiosk has it), the
    /// live session's gestures and each clone's events are `touchline replay --passthrough`'s
    /// of the recording, byte for byte: a left edge swipe on screen 0 (kept from its clone)
    /// while screen 1 is tapped, besides the two screens' long presses and taps (which go
    /// through, held while the edge swipe could take them).
    @Test(arguments: [0, 10])
    func twoScreensPassedThroughLiveGiveTheReplaysBytes(timerDelayMilliseconds: Int64) throws {
        var frames = Self.twoScreens()
        var edge = Finger(slot: 1, trackingID: 20)
        edge.down(at: ms(3000), x: 0.5, y: 25)
        for k in 1...6 { edge.move(at: ms(3000 + 10 * Int64(k)), x: 0.5 + 5 * Double(k), y: 25) }
        edge.up(at: ms(3080))
        var tap = Finger(slot: 1, trackingID: 21)
        tap.down(at: ms(3010), x: 50, y: 25)
        tap.up(at: ms(3060))
        var extra: [(device: Int, time: Timestamp, events: [InputEvent])] = []
        for (device, finger) in [(0, edge), (1, tap)] {
            var start = 0
            for (i, e) in finger.events.enumerated() where e.type == E.EV_SYN && e.code == E.SYN_REPORT {
                extra.append((device, e.time, Array(finger.events[start...i])))
                start = i + 1
            }
        }
        extra.sort { ($0.time, $0.device) < ($1.time, $1.device) }
        frames += extra.map { ($0.device, $0.events) }
        var configuration = GraphConfiguration.default
        for i in configuration.recognizers.indices where configuration.recognizers[i].name == "edgeSwipe" { configuration.recognizers[i].consume = true }

        let clones = [EventsClone(), EventsClone()]
        // The screen as its recording describes it (ABS_X and ABS_Y among its codes, as the
        // record lists every axis it has a range for): the clone's encoder writes what the
        // device has, so live and replay must see one device.
        var described = screen
        described.codes[E.EV_ABS] = ((described.codes[E.EV_ABS] ?? []) + [E.ABS_X, E.ABS_Y]).sorted()
        var source = Self.script(frames, timerDelay: Interval(microseconds: timerDelayMilliseconds * 1000), stopAt: ms(5000), clones: clones,
                                 description: described)
        let sink = JSONBytesSink()
        var session = LiveSession(output: .gestures, sink: sink, clock: source.clock)
        session.settings.graphConfiguration = configuration
        session.relativeTime = true
        try session.start(&source)
        try session.run(&source)

        let replayed = try Self.replay(try Self.recording(frames, description: described), configuration: configuration, passThrough: true)
        expectSameBytes(sink.bytes, replayed.bytes)
        for device in 0..<2 {
            // The session's clone also gets the lifts of its close (none are down by then).
            expectSameBytes(Array(clones[device].lines.joined(separator: "\n").utf8), Array((replayed.clones[device] ?? []).joined(separator: "\n").utf8))
        }
        // Something was kept and something passed: the edge swipe is in the events, not on
        // screen 0's clone; screen 1's tap is on its clone.
        #expect(String(decoding: sink.bytes, as: UTF8.self).contains("\"gesture\":\"edgeSwipe\""))
        #expect(!clones[1].lines.isEmpty && !clones[0].lines.isEmpty)
        #expect(clones[0].closed && clones[1].closed)
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
        expectSameBytes(gestures.bytes, try Self.replay(recording).bytes)
        expectSameBytes(framesOut.bytes, try Self.replay(recording, frames: true).bytes)
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

/// A clone that keeps every event written to it, one line each (`cloneLine`).
final class EventsClone: PassThroughClone {
    var lines: [String] = []
    var closed = false
    var node: String { "/dev/input/event98" }
    func write(_ events: [InputEvent]) throws { lines += events.map(cloneLine) }
    func close() { closed = true }
}

/// `0.500000 EV_ABS ABS_MT_SLOT 0`.
func cloneLine(_ e: InputEvent) -> String {
    "\(e.time) \(EventCodes.typeName(e.type) ?? "?") \(EventCodes.codeName(type: e.type, code: e.code) ?? "?") \(e.value)"
}
