// The daemon's output: every gesture event to the event socket's subscribers and, when asked,
// to standard output as well (`touchline daemon --stdout`), the same line in both places, and
// to the actions' runner.
// Frames and raw events are `run`'s diagnostics; the daemon publishes gestures only.
import TouchlineCore
import TouchlineGestures
import TouchlineInput

public final class SocketSink: LiveSink {
    public let server: EventSocketServer
    /// Where a copy of every event goes (JSON Lines, or text with --format text), or nil.
    let copy: (any LiveSink)?
    /// The `[[action]]`s every event is matched against, or nil.
    public var actions: ActionRunner?
    /// `daemon --measure`: told when each event has gone to the sockets.
    public var latencyProbe: LatencyProbe?

    public init(server: EventSocketServer, copy: (any LiveSink)? = nil) {
        self.server = server
        self.copy = copy
    }

    public func gesture(_ event: GestureEvent) throws {
        try server.publish(event)
        latencyProbe?.eventWritten()
        try copy?.gesture(event)
        actions?.handle(event)
    }

    public func frame(_ frame: TouchFrame, device: Int) throws {
        try copy?.frame(frame, device: device)
    }

    public func rawEvent(_ event: InputEvent, deviceName: String) throws {
        try copy?.rawEvent(event, deviceName: deviceName)
    }

    public func deviceOpened(_ index: Int, surface: Size) {
        actions?.deviceOpened(index, surface: surface)
    }

    public func warn(_ message: String) {
        // Warnings go to standard error whether or not events are copied to standard output.
        (copy ?? JSONLinesSink() as any LiveSink).warn(message)
    }
}
