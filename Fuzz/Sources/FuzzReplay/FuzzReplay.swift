import FuzzSupport
import TouchlineCore
import TouchlineGestures
import TouchlineTrace

// The whole of `touchline replay` on arbitrary bytes (Sources/touchline/Replay.swift): the
// reader opened as the CLI opens it (format detected, a header-less evemu file's .desc), then
// the library's GesturePipeline as Replay.replay() drives it: one frame assembler and one graph
// per device, started at its first event, every device's deadlines in time order, JSON for
// every event with `--explain` on, and the frames' JSON of `--frames` for the same frames. Crashes found by hand were past the readers
// (several libinput record devices, long names in the JSON writer), so the readers' targets
// alone could not prove that no trace ends `replay` by a signal.
//
// An input holding a NUL byte (binary, so never a trace) is split there: the bytes before it
// are the .desc that a header-less `.events` file asks for, the rest the trace.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz_support_begin(data, size)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let nul = bytes.firstIndex(of: 0)
    let description = nul.map { Array(bytes[..<$0]) }
    let trace = nul.map { Array(bytes[($0 + 1)...]) } ?? bytes
    let path = "fuzz.events"
    var options = TraceReaderOptions()
    options.getevent.name = "fuzz"
    // Chunks shorter than a line, so lines split across reads are exercised too.
    guard var reader = try? TraceReader.open(
        path: path, options: options,
        openFile: { BytesSource($0 == path ? trace : description ?? [], chunkLimit: 4093) },
        fileExists: { _ in description != nil })
    else { return 0 }

    // The loop is the library's (GesturePipeline.run), the one `touchline replay` runs.
    var replay = GesturePipeline(configuration: .default, explain: true)
    var source = FuzzTrace(reader: reader)
    var sink = FuzzOutput()
    try? replay.run(&source, into: &sink)
    return 0
}

/// The reader as the pipeline's source; an event of an undescribed device ends the input (the
/// CLI reports it as bad data).
struct FuzzTrace: PipelineSource {
    var reader: TraceReader
    struct Undescribed: Error {}

    mutating func next() throws -> (device: Int, event: InputEvent)? {
        guard let e = try reader.next() else { return nil }
        return (e.device, e.event)
    }

    mutating func start(device: Int, in pipeline: inout GesturePipeline) throws -> Bool {
        guard device < reader.devices.count else { throw Undescribed() }
        // The default configuration is valid, so this never fails.
        guard (try? pipeline.start(device: device, reader.devices[device])) != nil else {
            preconditionFailure("the default configuration did not build")
        }
        return true
    }
}

/// JSON for every event (`--explain` on), and the frames' JSON of `--frames` for the same frames.
struct FuzzOutput: PipelineSink {
    var json = JSONWriter(capacity: 4096)
    var frameJSON = JSONWriter(capacity: 4096)

    mutating func event(_ event: GestureEvent) {
        json.reset()
        event.writeJSON(into: &json)
        json.newline()
    }

    mutating func frame(device: Int, _ pipeline: GesturePipeline) {
        frameJSON.reset()
        pipeline.frame(of: device).writeJSON(device: device, into: &frameJSON)
    }
}
