// A photo kiosk, 200 × 120 mm: a photo to drag, an album that springs open when a drag hovers
// over it and takes drops, a bin that takes drops, a print button to tap and a map to pinch.
// Scripted touches stand in for the touchscreen; the events print as JSON Lines (schema v1,
// docs/events.md), then as the application would read them, typed.
import TouchlineCore
import TouchlineGestures
import TouchlineTesting

let kiosk = GraphConfiguration(
    targets: [
        TargetSpec(name: "photo", rect: Rect(x: 10, y: 10, width: 40, height: 30)),
        TargetSpec(name: "album", rect: Rect(x: 150, y: 10, width: 40, height: 40)),
        TargetSpec(name: "bin", rect: Rect(x: 150, y: 70, width: 40, height: 40)),
        TargetSpec(name: "print", rect: Rect(x: 10, y: 90, width: 30, height: 20)),
        TargetSpec(name: "map", rect: Rect(x: 60, y: 10, width: 80, height: 100)),
    ],
    recognizers: [
        // Held still for half a second, the photo lifts and follows the finger.
        RecognizerSpec(name: "photoDrag", kind: .drag(), target: "photo", dropTargets: ["album", "bin"]),
        // A drag resting on the album makes it blink, then open (spring-loading).
        RecognizerSpec(name: "albumSpring", kind: .spring(), target: "album"),
        RecognizerSpec(name: "printTap", kind: .tap(), target: "print"),
        RecognizerSpec(name: "mapPinch", kind: .pinch(), target: "map"),
    ])

var script = TouchScript(rate: 60)
// Tap the print button.
script.down(0, at: Point(x: 25, y: 100))
script.wait(80)
script.up(0)
script.wait(400)
// Spread two fingers on the map, 30 → 60 mm.
script.down([(0, Point(x: 85, y: 60)), (1, Point(x: 115, y: 60))])
script.move([(0, Point(x: 70, y: 60)), (1, Point(x: 130, y: 60))], over: 300)
script.up([0, 1])
script.wait(400)
// Hold the photo, carry it over the album until it springs open, then drop it in the bin.
script.down(0, at: Point(x: 30, y: 25))
script.wait(600)
script.move(0, to: Point(x: 170, y: 30), over: 200)
script.wait(900)
script.move(0, to: Point(x: 170, y: 90), over: 200)
script.up(0)

var events: [GestureEvent] = []
do {
    var driver = try GraphDriver(configuration: kiosk, surface: script.surface)
    for frame in script.frames { driver.feed(frame) { events.append($0) } }
    driver.finish { events.append($0) }
} catch {
    print("invalid kiosk configuration: \(error)")
}

for event in events { print(event.json) }

print()
for event in events {
    switch event.gesture {
    case .tap where event.phase == .recognized:
        print("\(event.target) tapped (count \(event.detail.fields(as: TapFields.self)?.count ?? 0))")
    case .pinch where event.phase == .ended:
        print("map zoomed ×\(formatFixed(event.detail.fields(as: PinchFields.self)?.scale ?? 1, decimals: 2))")
    case .spring where event.phase == .ended:
        print("\(event.target) sprang open at \(event.time) s")
    case .drag where event.phase == .ended:
        if let drag = event.detail.fields(as: DragFields.self) {
            print("dropped \(drag.items) on \(drag.target?.description ?? "nothing")")
        }
    default:
        break
    }
}
