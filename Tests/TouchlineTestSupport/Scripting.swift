import Foundation
import TouchlineCore

// What the tests of several modules script touches with: a point in mm, and the seeds of the
// randomized tests (the random streams themselves are FastPathScripts' SeededRandom).

/// A point in mm, for scripted touches.
public func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

public enum Seeds {
    /// The seeds to run: TOUCHLINE_SEED alone when set, else `count` seeds from a fixed base
    /// (so CI is reproducible) mixed with the case index.
    public static func cases(_ count: Int, base: UInt64) -> [UInt64] {
        if let text = ProcessInfo.processInfo.environment["TOUCHLINE_SEED"], let seed = UInt64(text) { return [seed] }
        return (0..<UInt64(count)).map { base &+ $0 &* 0x1000_0000_01 }
    }
}
