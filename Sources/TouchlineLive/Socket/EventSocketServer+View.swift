// What the event socket adds for `touchline view` (docs/view.md): to a client that subscribed
// with `"view": true`, each device's surface and graph (when it subscribes, and when a device
// opens or its graph is rebuilt) and every frame, after the device transform and as reported.
// Frame lines go through the client's queue as events do: droppable, counted, reported.
// With no viewer, the session does not call `publishFrame` at all (it reads `viewTap.viewers`,
// one load per frame), so the frame path costs what it did.
import TouchlineCore
import TouchlineGestures

/// Shared between the socket server (which counts the viewers) and the live session (which
/// reads the count on its frame path).
public final class ViewTap {
    public internal(set) var viewers = 0
    public init() {}
}

extension EventSocketServer {
    /// A device opened, or its graph was rebuilt: its line is kept for viewers to come and
    /// sent to those here.
    public func publishDevice(_ index: Int, surface: Size, configuration: GraphConfiguration) {
        var w = JSONWriter(capacity: 512)
        ViewLines.device(index, surface: surface, native: viewNatives[index], configuration: configuration, into: &w)
        viewDevices[index] = w.bytes
        guard viewTap.viewers > 0 else { return }
        for client in clients where client.filter?.view == true { client.deliver(w.bytes, droppable: false) }
    }

    /// A device opened: what it says of itself, kept for its device lines (which its graph's
    /// rebuilds write again without it).
    public func describeDevice(_ index: Int, native: ViewLines.Native) {
        viewNatives[index] = native
    }

    /// A device went away: viewers to come are not told about it.
    public func forgetDevice(_ index: Int) {
        viewDevices[index] = nil
        viewNatives[index] = nil
    }

    /// One frame to every viewer whose filter admits its device.
    public func publishFrame(_ frame: TouchFrame, raw: TouchFrame, device: Int) throws {
        guard isOpen, viewTap.viewers > 0 else { return }
        viewLine.reset()
        ViewLines.frame(frame, raw: raw, device: device, into: &viewLine)
        for client in clients {
            guard let filter = client.filter, filter.view, filter.devices.isEmpty || filter.devices.contains(device) else { continue }
            client.deliver(viewLine.bytes, droppable: true)
        }
        try sweep()
    }

    /// A decision line made for the viewers alone (the daemon runs without `--explain`).
    public func publishToViewers(_ event: GestureEvent) throws {
        guard isOpen, viewTap.viewers > 0 else { return }
        viewLine.reset()
        event.writeJSON(into: &viewLine)
        viewLine.newline()
        for client in clients {
            guard let filter = client.filter, filter.view, filter.devices.isEmpty || filter.devices.contains(event.device) else { continue }
            // Made in the graphs' step, before the frame's events: queued, sent after them.
            client.enqueue(viewLine.bytes)
        }
        try sweep()
    }

    /// A pass-through contact's hold, decided: to every viewer whose filter admits its device.
    public func publishHold(_ report: HoldReport, device: Int) throws {
        guard isOpen, viewTap.viewers > 0 else { return }
        viewLine.reset()
        ViewLines.hold(report, device: device, into: &viewLine)
        for client in clients {
            guard let filter = client.filter, filter.view, filter.devices.isEmpty || filter.devices.contains(device) else { continue }
            client.enqueue(viewLine.bytes)
        }
        try sweep()
    }

    /// A client subscribed: a viewer first gets each open device's line.
    func subscribed(_ client: SocketClient) {
        countViewers()
        guard client.filter?.view == true else { return }
        for index in viewDevices.keys.sorted() { client.deliver(viewDevices[index]!, droppable: false) }
    }

    func countViewers() {
        viewTap.viewers = clients.reduce(0) { $0 + ($1.filter?.view == true ? 1 : 0) }
    }
}
