#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import TouchlineCore
import TouchlineTrace

/// An error for the user: one sentence, and the exit status that says whose fault it was.
struct CLIError: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32

    /// A trace or config with bad content (EX_DATAERR).
    static func data(_ message: String) -> CLIError { CLIError(message: message, exitCode: 65) }
    /// A file that cannot be opened (EX_NOINPUT).
    static func noInput(_ message: String) -> CLIError { CLIError(message: message, exitCode: 66) }
    /// Cannot create or write an output file (EX_CANTCREAT / EX_IOERR).
    static func output(_ message: String) -> CLIError { CLIError(message: message, exitCode: 73) }

    var description: String { message }
}

/// Runs a command body; a CLIError or trace error becomes one line on stderr and its exit code,
/// instead of ArgumentParser's generic "Error: …".
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as CLIError {
        warn(error.message)
        throw ExitCode(error.exitCode)
    } catch let error as TraceError {
        warn(error.description)
        throw ExitCode(65)
    } catch let error as FileByteSource.Error {
        warn(error.description)
        throw ExitCode(66)
    }
}

/// A trace file opened for streaming: the reader, with the evemu description found and the
/// getevent ranges decided as docs/traces.md says. `-` is standard input. The file is opened
/// once and read once, so pipes and FIFOs work as files do.
struct TraceFile {
    let path: String
    private var reader: TraceReader

    var devices: [DeviceDescription] { reader.devices }
    var format: String { reader.format.rawValue }
    /// The name messages use: "<stdin>" for `-`.
    var displayName: String { Self.displayName(path) }

    static func open(_ path: String, input: InputOptions) throws -> TraceFile {
        var options = TraceReaderOptions()
        options.getevent.name = path == TraceReader.standardInputPath ? "stdin" : baseName(path)
        options.getevent.ranges = input.userRanges
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

    mutating func next() throws -> (Int, InputEvent)? {
        guard let e = try reader.next() else {
            if reader.hasWarnings { for warning in reader.takeWarnings() { warn(warning) } }
            return nil
        }
        if reader.hasWarnings { for warning in reader.takeWarnings() { warn(warning) } }
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

/// A file written through write(2), for the pure trace writers. Created with O_EXCL under a
/// temporary name and renamed into place only when complete, so a failed conversion never
/// leaves a half-written file where the user expects a good one.
struct FileByteSink: ByteSink {
    private final class Descriptor {
        let fd: Int32
        init(_ fd: Int32) { self.fd = fd }
        deinit { close(fd) }
    }

    let path: String
    let temporaryPath: String
    private let descriptor: Descriptor

    init(path: String) throws {
        self.path = path
        temporaryPath = path + ".touchline-partial"
        let fd = Glibc.open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CLIError.output("\(path): cannot create: \(String(cString: strerror(errno)))")
        }
        descriptor = Descriptor(fd)
    }

    mutating func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(descriptor.fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIError.output("\(path): cannot write: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// Moves the finished file into place.
    func commit() throws {
        guard rename(temporaryPath, path) == 0 else {
            throw CLIError.output("\(path): cannot rename \(temporaryPath) into place: \(String(cString: strerror(errno)))")
        }
    }

    /// Keeps what was written under the given name (after an error in the input).
    func keep(as keptPath: String) {
        _ = rename(temporaryPath, keptPath)
    }
}

/// Whether two paths name the same file (so that `convert X -o X` cannot destroy X).
func sameFile(_ a: String, _ b: String) -> Bool {
    var sa = stat(), sb = stat()
    guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
}

/// A small text file (a configuration) read whole. Traces are streamed instead.
func readTextFile(_ path: String) throws -> String {
    var source = try FileByteSource(path: path)
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[..<n])
        if bytes.count > 16 << 20 { throw CLIError.data("\(path): larger than 16 MiB; is this a configuration file?") }
    }
    return String(decoding: bytes, as: UTF8.self)
}
