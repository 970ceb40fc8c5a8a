import Foundation
import Testing
import TouchlineCore
import TouchlineTesting
@testable import TouchlineGestures
#if DEBUG || TOUCHLINE_PATH_SWITCH
import FastPathScripts
#endif

// The graph's per-frame fast paths (the two-contact sample, the in-place update of an active
// continuous recognizer, the cached contact lists, the target mask, the guessed contact index)
// must change nothing: random scripted touches go through the graph twice, once as it runs and
// once with `usesFastPaths` off (the general path for each of them), and the two runs must give
// the same event log, explain lines included, and the same states after every frame. Each case
// prints its seed; rerun one with TOUCHLINE_SEED=<seed>. The scripts and the comparison are
// Tests/FastPathScripts, which the `fast-paths` executable also runs.
//
// The switch exists in debug builds (in release it is the constant `true`), as do the asserts of
// the invariants the fast paths rely on (FastPathChecks.swift), which these scripts exercise
// too; and in an optimized build made with `-Xswiftc -DTOUCHLINE_PATH_SWITCH`, where CI runs the
// same comparison again through `fast-paths` (.ci/run), so that the fast paths are held to the
// general path as the optimizer compiles them.

#if DEBUG || TOUCHLINE_PATH_SWITCH
@Suite struct FastPathTests {
    static func cases(_ base: UInt64) -> [UInt64] {
        if let text = ProcessInfo.processInfo.environment["TOUCHLINE_SEED"], let seed = UInt64(text) { return [seed] }
        return FastPathScripts.seeds(300, base: base)
    }

    static func expectSamePaths(seed: UInt64, _ configuration: GraphConfiguration, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for difference in try FastPathScripts.differences(seed: seed, configuration) {
            Issue.record(Comment(rawValue: difference), sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: cases(FastPathScripts.defaultBase))
    func defaultGraph(seed: UInt64) throws {
        try Self.expectSamePaths(seed: seed, .default)
    }

    @Test(arguments: cases(FastPathScripts.multiTargetBase))
    func multiTargetGraph(seed: UInt64) throws {
        try Self.expectSamePaths(seed: seed, FastPathScripts.multiTarget)
    }

    /// A difference is found: the comparison is not vacuous (a graph whose general path
    /// differs, simulated by comparing two different scripts' runs, is told apart).
    @Test func theComparisonSeesADifference() throws {
        let a = try FastPathScripts.run(FastPathScripts.script(seed: 1), .default, fastPaths: true)
        let b = try FastPathScripts.run(FastPathScripts.script(seed: 2), .default, fastPaths: true)
        #expect(FastPathScripts.firstDifference(a.events, b.events) != nil || FastPathScripts.firstDifference(a.states, b.states) != nil)
    }

    /// The scripts reach what the comparison is about: two-contact frames, active continuous
    /// gestures changing (pan, pinch, rotate), deadlines, cancellations, contacts on two
    /// targets at once. Without this, a generator that drifted to trivial scripts would pass.
    @Test func scriptsReachEveryFastPath() throws {
        var seen = Set<String>()
        for seed in FastPathScripts.seeds(300, base: FastPathScripts.defaultBase) {
            let script = FastPathScripts.script(seed: seed)
            if script.frames.contains(where: { $0.contacts.count == 2 && $0.contacts.allSatisfy { $0.phase == .moved || $0.phase == .stationary } }) { seen.insert("two contacts moving") }
            if script.frames.contains(where: { $0.contacts.contains { $0.phase == .cancelled } }) { seen.insert("cancelled") }
            for e in try GestureHarness.replay(script.frames, surface: script.surface) where e.phase == .changed {
                seen.insert("\(e.gesture) changed")
            }
            for e in try GestureHarness.replay(script.frames, configuration: FastPathScripts.multiTarget, surface: script.surface) where e.gesture != .explain {
                seen.insert("target \(e.target)")
                if e.recognizer.description == "doubleTap" || e.recognizer.description == "leftLongPress" { seen.insert("\(e.recognizer) \(e.phase)") }
            }
        }
        let expected: Set<String> = [
            "two contacts moving", "cancelled", "pan changed", "pinch changed", "rotate changed", "edgeSwipe changed", "longPress changed",
            "target left", "target right", "target button", "doubleTap recognized", "leftLongPress began",
        ]
        #expect(expected.isSubset(of: seen), "not reached: \(expected.subtracting(seen).sorted())")
    }
}
#else
/// A release build without the switch has no general path to compare with: said, not silent.
@Suite(.disabled("a release build without -DTOUCHLINE_PATH_SWITCH has no general path (.ci/run builds one with it)"))
struct FastPathTests {
    @Test func fastPathsEqualTheGeneralPath() {}
}
#endif
