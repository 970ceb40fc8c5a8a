// `--format text` for live sessions (`run`, `daemon --stdout`): each gesture event as one aligned
// line (TextEventWriter), written at once as JSONLinesSink writes its lines. Frames and raw
// events have no text form; the executable refuses those outputs with --format text, so they
// never reach here.
import TouchlineCore
import TouchlineGestures
import TouchlineInput

public final class TextLinesSink: LiveSink {
    let output: any LineOutput
    var line: TextEventWriter

    public init(output: any LineOutput = FileOutput.standardOutput, color: Bool) {
        self.output = output
        line = TextEventWriter(color: color)
    }

    public func gesture(_ event: GestureEvent) throws {
        line.reset()
        line.write(event)
        try output.write(line.bytes)
    }

    // Unreachable from the executable (see above); a library caller gets JSON rather than a
    // silent loss.
    public func frame(_ frame: TouchFrame, device: Int) throws { try JSONLinesSink(output: output).frame(frame, device: device) }
    public func rawEvent(_ event: InputEvent, deviceName: String) throws { try JSONLinesSink(output: output).rawEvent(event, deviceName: deviceName) }

    public func warn(_ message: String) { JSONLinesSink().warn(message) }
}
