// swift-tools-version: 6.1
// The direction of dependencies is the architecture:
//   TouchlineConfig (pure: a TOML 1.0 reader that keeps every key's and value's position)
//   TouchlineCore (pure: units, model, frame assembly, JSON writer)
//     ← TouchlineTrace (pure: trace readers and writers)
//     ← TouchlineGestures (pure: recognizers, arena, graph, event schema)
//       ← TouchlineSettings (pure: TOML values to typed settings with file:line:col errors: the
//         graph, registered targets, the daemon's actions, devices and socket; also ← TouchlineConfig)
//       ← TouchlinePlot (pure: the SVG picture of `touchline plot`)
//       ← TouchlineCalibration (pure: `touchline calibrate`'s least-squares fit of libinput's
//         calibration matrix, what it found, and the udev rule, [[device]] and xinput it writes)
//     ← TouchlineTesting (pure: scripted touches and virtual time for tests and embedders)
//       ← TouchlineTuning (pure: labels, scoring against them, the parameter search of `tune`;
//         also ← TouchlineSettings, whose action filters are its labels' conditions, and
//         TouchlineConfig, whose document positions say where `tune -o` edits a value)
//   TouchlineInput (system calls: input devices through libevdev and libinput, uinput, epoll, the
//     event socket's; files for the trace readers (← Trace), signals, threads, sd_notify, the
//     privilege drop: the executable makes none of its own)
//     ← TouchlineLive (the live session: sources, virtual or real clock, sinks, the event socket;
//       no unsafe code, no Foundation: the socket's messages are read by Core's JSONReader;
//       ← TouchlineConfig, TouchlineSettings: a registered target's JSON becomes the tables the
//       settings reader reads; the daemon's actions and devices)
//   TouchlineView (the HTTP server of `touchline view`: one page and one stream, on SwiftNIO's
//     NIOHTTP1; no Touchline module: it serves bytes it is given, so a calibration page can reuse
//     it; only touchline-view depends on it, and no pure module depends on NIO)
//   touchline (the executable: parses, validates, wires, runs)
//   touchline-view (view's server in a process of its own, which `touchline view` starts: the
//     touchline binary does not link NIO, and replay's memory stays as it was; docs/view.md)
//   TouchlineTestSupport (the tests' shared helpers, in Tests/; not a product)
// docs/architecture.md's module table is checked against the targets below (ArchitectureDocTests).
import PackageDescription

