import FuzzSupport
import TouchlineLive

// The event socket's client-message parser on arbitrary bytes (a line as a client may send it:
// the daemon runs as root, its clients need not): every input is a message or an error, never
// a trap, and an error names something.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz_support_begin(data, size)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .failure(let error) = ClientMessageParser.parse(bytes[...]), error.message.isEmpty {
        fatalError("an error without a message")
    }
    return 0
}
