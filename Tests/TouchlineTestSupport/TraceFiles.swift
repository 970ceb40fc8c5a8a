import Foundation
import TouchlineCore
import TouchlineTrace

/// How `touchline` opens a trace file: a header-less evemu `.events` file takes its device from
/// the `.desc` beside it, found by name.
public func readerOptions(forTraceAt path: String) throws -> TraceReaderOptions {
    var options = TraceReaderOptions()
    guard path.hasSuffix(".events") else { return options }
    for candidate in TraceReader.descriptionCandidates(forEventsPath: path) where FileManager.default.fileExists(atPath: candidate) {
        options.description = try TraceReader.readDescription(source: BytesSource(try Paths.bytes(candidate)), fileName: candidate)
        break
    }
    return options
}
