import Foundation
import Testing
import TouchlineCore
@testable import TouchlineTrace

/// Every shared trace, with the facts its README states: format, device name, event count.
/// libinput record files may hold a few fewer events than their evemu source because the
/// kernel's input core drops repeated values (see libinput-record/README.md).
struct SharedTrace: Sendable, CustomStringConvertible {
    var path: String
    var format: TraceFormat
    var name: String
    var events: Int
    var description: String { path }
}

let sharedTraces: [SharedTrace] = [
    .init(path: "evemu-devices/dell_canvas_touch.evemu", format: .evemu, name: "Advanced Silicon S.A. CoolTouch® System", events: 5363),
    .init(path: "evemu-devices/dell_canvas_pen.evemu", format: .evemu, name: "Wacom ISD-V4 Pen", events: 2839),
    .init(path: "evemu-devices/Wacom DTH2242 Finger.events", format: .evemu, name: "Wacom DTH2242 Finger", events: 16593),
    .init(path: "evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events", format: .evemu, name: "Atmel maXTouch Touchscreen", events: 84),
    .init(path: "evemu-devices/Atmel maXTouch Touchscreen.2-fingers-touch-release.events", format: .evemu, name: "Atmel maXTouch Touchscreen", events: 64),
    .init(path: "evemu-devices/Atmel maXTouch Touchscreen.4-finger-drag-down.events", format: .evemu, name: "Atmel maXTouch Touchscreen", events: 309),
    .init(path: "evemu-devices/EP0430M09.2-finger-scroll-down.events", format: .evemu, name: "EP0430M09", events: 695),
    .init(path: "evemu-devices/N-Trig MultiTouch.2-fingers-touch-release.events", format: .evemu, name: "N-Trig MultiTouch", events: 2203),
    .init(path: "evemu-devices/Wacom ISDv4 E6 Finger.double-center-circle.events", format: .evemu, name: "Wacom ISDv4 E6 Finger", events: 1137),
    .init(path: "evemu-devices/Wacom ISDv4 E6 Finger.2fg-tap.events", format: .evemu, name: "Wacom ISDv4 E6 Finger", events: 17),
    .init(path: "evemu-devices/CyPS2 Cypress Trackpad.two_finger_press.events", format: .evemu, name: "CyPS/2 Cypress Trackpad", events: 278),
    .init(path: "xorg-integration-tests/n4.events", format: .evemu, name: "touch_dev", events: 4953),
    .init(path: "MonkeyHelper/phone-two-finger-drag.txt", format: .getevent, name: "getevent", events: 1303),
    .init(path: "MonkeyHelper/tablet-two-finger-drag.txt", format: .getevent, name: "getevent", events: 1712),
    .init(path: "MonkeyHelper/tablet-openCalender-drag-tap-tap.txt", format: .getevent, name: "getevent", events: 188),
    .init(path: "MonkeyHelper/galaxys-paint.txt", format: .getevent, name: "getevent", events: 2935),
    .init(path: "libinput-record/dell_canvas_touch.yml", format: .libinputRecord, name: "Advanced Silicon S.A. CoolTouch® System", events: 5363),
    .init(path: "libinput-record/dell_canvas_pen.yml", format: .libinputRecord, name: "Wacom ISD-V4 Pen", events: 2792),
    .init(path: "libinput-record/Wacom DTH2242 Finger.yml", format: .libinputRecord, name: "Wacom DTH2242 Finger", events: 16320),
    .init(path: "libinput-record/Atmel maXTouch Touchscreen.1-finger-fast-taps.yml", format: .libinputRecord, name: "Atmel maXTouch Touchscreen", events: 84),
    .init(path: "libinput-record/Atmel maXTouch Touchscreen.2-fingers-touch-release.yml", format: .libinputRecord, name: "Atmel maXTouch Touchscreen", events: 64),
    .init(path: "libinput-record/Atmel maXTouch Touchscreen.4-finger-drag-down.yml", format: .libinputRecord, name: "Atmel maXTouch Touchscreen", events: 308),
    .init(path: "libinput-record/EP0430M09.2-finger-scroll-down.yml", format: .libinputRecord, name: "EP0430M09", events: 694),
    .init(path: "libinput-record/N-Trig MultiTouch.2-fingers-touch-release.yml", format: .libinputRecord, name: "N-Trig MultiTouch", events: 2203),
    .init(path: "libinput-record/Wacom ISDv4 E6 Finger.double-center-circle.yml", format: .libinputRecord, name: "Wacom ISDv4 E6 Finger", events: 1136),
    .init(path: "libinput-record/Wacom ISDv4 E6 Finger.2fg-tap.yml", format: .libinputRecord, name: "Wacom ISDv4 E6 Finger", events: 17),
    .init(path: "libinput-record/CyPS2 Cypress Trackpad.two_finger_press.yml", format: .libinputRecord, name: "CyPS/2 Cypress Trackpad", events: 277),
    .init(path: "libinput-record/n4.yml", format: .libinputRecord, name: "touch_dev", events: 4953),
]

