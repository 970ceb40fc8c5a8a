import Foundation
import TouchlineCore
import TouchlineGestures
import TouchlineTesting
import TouchlineTrace

/// A trace read and assembled into frames the way `touchline replay` does it.
struct AssembledTrace {
    var device: DeviceDescription
    var surface: Size
    var frames: [TouchFrame]
}

func assemble(path: String) throws -> AssembledTrace {
    let bytes = try Paths.bytes(path)
    let name = (path as NSString).lastPathComponent
    let options = try readerOptions(forTraceAt: path)
    var reader = try TraceReader(source: BytesSource(bytes), fileName: name, options: options)
    var events: [TraceEvent] = []
    while let e = try reader.next() { events.append(e) }
    // The touchscreen among the trace's devices (getevent traces list several).
    let devices = reader.devices
    guard let index = devices.firstIndex(where: { $0.kind == .touchscreen }) ?? (devices.isEmpty ? nil : 0) else {
        throw TestFailure("\(name): no device")
    }
    var assembler = FrameAssembler(device: devices[index])
    var frames: [TouchFrame] = []
    for e in events where e.device == index {
        if assembler.feed(e.event) { frames.append(assembler.frame) }
    }
    return AssembledTrace(device: devices[index], surface: assembler.geometry.size, frames: frames)
}

func replayTrace(_ relative: String, configuration: GraphConfiguration = .default, explain: Bool = false) throws -> (AssembledTrace, [GestureEvent]) {
    let trace = try assemble(path: Paths.traces.appendingPathComponent(relative).path)
    return (trace, try GestureHarness.replay(trace.frames, configuration: configuration, surface: trace.surface, explain: explain))
}

/// Gesture lines without the continuous `changed` ones, for a readable overview.
func overview(_ events: [GestureEvent]) -> [String] {
    events.filter { $0.gesture != .explain && $0.phase != .changed }.map(\.logLine)
}
