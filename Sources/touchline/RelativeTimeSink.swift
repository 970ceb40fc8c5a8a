// `daemon --stdout --relative-time`: the copy on standard output counts from the first event it
// prints, while the socket keeps the kernel's times, which a client compares with its own clock.
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineLive

final class RelativeTimeSink: LiveSink {
    let inner: any LiveSink
    var origin: Timestamp?

    init(_ inner: any LiveSink) { self.inner = inner }

    func shifted(_ time: Timestamp) -> Timestamp {
        let first = origin ?? time
        origin = first
        return Timestamp(microseconds: max(0, (time - first).microseconds))
    }

    func gesture(_ event: GestureEvent) throws {
        var event = event
        event.time = shifted(event.time)
        try inner.gesture(event)
    }

    func frame(_ frame: TouchFrame, device: Int) throws {
        var frame = frame
        frame.time = shifted(frame.time)
        try inner.frame(frame, device: device)
    }

    func rawEvent(_ event: InputEvent, deviceName: String) throws {
        var event = event
        event.time = shifted(event.time)
        try inner.rawEvent(event, deviceName: deviceName)
    }

    func warn(_ message: String) { inner.warn(message) }

    func deviceOpened(_ index: Int, surface: Size) { inner.deviceOpened(index, surface: surface) }
}
