// swift-tools-version: 6.1
// libFuzzer targets: the trace readers, one per format; the config parser; the whole replay
// pipeline (reader, assembler, graph, JSON); and a parsed config built into a graph and driven
// by a touch script; the daemon's configuration (devices, actions) applied to a script; and the
// event socket's client messages, and the JSON reader under them; `calibrate`'s points, the udev
// property it writes, and the fit. Build and run with scripts/fuzz.sh
// (swift build -c release --sanitize=fuzzer --package-path Fuzz).
import Foundation
import PackageDescription

// The root package's identity is its directory's name ("main", "trace", a CI checkout...).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// A libFuzzer target over the root package's products (FuzzSupport saves a crash's input).
func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: root) },
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
}

let package = Package(
    name: "TouchlineFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // Saves the input of a crash that libFuzzer's own handler cannot (FuzzSupport.c).
        .target(name: "FuzzSupport"),
        fuzzTarget("FuzzEvemu", ["TouchlineTrace", "TouchlineCore"]),
        fuzzTarget("FuzzGetevent", ["TouchlineTrace", "TouchlineCore"]),
        fuzzTarget("FuzzLibinputRecord", ["TouchlineTrace", "TouchlineCore"]),
        fuzzTarget("FuzzConfig", ["TouchlineSettings", "TouchlineGestures", "TouchlineCore"]),
        fuzzTarget("FuzzReplay", ["TouchlineTrace", "TouchlineGestures", "TouchlineCore"]),
        fuzzTarget("FuzzGraphConfig", ["TouchlineTesting", "TouchlineSettings", "TouchlineGestures", "TouchlineCore"]),
        fuzzTarget("FuzzDaemonConfig", ["TouchlineTesting", "TouchlineSettings", "TouchlineGestures", "TouchlineCore"]),
        fuzzTarget("FuzzSocketMessage", ["TouchlineLive", "TouchlineGestures", "TouchlineCore"]),
        fuzzTarget("FuzzJSONReader", ["TouchlineCore"]),
        fuzzTarget("FuzzCalibration", ["TouchlineCalibration", "TouchlineSettings", "TouchlineCore"]),
    ],
    swiftLanguageModes: [.v6]
)
