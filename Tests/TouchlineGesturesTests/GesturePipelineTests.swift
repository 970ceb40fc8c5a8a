// The one multi-device driver (GesturePipeline) on its own: the order in time across devices
// and the lanes of devices that come and go, with frames from touch scripts.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

@Suite struct GesturePipelineTests {
    /// Devices of frames (no assembler at work) on the default graph, started in this order.
    static func pipeline(starting devices: [Int]) throws -> GesturePipeline {
        var pipeline = GesturePipeline()
        for device in devices { try start(device, in: &pipeline) }
        return pipeline
    }

    static func start(_ device: Int, in pipeline: inout GesturePipeline) throws {
        let surface = TouchScript.defaultSurface
        pipeline.start(
            device: device, assembler: FrameAssembler(device: DeviceDescription(name: "script \(device)")), transform: nil,
            surface: surface, driver: try GraphDriver(configuration: .default, surface: surface))
    }

    /// A finger down at `point` (at `start`).
    static func down(at point: Point, start: Timestamp = .zero) -> TouchScript {
        var script = TouchScript(start: start)
        script.down(0, at: point)
        return script
    }

    static func lines(_ events: [GestureEvent]) -> [String] {
        events.filter { $0.gesture != .explain }.map { "device \($0.device): \($0.logLine)" }
    }

    /// Two long presses due at the same instant fire the lower device's first, though device 1
    /// started first and its frames come first; a deadline at a frame's exact time fires after
    /// that frame, and every device's deadlines before a frame fire before it.
    @Test func deadlinesFireInOneOrderAcrossDevices() throws {
        var pipeline = try Self.pipeline(starting: [1, 0])
        var events: [GestureEvent] = []
        let a = Self.down(at: Point(x: 50, y: 50))
        var b = Self.down(at: Point(x: 100, y: 50))
        pipeline.feed(device: 1, frame: b.frames[0]) { events.append($0) }
        pipeline.feed(device: 0, frame: a.frames[0]) { events.append($0) }
        // Device 1's lift 600 ms on: both long presses (due at 0.5 s) fire before it.
        b.wait(600)
        b.up(0)
        pipeline.feed(device: 1, frame: b.frames.last!) { events.append($0) }
        pipeline.finish { events.append($0) }
        #expect(Self.lines(events) == [
            "device 0: 0.500000 longPress began f1 (50.00,50.00) duration=500ms",
            "device 1: 0.500000 longPress began f1 (100.00,50.00) duration=500ms",
            "device 1: 0.600000 longPress ended f1 (100.00,50.00) duration=600ms",
            // The end of input: device 0's finger, still down, ends at its graph's last time.
            "device 0: 0.500000 longPress cancelled f1 (50.00,50.00) duration=500ms",
        ])
        #expect(pipeline.nextDeadline == nil)
    }

    /// A device that ends frees its lane; the next device started takes it, with a fresh graph.
    @Test func aFinishedDevicesLaneIsReused() throws {
        var pipeline = try Self.pipeline(starting: [0, 1])
        var events: [GestureEvent] = []
        let a = Self.down(at: Point(x: 50, y: 50))
        pipeline.feed(device: 0, frame: a.frames[0]) { events.append($0) }
        // Removed with the finger down: its graph ends as at the end of input (its deadline
        // fires, then the finger is cancelled at that time).
        pipeline.finish(device: 0) { events.append($0) }
        #expect(!pipeline.isStarted(0))
        try Self.start(2, in: &pipeline)
        #expect(Array(pipeline.startedDevices) == [2, 1])
        var c = Self.down(at: Point(x: 20, y: 20), start: Timestamp(microseconds: 100_000))
        c.wait(60)
        c.up(0)
        for frame in c.frames { pipeline.feed(device: 2, frame: frame) { events.append($0) } }
        pipeline.finish { events.append($0) }
        #expect(Self.lines(events) == [
            "device 0: 0.500000 longPress began f1 (50.00,50.00) duration=500ms",
            "device 0: 0.500000 longPress cancelled f1 (50.00,50.00) duration=500ms",
            "device 2: 0.160000 tap recognized f1 (20.00,20.00) count=1",
        ])
    }

    /// A device's `seq` goes on across a new graph (a client's target, a reload): strictly
    /// increasing for the device's life. On 8d7af8f a client that registered before the device
    /// appeared made the graph rebuild after the first gesture, and `seq` went 0, 0, 1, 2.
    @Test func seqGoesOnAcrossANewGraph() throws {
        var pipeline = try Self.pipeline(starting: [0])
        var events: [GestureEvent] = []
        func tap(at ms: Int64) {
            var script = Self.down(at: Point(x: 50, y: 50), start: Timestamp(microseconds: ms * 1000))
            script.wait(60)
            script.up(0)
            for frame in script.frames { pipeline.feed(device: 0, frame: frame) { events.append($0) } }
        }
        tap(at: 0)
        let surface = TouchScript.defaultSurface
        pipeline.replaceGraph(device: 0, with: try GraphDriver(configuration: .default, surface: surface), transform: nil, surface: surface) { events.append($0) }
        tap(at: 1000)
        tap(at: 2000)
        pipeline.finish { events.append($0) }
        #expect(events.map(\.seq) == [0, 1, 2])
        #expect(events.map(\.gesture) == [.tap, .tap, .tap])
    }
}
