import TouchlineCore

/// Where a pipeline's input comes from in `GesturePipeline.run`: a trace file (with its
/// `[[device]]` sections), a recording in memory, a fuzzer's bytes. It only reads: the loop,
/// the order in time and every stage are the pipeline's.
public protocol PipelineSource {
    /// The next raw event and the index of its device, as read (not yet `timed`); nil at the
    /// end of input. A thrown error ends the run after what was read is finished.
    mutating func next() throws -> (device: Int, event: InputEvent)?
    /// Starts `device` in `pipeline` before its first event (`GesturePipeline.start`, with its
    /// description and settings) and returns true; false skips its events (a `[[device]]`
    /// section ignores it), and is asked again at its next event.
    mutating func start(device: Int, in pipeline: inout GesturePipeline) throws -> Bool
}

/// What a pipeline's run produces, each output as it is made: gesture events (explain lines
/// among them), frames, the pass-through clone's frames and its hold reports. A sink takes
/// the ones it wants (the others do nothing). Generic, not an existential: `run` is
/// specialized for the caller's sink, so the frame path pays no dynamic call and allocates
/// nothing of its own.
public protocol PipelineSink {
    /// A gesture event (or a decision line, with `explain`), in output order.
    mutating func event(_ event: GestureEvent)
    /// Every raw event `run` reads, `timed`, before its device starts (progress, statistics,
    /// the input's first time).
    mutating func input(device: Int, _ event: InputEvent)
    /// `device` started (`run`), its assembler and graph readable in `pipeline`.
    mutating func started(device: Int, _ pipeline: GesturePipeline)
    /// `device` completed a frame, which went through every stage: `pipeline.frame(of:)` (after
    /// the `[[device]]` transform), `pipeline.assembledFrame(of:)` (as the device sent it).
    mutating func frame(device: Int, _ pipeline: GesturePipeline)
    /// A frame for `device`'s pass-through clone (`PassThroughEncoder` makes its events).
    mutating func clone(device: Int, _ frame: PassThroughFrame)
    /// How a contact's hold on `device`'s clone was decided (the planners keep reports).
    mutating func hold(device: Int, _ report: HoldReport)
}

extension PipelineSink {
    public mutating func event(_ event: GestureEvent) {}
    public mutating func input(device: Int, _ event: InputEvent) {}
    public mutating func started(device: Int, _ pipeline: GesturePipeline) {}
    public mutating func frame(device: Int, _ pipeline: GesturePipeline) {}
    public mutating func clone(device: Int, _ frame: PassThroughFrame) {}
    public mutating func hold(device: Int, _ report: HoldReport) {}
}

/// Gesture events to a closure; nothing else (the closure forms of the pipeline's calls).
public struct GestureEventSink: PipelineSink {
    let emit: (GestureEvent) -> Void
    public init(_ emit: @escaping (GestureEvent) -> Void) { self.emit = emit }
    public mutating func event(_ event: GestureEvent) { emit(event) }
}
