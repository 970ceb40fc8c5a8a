import Foundation
import Testing
import TouchlineCore
@testable import TouchlineTrace

/// Events equal up to one constant time shift (writers rebase time to 0).
func expectSameEvents(_ a: [TraceEvent], _ b: [TraceEvent], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.count == b.count, sourceLocation: sourceLocation)
    guard let a0 = a.first, let b0 = b.first else { return }
    let shift = b0.event.time.microseconds - a0.event.time.microseconds
    var mismatches = 0
    for (x, y) in zip(a, b) {
        var shifted = x
        shifted.event.time.microseconds += shift
        if shifted != y {
            mismatches += 1
            if mismatches <= 3 { Issue.record("\(x) became \(y)", sourceLocation: sourceLocation) }
        }
    }
    #expect(mismatches == 0, sourceLocation: sourceLocation)
}

func writeLibinputRecord(_ r: ReadResult) throws -> [UInt8] {
    var writer = LibinputRecordWriter(devices: r.devices, sink: BytesSink())
    for e in r.events { try writer.write(e) }
    try writer.finish()
    return (writer.sink as! BytesSink).bytes
}

func writeEvemu(_ r: ReadResult) throws -> [UInt8] {
    var writer = EvemuWriter(device: r.devices[0], sink: BytesSink())
    for e in r.events { try writer.write(e.event) }
    try writer.finish()
    return (writer.sink as! BytesSink).bytes
}

/// The facts a conversion keeps: evemu has no udev properties, and writers add the EV_SYN and
/// EV_ABS codes that a header implies.
func expectSameDevice(_ a: DeviceDescription, _ b: DeviceDescription, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.name == b.name, sourceLocation: sourceLocation)
    #expect([a.bus, a.vendor, a.product, a.version] == [b.bus, b.vendor, b.product, b.version], sourceLocation: sourceLocation)
    #expect(a.properties == b.properties, sourceLocation: sourceLocation)
    #expect(a.absinfo == b.absinfo, sourceLocation: sourceLocation)
    #expect(a.codes[EventCodes.EV_ABS] == b.codes[EventCodes.EV_ABS], sourceLocation: sourceLocation)
    #expect(a.codes[EventCodes.EV_KEY] == b.codes[EventCodes.EV_KEY], sourceLocation: sourceLocation)
    // evemu keeps no udev properties, and they can decide the kind (N-Trig: udev says
    // touchscreen, the event bits alone say touchpad).
    if a.udevProperties.isEmpty { #expect(a.kind == b.kind, sourceLocation: sourceLocation) }
}

@Suite struct RoundTripTests {
    @Test(arguments: sharedTraces)
    func libinputRecordRoundTrip(_ trace: SharedTrace) throws {
        let original = try readShared(trace.path)
        try #require(original.error == nil)
        let written = try writeLibinputRecord(original)
        let back = readAll(written, fileName: "converted.yml")
        #expect(back.error == nil, "\(back.error.map(String.init(describing:)) ?? "")")
        #expect(back.format == .libinputRecord)
        expectSameEvents(original.events, back.events)
        #expect(back.events.first?.event.time == .zero)
        expectSameDevice(original.devices[0], back.devices[0])
        if trace.format == .libinputRecord { #expect(back.devices == original.devices) }
    }

    @Test(arguments: sharedTraces)
    func evemuRoundTrip(_ trace: SharedTrace) throws {
        let original = try readShared(trace.path)
        try #require(original.error == nil)
        let written = try writeEvemu(original)
        let back = readAll(written, fileName: "converted.evemu")
        #expect(back.error == nil, "\(back.error.map(String.init(describing:)) ?? "")")
        #expect(back.format == .evemu)
        expectSameEvents(original.events, back.events)
        #expect(back.events.first?.event.time == .zero)
        expectSameDevice(original.devices[0], back.devices[0])
    }

    /// libinput's own tools read what the writer writes. They are Python scripts that need the
    /// system python3 (with python3-libevdev), hence PATH starting with /usr/bin.
    @Test(arguments: sharedTraces)
    func libinputAnalyzeAcceptsConvertedTrace(_ trace: SharedTrace) throws {
        let libinput = "/usr/bin/libinput"
        guard FileManager.default.isExecutableFile(atPath: libinput) else {
            Issue.record("\(libinput) is missing: install the Debian package libinput-tools (and python3-libevdev) to run this test")
            return
        }
        let original = try readShared(trace.path)
        try #require(original.error == nil)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("touchline-trace-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent((trace.path as NSString).lastPathComponent + ".converted.yml")
        try Data(try writeLibinputRecord(original)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for tool in ["per-slot-delta", "recording"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: libinput)
            process.arguments = ["analyze", tool, file.path]
            var env = ProcessInfo.processInfo.environment
            env["PATH"] = "/usr/bin:/bin:" + (env["PATH"] ?? "")
            process.environment = env
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "libinput analyze \(tool) failed on \(trace.path): \(stderr.suffix(800))")
        }
    }
}
