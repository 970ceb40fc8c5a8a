import Foundation
import TouchlineCore
@testable import TouchlineTrace
// Every file of these tests sees the shared test support (paths, trace files, counters).
@_exported import TouchlineTestSupport

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
    let path = Paths.trace(relative)
    return readAll(try Paths.bytes(path), fileName: (relative as NSString).lastPathComponent, options: try readerOptions(forTraceAt: path))
}
