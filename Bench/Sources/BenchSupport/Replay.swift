// The replay workload the benchmark times and bench-probe profiles: one definition, so that the
// events/s figure and the instructions per event are of the same code.

import TouchlineCore
import TouchlineGestures
import TouchlineTrace

public enum BenchReplay {
    /// A reader over in-memory bytes, as `touchline replay` sets it up (getevent: the axis
    /// ranges decided by the reader's own look-ahead, in the same pass).
    public static func reader(_ bytes: [UInt8], name: String) throws -> TraceReader {
        try TraceReader(source: BytesSource(bytes), fileName: name, options: TraceReaderOptions())
    }

    /// Reads, assembles, recognizes with the default graph and writes every event as a JSON
    /// line into a reused buffer (then discarded): `touchline replay`'s loop, the pipeline's
    /// (`GesturePipeline.run`), every device of the trace started at its first event.
    public static func run(_ bytes: [UInt8], name: String) throws -> (events: Int, lines: Int, bytes: Int) {
        var source = Source(reader: try reader(bytes, name: name))
        var sink = Sink()
        var pipeline = GesturePipeline(configuration: .default)
        try pipeline.run(&source, into: &sink)
        return (source.events, sink.lines, sink.written)
    }

    struct Source: PipelineSource {
        var reader: TraceReader
        var events = 0

        mutating func next() throws -> (device: Int, event: InputEvent)? {
            guard let e = try reader.next() else { return nil }
            events += 1
            return (e.device, e.event)
        }

        mutating func start(device: Int, in pipeline: inout GesturePipeline) throws -> Bool {
            _ = try pipeline.start(device: device, reader.devices[device])
            return true
        }
    }

    struct Sink: PipelineSink {
        var json = JSONWriter(capacity: 4096)
        var lines = 0
        var written = 0

        mutating func event(_ event: GestureEvent) {
            json.reset()
            event.writeJSON(into: &json)
            json.bytes.append(UInt8(ascii: "\n"))
            written &+= json.bytes.count
            lines += 1
        }
    }
}
