// swift-tools-version: 6.1
// The direction of dependencies is the architecture:
//   TouchlineConfig (pure: a TOML 1.0 reader that keeps every key's and value's position)
//   TouchlineCore (pure: units, model, frame assembly, JSON writer)
//     ← TouchlineTrace (pure: trace readers and writers)
//     ← TouchlineGestures (pure: recognizers, arena, graph, event schema; also ← TouchlineConfig)
//     ← TouchlineTesting (pure: scripted touches and virtual time for tests and embedders)
//   TouchlineInput (the only module that talks to the kernel: libevdev, libinput, epoll)
//     ← TouchlineLive (the live session: sources, virtual or real clock, sinks, the event socket;
//       no unsafe code; Foundation only for JSONSerialization of the socket's client messages;
//       ← TouchlineConfig: a registered target's JSON becomes the tables the config reader reads)
//   touchline (the executable: parses, validates, wires, runs)
import PackageDescription

let package = Package(
    name: "Touchline",
    products: [
        .executable(name: "touchline", targets: ["touchline"]),
        .library(name: "TouchlineConfig", targets: ["TouchlineConfig"]),
        .library(name: "TouchlineCore", targets: ["TouchlineCore"]),
        .library(name: "TouchlineTrace", targets: ["TouchlineTrace"]),
        .library(name: "TouchlineGestures", targets: ["TouchlineGestures"]),
        .library(name: "TouchlineTesting", targets: ["TouchlineTesting"]),
        .library(name: "TouchlineInput", targets: ["TouchlineInput"]),
        .library(name: "TouchlineLive", targets: ["TouchlineLive"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "TouchlineConfig"),
        .target(name: "TouchlineCore"),
        // Lines are read as Span<UInt8>; the field cursor holding one is ~Escapable, which needs
        // lifetime annotations (an experimental feature in Swift 6.3, used by the standard
        // library's own spans).
        .target(
            name: "TouchlineTrace", dependencies: ["TouchlineCore"],
            swiftSettings: [.enableExperimentalFeature("Lifetimes")]
        ),
        .target(name: "TouchlineGestures", dependencies: ["TouchlineCore", "TouchlineConfig"]),
        .target(name: "TouchlineTesting", dependencies: ["TouchlineCore", "TouchlineGestures"]),
        .systemLibrary(
            name: "CLibevdev", pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"]), .brew(["libevdev"])]
        ),
        .systemLibrary(
            name: "CLibinput", pkgConfig: "libinput",
            providers: [.apt(["libinput-dev", "libudev-dev"])]
        ),
        .target(name: "TouchlineInput", dependencies: ["TouchlineCore", "CLibevdev", "CLibinput"]),
        .target(name: "TouchlineLive", dependencies: ["TouchlineCore", "TouchlineConfig", "TouchlineGestures", "TouchlineInput"]),
        .executableTarget(
            name: "touchline",
            dependencies: [
                "TouchlineCore", "TouchlineTrace", "TouchlineGestures", "TouchlineInput", "TouchlineLive",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "TouchlineConfigTests", dependencies: ["TouchlineConfig"]),
        .testTarget(name: "TouchlineCoreTests", dependencies: ["TouchlineCore"]),
        .testTarget(name: "TouchlineTraceTests", dependencies: ["TouchlineCore", "TouchlineTrace"]),
        .testTarget(
            name: "TouchlineGesturesTests",
            dependencies: ["TouchlineCore", "TouchlineGestures", "TouchlineTesting", "TouchlineTrace"]
        ),
        .testTarget(name: "TouchlineCLITests", dependencies: ["touchline"]),
        .testTarget(name: "TouchlineInputTests", dependencies: ["TouchlineCore", "TouchlineInput"]),
        .testTarget(
            name: "TouchlineLiveTests",
            dependencies: ["TouchlineCore", "TouchlineGestures", "TouchlineInput", "TouchlineLive", "TouchlineTesting", "TouchlineTrace"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
