import TouchlineCore
import TouchlineGestures

/// A graph under test in virtual time: script touches in mm, let time pass, read the whole
/// event log, and end by checking that nothing is pending (style principle 12).
///
///     var h = try GestureHarness()
///     h.down(0, at: Point(x: 50, y: 50))
///     h.wait(80)
///     h.up(0)
///     #expect(h.log == ["0.080000 tap recognized f1 (50.00,50.00) count=1"])
///     try h.expectNothingPending()
public struct GestureHarness: Sendable {
    public private(set) var script: TouchScript
    /// The one multi-device driver every mode runs (GesturePipeline), with the script as its
    /// one device (0), fed frames.
    public private(set) var pipeline: GesturePipeline
    public private(set) var events: [GestureEvent] = []
    var fed = 0

    /// Throws when the configuration is invalid (docs/config.md#validation).
    public init(configuration: GraphConfiguration = .default, rate: Double = 120, surface: Size = TouchScript.defaultSurface, explain: Bool = false) throws(GraphConfigurationError) {
        script = TouchScript(rate: rate, surface: surface)
        pipeline = try GesturePipeline(frames: surface, configuration: configuration, explain: explain)
    }

    public var driver: GraphDriver { pipeline.drivers[0] }
    public var graph: GestureGraph { pipeline.drivers[0].graph }
    public var time: Timestamp { script.time }

    mutating func feed() {
        var collected: [GestureEvent] = []
        while fed < script.frames.count {
            pipeline.feed(device: 0, frame: script.frames[fed]) { collected.append($0) }
            fed += 1
        }
        pipeline.advance(to: script.time) { collected.append($0) }
        events += collected
    }

    public mutating func down(_ finger: Int, at point: Point, pressure: Double? = nil, touchMajor: Double? = nil) {
        script.down(finger, at: point, pressure: pressure, touchMajor: touchMajor)
        feed()
    }
    public mutating func press(_ finger: Int, pressure: Double? = nil, touchMajor: Double? = nil, over milliseconds: Double) {
        script.press(finger, pressure: pressure, touchMajor: touchMajor, over: milliseconds)
        feed()
    }
    public mutating func down(_ touches: [(Int, Point)]) { script.down(touches); feed() }
    public mutating func up(_ finger: Int) { script.up(finger); feed() }
    public mutating func up(_ fingers: [Int]) { script.up(fingers); feed() }
    public mutating func cancel(_ fingers: [Int]) { script.cancel(fingers); feed() }
    /// Lets time pass; deadlines inside fire at their own time.
    public mutating func wait(_ milliseconds: Double) { script.wait(milliseconds); feed() }
    public mutating func move(_ finger: Int, to point: Point, over milliseconds: Double) { script.move(finger, to: point, over: milliseconds); feed() }
    public mutating func move(_ targets: [(Int, Point)], over milliseconds: Double) { script.move(targets, over: milliseconds); feed() }
    public mutating func move(over milliseconds: Double, _ path: (Double) -> [(Int, Point)]) { script.move(over: milliseconds, path); feed() }
    public mutating func turn(about center: Point, by radians: Double, scale: Double = 1, over milliseconds: Double) {
        script.turn(about: center, by: radians, scale: scale, over: milliseconds)
        feed()
    }

    /// The events as compact lines (see `GestureEvent.logLine`).
    public var log: [String] { events.map(\.logLine) }
    /// The events as schema-v1 JSON lines.
    public var jsonLines: [String] { events.map(\.json) }
    /// Gesture events only (explain lines left out).
    public var gestures: [GestureEvent] { events.filter { $0.gesture != .explain } }

    /// Forgets the events collected so far.
    public mutating func clearEvents() { events.removeAll() }

    /// Throws when a contact is still down, an arena open or a deadline pending.
    public func expectNothingPending() throws(PendingError) {
        if !driver.graph.isIdle { throw PendingError(description: driver.graph.pendingDescription) }
    }

    /// Runs frames through a fresh graph in virtual time and returns every event, deadlines at
    /// the end included (as `touchline replay` does). Throws when the configuration is invalid.
    public static func replay(_ frames: [TouchFrame], configuration: GraphConfiguration = .default, surface: Size, explain: Bool = false) throws(GraphConfigurationError) -> [GestureEvent] {
        var pipeline = try GesturePipeline(frames: surface, configuration: configuration, explain: explain)
        var out: [GestureEvent] = []
        for f in frames { pipeline.feed(device: 0, frame: f) { out.append($0) } }
        pipeline.finish { out.append($0) }
        return out
    }
}

extension GesturePipeline {
    /// A pipeline of one device, 0, fed frames (a touch script's) on a `surface` of mm.
    init(frames surface: Size, configuration: GraphConfiguration, explain: Bool) throws(GraphConfigurationError) {
        self.init(configuration: configuration, explain: explain)
        var driver = try GraphDriver(configuration: configuration, surface: surface)
        driver.graph.explain = explain
        start(device: 0, assembler: FrameAssembler(device: DeviceDescription(name: "touch script")), transform: nil, surface: surface, driver: driver)
    }
}

/// Something was still pending at the end of a test.
public struct PendingError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

extension GestureEvent {
    /// One compact, readable line for tests: time, gesture, phase, recognizer (when it is not
    /// named after its kind), fingers, position and the gesture's own fields.
    public var logLine: String {
        var line = "\(time) \(gesture) \(phase)"
        if gesture != .explain && recognizer.description != gesture.description { line += " [\(recognizer)]" }
        if gesture == .explain {
            line += " \(recognizer)"
        } else {
            line += " f\(fingers) (\(formatFixed(position.x, decimals: 2)),\(formatFixed(position.y, decimals: 2)))"
        }
        // Each kind says how its fields read (its GestureFields' summary).
        line += detail.summary
        return line
    }
}
