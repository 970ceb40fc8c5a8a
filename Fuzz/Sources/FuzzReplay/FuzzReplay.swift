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

    // The loop is the library's (GesturePipeline), the one `touchline replay` runs.
    var replay = GesturePipeline(configuration: .default, explain: true)
    var json = JSONWriter(capacity: 4096)
    var frameJSON = JSONWriter(capacity: 4096)
    let emit: (GestureEvent) -> Void = { event in
        json.reset()
        event.writeJSON(into: &json)
        json.newline()
    }
    while let event = try? reader.next() {
        let index = event.device
        if !replay.isStarted(index) {
            // The CLI reports an event of an undescribed device as bad data.
            guard index < reader.devices.count else { break }
            // The default configuration is valid, so this never fails.
            guard (try? replay.start(device: index, reader.devices[index])) != nil else {
                preconditionFailure("the default configuration did not build")
            }
        }
        guard replay.feed(device: index, event.event, emit: emit) else { continue }
        // `--frames` writes the same frames.
        frameJSON.reset()
        replay.frame(of: index).writeJSON(device: index, into: &frameJSON)
    }
    replay.finish(emit: emit)
    return 0
}
