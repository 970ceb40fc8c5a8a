// `fast-paths`: FastPathTests' comparison (Tests/FastPathScripts) as an executable, for CI's
// optimized check: built in release with `-DTOUCHLINE_PATH_SWITCH -enable-testing` in its own
// build folder, it drives the same 600 random scripts through the graph with the fast paths on
// and off, as the optimizer compiles them, and exits 1 on the first difference. Building this
// one product costs the graph's modules only, not a release build of every test target.
//   swift build -c release --build-path .build-release-paths -Xswiftc -DTOUCHLINE_PATH_SWITCH \
//       -Xswiftc -enable-testing --product fast-paths && .build-release-paths/release/fast-paths
import FastPathScripts
import Glibc
import TouchlineGestures

#if DEBUG || TOUCHLINE_PATH_SWITCH
var compared = 0
var failures: [String] = []
for (name, configuration, base) in [
    ("default graph", GraphConfiguration.default, FastPathScripts.defaultBase),
    ("multi-target graph", FastPathScripts.multiTarget, FastPathScripts.multiTargetBase),
] {
    var scripts = 0
    for seed in FastPathScripts.seeds(300, base: base) {
        do {
            failures += try FastPathScripts.differences(seed: seed, configuration)
        } catch {
            failures.append("seed \(seed): the graph refused the configuration: \(error)")
        }
        scripts += 1
    }
    compared += scripts
    print("fast-paths: \(name): \(scripts) scripts compared")
}
if failures.isEmpty {
    print("fast-paths: \(compared) scripts, the fast paths equal the general path")
} else {
    for failure in failures.prefix(10) { print(failure) }
    print("fast-paths: \(failures.count) differences in \(compared) scripts (rerun one with FastPathTests and TOUCHLINE_SEED=<seed>)")
    exit(1)
}
#else
print("fast-paths: built without -DTOUCHLINE_PATH_SWITCH: a release build has no general path to compare with")
exit(2)
#endif
