import TouchlineCore
import TouchlineInput
import TouchlineTrace

/// A trace file opened for streaming: the reader, with the evemu description found and the
/// getevent ranges decided as docs/traces.md says. `-` is standard input. The file is opened
/// once and read once, so pipes and FIFOs work as files do.
struct TraceFile {
    let path: String
    private var reader: TraceReader

    var devices: [DeviceDescription] { reader.devices }
    /// Where the range of ABS axis `code` of `device` came from (header, --range or a guess).
    func rangeSource(device: Int, code: UInt16) -> AxisRangeSource? { reader.rangeSource(device: device, code: code) }
    var format: String { reader.format.rawValue }
    /// The name messages use: "<stdin>" for `-`.
    var displayName: String { Self.displayName(path) }

    /// `order`: how the events of several libinput record devices come (by time for replay,
    /// device by device for convert).
    static func open(_ path: String, input: InputOptions, order: TraceReaderOptions.DeviceOrder = .time) throws -> TraceFile {
        var options = TraceReaderOptions()
        options.getevent.name = path == TraceReader.standardInputPath ? "stdin" : baseName(path)
        options.getevent.ranges = input.userRanges
        options.deviceOrder = order
        var reader = try TraceReader.open(
            path: path, descriptionPath: input.desc, options: options,
            openFile: { $0 == TraceReader.standardInputPath ? FileByteSource.standardInput() : try FileByteSource(path: $0) },
            fileExists: FileByteSource.exists, fileName: displayName(path))
        if !input.userRanges.isEmpty && reader.format != .getevent {
            warn("\(displayName(path)): --range applies to getevent traces, which carry no ranges; this \(reader.format) trace has its own: ignored")
        }
        for warning in reader.takeWarnings() { warn(warning) }
        return TraceFile(path: path, reader: reader)
    }

    /// Inlined into the replay loop, with one look at the warnings per event: the event goes
    /// from the reader to the loop without a second optional made and unwrapped.
    @inline(__always)
    mutating func next() throws -> (Int, InputEvent)? {
        let e = try reader.next()
        if reader.hasWarnings { for warning in reader.takeWarnings() { warn(warning) } }
        guard let e else { return nil }
        return (e.device, e.event)
    }

    /// "galaxys-paint" for "dir/galaxys-paint.txt": getevent traces name no device.
    static func baseName(_ path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot > name.startIndex { name = String(name[..<dot]) }
        return name
    }

    static func displayName(_ path: String) -> String {
        path == TraceReader.standardInputPath ? "<stdin>" : path
    }
}
