import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

// The default graph on real third-party recordings (../shared/traces, never copied into the
// repository). Each expectation was checked against the frames first (see the README there).

@Suite struct RealTraceTests {
    @Test func atmelFastTapsCountByTheMultiTapRule() throws {
        let (trace, events) = try replayTrace("evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events")
        // The rule, computed from the frames alone: a tap counts up from the previous one when
        // it goes down within 300 ms of the previous lift and within 10 mm of it.
        var expected: [Int] = []
        var downAt: (Timestamp, Point)? = nil
        var previous: (lift: Timestamp, position: Point, count: Int)? = nil
        for frame in trace.frames {
            for c in frame.contacts {
                if c.phase == .began { downAt = (frame.time, c.position) }
                if c.phase == .ended, let (start, position) = downAt {
                    var count = 1
                    if let prev = previous, start - prev.lift <= Thresholds.multiTapInterval,
                       position.distance(to: prev.position) <= Thresholds.multiTapDistance {
                        count = prev.count + 1
                    }
                    expected.append(count)
                    previous = (frame.time, position, count)
                }
            }
        }
        let taps = events.filter { $0.gesture == .tap }
        let counts = taps.map { event -> Int in
            if let count = event.detail.fields(as: TapFields.self)?.count { return count }
            return 0
        }
        #expect(taps.count == 9)
        #expect(counts == expected)
        #expect(counts == Array(1...9))
        #expect(events.allSatisfy { $0.gesture == .tap })
    }

    /// The pan events of a trace: the most fingers any of them reported, and the translation at
    /// its end.
    func pans(_ events: [GestureEvent]) -> [(fingers: Int, translation: Vector)] {
        var result: [(Int, Vector)] = []
        var fingers = 0
        for e in events where e.gesture == .pan {
            fingers = max(fingers, e.fingers)
            if e.phase == .ended, let translation = e.detail.fields(as: PanFields.self)?.translation {
                result.append((fingers, translation))
                fingers = 0
            }
        }
        return result
    }

    @Test func ep0430m09TwoFingerVerticalScroll() throws {
        let (_, events) = try replayTrace("evemu-devices/EP0430M09.2-finger-scroll-down.events")
        let found = pans(events)
        #expect(found.count == 1)
        let pan = try #require(found.first)
        #expect(pan.fingers == 2)
        // A vertical two-finger stroke of about 52 mm. The fingers move towards smaller y (the
        // top of the sensor: ABS_MT_POSITION_Y goes from 547 to 216 of 767), so "scroll down"
        // in the file's name is the content's direction, not the fingers'.
        #expect(abs(pan.translation.dy) > 40)
        #expect(abs(pan.translation.dy) > 3 * abs(pan.translation.dx))
        #expect(pan.translation.dy < 0)
    }

    @Test func atmelFourFingerDragDown() throws {
        let (_, events) = try replayTrace("evemu-devices/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        let found = pans(events)
        #expect(found.count == 1)
        let pan = try #require(found.first)
        #expect(pan.fingers == 4)
        #expect(pan.translation.dy > 40)
        #expect(pan.translation.dy > 3 * abs(pan.translation.dx))
    }

    @Test func wacomDoubleCenterCircleRotates() throws {
        let (_, events) = try replayTrace("evemu-devices/Wacom ISDv4 E6 Finger.double-center-circle.events")
        let rotations = events.compactMap { e -> Double? in
            if let rotation = e.detail.fields(as: RotateFields.self)?.rotation { return rotation }
            return nil
        }
        #expect(!rotations.isEmpty)
        let largest = rotations.map(abs).max() ?? 0
        #expect(largest >= 0.35 && largest <= 0.7, "largest rotation \(largest) rad")
        #expect(events.contains { $0.gesture == .rotate && $0.phase == .began })
        #expect(events.contains { $0.gesture == .rotate && $0.phase == .ended })
    }

    @Test func n4PinchScaleFallsBelowAndRisesAbove0_7() throws {
        let (_, events) = try replayTrace("xorg-integration-tests/n4.events")
        let scales = events.compactMap { e -> Double? in
            if let scale = e.detail.fields(as: PinchFields.self)?.scale { return scale }
            return nil
        }
        let firstBelow = try #require(scales.firstIndex { $0 < 0.7 })
        #expect(scales[firstBelow...].contains { $0 > 0.7 })
    }

    @Test func dth2242LongPressNearTheEnd() throws {
        let (trace, events) = try replayTrace("evemu-devices/Wacom DTH2242 Finger.events")
        let start = try #require(trace.frames.first?.time)
        let end = try #require(trace.frames.last?.time)
        let presses = events.filter { $0.gesture == .longPress && $0.phase == .ended }
        let durations = presses.map { e -> (Double, Double) in
            guard let duration = e.detail.fields(as: LongPressFields.self)?.duration else { return (0, 0) }
            return ((e.time - start).seconds, duration.seconds)
        }
        // The 0.69 s still press near the end of the 24 s file.
        let last = try #require(durations.last)
        #expect((end - start).seconds - last.0 < 1.0, "\(durations)")
        #expect(abs(last.1 - 0.69) < 0.05, "\(durations)")
        let began = try #require(events.last { $0.gesture == .longPress && $0.phase == .began })
        #expect(began.fingers == 1)
    }

    @Test(arguments: ["MonkeyHelper/phone-two-finger-drag.txt", "MonkeyHelper/tablet-two-finger-drag.txt"])
    func monkeyHelperTwoFingerHorizontalDrag(file: String) throws {
        let (_, events) = try replayTrace(file)
        // The phone's fingers start 4 units from the left edge (0.7 mm with the assumed 0..1023
        // range): an edge swipe is as right as a pan there (labels.json says so too).
        var edgeFingers = 0
        let edgeSwipes = events.compactMap { e -> (fingers: Int, translation: Vector)? in
            guard e.gesture == .edgeSwipe else { return nil }
            edgeFingers = max(edgeFingers, e.fingers)
            guard e.phase == .ended, let edge = e.detail.fields(as: EdgeSwipeFields.self), edge.edge == .left else { return nil }
            let translation = edge.translation
            return (edgeFingers, translation)
        }
        let found = pans(events) + edgeSwipes
        #expect(found.count == 1)
        let pan = try #require(found.first)
        #expect(pan.fingers == 2)
        #expect(abs(pan.translation.dx) > 100)
        #expect(abs(pan.translation.dx) > 3 * abs(pan.translation.dy))
    }

    @Test func replayIsByteIdenticalAcrossRuns() throws {
        for file in ["xorg-integration-tests/n4.events", "evemu-devices/Wacom DTH2242 Finger.events"] {
            let (_, first) = try replayTrace(file, explain: true)
            let (_, second) = try replayTrace(file, explain: true)
            #expect(first.map(\.json) == second.map(\.json))
        }
    }
}

@Suite struct AllSharedTracesTests {
    static var files: [String] {
        let root = Paths.traces
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var out: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if [".events", ".evemu", ".txt", ".yml"].contains(where: { path.hasSuffix($0) }) && !path.hasSuffix("README.md") { out.append(path) }
        }
        return out.sorted()
    }

