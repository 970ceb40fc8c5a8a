import TouchlineCore
import TouchlineGestures

// A recording held in memory for scoring and tuning: per device the frames its assembler made
// (rotated and calibrated when a [[device]] section says so) and the surface its graph sees.
// The trace is read and assembled once; every candidate configuration then runs only the graph
// over these frames. Each device's graph is independent of the others' (the pipeline orders
// their outputs in time, which a label does not look at), so a device's events here are the
// ones `touchline replay` prints for it.

public struct RecordedDevice: Sendable {
    /// The trace's index for the device (`device` in its events).
    public var index: Int
    public var surface: Size
    public var frames: [TouchFrame]
    /// The device's own graph (a [[device]] section's `graph`): a search leaves it as it is.
    public var configuration: GraphConfiguration?

    public init(index: Int, surface: Size, frames: [TouchFrame] = [], configuration: GraphConfiguration? = nil) {
        self.index = index
        self.surface = surface
        self.frames = frames
        self.configuration = configuration
    }
}

public struct Recording: Sendable {
    public var devices: [RecordedDevice]
    /// The time of the trace's first event (of any device): labels count from it.
    public var origin: Timestamp

    public init(devices: [RecordedDevice], origin: Timestamp) {
        self.devices = devices
        self.origin = origin
    }

    public var frameCount: Int { devices.reduce(0) { $0 + $1.frames.count } }

    /// Every device's events under `configuration`, device by device, each in its own order.
    /// `explain`: with the arena's decision lines (gesture `explain`).
    public func events(_ configuration: GraphConfiguration, explain: Bool = false) throws(GraphConfigurationError) -> [GestureEvent] {
        var events: [GestureEvent] = []
        try run(configuration, explain: explain) { events.append($0) }
        return events
    }

    /// The same events, each handed to `emit` as the graph says it (a search keeps none). The
    /// frames go through the one driver every mode runs (`GesturePipeline`), every device's in
    /// time order (the earlier device on a tie), so each device's events are the ones `touchline
    /// replay` prints for it, deadlines across devices included (issue 32: score and tune had a
    /// loop of their own, one graph per device).
    public func run(_ configuration: GraphConfiguration, explain: Bool = false, emit: (GestureEvent) -> Void) throws(GraphConfigurationError) {
        var pipeline = GesturePipeline(configuration: configuration, explain: explain)
        for device in devices {
            var driver = try GraphDriver(configuration: device.configuration ?? configuration, surface: device.surface)
            driver.graph.explain = explain
            // The frames were assembled (and transformed) when the recording was read: the
            // pipeline's assembler for the device makes none here.
            pipeline.start(device: device.index, assembler: FrameAssembler(device: DeviceDescription(name: "recording")),
                           transform: nil, surface: device.surface, driver: driver)
        }
        var next = [Int](repeating: 0, count: devices.count)
        while true {
            var pick = -1
            for d in devices.indices where next[d] < devices[d].frames.count {
                if pick < 0 || devices[d].frames[next[d]].time < devices[pick].frames[next[pick]].time { pick = d }
            }
            guard pick >= 0 else { break }
            pipeline.feed(device: devices[pick].index, frame: devices[pick].frames[next[pick]], emit: emit)
            next[pick] += 1
        }
        pipeline.finish(emit: emit)
    }

    /// Seconds from the recording's first event.
    public func seconds(_ time: Timestamp) -> Double { Double((time - origin).microseconds) / 1_000_000 }
}
