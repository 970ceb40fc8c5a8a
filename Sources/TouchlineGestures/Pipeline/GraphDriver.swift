import TouchlineCore

/// Drives a graph from frames in virtual time, live or recorded (the pipeline's driver in every
/// mode; it was `ReplayDriver` until issue 32 named it for what it does): before each frame,
/// the deadlines that fall before it fire at their own timestamps; at the end of input the
/// remaining deadlines fire, then contacts still down are cancelled. The output depends only on
/// the frames, never on how fast they are fed.
public struct GraphDriver: Sendable {
    public var graph: GestureGraph
    /// The latest time seen (frame or deadline).
    public private(set) var time: Timestamp?

    public init(graph: GestureGraph) { self.graph = graph }

    /// Throws when the configuration is invalid (docs/config.md#validation). `sharingNames`: as
    /// GestureGraph's (the daemon's, which holds the names).
    public init(configuration: GraphConfiguration, surface: Size, sharingNames: Bool = false) throws(GraphConfigurationError) {
        graph = try GestureGraph(configuration: configuration, surface: surface, sharingNames: sharingNames)
    }

    /// Feeds one frame. A frame older than the last one is processed at the last time (the
    /// assembler clamps time already; this keeps deadlines monotonic regardless).
    public mutating func feed(_ frame: TouchFrame, emit: (GestureEvent) -> Void) {
        var frame = frame
        if let last = time, frame.time < last { frame.time = last }
        // Each step's decisions are its own: an observer reads them after it (PassThroughSet).
        if graph.tellsDecisions { graph.clearDecisions() }
        // `process` fires the deadlines before the frame first, and filters a frame's palms
        // (docs/gestures.md#palms).
        graph.process(frame, emit: emit)
        time = frame.time
    }

    /// Moves virtual time to `time` without a frame, firing the deadlines up to it.
    public mutating func advance(to time: Timestamp, emit: (GestureEvent) -> Void) {
        if graph.tellsDecisions { graph.clearDecisions() }
        graph.advance(to: time, emit: emit)
        if self.time == nil || self.time! < time { self.time = time }
    }

    /// End of input: fires every remaining deadline in order (a long press held at the end of
    /// a file still resolves), then cancels contacts still down at the last time seen.
    public mutating func finish(emit: (GestureEvent) -> Void) {
        while let d = graph.nextDeadline {
            graph.advance(to: d, emit: emit)
            if time == nil || time! < d { time = d }
        }
        if let time { graph.cancelAll(at: time, emit: emit) }
        while let d = graph.nextDeadline { graph.advance(to: d, emit: emit) }
    }
}

/// The driver's name until issue 32: kept for library users' code, which the rename would
/// otherwise break.
@available(*, deprecated, renamed: "GraphDriver")
public typealias ReplayDriver = GraphDriver