let package = Package(
    name: "Touchline",
    products: [
        .executable(name: "touchline", targets: ["touchline"]),
        .executable(name: "touchline-view", targets: ["touchline-view"]),
        .library(name: "TouchlineConfig", targets: ["TouchlineConfig"]),
        .library(name: "TouchlineCore", targets: ["TouchlineCore"]),
        .library(name: "TouchlineTrace", targets: ["TouchlineTrace"]),
        .library(name: "TouchlineGestures", targets: ["TouchlineGestures"]),
        .library(name: "TouchlineSettings", targets: ["TouchlineSettings"]),
        .library(name: "TouchlinePlot", targets: ["TouchlinePlot"]),
        .library(name: "TouchlineCalibration", targets: ["TouchlineCalibration"]),
        .library(name: "TouchlineTesting", targets: ["TouchlineTesting"]),
        .library(name: "TouchlineTuning", targets: ["TouchlineTuning"]),
        .library(name: "TouchlineInput", targets: ["TouchlineInput"]),
        .library(name: "TouchlineLive", targets: ["TouchlineLive"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `touchline view`'s HTTP server (docs/view.md says why NIO and what it costs).
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.2"),
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
        .target(name: "TouchlineGestures", dependencies: ["TouchlineCore"]),
        .target(name: "TouchlineSettings", dependencies: ["TouchlineCore", "TouchlineConfig", "TouchlineGestures"]),
        .target(name: "TouchlinePlot", dependencies: ["TouchlineCore", "TouchlineGestures"]),
        .target(name: "TouchlineCalibration", dependencies: ["TouchlineCore", "TouchlineGestures"]),
        .target(name: "TouchlineTesting", dependencies: ["TouchlineCore", "TouchlineGestures"]),
        .target(name: "TouchlineTuning", dependencies: ["TouchlineCore", "TouchlineConfig", "TouchlineGestures"]),
        .systemLibrary(
            name: "CLibevdev", pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"]), .brew(["libevdev"])]
        ),
        // libinput's headers; the library itself is loaded when the libinput source starts
        // (its shim.h says why): only libudev is linked.
        .systemLibrary(
            name: "CLibinput", pkgConfig: "libudev",
            providers: [.apt(["libinput-dev", "libudev-dev"])]
        ),
        .target(name: "TouchlineInput", dependencies: ["TouchlineCore", "TouchlineTrace", "CLibevdev", "CLibinput"]),
        .target(
            name: "TouchlineLive",
            dependencies: ["TouchlineCore", "TouchlineConfig", "TouchlineGestures", "TouchlineSettings", "TouchlineInput"]
        ),
        .target(
            name: "TouchlineView",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "touchline",
            dependencies: [
                "TouchlineCore", "TouchlineTrace", "TouchlineGestures", "TouchlineSettings", "TouchlinePlot", "TouchlineInput",
                "TouchlineLive", "TouchlineTuning", "TouchlineCalibration",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Linked by lld with packed relative relocations (DT_RELR, glibc 2.36): the 45,000
            // relocations of a static-stdlib PIE take 9 KB instead of 1 MB, and the loader reads
            // them at every start; replay's RSS drops 0.9 MB (docs/view.md "Binary and memory").
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]
        ),
        .executableTarget(name: "touchline-view", dependencies: ["TouchlineView", "TouchlineCalibration"]),
        // What the tests share (not a product): where the package and the shared traces are,
        // how a trace file is opened, the heap-object counter of the allocation tests, the
        // scripted touches' points and the randomized tests' seeds.
        .target(name: "TouchlineTestSupport", dependencies: ["TouchlineCore", "TouchlineTrace"], path: "Tests/TouchlineTestSupport"),
        // The steady-state workloads the allocation tests count, and the single-threaded process
        // that counts them (Tests/AllocationProbe/main.swift says why it is a process of its own).
        .target(
            name: "AllocationWorkloads", dependencies: ["TouchlineCore", "TouchlineGestures", "TouchlineTesting"],
            path: "Tests/AllocationWorkloads"
        ),
        .executableTarget(
            name: "allocation-probe", dependencies: ["AllocationWorkloads", "TouchlineCore"], path: "Tests/AllocationProbe"
        ),
        // FastPathTests' scripts and comparison, and the executable CI builds optimized with
        // -DTOUCHLINE_PATH_SWITCH to run them (Tests/FastPaths/main.swift says why).
        .target(name: "FastPathScripts", dependencies: ["TouchlineCore", "TouchlineGestures", "TouchlineTesting"], path: "Tests/FastPathScripts"),
        .executableTarget(name: "fast-paths", dependencies: ["FastPathScripts", "TouchlineGestures"], path: "Tests/FastPaths"),
        .testTarget(name: "TouchlineConfigTests", dependencies: ["TouchlineConfig", "TouchlineTestSupport"]),
        .testTarget(name: "TouchlineCoreTests", dependencies: ["TouchlineCore", "TouchlineTestSupport", "AllocationWorkloads"]),
        .testTarget(name: "TouchlineTraceTests", dependencies: ["TouchlineCore", "TouchlineTrace", "TouchlineTestSupport"]),
        .testTarget(
            name: "TouchlineGesturesTests",
            dependencies: [
                "TouchlineCore", "TouchlineGestures", "TouchlineSettings", "TouchlineTesting", "TouchlineTrace", "TouchlineTestSupport",
                "AllocationWorkloads", "FastPathScripts",
            ]
        ),
        // One test target per module (issue 32): a module's tests build and run beside it alone.
        .testTarget(
            name: "TouchlineSettingsTests",
            dependencies: [
                "TouchlineSettings", "TouchlineCore", "TouchlineGestures", "TouchlineTesting", "TouchlineTestSupport", "FastPathScripts",
            ]
        ),
        .testTarget(
            name: "TouchlinePlotTests", dependencies: ["TouchlinePlot", "TouchlineCore", "TouchlineGestures", "TouchlineTesting", "TouchlineTestSupport"]
        ),
        .testTarget(name: "TouchlineTuningTests", dependencies: ["TouchlineTuning", "TouchlineCore", "TouchlineGestures", "TouchlineTesting"]),
        .testTarget(name: "TouchlineTestingTests", dependencies: ["TouchlineTesting", "TouchlineCore", "TouchlineGestures"]),
        .testTarget(name: "TouchlineCalibrationTests", dependencies: ["TouchlineCalibration", "TouchlineCore", "TouchlineGestures"]),
        .testTarget(name: "TouchlineCLITests", dependencies: ["touchline", "TouchlineTestSupport"]),
        .testTarget(name: "TouchlineInputTests", dependencies: ["TouchlineCore", "TouchlineInput"]),
        .testTarget(name: "TouchlineViewTests", dependencies: ["TouchlineView"]),
        .testTarget(
            name: "TouchlineLiveTests",
            dependencies: [
                "TouchlineCore", "TouchlineGestures", "TouchlineSettings", "TouchlineInput", "TouchlineLive", "TouchlineTesting",
                "TouchlineTrace",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
