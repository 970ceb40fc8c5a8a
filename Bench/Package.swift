// swift-tools-version: 6.1
// Touchline's benchmarks, a package of their own so that the benchmark library never enters the
// product. See docs/performance.md for what each benchmark measures and how to run it.
//
// The benchmark package's default traits pull in swift-runtime-interposer, which the local
// package mirror does not carry; the MallocInterposer trait alone gives the malloc counts.
import PackageDescription

let package = Package(
    name: "TouchlineBench",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named, because a path dependency is otherwise named after its folder (main, bench, a CI clone).
        .package(name: "Touchline", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/ordo-one/malloc-interposer", exact: "1.6.1"),
    ],
    targets: [
        // Inputs shared by the benchmarks, bench-probe and the allocation budget: generated
        // traces, a steady stream of N moving contacts, the replay workload.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "TouchlineCore", package: "Touchline"),
                .product(name: "TouchlineTrace", package: "Touchline"),
                .product(name: "TouchlineGestures", package: "Touchline"),
            ]
        ),
        .executableTarget(
            name: "TouchlineBenchmarks",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TouchlineCore", package: "Touchline"),
                .product(name: "TouchlineTrace", package: "Touchline"),
                .product(name: "TouchlineGestures", package: "Touchline"),
            ],
            path: "Benchmarks/TouchlineBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        // A fixed workload for callgrind (instructions per frame, repeatable on a busy machine).
        .executableTarget(
            name: "bench-probe",
            dependencies: [
                "BenchSupport",
                .product(name: "TouchlineCore", package: "Touchline"),
                .product(name: "TouchlineTrace", package: "Touchline"),
                .product(name: "TouchlineGestures", package: "Touchline"),
            ]
        ),
        // The CI gate: counts mallocs over steady-state frames and exits 1 if there are any.
        .executableTarget(
            name: "alloc-budget",
            dependencies: [
                "BenchSupport",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
                .product(name: "TouchlineCore", package: "Touchline"),
                .product(name: "TouchlineGestures", package: "Touchline"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
