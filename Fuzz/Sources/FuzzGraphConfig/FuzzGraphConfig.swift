import FuzzSupport
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

// A configuration that parses must never crash the graph built from it: the bytes are parsed
// as `replay --config` parses them, and a configuration that parses is built into a graph and
// driven through a fixed touch script (taps, a long press, swipes, an edge swipe, a pinch that
// turns, several fingers, a contact that slides between targets, a cancel) with `--explain`
// on; every event is written as JSON, as replay writes it (long names reach the writer here).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz_support_begin(data, size)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let configuration = try? GraphConfiguration.parse(bytes: bytes, file: "fuzz.toml") else { return 0 }
    // `try?`: building throws for a configuration that parses but is invalid (docs/config.md#validation).
    guard let events = try? GestureHarness.replay(script.frames, configuration: configuration, surface: script.surface, explain: true)
    else { return 0 }
    var json = JSONWriter(capacity: 4096)
    for event in events {
        json.reset()
        event.writeJSON(into: &json)
        json.newline()
    }
    return 0
}

/// The touches, scripted once: about 150 frames on the 200 × 120 mm surface of the tests,
/// over its middle, its edges, its corners and beyond them.
let script: TouchScript = {
    var s = TouchScript()
    // A double tap in the middle, then a pause past any multi-tap window.
    s.down(0, at: Point(x: 100, y: 60)); s.wait(50); s.up(0); s.wait(120)
    s.down(0, at: Point(x: 101, y: 61)); s.wait(40); s.up(0); s.wait(600)
    // A long press near a corner.
    s.down(0, at: Point(x: 2, y: 2)); s.wait(900); s.up(0); s.wait(50)
    // A fast swipe, and an edge swipe from the left edge.
    s.down(0, at: Point(x: 20, y: 60)); s.move(0, to: Point(x: 160, y: 64), over: 90); s.up(0); s.wait(50)
    s.down(0, at: Point(x: 0.3, y: 60)); s.move(0, to: Point(x: 70, y: 58), over: 180); s.up(0); s.wait(50)
    // Two fingers pinch out while they turn; then three fingers tap.
    s.down([(0, Point(x: 80, y: 60)), (1, Point(x: 120, y: 60))])
    s.turn(about: Point(x: 100, y: 60), by: 0.9, scale: 1.7, over: 250)
    s.up([0, 1]); s.wait(50)
    s.down([(0, Point(x: 90, y: 46)), (1, Point(x: 96, y: 46)), (2, Point(x: 102, y: 47))]); s.wait(60); s.up([0, 1, 2]); s.wait(50)
    // Fingers landing one by one, one beyond the surface, one lifted while others stay.
    s.down(0, at: Point(x: 199.9, y: 119.9)); s.wait(10)
    s.down(1, at: Point(x: -4, y: 125)); s.wait(10)
    s.down(2, at: Point(x: 95, y: 46))
    s.move([(0, Point(x: 150, y: 100)), (2, Point(x: 60, y: 20))], over: 120)
    s.up(1)
    s.move(2, to: Point(x: 196, y: 3), over: 60)
    s.up([0, 2]); s.wait(30)
    // A contact that slides from one place onto another, then is cancelled (SYN_DROPPED).
    s.down(0, at: Point(x: 195, y: 5)); s.move(0, to: Point(x: 95, y: 46), over: 150); s.cancel([0])
    // A finger left down at the end: the replay's finish cancels it.
    s.down(0, at: Point(x: 50, y: 100)); s.wait(200)
    return s
}()
