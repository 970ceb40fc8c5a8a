import Foundation
import Testing

/// Acceptance for the foundation: every shared third-party trace reads, and what `inspect`
/// reports matches what ../shared/traces/README.md states about it.
struct SharedTrace: Sendable, CustomTestStringConvertible {
    var path: String
    var name: String
    var maxContacts: Int
    /// Touch sequences, where the README states them (or its motion notes make them certain).
    var sequences: Int?
    var testDescription: String { path }
}

let sharedTraces: [SharedTrace] = [
    .init(path: "evemu-devices/dell_canvas_touch.evemu", name: "Advanced Silicon S.A. CoolTouch® System", maxContacts: 5),
    .init(path: "evemu-devices/Wacom DTH2242 Finger.events", name: "Wacom DTH2242 Finger", maxContacts: 10),
    .init(path: "evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events", name: "Atmel maXTouch Touchscreen", maxContacts: 1, sequences: 9),
    .init(path: "evemu-devices/Atmel maXTouch Touchscreen.2-fingers-touch-release.events", name: "Atmel maXTouch Touchscreen", maxContacts: 2, sequences: 2),
    .init(path: "evemu-devices/Atmel maXTouch Touchscreen.4-finger-drag-down.events", name: "Atmel maXTouch Touchscreen", maxContacts: 4, sequences: 4),
    .init(path: "evemu-devices/EP0430M09.2-finger-scroll-down.events", name: "EP0430M09", maxContacts: 2, sequences: 2),
    .init(path: "evemu-devices/N-Trig MultiTouch.2-fingers-touch-release.events", name: "N-Trig MultiTouch", maxContacts: 2, sequences: 2),
    .init(path: "evemu-devices/Wacom ISDv4 E6 Finger.double-center-circle.events", name: "Wacom ISDv4 E6 Finger", maxContacts: 2, sequences: 2),
    .init(path: "evemu-devices/Wacom ISDv4 E6 Finger.2fg-tap.events", name: "Wacom ISDv4 E6 Finger", maxContacts: 2, sequences: 2),
    .init(path: "evemu-devices/CyPS2 Cypress Trackpad.two_finger_press.events", name: "CyPS/2 Cypress Trackpad", maxContacts: 2),
    .init(path: "evemu-devices/dell_canvas_pen.evemu", name: "Wacom ISD-V4 Pen", maxContacts: 1, sequences: 1),
    .init(path: "xorg-integration-tests/n4.events", name: "touch_dev", maxContacts: 4),
    .init(path: "MonkeyHelper/phone-two-finger-drag.txt", name: "phone-two-finger-drag", maxContacts: 2, sequences: 2),
    .init(path: "MonkeyHelper/tablet-two-finger-drag.txt", name: "tablet-two-finger-drag", maxContacts: 2, sequences: 2),
    .init(path: "MonkeyHelper/tablet-openCalender-drag-tap-tap.txt", name: "tablet-openCalender-drag-tap-tap", maxContacts: 1, sequences: 3),
    .init(path: "MonkeyHelper/galaxys-paint.txt", name: "galaxys-paint", maxContacts: 1, sequences: 34),
    .init(path: "libinput-record/Atmel maXTouch Touchscreen.1-finger-fast-taps.yml", name: "Atmel maXTouch Touchscreen", maxContacts: 1, sequences: 9),
    .init(path: "libinput-record/Atmel maXTouch Touchscreen.2-fingers-touch-release.yml", name: "Atmel maXTouch Touchscreen", maxContacts: 2, sequences: 2),
    .init(path: "libinput-record/Atmel maXTouch Touchscreen.4-finger-drag-down.yml", name: "Atmel maXTouch Touchscreen", maxContacts: 4, sequences: 4),
    .init(path: "libinput-record/CyPS2 Cypress Trackpad.two_finger_press.yml", name: "CyPS/2 Cypress Trackpad", maxContacts: 2),
    .init(path: "libinput-record/EP0430M09.2-finger-scroll-down.yml", name: "EP0430M09", maxContacts: 2, sequences: 2),
    .init(path: "libinput-record/N-Trig MultiTouch.2-fingers-touch-release.yml", name: "N-Trig MultiTouch", maxContacts: 2, sequences: 2),
    .init(path: "libinput-record/Wacom DTH2242 Finger.yml", name: "Wacom DTH2242 Finger", maxContacts: 10),
    .init(path: "libinput-record/Wacom ISDv4 E6 Finger.2fg-tap.yml", name: "Wacom ISDv4 E6 Finger", maxContacts: 2, sequences: 2),
    .init(path: "libinput-record/Wacom ISDv4 E6 Finger.double-center-circle.yml", name: "Wacom ISDv4 E6 Finger", maxContacts: 2, sequences: 2),
    .init(path: "libinput-record/dell_canvas_pen.yml", name: "Wacom ISD-V4 Pen", maxContacts: 1, sequences: 1),
    .init(path: "libinput-record/dell_canvas_touch.yml", name: "Advanced Silicon S.A. CoolTouch® System", maxContacts: 5),
    .init(path: "libinput-record/n4.yml", name: "touch_dev", maxContacts: 4),
]

