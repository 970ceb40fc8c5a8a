import FuzzSupport
import TouchlineTrace

// The libinput record reader; what it reads must also survive the writer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz_support_begin(data, size)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let options = TraceReaderOptions(maxLineLength: 4096, format: .libinputRecord)
    guard var reader = try? TraceReader(source: BytesSource(bytes, chunkLimit: 4093), fileName: "fuzz.yml", options: options) else { return 0 }
    var writer = LibinputRecordWriter(devices: reader.devices.isEmpty ? [.init(name: "none")] : reader.devices, sink: BytesSink())
    while let event = try? reader.next() {
        precondition(event.device >= 0 && event.device < reader.devices.count, "event of an unknown device")
        if writer.devices.count == reader.devices.count { try? writer.write(event) }
    }
    try? writer.finish()
    return 0
}
