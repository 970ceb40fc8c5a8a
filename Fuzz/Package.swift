// swift-tools-version: 6.1
// libFuzzer targets: the trace readers, one per format; the config parser; the whole replay
// pipeline (reader, assembler, graph, JSON); and a parsed config built into a graph and driven
// by a touch script. Build and run with scripts/fuzz.sh
// (swift build -c release --sanitize=fuzzer --package-path Fuzz).
import Foundation
import PackageDescription

// The root package's identity is its directory's name ("main", "trace", a CI checkout...).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "TouchlineFuzz",
    dependencies: [.package(path: "..")],
    targets: ["Evemu", "Getevent", "LibinputRecord"].map { format in
        .executableTarget(
            name: "Fuzz\(format)",
            dependencies: [
                "FuzzSupport",
                .product(name: "TouchlineTrace", package: root),
                .product(name: "TouchlineCore", package: root),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    } + [
        // Saves the input of a crash that libFuzzer's own handler cannot (FuzzSupport.c).
        .target(name: "FuzzSupport"),
        .executableTarget(
            name: "FuzzConfig",
            dependencies: [
                "FuzzSupport",
                .product(name: "TouchlineGestures", package: root),
                .product(name: "TouchlineCore", package: root),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "FuzzReplay",
            dependencies: [
                "FuzzSupport",
                .product(name: "TouchlineTrace", package: root),
                .product(name: "TouchlineGestures", package: root),
                .product(name: "TouchlineCore", package: root),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "FuzzGraphConfig",
            dependencies: [
                "FuzzSupport",
                .product(name: "TouchlineTesting", package: root),
                .product(name: "TouchlineGestures", package: root),
                .product(name: "TouchlineCore", package: root),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