@Suite struct SharedTracesTests {
    @Test func theListCoversEveryTraceFile() throws {
        let fm = FileManager.default
        var found: Set<String> = []
        for dir in try fm.contentsOfDirectory(atPath: Paths.traces.path) {
            let sub = Paths.traces.appendingPathComponent(dir).path
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: sub, isDirectory: &isDir), isDir.boolValue else { continue }
            for file in try fm.contentsOfDirectory(atPath: sub)
            where [".evemu", ".events", ".txt", ".yml"].contains(where: { file.hasSuffix($0) }) {
                found.insert(dir + "/" + file)
            }
        }
        #expect(found == Set(sharedTraces.map(\.path)))
    }

    @Test(arguments: sharedTraces)
    func readsWithoutError(_ trace: SharedTrace) throws {
        let result = try readShared(trace.path)
        #expect(result.error == nil, "\(result.error.map(String.init(describing:)) ?? "")")
        #expect(result.format == trace.format)
        #expect(result.devices.count == 1)
        #expect(result.devices.first?.name == trace.name)
        #expect(result.events.count == trace.events)
        #expect(result.events.allSatisfy { $0.device == 0 })
    }

    /// Lines split at every byte boundary give the same events as one big read (CRLF and a
    /// last line without newline included).
    @Test(arguments: [
        "libinput-record/Wacom ISDv4 E6 Finger.2fg-tap.yml",
        "MonkeyHelper/tablet-openCalender-drag-tap-tap.txt",
        "evemu-devices/Atmel maXTouch Touchscreen.2-fingers-touch-release.events",
    ])
    func chunkBoundariesDoNotMatter(_ path: String) throws {
        let bytes = try Paths.traceBytes(path)
        let whole = readAll(bytes)
        #expect(whole.error == nil)
        for limit in [1, 2, 3, 7, 64] {
            let split = readAll(bytes, chunkLimit: limit)
            #expect(split.events == whole.events)
            #expect(split.devices == whole.devices)
        }
    }

    @Test func lastLineWithoutNewline() throws {
        let bytes = try Paths.traceBytes("MonkeyHelper/galaxys-paint.txt")
        #expect(bytes.last != 0x0A)
        var trimmed = bytes
        while trimmed.last == 0x20 { trimmed.removeLast() }
        let whole = readAll(trimmed)
        #expect(whole.error == nil)
        #expect(whole.events.count == 2935)
        let cut = readAll(Array(trimmed.dropLast(3)), fileName: "cut.txt")
        #expect(cut.error.map(String.init(describing:)) == "cut.txt:2935: expected a value of 8 hex digits (or UP/DOWN/REPEAT) after the code, found '00000'")
        #expect(cut.events.count == 2934)
    }
}
