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
    /// line into a reused buffer (then discarded).
    public static func run(_ bytes: [UInt8], name: String) throws -> (events: Int, lines: Int, bytes: Int) {
        var reader = try reader(bytes, name: name)
        var assembler = FrameAssembler(device: reader.devices[0])
        var driver = try ReplayDriver(configuration: .default, surface: assembler.geometry.size)
        var json = JSONWriter(capacity: 4096)
        var events = 0, lines = 0, written = 0
        while let e = try reader.next() {
            events += 1
            guard assembler.feed(e.event) else { continue }
            driver.feed(assembler.frame) { g in
                json.reset()
                g.writeJSON(into: &json)
                json.bytes.append(UInt8(ascii: "\n"))
                written &+= json.bytes.count
                lines += 1
            }
        }
        driver.finish { g in
            json.reset()
            g.writeJSON(into: &json)
            written &+= json.bytes.count
            lines += 1
        }
        return (events, lines, written)
    }
}
