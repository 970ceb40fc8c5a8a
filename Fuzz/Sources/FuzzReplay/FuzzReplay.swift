import FuzzSupport
import TouchlineCore
import TouchlineGestures
import TouchlineTrace

// The whole of `touchline replay` on arbitrary bytes (Sources/touchline/Replay.swift): the
// reader opened as the CLI opens it (format detected, getevent pre-scan, a header-less evemu
// file's .desc), one frame assembler and one graph per device, added as the trace names them,
// every device's deadlines in time order, JSON for every event with `--explain` on, and the
// frames' JSON of `--frames` for the same frames. Crashes found by hand were past the readers
// (several libinput record devices, long names in the JSON writer), so the readers' targets
// alone could not prove that no trace ends `replay` by a signal.
//
// An input holding a NUL byte (binary, so never a trace) is split there: the bytes before it
// are the .desc that a header-less `.events` file asks for, the rest the trace.
//
// The loop mirrors Replay.replay(); keep the two in step (it lives in the executable, so it
// cannot be called from here).
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

    var assemblers: [FrameAssembler] = []
    var drivers: [ReplayDriver] = []
    var json = JSONWriter(capacity: 4096)
    var frameJSON = JSONWriter(capacity: 4096)
    let emit: (GestureEvent) -> Void = { event in
        json.reset()
        event.writeJSON(into: &json)
        json.newline()
    }
    func addDevices(upTo index: Int) -> Bool {
        while assemblers.count <= index && assemblers.count < reader.devices.count {
            let device = assemblers.count
            let assembler = FrameAssembler(device: reader.devices[device])
            // `try?`: GestureGraph.init throws for an invalid configuration (never the default).
            guard var driver = try? ReplayDriver(configuration: .default, surface: assembler.geometry.size) else {
                preconditionFailure("the default configuration did not build")
            }
            driver.graph.device = device
            driver.graph.explain = true
            assemblers.append(assembler)
            drivers.append(driver)
        }
        return index < assemblers.count
    }
    _ = addDevices(upTo: reader.devices.count - 1)
    while let event = try? reader.next() {
        let index = event.device
        // The CLI reports an event of an undescribed device as bad data.
        guard addDevices(upTo: index) else { break }
        guard assemblers[index].feed(event.event) else { continue }
        frameJSON.reset()
        assemblers[index].frame.writeJSON(device: index, into: &frameJSON)
        if drivers.count > 1 { fireDeadlines(&drivers, before: assemblers[index].frame.time, emit: emit) }
        drivers[index].feed(assemblers[index].frame, emit: emit)
    }
    if drivers.count > 1 { fireDeadlines(&drivers, before: nil, emit: emit) }
    let order = drivers.indices.sorted { (drivers[$0].time ?? .zero, $0) < (drivers[$1].time ?? .zero, $1) }
    for index in order { drivers[index].finish(emit: emit) }
    return 0
}

/// As Replay.fireDeadlines: every device's deadlines before `time` (all for nil), in time order.
func fireDeadlines(_ drivers: inout [ReplayDriver], before time: Timestamp?, emit: (GestureEvent) -> Void) {
    while true {
        var earliest: (index: Int, time: Timestamp)?
        for index in drivers.indices {
            guard let d = drivers[index].graph.nextDeadline, time.map({ d < $0 }) ?? true else { continue }
            if earliest == nil || d < earliest!.time { earliest = (index, d) }
        }
        guard let earliest else { return }
        drivers[earliest.index].advance(to: earliest.time, emit: emit)
    }
}