/// One device summary from `touchline inspect --json`.
func inspect(_ path: String) throws -> [[String: Any]] {
    let result = try touchline("inspect", "--json", path)
    #expect(result.status == 0, "inspect \(path): \(result.stderr)")
    return try result.lines.map { line in
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}

@Suite struct SharedTraceTests {
    @Test(arguments: sharedTraces)
    func readsAndSummarizes(_ trace: SharedTrace) throws {
        let devices = try inspect(Paths.trace(trace.path))
        let device = try #require(devices.first)
        #expect(devices.count == 1)
        #expect(device["name"] as? String == trace.name)
        #expect(device["maxContacts"] as? Int == trace.maxContacts)
        if let sequences = trace.sequences {
            #expect(device["sequences"] as? Int == sequences)
        }
        #expect((device["events"] as? Int ?? 0) > 0)
        #expect((device["frames"] as? Int ?? 0) > 0)
    }

    /// `inspect` says what drives a peek on each device with `source = "auto"`: pressure where
    /// the frame assembler normalizes one, else touch size, else time (docs/gestures.md#peek).
    @Test func saysWhichPeekSourceADeviceGets() throws {
        for (path, source) in [("evemu-devices/dell_canvas_pen.evemu", "pressure"), ("xorg-integration-tests/n4.events", "pressure"),
                               ("MonkeyHelper/galaxys-paint.txt", "pressure"), ("evemu-devices/Wacom DTH2242 Finger.events", "size"),
                               ("evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events", "time")] {
            let device = try #require(try inspect(Paths.trace(path)).first)
            #expect(device["peekSource"] as? String == source, "\(path)")
        }
        let text = try touchline("inspect", Paths.trace("evemu-devices/Wacom DTH2242 Finger.events"))
        #expect(text.stdout.contains("  peek source:       size (source = \"auto\")\n"))
    }

    @Test func fastTapsAreNineShortSequences() throws {
        for path in ["evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events",
                     "libinput-record/Atmel maXTouch Touchscreen.1-finger-fast-taps.yml"] {
            let device = try #require(try inspect(Paths.trace(path)).first)
            #expect(device["sequences"] as? Int == 9)
            let shortest = try #require(device["shortestSequence"] as? Double)
            let longest = try #require(device["longestSequence"] as? Double)
            // The README's "80–110 ms" is rounded: the evemu file measures 82.2–110.5 ms and its
            // libinput re-recording 79.3–109.9 ms (frame time of the lift minus that of the touch).
            #expect(shortest >= 0.078 && longest <= 0.112, "\(path): \(shortest)…\(longest) s")
        }
    }

    /// N-Trig is protocol A without tracking ids: the two fingers must be told apart by position,
    /// and they overlap in time (A held from 0 to ~1.9 s, B down at ~1.3 s).
    @Test func nTrigContactsOverlap() throws {
        let result = try touchline("replay", "--frames", Paths.trace("evemu-devices/N-Trig MultiTouch.2-fingers-touch-release.events"))
        #expect(result.status == 0, "\(result.stderr)")
        var idsSeen = Set<Int>()
        var overlap = false
        for line in result.lines {
            let frame = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let contacts = frame["contacts"] as? [[String: Any]] ?? []
            for c in contacts { if let id = c["id"] as? Int { idsSeen.insert(id) } }
            if contacts.filter({ ($0["phase"] as? String) != "ended" }).count == 2 { overlap = true }
        }
        #expect(idsSeen.count == 2)
        #expect(overlap)
    }

    @Test func n4ReachesFourContactsWithPressure() throws {
        let device = try #require(try inspect(Paths.trace("xorg-integration-tests/n4.events")).first)
        #expect(device["maxContacts"] as? Int == 4)
        let pressure = try #require(device["pressureSeen"] as? [Double])
        #expect(pressure.count == 2 && pressure[0] > 0 && pressure[1] < 1 && pressure[0] < pressure[1])
    }

    @Test func humanSummaryNamesTheFacts() throws {
        let result = try touchline("inspect", Paths.trace("xorg-integration-tests/n4.events"))
        #expect(result.status == 0)
        for needle in ["touch_dev", "touchscreen", "slots", "pressure", "sequences", "contacts at once"] {
            #expect(result.stdout.contains(needle), "missing '\(needle)' in:\n\(result.stdout)")
        }
    }
}
