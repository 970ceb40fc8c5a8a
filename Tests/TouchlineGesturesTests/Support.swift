import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting
// Every file of these tests sees the shared test support (paths, trace files, counters).
@_exported import TouchlineTestSupport

/// Compares the whole log; on a mismatch prints the actual log as Swift source to review.
func expectLog(_ h: GestureHarness, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    let actual = h.log
    if actual != expected {
        print("ACTUAL \(sourceLocation.fileName):\(sourceLocation.line)\n" + actual.map { "            \"\($0)\"," }.joined(separator: "\n") + "\nEND")
    }
    #expect(actual == expected, sourceLocation: sourceLocation)
}

extension GraphConfiguration {
    /// One target, the given recognizers.
    static func only(_ recognizers: [RecognizerSpec]) -> GraphConfiguration {
        GraphConfiguration(targets: [.surface()], recognizers: recognizers)
    }
}

extension TapParameters {
    static func with(taps: Int = 1, eager: Bool = false, fingers: Int = 0) -> TapParameters {
        var t = TapParameters()
        t.taps = taps
        t.eager = eager
        t.fingers = fingers
        return t
    }
}
