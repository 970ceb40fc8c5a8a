import ArgumentParser
import TouchlineCore

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recognize gestures in a recorded trace and print them as JSON Lines.",
        discussion: """
            Output is deterministic: the same trace gives the same bytes on every run. With \
            --frames, prints the assembled frames of contacts instead of gestures. If the trace \
            has a bad line, everything before it is printed, then one error names file:line.
            """
    )

    @Argument(help: "A trace file (libinput record YAML, evemu, getevent -lt).")
    var file: String

    @OptionGroup var input: InputOptions

    @Flag(help: "Print frames of contacts (time, ids, phases, mm, pressure) instead of gestures.")
    var frames = false

    func run() throws {
        try reportingErrors { try replay() }
    }

    func replay() throws {
        var trace = try TraceFile.open(file, input: input)
        var assemblers = trace.devices.map { FrameAssembler(device: $0, options: input.assemblerOptions) }
        for (index, assembler) in assemblers.enumerated() {
            if let warning = assembler.geometry.warning {
                warn("\(file): device \(index) (\(trace.devices[index].name)): \(warning)")
            }
        }
        var out = OutputStream(fd: 1)
        var json = JSONWriter(capacity: 4096)
        do {
            while let (index, event) = try trace.next() {
                guard assemblers[index].feed(event) else { continue }
                json.reset()
                assemblers[index].frame.writeJSON(device: index, into: &json)
                out.write(json.bytes)
            }
        } catch {
            out.flush()
            throw error
        }
        out.flush()
    }
}
