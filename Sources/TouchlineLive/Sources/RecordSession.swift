// `touchline record`'s loop: live devices to a recording, and optionally the frames and
// gestures recognized along, through the one multi-device driver replay runs
// (GesturePipeline), with times relative to the recording's first event. The recorder has no
// timer (its output is files, not a UI): deadlines fire at their own time when a later frame
// comes or at the end, as in replay, so `--gestures-output` is what `touchline replay` of the
// recording prints, by construction. The recording's bytes are the owner's (the executable's
// libinput record writer): each raw event goes to `record` in the order read.
import TouchlineCore
import TouchlineGestures

public struct RecordSession {
    /// Takes each raw event as read, with its kernel time: the recording.
    public typealias Record = (_ device: Int, _ event: InputEvent) throws -> Void

    /// Where the recognized gestures go, given exactly when the session recognizes (set after
    /// `start`, so that no output file is made for devices that fail to open).
    public var gestures: (any LiveSink)?
    /// Where the assembled frames go (nil: none written).
    public var frames: (any LiveSink)?
    /// Lines for the user (an assembler's warnings, a removal).
    let warn: (String) -> Void
    let configuration: GraphConfiguration
    let configPath: String?
    var pipeline: GesturePipeline
    /// The devices opened, by the source's number (0, 1… in the order named), and their paths.
    public private(set) var descriptions: [DeviceDescription] = []
    public private(set) var paths: [String] = []

    /// `options`: the assemblers' (the live frames see libevdev's resync deltas after a
    /// SYN_DROPPED, `.syncEventsFollow`). `configuration`: the graph the gestures are recognized
    /// with, nil for none; `configPath` names it in messages; `explain`: the graph's explain
    /// lines go to `gestures` too (`record --guided`'s feedback reads them).
    public init(options: FrameAssembler.Options, configuration: GraphConfiguration?, configPath: String? = nil, explain: Bool = false,
                warn: @escaping (String) -> Void) {
        self.warn = warn
        self.configuration = configuration ?? .default
        self.configPath = configPath
        pipeline = GesturePipeline(
            configuration: configuration ?? .default, assemblerOptions: options, recognizes: configuration != nil, explain: explain,
            relativeTime: true)
    }

    /// The recording's first event time (of any device), once one was read: times in the
    /// frames and gestures count from it, and so must the recording's.
    public var origin: Timestamp? { pipeline.origin }

    /// Opens the source's devices (before the readiness signal); `descriptions` then holds
    /// them, for the recording's header.
    public mutating func start(_ source: inout some LiveSource) throws {
        try source.start { event in
            switch event {
            case .added(let device, let path, let description):
                try self.open(device, path: path, description: description)
            case .notice(let message):
                self.warn(message)
            case .input, .removed, .cloned, .releasable:
                break
            }
        }
    }

    mutating func open(_ device: Int, path: String, description: DeviceDescription) throws {
        precondition(device == descriptions.count, "a recording numbers its devices 0, 1… in the order opened")
        descriptions.append(description)
        paths.append(path)
        let assembler = FrameAssembler(device: description, options: pipeline.assemblerOptions)
        for warning in assembler.warnings { warn("\(path) (\(description.name)): \(warning)") }
        var driver: GraphDriver?
        if pipeline.recognizes {
            do {
                driver = try GraphDriver(configuration: configuration, surface: assembler.geometry.size)
            } catch {
                // GraphConfiguration.parse has already rejected an invalid file with its line.
                throw LiveError(.data, "\(configPath ?? "the embedded graph configuration"): \(error.message)")
            }
        }
        pipeline.start(device: device, assembler: assembler, transform: nil, surface: assembler.geometry.size, driver: driver)
    }

    /// Records until a stop (SIGINT/SIGTERM) or until every device is gone, then ends the
    /// recognition as replay ends a file (pending deadlines fire, contacts still down are
    /// cancelled at the last time).
    /// Asked after every wake: true ends the recording as a stop does (`record --guided`, once
    /// its plan is done).
    public var isDone: () -> Bool = { false }

    public mutating func run(_ source: inout some LiveSource, record: Record) throws {
        precondition((gestures != nil) == pipeline.recognizes, "gestures go somewhere exactly when the session recognizes")
        reading: while true {
            // No deadline: nothing is waited for but input.
            switch try source.wait(deadline: nil, { try self.take($0, record) }) {
            case .input, .deadline, .hangup: if isDone() { break reading }
            case .stop, .exhausted: break reading
            }
        }
        guard gestures != nil else { return }
        var out = RecordOutput(gestures: gestures, frames: nil)
        pipeline.finish(into: &out)
        if let failure = out.failure { throw failure }
    }

    mutating func take(_ event: SourceEvent, _ record: Record) throws {
        switch event {
        case .input(let device, let event):
            guard device >= 0 && device < paths.count else { return }
            try record(device, event)
            if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_DROPPED {
                // A reader of the recording discards up to the next SYN_REPORT after a
                // SYN_DROPPED, as the kernel's documentation says for a raw stream. An empty
                // SYN_REPORT right after it ends that torn frame, so what follows, libevdev's
                // resync deltas, is applied on replay as it was live.
                try record(device, InputEvent(time: event.time, type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0))
            }
            // Every event sets the origin, also when nothing is recognized.
            let timed = pipeline.timed(event)
            guard frames != nil || gestures != nil else { return }
            // The pipeline's step, the one replay's loop takes per event.
            var out = RecordOutput(gestures: gestures, frames: frames)
            pipeline.take(device: device, timed, into: &out)
            if let failure = out.failure { throw failure }
        case .removed(let device, _):
            // The recording just ends there, and so do the frames and gestures: replay of it
            // sees no removal.
            if device >= 0 && device < paths.count { warn("\(paths[device]) was removed") }
        case .notice(let message):
            warn(message)
        case .added, .cloned, .releasable:
            // A recording's devices are those named at the start; record passes nothing through.
            break
        }
    }
}

/// `record`'s outputs as the pipeline makes them: gestures and frames to their sinks, the
/// first error kept (what follows it is dropped).
struct RecordOutput: PipelineSink {
    let gestures: (any LiveSink)?
    let frames: (any LiveSink)?
    var failure: Error?

    mutating func event(_ event: GestureEvent) {
        guard failure == nil, let gestures else { return }
        do { try gestures.gesture(event) } catch { failure = error }
    }

    mutating func frame(device: Int, _ pipeline: GesturePipeline) {
        guard failure == nil, let frames else { return }
        do { try frames.frame(pipeline.frame(of: device), device: device) } catch { failure = error }
    }
}
