// The daemon's output: every gesture event to the event socket's subscribers and, when asked,
// to standard output as well (`touchline daemon --stdout`), the same line in both places, and
// to the actions' runner.
// Frames and raw events are `run`'s diagnostics; the daemon publishes gestures, and frames
// only to a client that subscribed with "view" (`touchline view`, docs/view.md).
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

    /// The daemon's `--explain`: decision lines go everywhere events go. Off, the graphs make
    /// them only while a viewer is connected (LiveSession.followViewers), and only viewers get
    /// them (docs/view.md).
    public var explainsForAll = false

    public func gesture(_ event: GestureEvent) throws {
        // Never to the others, even in the wake where the last viewer left (the graphs stop
        // explaining at the next).
        if !explainsForAll && event.gesture == .explain { return try server.publishToViewers(event) }
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

    public func viewDevice(_ index: Int, surface: Size, configuration: GraphConfiguration) {
        server.publishDevice(index, surface: surface, configuration: configuration)
    }

    public func describeDevice(_ index: Int, _ description: DeviceDescription, native size: Size) {
        server.describeDevice(index, native: ViewLines.Native(description, size: size))
    }

    public func viewFrame(_ frame: TouchFrame, raw: TouchFrame, device: Int) throws {
        try server.publishFrame(frame, raw: raw, device: device)
    }

    public func viewHold(_ report: HoldReport, device: Int) throws {
        try server.publishHold(report, device: device)
    }

    public func warn(_ message: String) {
        // Warnings go to standard error whether or not events are copied to standard output.
        (copy ?? JSONLinesSink() as any LiveSink).warn(message)
    }
}
