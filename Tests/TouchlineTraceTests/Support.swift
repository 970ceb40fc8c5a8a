import Foundation
import TouchlineCore
@testable import TouchlineTrace

/// The shared third-party traces: `../shared/traces` from the package root, as on main; a
/// worktree one level deeper finds them at `../../shared/traces`.
enum SharedTraces {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url = url.deletingLastPathComponent()
        }
        return url
    }()

    static let root: URL = {
        if let env = ProcessInfo.processInfo.environment["TOUCHLINE_TRACES"] { return URL(fileURLWithPath: env) }
        for up in ["../shared/traces", "../../shared/traces"] {
            let url = packageRoot.appendingPathComponent(up).standardizedFileURL
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return packageRoot.appendingPathComponent("../shared/traces").standardizedFileURL
    }()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func bytes(_ relative: String) throws -> [UInt8] {
        let path = path(relative)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TestFailure("cannot read \(path): the shared traces must be at ../shared/traces from the package root")
        }
        return [UInt8](data)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Everything a reader yields, or the error that stopped it.
struct ReadResult {
    var format: TraceFormat?
    var devices: [DeviceDescription] = []
    var events: [TraceEvent] = []
    var error: TraceError?
}

func readAll(_ bytes: [UInt8], fileName: String = "t", options: TraceReaderOptions = TraceReaderOptions(), chunkLimit: Int = .max) -> ReadResult {
    var result = ReadResult()
    var reader: TraceReader
    do {
        reader = try TraceReader(source: BytesSource(bytes, chunkLimit: chunkLimit), fileName: fileName, options: options)
    } catch {
        result.error = error
        return result
    }
    result.format = reader.format
    do {
        while let e = try reader.next() { result.events.append(e) }
    } catch {
        result.error = error
    }
    result.devices = reader.devices
    return result
}

func readAll(_ text: String, fileName: String = "t", options: TraceReaderOptions = TraceReaderOptions()) -> ReadResult {
    readAll(Array(text.utf8), fileName: fileName, options: options)
}

/// Reads a shared trace the way the CLI does: a `.desc` beside header-less events, a
/// pre-scan for getevent.
func readShared(_ relative: String) throws -> ReadResult {
    let bytes = try SharedTraces.bytes(relative)
    var options = TraceReaderOptions()
    let name = (relative as NSString).lastPathComponent
    if relative.hasSuffix(".events") {
        for candidate in TraceReader.descriptionCandidates(forEventsPath: SharedTraces.path(relative))
        where FileManager.default.fileExists(atPath: candidate) {
            let desc = [UInt8](FileManager.default.contents(atPath: candidate)!)
            options.description = try TraceReader.readDescription(source: BytesSource(desc), fileName: candidate)
            break
        }
    }
    return readAll(bytes, fileName: name, options: options)
}
