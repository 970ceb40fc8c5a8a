import FuzzSupport
import TouchlineTrace

// The getevent reader as the CLI drives it: one pass, with a short look-ahead so that small
// inputs reach the describe-and-drain path more than once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz_support_begin(data, size)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let options = TraceReaderOptions(getevent: GeteventOptions(lookAhead: 8), maxLineLength: 4096, format: .getevent)
    guard var reader = try? TraceReader(source: BytesSource(bytes, chunkLimit: 4093), fileName: "fuzz.txt", options: options) else { return 0 }
    while let event = try? reader.next() {
        precondition(event.device >= 0 && event.device < reader.devices.count, "event of an unknown device")
    }
    return 0
}
