import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting
import TouchlineTrace

/// The tool of each contact (ABS_MT_TOOL_TYPE; BTN_TOOL_PEN on a single-touch pen): frames and
/// events carry it, a palm never starts or joins a gesture, and a contact that turns into a palm
/// ends its gesture as cancelled (docs/gestures.md#palms), on crafted libinput and evemu
/// recordings of a touchscreen that reports tool types.
@Suite struct ToolTests {
    /// One step of a crafted recording: at `ms`, these (code, value) ABS events then SYN_REPORT.
    typealias Step = (ms: Int, abs: [(UInt16, Int32)])

    /// A libinput recording of a 217 × 136 mm touchscreen (10 units/mm) with ABS_MT_TOOL_TYPE,
    /// written by the project's own writer (as `touchline record` writes one).
    static func libinputRecording(_ steps: [Step]) -> String {
        let axis = { (maximum: Int32, resolution: Int32) in AbsInfo(minimum: 0, maximum: maximum, resolution: resolution) }
        let device = DeviceDescription(
            name: "Crafted Tool Touchscreen", bus: 3, vendor: 0x1234, product: 0x5678, version: 1,
            properties: [EventCodes.INPUT_PROP_DIRECT],
            codes: [EventCodes.EV_SYN: [0], EventCodes.EV_KEY: [EventCodes.BTN_TOUCH],
                    EventCodes.EV_ABS: [0, 1, slot, x, y, tool, tracking]],
            absinfo: [0: axis(2170, 10), 1: axis(1356, 10), slot: axis(9, 0), x: axis(2170, 10), y: axis(1356, 10),
                      tool: axis(2, 0), tracking: axis(65535, 0)],
            udevProperties: ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"])
        var writer = LibinputRecordWriter(devices: [device], sink: BytesSink())
        for step in steps {
            let time = Timestamp(microseconds: Int64(step.ms) * 1000)
            for (code, value) in step.abs {
                try! writer.write(TraceEvent(device: 0, event: InputEvent(time: time, type: EventCodes.EV_ABS, code: code, value: value)))
            }
            try! writer.write(TraceEvent(device: 0, event: InputEvent(time: time, type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0)))
        }
        try! writer.finish()
        return String(decoding: (writer.sink as! BytesSink).bytes, as: UTF8.self)
    }

    static let slot: UInt16 = 47, x: UInt16 = 53, y: UInt16 = 54, tool: UInt16 = 55, tracking: UInt16 = 57

    /// A contact in slot 0 landing at (x, y) mm with `tool`, then moving to (x + dx, y) over
    /// `moves` frames of 10 ms, then lifting.
    static func stroke(tool: Int32, from x: Int32, _ y: Int32, dx: Int32, moves: Int, turnsInto later: (frame: Int, tool: Int32)? = nil) -> [Step] {
        var steps: [Step] = [(0, [(slot, 0), (tracking, 7), (self.tool, tool), (self.x, x * 10), (self.y, y * 10)])]
        for k in 1...max(1, moves) {
            var abs: [(UInt16, Int32)] = [(self.x, (x + dx * Int32(k) / Int32(max(1, moves))) * 10)]
            if let later, later.frame == k { abs.append((self.tool, later.tool)) }
            steps.append((k * 10, abs))
        }
        steps.append(((moves + 1) * 10, [(tracking, -1)]))
        return steps
    }

    static func frames(_ text: String) throws -> (frames: [TouchFrame], surface: Size) {
        var reader = try TraceReader(source: BytesSource(Array(text.utf8)), fileName: "crafted.yml")
        var events: [InputEvent] = []
        while let e = try reader.next() { events.append(e.event) }
        var assembler = FrameAssembler(device: reader.devices[0])
        var frames: [TouchFrame] = []
        for e in events where assembler.feed(e) { frames.append(assembler.frame) }
        return (frames, assembler.geometry.size)
    }

    static func replay(_ text: String, explain: Bool = false) throws -> [GestureEvent] {
        let (frames, surface) = try frames(text)
        return try GestureHarness.replay(frames, configuration: .default, surface: surface, explain: explain)
    }

    /// The same recording as evemu (the project's writer, as `touchline convert` writes it).
    static func evemu(_ text: String) throws -> String {
        var reader = try TraceReader(source: BytesSource(Array(text.utf8)), fileName: "crafted.yml")
        var events: [InputEvent] = []
        while let e = try reader.next() { events.append(e.event) }
        var writer = EvemuWriter(device: reader.devices[0], sink: BytesSink())
        for e in events { try writer.write(e) }
        try writer.finish()
        return String(decoding: (writer.sink as! BytesSink).bytes, as: UTF8.self)
    }

    @Test func framesCarryTheToolWhenItIsNotAFinger() throws {
        let pen = try Self.frames(Self.libinputRecording(Self.stroke(tool: 1, from: 100, 60, dx: 0, moves: 1))).frames
        #expect(pen.first?.contacts.first?.tool == .pen)
        #expect(pen.first?.jsonLine().contains(#""phase":"began","tool":"pen","slot":0"#) == true)
        let finger = try Self.frames(Self.libinputRecording(Self.stroke(tool: 0, from: 100, 60, dx: 0, moves: 1))).frames
        #expect(finger.first?.contacts.first?.tool == .finger)
        #expect(finger.first?.jsonLine().contains("tool") == false)
        #expect(finger.allSatisfy { !$0.hasPalm })
        let palm = try Self.frames(Self.libinputRecording(Self.stroke(tool: 2, from: 100, 60, dx: 0, moves: 1))).frames
        #expect(palm.first?.hasPalm == true)
        #expect(palm.first?.jsonLine().contains(#""tool":"palm""#) == true)
    }

    /// A palm sliding 30 mm and lifting: no gesture, no explain line (it never joined an arena).
    @Test(arguments: [false, true])
    func aPalmStartsNothing(evemu: Bool) throws {
        var text = Self.libinputRecording(Self.stroke(tool: 2, from: 60, 60, dx: 30, moves: 10))
        if evemu { text = try Self.evemu(text) }
        #expect(try Self.replay(text, explain: true).map(\.json) == [])
        // The same stroke by a finger is a pan (and a swipe): the tool alone made the difference.
        let finger = try Self.replay(Self.libinputRecording(Self.stroke(tool: 0, from: 60, 60, dx: 30, moves: 10)))
        #expect(finger.contains { $0.gesture == .pan && $0.phase == .began })
    }

    /// A finger panning turns into a palm mid-stroke: the pan ends as cancelled there, with an
    /// explain line saying why, and the palm's further motion and lift give nothing.
    @Test(arguments: [false, true])
    func aContactThatTurnsIntoAPalmCancelsItsGesture(evemu: Bool) throws {
        var text = Self.libinputRecording(Self.stroke(tool: 0, from: 60, 60, dx: 40, moves: 10, turnsInto: (6, 2)))
        if evemu { text = try Self.evemu(text) }
        let events = try Self.replay(text, explain: true)
        let lines = events.map(\.logLine)
        let cancelled = try #require(lines.firstIndex { $0.contains("pan cancelled") }, "\(lines)")
        #expect(lines[cancelled].hasPrefix("0.060000 "))
        let why = try #require(lines.firstIndex(of: "0.060000 explain ended pan: a contact turned into a palm (MT_TOOL_PALM): cancelled"), "\(lines)")
        #expect(why < cancelled)
        #expect(lines.filter { $0.contains("pan began") }.count == 1)
        #expect(!lines.dropFirst(cancelled + 1).contains { !$0.contains("explain") })
        #expect(!lines.contains { $0.contains("swipe recognized") })
    }

    /// A pen's gestures say so (`"tool":"pen"`, schema 1.2); a finger's carry no `tool`.
    @Test func aPensTapSaysPen() throws {
        let pen = try Self.replay(Self.libinputRecording(Self.stroke(tool: 1, from: 100, 60, dx: 0, moves: 2)))
        let tap = try #require(pen.first { $0.gesture == .tap })
        #expect(tap.json.contains(#""tool":"pen","contacts":[0]"#))
        let finger = try Self.replay(Self.libinputRecording(Self.stroke(tool: 0, from: 100, 60, dx: 0, moves: 2)))
        #expect(finger.first { $0.gesture == .tap }?.json.contains("tool") == false)
    }

    /// A pen's press keeps the pen's slop (8 mm, Thresholds.penPressSlop) where a finger's
    /// has 3 mm: a tap whose nib slides 5 mm is still a tap for a pen, and not for a finger.
    @Test func aPensPressHasThePensSlop() throws {
        let configuration = GraphConfiguration(targets: [.surface()], recognizers: [RecognizerSpec(name: "tap", kind: .tap(TapParameters()))])
        func taps(tool: Int32) throws -> [String] {
            let (frames, surface) = try Self.frames(Self.libinputRecording(Self.stroke(tool: tool, from: 100, 60, dx: 5, moves: 5)))
            return try GestureHarness.replay(frames, configuration: configuration, surface: surface, explain: true).map(\.logLine)
        }
        #expect(try taps(tool: 1).contains { $0.hasPrefix("0.060000 tap recognized") })
        #expect(!(try taps(tool: 0)).contains { $0.contains("tap recognized") })
        // The pen's value is the kind's unless the configuration gives one (docs/config.md#tools).
        var own = configuration
        var pen = TapParameters()
        pen.slop = 4
        own.recognizers[0].penKind = .tap(pen)
        let (frames, surface) = try Self.frames(Self.libinputRecording(Self.stroke(tool: 1, from: 100, 60, dx: 5, moves: 5)))
        let lines = try GestureHarness.replay(frames, configuration: own, surface: surface, explain: true).map(\.logLine)
        #expect(!lines.contains { $0.contains("tap recognized") }, "\(lines)")
    }

    /// The issue's case: a deep pen press on the shared Dell Canvas pen recording, whose nib
    /// slides 5.8 mm before it reaches the peek threshold, is a peek then a pop with
    /// `kind = "peek"` and nothing else changed (with the finger's 3 mm it failed at 3.23 mm).
    @Test func aDeepPenPressOnTheDellCanvasIsAPeekThenAPop() throws {
        let configuration = GraphConfiguration(targets: [.surface()], recognizers: [RecognizerSpec(name: "peek", kind: .peek(PeekParameters()))])
        let (_, events) = try replayTrace("evemu-devices/dell_canvas_pen.evemu", configuration: configuration)
        let kinds = events.filter { $0.phase != .changed }.map { "\($0.gesture.name) \($0.phase.name)" }
        #expect(kinds == ["peek began", "pop recognized", "peek ended"])
        #expect(events.allSatisfy { $0.contacts.tool == .pen })
    }

    /// Per-tool values in a configuration (docs/config.md#tools): a recognizer's `pen.*` keys and
    /// `[defaults.pen]`, each a distance or a duration; the recognizer's own key wins.
    @Test func aConfigurationGivesPenValues() throws {
        func penSlop(_ toml: String, _ recognizer: Int = 0) throws -> Double? {
            let configuration = try GraphConfiguration.parse(toml: toml, file: "pen.toml")
            return configuration.recognizers[recognizer].resolvedPenKind.parameters(of: PeekRecognizer.self)?.slop
                ?? configuration.recognizers[recognizer].resolvedPenKind.parameters(of: TapRecognizer.self)?.slop
        }
        #expect(try penSlop("[[recognizer]]\nkind = \"peek\"\n") == Thresholds.penPressSlop)
        #expect(try penSlop("[[recognizer]]\nkind = \"peek\"\npen.slop = \"4mm\"\n") == 4)
        #expect(try penSlop("[defaults.pen]\npeek.slop = \"5mm\"\n[[recognizer]]\nkind = \"peek\"\n") == 5)
        #expect(try penSlop("[defaults.pen]\npeek.slop = \"5mm\"\n[[recognizer]]\nkind = \"peek\"\npen.slop = 6\n") == 6)
        // The default graph (no [[recognizer]]) takes [defaults.pen] too: its first is the tap.
        #expect(try penSlop("[defaults.pen]\ntap.slop = \"5mm\"\n") == 5)
        // The finger's value is untouched.
        let both = try GraphConfiguration.parse(toml: "[[recognizer]]\nkind = \"peek\"\nslop = \"2mm\"\npen.slop = \"9mm\"\n", file: "pen.toml")
        #expect(both.recognizers[0].kind.parameters(of: PeekRecognizer.self)?.slop == 2)
        #expect(both.recognizers[0].resolvedPenKind.parameters(of: PeekRecognizer.self)?.slop == 9)
        // Only distances and durations differ by tool; a key the kind has not is named.
        #expect(throws: ConfigError.self) { try GraphConfiguration.parse(toml: "[[recognizer]]\nkind = \"tap\"\npen.fingers = 2\n", file: "pen.toml") }
        do {
            _ = try GraphConfiguration.parse(toml: "[[recognizer]]\nkind = \"tap\"\npen.fingers = 2\n", file: "pen.toml")
        } catch {
            #expect(error.description == "pen.toml:3:5: tap.fingers is the same for every tool; a pen value is for a distance or a duration")
        }
        do {
            _ = try GraphConfiguration.parse(toml: "[defaults.pen]\npeek.slip = \"5mm\"\n", file: "pen.toml")
            Issue.record("peek.slip was accepted")
        } catch {
            #expect(error.description.hasPrefix("pen.toml:2:6: peek has no parameter 'slip'"))
        }
    }
}
