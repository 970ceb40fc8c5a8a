// `touchline daemon --source trace:FILE --loop N`: the recording played N times, one copy after
// the other, so that a benchmark can push any number of events through the daemon (the soak of
// docs/performance.md) from one generated file. Each copy's times are shifted to start one
// second after the previous copy's last event: time keeps running forward, as the graph and
// the trace source need, and every gesture of a copy has ended (deadlines fired) before the
// next begins. The file is opened again for each copy and streamed as the first was.
import TouchlineCore

struct LoopingTrace {
    let path: String
    let input: InputOptions
    private(set) var trace: TraceFile
    /// Copies still to play after the current one.
    var copiesLeft: Int
    /// Added to the current copy's times.
    var offset = Interval(microseconds: 0)
    var first: Timestamp?
    var last: Timestamp?
    static let gap = Interval(microseconds: 1_000_000)

    init(path: String, input: InputOptions, copies: Int) throws {
        self.path = path
        self.input = input
        trace = try TraceFile.open(path, input: input)
        copiesLeft = copies - 1
    }

    var devices: [DeviceDescription] { trace.devices }

    /// Devices whose slot the next copy must first set back to 0 (with their first event's time).
    var slotResets: [Int] = []

    mutating func next() throws -> (Int, InputEvent)? {
        while true {
            if let device = slotResets.first, case let (_, event)? = try peekTime() {
                // A recording starts with slot 0 current, as the kernel's device does; the copy
                // before left another current (its last contact's): without this, a copy's
                // first contact landed in the previous copy's last slot and merged with the
                // second (issue 33: every pinch after the first copy played as a one-finger pan).
                slotResets.removeFirst()
                return (device, InputEvent(time: event.time, type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_SLOT, value: 0))
            }
            if let held = pending {
                pending = nil
                return held
            }
            if var (device, event) = try trace.next() {
                if first == nil { first = event.time }
                if last.map({ event.time > $0 }) ?? true { last = event.time }
                event.time = event.time + offset
                return (device, event)
            }
            guard copiesLeft > 0, let first, let last else { return nil }
            copiesLeft -= 1
            offset = offset + (last - first) + Self.gap
            trace = try TraceFile.open(path, input: input)
            slotResets = trace.devices.indices.filter { trace.devices[$0].codes[EventCodes.EV_ABS]?.contains(EventCodes.ABS_MT_SLOT) == true }
        }
    }

    /// The next event of the copy (read ahead and kept in `pending`), for the slot resets' time.
    var pending: (Int, InputEvent)?
    mutating func peekTime() throws -> (Int, InputEvent)? {
        if pending == nil {
            guard var (device, event) = try trace.next() else { return nil }
            if last.map({ event.time > $0 }) ?? true { last = event.time }
            event.time = event.time + offset
            pending = (device, event)
        }
        return pending
    }
}
