#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import TouchlineCore
import TouchlineTrace

/// A trace file opened for streaming: the reader, with the evemu description found and the
/// getevent ranges inferred as the user would expect.
struct TraceFile {
    let path: String
    private var reader: TraceReader

    var devices: [DeviceDescription] { reader.devices }
    var format: String { reader.format.rawValue }

    /// `order`: how the events of several libinput record devices come (by time for replay,
    /// device by device for convert).
    static func open(_ path: String, input: InputOptions, order: TraceReaderOptions.DeviceOrder = .time) throws -> TraceFile {
        var options = TraceReaderOptions()
        options.getevent.name = baseName(path)
        options.deviceOrder = order
        let reader = try TraceReader.open(
            path: path, descriptionPath: input.desc, options: options,
            openFile: { try FileByteSource(path: $0) }, fileExists: FileByteSource.exists)
        return TraceFile(path: path, reader: reader)
    }

    mutating func next() throws -> (Int, InputEvent)? {
        guard let e = try reader.next() else { return nil }
        return (e.device, e.event)
    }

    /// "galaxys-paint" for "dir/galaxys-paint.txt": getevent traces name no device.
    static func baseName(_ path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot > name.startIndex { name = String(name[..<dot]) }
        return name
    }
}

/// A small file (a configuration) read whole, as raw bytes: the TOML reader checks the UTF-8
/// itself and names the bad byte. Traces are streamed instead.
func readSmallFile(_ path: String) throws -> [UInt8] {
    var source = try FileByteSource(path: path)
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[..<n])
        if bytes.count > 16 << 20 { throw CLIError.data("\(path): larger than 16 MiB; is this a configuration file?") }
    }
    return bytes
}