    /// The list the tests below take their arguments from is the shared traces: when the
    /// folder is missing it would be empty, and a test with no argument passes silently.
    @Test func theSharedTracesAreThere() {
        #expect(Self.files.count >= 28, "\(Paths.traces.path) holds \(Self.files.count) traces: the shared traces must be at ../shared/traces from the package root")
    }

    /// Every shared recording, through the default graph with explain lines: no impossible
    /// transition, every began ends, no contact named after its end, same bytes twice, and the
    /// evemu and libinput-record copies of a recording give the same gestures.
    @Test(arguments: files)
    func invariantsHoldOnRealInput(file: String) throws {
        let trace = try assemble(path: Paths.traces.appendingPathComponent(file).path)
        let (events, frameOf, graph) = try PropertyTests.run(trace.frames, surface: trace.surface, explain: true)
        #expect(graph.internalErrors == 0, "\(events.filter { $0.phase == .bug }.map(\.json))")
        #expect(graph.isIdle, "\(graph.pendingDescription)")
        var open = Set<GestureName>()
        for e in events where e.gesture != .explain {
            switch e.phase {
            case .began: #expect(open.insert(e.recognizer).inserted, "\(e.json)")
            case .ended, .cancelled: #expect(open.remove(e.recognizer) != nil, "\(e.json)")
            case .changed: #expect(open.contains(e.recognizer), "\(e.json)")
            case .recognized, .won, .waiting, .held, .failed, .bug: break
            }
        }
        #expect(open.isEmpty)
        var endedAt: [ContactID: Int] = [:]
        for (k, f) in trace.frames.enumerated() { for c in f.contacts where c.phase.isFinal { endedAt[c.id] = k } }
        for (e, k) in zip(events, frameOf) {
            for id in e.contacts { if let end = endedAt[id] { #expect(k <= end, "\(e.json)") } }
        }
        #expect(try PropertyTests.run(trace.frames, surface: trace.surface, explain: true).events.map(\.json) == events.map(\.json))
    }

    @Test func evemuAndLibinputRecordCopiesAgree() throws {
        var compared = 0
        for file in Self.files where file.hasPrefix("libinput-record/") {
            let base = String(file.dropFirst("libinput-record/".count).dropLast(".yml".count))
            guard let original = Self.files.first(where: { $0.hasPrefix("evemu-devices/\(base).") || $0.hasPrefix("xorg-integration-tests/\(base).") }) else { continue }
            let a = try assemble(path: Paths.traces.appendingPathComponent(original).path)
            let b = try assemble(path: Paths.traces.appendingPathComponent(file).path)
            let gestures = { (t: AssembledTrace) in
                try GestureHarness.replay(t.frames, surface: t.surface).filter { $0.phase != .changed }.map { "\($0.gesture) \($0.phase) f\($0.fingers)" }
            }
            #expect(try gestures(a) == gestures(b), "\(original) vs \(file)")
            compared += 1
        }
        #expect(compared == 12)
    }
}
