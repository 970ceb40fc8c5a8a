import Foundation
import TouchlineCore
import TouchlineGestures
import TouchlineTesting
import TouchlineTrace

/// Paths of the package, its Recordings and the shared third-party traces (never copied into
/// the repository): `../shared/traces` from the package root, or `../../shared/traces` from a
/// worktree one level deeper, or `$TOUCHLINE_TRACES`.
enum Paths {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url = url.deletingLastPathComponent()
        }
        return url
    }()

    static let sharedTraces: URL = {
        if let env = ProcessInfo.processInfo.environment["TOUCHLINE_TRACES"] { return URL(fileURLWithPath: env) }
        for up in ["../shared/traces", "../../shared/traces"] {
            let url = packageRoot.appendingPathComponent(up).standardizedFileURL
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return packageRoot.appendingPathComponent("../shared/traces").standardizedFileURL
    }()

    static let recordings = packageRoot.appendingPathComponent("Recordings")
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A trace read and assembled into frames the way `touchline replay` does it.
struct AssembledTrace {
    var device: DeviceDescription
    var surface: Size
    var frames: [TouchFrame]
}

func assemble(path: String) throws -> AssembledTrace {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw TestFailure("cannot read \(path): the shared traces must be at ../shared/traces from the package root")
    }
    let bytes = [UInt8](data)
    let name = (path as NSString).lastPathComponent
    var options = TraceReaderOptions()
    if path.hasSuffix(".events") {
        for candidate in TraceReader.descriptionCandidates(forEventsPath: path) where FileManager.default.fileExists(atPath: candidate) {
            let desc = [UInt8](FileManager.default.contents(atPath: candidate)!)
            options.description = try TraceReader.readDescription(source: BytesSource(desc), fileName: candidate)
            break
        }
    }
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
    let trace = try assemble(path: Paths.sharedTraces.appendingPathComponent(relative).path)
    return (trace, try GestureHarness.replay(trace.frames, configuration: configuration, surface: trace.surface, explain: explain))
}

/// Gesture lines without the continuous `changed` ones, for a readable overview.
func overview(_ events: [GestureEvent]) -> [String] {
    events.filter { $0.gesture != .explain && $0.phase != .changed }.map(\.logLine)
}
