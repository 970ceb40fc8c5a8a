import Testing
import Foundation
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

@Test func scratchTraces() throws {
    let files = [
        "evemu-devices/Wacom ISDv4 E6 Finger.double-center-circle.events",
        "xorg-integration-tests/n4.events",
        "MonkeyHelper/phone-two-finger-drag.txt",
        "MonkeyHelper/tablet-two-finger-drag.txt",
    ]
    for f in files {
        let (trace, events) = try replayTrace(f)
        print("== \(f) surface \(trace.surface) frames \(trace.frames.count) events \(events.count)")
        for l in overview(events) { print(l) }
        if f.contains("n4") { print(events.filter { $0.gesture == .pinch }.map { formatFixed({ if case let .pinch(s, _, _) = $0.detail { return s }; return 0 }($0), decimals: 2) }.joined(separator: " ")) }
    }
}
