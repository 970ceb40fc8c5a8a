import FuzzSupport
import TouchlineCore
import TouchlineGestures
import TouchlineSettings

// The config parser on arbitrary bytes: TOML reading, then the graph configuration; a
// configuration that parses is also built into a graph, as `replay --config` would.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz_support_begin(data, size)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let configuration = try? GraphConfiguration.parse(bytes: bytes, file: "fuzz.toml") else { return 0 }
    // `try?`: building throws for a configuration that parses but is invalid (docs/config.md#validation).
    _ = try? GestureGraph(configuration: configuration, surface: Size(width: 200, height: 120))
    return 0
}
