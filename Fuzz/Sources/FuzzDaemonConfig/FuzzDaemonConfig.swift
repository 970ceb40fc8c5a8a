import FuzzSupport
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTesting

// The daemon's configuration as `daemon --check-config` and SIGHUP read it (the graph,
// `[[device]]`, `[socket]`, `[[action]]`): bytes that parse must never crash what the daemon
// does with them. Each device section is matched against hostile names and paths (its globs),
// its rotation and calibration turn a touch script's frames on its surface, the graph runs on
// the turned frames, and every action is matched against the events that come out.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz_support_begin(data, size)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let configuration = try? DaemonConfiguration.parse(bytes: bytes, file: "fuzz.toml") else { return 0 }
    let udev = ["ID_INPUT_TOUCHSCREEN": "1", "ID_PATH": "pci-0000:00:14.0-usb-0:2:1.0"]
    for name in names {
        _ = configuration.devices.settings(name: name, path: "/dev/input/event" + name.prefix(3), udev: udev)
    }
    var specs = configuration.devices.devices.prefix(4).map { $0 }
    specs.append(DeviceSpec())
    for spec in specs where !spec.ignore {
        let sensor = spec.size ?? script.surface
        let transform = spec.transform
        let surface = transform?.surface(sensor) ?? sensor
        var frames = script.frames
        if let transform {
            var turned = TouchFrame(time: .zero)
            for i in frames.indices {
                transform.apply(frames[i], surface: surface, into: &turned)
                frames[i] = turned
            }
        }
        guard let events = try? GestureHarness.replay(frames, configuration: spec.graphConfiguration ?? configuration.graph, surface: surface, explain: false)
        else { continue }
        for event in events {
            for action in configuration.actions.actions { _ = action.matches(event) }
        }
    }
    return 0
}

/// Names a section's globs are matched against: empty, long, glob characters, non-ASCII.
let names = ["", "Touchline Synthetic Touchscreen", "Atmel maXTouch Touchscreen", String(repeating: "*?", count: 200),
             "ELAN Touchscreen ü 触摸", String(repeating: "a", count: 4096)]

/// A tap, a swipe, a long press and a pinch that turns, on the 200 × 120 mm surface.
let script: TouchScript = {
    var s = TouchScript()
    s.down(0, at: Point(x: 100, y: 60)); s.wait(50); s.up(0); s.wait(400)
    s.down(0, at: Point(x: 20, y: 60)); s.move(0, to: Point(x: 160, y: 64), over: 90); s.up(0); s.wait(50)
    s.down(0, at: Point(x: 2, y: 2)); s.wait(900); s.up(0); s.wait(50)
    s.down([(0, Point(x: 80, y: 60)), (1, Point(x: 120, y: 60))])
    s.turn(about: Point(x: 100, y: 60), by: 0.9, scale: 1.7, over: 250)
    s.up([0, 1]); s.wait(50)
    return s
}()
