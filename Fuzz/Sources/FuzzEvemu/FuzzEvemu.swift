import FuzzSupport
import TouchlineTrace

// The evemu reader, both self-contained and as a .desc plus header-less events: the same
// bytes are read as a description and then as a trace with that description.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz_support_begin(data, size)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let description = try? TraceReader.readDescription(source: BytesSource(bytes), fileName: "fuzz.desc", maxLineLength: 4096)
    let options = TraceReaderOptions(description: description, maxLineLength: 4096, format: .evemu)
    guard var reader = try? TraceReader(source: BytesSource(bytes, chunkLimit: 4093), fileName: "fuzz.evemu", options: options) else { return 0 }
    while let event = try? reader.next() { _ = event }
    return 0
}
