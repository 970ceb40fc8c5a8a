// Zero heap allocations per frame in the graph's steady state (principle 10), counted exactly
// in a child process by TouchlineTestSupport's `HeapObjects` (HeapObjects.swift), as
// Tests/TouchlineCoreTests/AllocationTests.swift counts the assembler's.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

private let graphProbeVariable = "TOUCHLINE_GRAPH_ALLOCATION_PROBE"

/// `n` fingers down, then circling forever at 120 Hz: the default graph's pan (and pinch and
/// rotate, which the circling spread and turn) emit `changed` on every frame.
private func circlingFrames(_ n: Int, count: Int) -> [TouchFrame] {
    var s = TouchScript(rate: 120)
    s.down((0..<n).map { ($0, Point(x: 40 + 12 * Double($0), y: 50 + 5 * Double($0))) })
    for k in 0..<(count / 60 + 1) {
        s.turn(about: Point(x: 100, y: 60), by: 0.6, scale: k % 2 == 0 ? 1.2 : 1 / 1.2, over: 500)
    }
    return s.frames
}

private struct GraphSteadyRun {
    var driver: ReplayDriver
    var writer = JSONWriter(capacity: 4096)
    /// `--format text`'s writer instead of the JSON one, when set.
    var text: TextEventWriter?
    var frames: [TouchFrame]
    var lines = 0
    /// A `[[device]]` rotation and calibration, applied into `turned` as GesturePipeline does.
    var transform: DeviceTransform?
    var turned = TouchFrame(time: .zero)

    init(contacts: Int, explain: Bool, text: Bool = false, rotated: Bool = false) throws {
        if text { self.text = TextEventWriter(color: true, capacity: 4096) }
        frames = circlingFrames(contacts, count: 2100)
        transform = rotated ? DeviceTransform(rotation: .quarter, calibration: [1, 0, 0.01, 0, 1, 0]) : nil
        driver = try ReplayDriver(configuration: .default, surface: transform?.surface(TouchScript.defaultSurface) ?? TouchScript.defaultSurface)
        driver.graph.explain = explain
        for f in frames.prefix(100) { feed(f) }
    }

    mutating func feed(_ frame: TouchFrame) {
        var w = writer
        var t = text
        var n = 0
        writer = JSONWriter(capacity: 0)
        text = nil
        var frame = frame
        if let transform {
            transform.apply(frame, surface: transform.surface(TouchScript.defaultSurface), into: &turned)
            frame = turned
        }
        driver.feed(frame) { event in
            if t != nil {
                t!.reset()
                t!.write(event)
            } else {
                w.reset()
                event.writeJSON(into: &w)
            }
            n += 1
        }
        writer = w
        text = t
        lines += n
    }

    mutating func measure() {
        for i in 100..<frames.count { feed(frames[i]) }
    }
}

@Suite(.serialized, .enabled(if: HeapObjects.isProbe(graphProbeVariable), "runs only in the child process graphAllocatesNothingPerFrame starts"))
struct GraphAllocationProbe {
    @Test func probe() throws {
        var sink: [Int] = []
        let control = HeapObjects.count { sink = Array(repeating: 1, count: 100) }
        print("control \(control ?? -1) \(sink.count)")
        for contacts in [1, 2, 10] {
            var run = try GraphSteadyRun(contacts: contacts, explain: false)
            let before = run.lines
            let count = HeapObjects.count { run.measure() }
            print("graph \(contacts) \(count ?? -1) \(run.frames.count - 100) \(run.lines - before)")
        }
        var text = try GraphSteadyRun(contacts: 2, explain: false, text: true)
        let textBefore = text.lines
        let textCount = HeapObjects.count { text.measure() }
        print("text 2 \(textCount ?? -1) \(text.frames.count - 100) \(text.lines - textBefore)")
        // A rotated and calibrated device: its turned frame's storage is reused.
        var rotated = try GraphSteadyRun(contacts: 2, explain: false, rotated: true)
        let before = rotated.lines
        let count = HeapObjects.count { rotated.measure() }
        print("graph 2-rotated \(count ?? -1) \(rotated.frames.count - 100) \(rotated.lines - before)")
    }
}

@Suite struct GraphAllocationTests {
    @Test func graphAllocatesNothingPerFrame() throws {
        let (status, text) = try HeapObjects.probe(suite: "GraphAllocationProbe", variable: graphProbeVariable)
        #expect(status == 0, "the probe failed:\n\(text)")
        let lines = text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("graph ") || $0.hasPrefix("text ") }.map(String.init)
        print(lines.joined(separator: "\n"))
        // Three JSON runs, a rotated device's, and one through `--format text`'s writer (with colours).
        #expect(lines.count == 5)
        let control = text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("control ") }?.split(separator: " ")
        #expect((control.flatMap { Int($0[1]) } ?? 0) >= 1, "the counter must see the control allocation")
        for line in lines {
            let parts = line.split(separator: " ")
            #expect(parts.count == 5 && parts[2] == "0", "heap objects per steady-state run: \(line) (graph CONTACTS OBJECTS FRAMES EVENTS)")
            #expect(parts.count == 5 && (Int(parts[4]) ?? 0) > 0, "the run must emit events: \(line)")
        }
    }
}
