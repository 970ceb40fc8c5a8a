// Where a live session's output goes. The executable writes JSON Lines to standard output, each
// line in one write(2) as soon as it is complete (a live consumer must not wait for a buffer;
// `daemon --stdout` through TouchlineInput's NonBlockingOutput, which never waits for its
// reader either); tests collect the events themselves.
import TouchlineCore
import TouchlineGestures
import TouchlineInput

public protocol LiveSink: AnyObject {
    /// A gesture event (output `gestures`).
    func gesture(_ event: GestureEvent) throws
    /// A frame of device `device` (output `frames`; also the cancelled frame of a removal).
    func frame(_ frame: TouchFrame, device: Int) throws
    /// A raw event as read (output `events`), with its device's name.
    func rawEvent(_ event: InputEvent, deviceName: String) throws
    /// A line for the user; losing it must not lose the session's work.
    func warn(_ message: String)
    /// Device `index` was opened; its graph's surface is `surface` mm (a click action's scale).
    func deviceOpened(_ index: Int, surface: Size)
    /// `touchline view` (docs/view.md): device `index`'s surface and the configuration its graph
    /// runs, when it opens or its graph is rebuilt.
    func viewDevice(_ index: Int, surface: Size, configuration: GraphConfiguration)
    /// Device `index` opened: its description and its panel in mm (native axes), before its
    /// first `viewDevice` (the device line's `native`, for `calibrate --daemon`).
    func describeDevice(_ index: Int, _ description: DeviceDescription, native size: Size)
    /// `touchline view`: a completed frame after the device transform, and as assembled. Called
    /// only while `SessionClients.viewTap` counts a viewer.
    func viewFrame(_ frame: TouchFrame, raw: TouchFrame, device: Int) throws
    /// `touchline view`: how a pass-through contact's hold ended. Called only while a viewer
    /// is connected (the planners keep no report otherwise).
    func viewHold(_ report: HoldReport, device: Int) throws
}

extension LiveSink {
    public func deviceOpened(_ index: Int, surface: Size) {}
    public func viewDevice(_ index: Int, surface: Size, configuration: GraphConfiguration) {}
    public func describeDevice(_ index: Int, _ description: DeviceDescription, native size: Size) {}
    public func viewFrame(_ frame: TouchFrame, raw: TouchFrame, device: Int) throws {}
    public func viewHold(_ report: HoldReport, device: Int) throws {}
}

extension GesturePipeline {
    /// Runs `body` on the pipeline with an emit function that hands each gesture event to
    /// `sink`; the sink's first error is thrown once `body` is done (the pipeline's own state
    /// stays whole: the events after it are dropped, not half-processed).
    @discardableResult
    mutating func emitting<R>(to sink: any LiveSink, _ body: (inout GesturePipeline, (GestureEvent) -> Void) -> R) throws -> R {
        var failure: Error?
        let result = body(&self) { event in
            guard failure == nil else { return }
            do { try sink.gesture(event) } catch { failure = error }
        }
        if let failure { throw failure }
        return result
    }
}

/// JSON Lines to a descriptor (schema v1, as `touchline replay` prints), warnings to standard
/// error prefixed with the program's name. One reused line buffer: no allocation per line.
public final class JSONLinesSink: LiveSink {
    let output: any LineOutput
    var line = JSONWriter()

    public init(output: any LineOutput = FileOutput.standardOutput) { self.output = output }

    public func gesture(_ event: GestureEvent) throws {
        line.reset()
        event.writeJSON(into: &line)
        line.newline()
        try output.write(line.bytes)
    }

    public func frame(_ frame: TouchFrame, device: Int) throws {
        line.reset()
        frame.writeJSON(device: device, into: &line)
        try output.write(line.bytes)
    }

    public func rawEvent(_ event: InputEvent, deviceName: String) throws {
        line.reset()
        line.beginObject()
        line.field("time", event.time)
        line.field("device", deviceName)
        line.field("type", EventCodes.typeName(event.type) ?? String(event.type))
        line.field("code", EventCodes.codeName(type: event.type, code: event.code) ?? String(event.code))
        line.field("value", Int(event.value))
        line.endObject()
        line.newline()
        try output.write(line.bytes)
    }

    public func warn(_ message: String) {
        // A standard error that cannot be written loses the message, not the session.
        // Control characters escaped: a message quotes device names from traces and devices.
        try? FileOutput.standardError.write("touchline: " + message.escapingControlCharacters + "\n")
    }
}
