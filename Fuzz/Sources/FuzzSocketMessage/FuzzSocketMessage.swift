import FuzzSupport
import TouchlineCore
import TouchlineGestures
import TouchlineLive

// The event socket's client-message parser on arbitrary bytes (a line as a client may send it:
// the daemon runs as root, its clients need not): every input is a message or an error, never
// a trap, and an error names something. A registration is then checked against the default
// graph, as the daemon's registry checks it, and a graph built from what it accepts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz_support_begin(data, size)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch ClientMessageParser.parse(bytes[...]) {
    case .failure(let error):
        if error.message.isEmpty { fatalError("an error without a message") }
    case .success(.register(let request)):
        let targets = ClientTargets()
        switch targets.register(request, owner: 1) {
        case .failure(let error):
            if error.message.isEmpty { fatalError("a refusal without a message") }
        case .success:
            // Validation accepted it: the graph must build (the session would only warn).
            let configuration = targets.base.adding(targets.specs(forDevice: 0))
            do {
                _ = try GraphDriver(configuration: configuration, surface: Size(width: 100, height: 60))
            } catch {
                fatalError("a registration validation accepted, refused by the graph: \(error.message)")
            }
        }
    case .success:
        break
    }
    return 0
}
