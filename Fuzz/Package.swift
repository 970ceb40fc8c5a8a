// swift-tools-version: 6.1
// libFuzzer targets for the trace readers, one per format, and for the config parser. Build and run with scripts/fuzz.sh
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
                .product(name: "TouchlineTrace", package: root),
                .product(name: "TouchlineCore", package: root),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    } + [
        .executableTarget(
            name: "FuzzConfig",
            dependencies: [
                .product(name: "TouchlineGestures", package: root),
                .product(name: "TouchlineCore", package: root),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
