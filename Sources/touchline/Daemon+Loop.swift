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

    mutating func next() throws -> (Int, InputEvent)? {
        while true {
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
        }
    }
}
