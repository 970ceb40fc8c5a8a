// The assembler on real recordings (../shared/traces, see its README): contact counts, ids,
// protocol A matching, pens, semi-MT and header-less Android traces. The tiny readers here are
// only for these tests; TouchlineTrace has the real ones.
import Foundation
import Testing
@testable import TouchlineCore

/// The shared traces folder (TouchlineTestSupport's lookup), nil when it is missing.
let tracesDirectory: URL? = Paths.tracesFound ? Paths.traces : nil

/// An evemu recording: the `A:` and `P:` header lines (from `desc` when the events file has
/// none) and the `E:` lines.
func readEvemu(_ name: String, desc: String? = nil) throws -> (DeviceDescription, [InputEvent]) {
    let dir = try #require(tracesDirectory)
    var lines = try String(contentsOf: dir.appendingPathComponent(name), encoding: .isoLatin1)
        .split(whereSeparator: \.isNewline)
    if let desc {
        lines = try String(contentsOf: dir.appendingPathComponent(desc), encoding: .isoLatin1).split(whereSeparator: \.isNewline) + lines
    }
    var device = DeviceDescription(name: name)
    var events: [InputEvent] = []
    var propertyByte = 0
    for line in lines {
        let f = line.split(separator: "#", omittingEmptySubsequences: false)[0].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let tag = f.first else { continue }
        switch tag {
        case "N:": device.name = f.dropFirst().joined(separator: " ")
        case "P:":
            for byte in f.dropFirst() {
                let bits = UInt8(byte, radix: 16) ?? 0
                for b in 0..<8 where bits & (1 << b) != 0 { device.properties.append(UInt16(propertyByte * 8 + b)) }
                propertyByte += 1
            }
        case "A:":
            let n = f.dropFirst().map { String($0) }
            guard n.count >= 5, let code = UInt16(n[0], radix: 16) else { continue }
            device.absinfo[code] = AbsInfo(
                minimum: Int32(n[1])!, maximum: Int32(n[2])!, fuzz: Int32(n[3])!, flat: Int32(n[4])!,
                resolution: n.count > 5 ? Int32(n[5])! : 0)
        case "E:":
            let parts = f[1].split(separator: ".")
            let time = Timestamp(seconds: Int64(parts[0])!, microseconds: Int64(parts[1])!)
            events.append(
                InputEvent(time: time, type: UInt16(f[2], radix: 16)!, code: UInt16(f[3], radix: 16)!, value: Int32(f[4])!))
        default: break
        }
    }
    return (device, events)
}

/// An Android `getevent -lt` trace: `[ sec.usec] EV_ABS ABS_MT_POSITION_X 0000002b`.
func readGetevent(_ name: String) throws -> [InputEvent] {
    let dir = try #require(tracesDirectory)
    var events: [InputEvent] = []
    for line in try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8).split(whereSeparator: \.isNewline) {
        guard let close = line.firstIndex(of: "]") else { continue }
        let stamp = line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces).split(separator: ".")
        let f = line[line.index(after: close)...].split(separator: " ")
        guard f.count >= 3, let type = EventCodes.type(named: String(f[0])),
            let code = EventCodes.code(named: String(f[1])), let raw = UInt32(f[2], radix: 16)
        else { continue }
        let time = Timestamp(seconds: Int64(stamp[0])!, microseconds: Int64(stamp[1])!)
        events.append(InputEvent(time: time, type: type, code: code.code, value: Int32(bitPattern: raw)))
    }
    return events
}

/// What a trace's frames add up to.
struct Summary {
    var frames: [TouchFrame] = []
    var ids: [UInt32] = []
    var maxActive = 0
    var began: [UInt32: Timestamp] = [:]
    var final: [UInt32: (ContactPhase, Timestamp)] = [:]

    init(_ events: [InputEvent], _ assembler: inout FrameAssembler) {
        frames = run(events, into: &assembler)
        for f in frames {
            maxActive = max(maxActive, f.activeCount)
            for c in f.contacts {
                if c.phase == .began { ids.append(c.id.raw); began[c.id.raw] = f.time }
                if c.phase.isFinal { final[c.id.raw] = (c.phase, f.time) }
            }
        }
    }
}

@Suite(.enabled(if: tracesDirectory != nil, "needs the shared traces beside the package (../shared/traces)"))
struct TraceTests {
    @Test func nTrigProtocolAFollowsBothFingersWithoutTrackingIDs() throws {
        let (device, events) = try readEvemu(
            "evemu-devices/N-Trig MultiTouch.2-fingers-touch-release.events", desc: "evemu-devices/N-Trig MultiTouch.desc")
        var a = FrameAssembler(device: device)
        let s = Summary(events, &a)
        #expect(a.inputProtocol == .unslotted)
        #expect(a.geometry.source == .assumed)
        #expect(s.ids == [0, 1])
        #expect(s.frames.count == 219)
        #expect(s.began[1] == Timestamp(seconds: 1_357_751_032, microseconds: 989_125))
        #expect(s.final[0]?.0 == .ended)
        #expect(s.final[0]?.1 == Timestamp(seconds: 1_357_751_033, microseconds: 643_285))
        #expect(s.final[1]?.0 == .ended)
        #expect(s.final[1]?.1 == Timestamp(seconds: 1_357_751_034, microseconds: 709_837))
        // Finger A is held still: matching never hands it finger B's position, far away.
        let start = try #require(s.frames.first?.contacts.first?.position)
        for f in s.frames { for c in f.contacts where c.id.raw == 0 { #expect(c.position.distance(to: start) < 3) } }
        #expect(a.counters == FrameAssembler.Counters())
    }

    @Test(arguments: [
        ("evemu-devices/Wacom DTH2242 Finger.events", 66, 10),
        ("evemu-devices/dell_canvas_touch.evemu", 12, 5),
        ("evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events", 9, 1),
        ("evemu-devices/Atmel maXTouch Touchscreen.4-finger-drag-down.events", 4, 4),
        ("evemu-devices/EP0430M09.2-finger-scroll-down.events", 2, 2),
        ("xorg-integration-tests/n4.events", 12, 4),
    ])
    func protocolBContactCounts(file: String, contacts: Int, simultaneous: Int) throws {
        let desc = file.hasSuffix("n4.events") ? "xorg-integration-tests/n4.desc" : nil
        let (device, events) = try readEvemu(file, desc: desc)
        var a = FrameAssembler(device: device)
        let s = Summary(events, &a)
        #expect(a.inputProtocol == .slotted)
        #expect(s.ids == (0..<UInt32(contacts)).map { $0 })
        #expect(s.maxActive == simultaneous)
        #expect(s.final.count == contacts)
        #expect(s.final.values.allSatisfy { $0.0 == .ended })
        #expect(a.counters == FrameAssembler.Counters())
    }

    @Test func atmelFastTapsLastAbout100ms() throws {
        let (device, events) = try readEvemu("evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events")
        var a = FrameAssembler(device: device)
        let s = Summary(events, &a)
        for id in s.ids {
            let ms = (s.final[id]!.1 - s.began[id]!).milliseconds
            #expect(ms >= 60 && ms <= 130, "c\(id) lasted \(ms) ms")
        }
    }

    @Test func n4PressureIsNormalized() throws {
        let (device, events) = try readEvemu("xorg-integration-tests/n4.events", desc: "xorg-integration-tests/n4.desc")
        var a = FrameAssembler(device: device)
        let s = Summary(events, &a)
        let pressures = s.frames.flatMap { $0.contacts.compactMap { $0.pressure?.value } }
        #expect(pressures.count == s.frames.reduce(0) { $0 + $1.contacts.count })
        #expect((pressures.min() ?? 0) >= 24.0 / 255 - 1e-9)
        #expect((pressures.max() ?? 1) <= 66.0 / 255 + 1e-9)
    }

    @Test func semiMTTrackpadIsTwoContacts() throws {
        let (device, events) = try readEvemu("evemu-devices/CyPS2 Cypress Trackpad.two_finger_press.events")
        #expect(device.hasProperty(EventCodes.INPUT_PROP_SEMI_MT))
        var a = FrameAssembler(device: device)
        let s = Summary(events, &a)
        #expect(s.ids == [0, 1])
        #expect(a.geometry.source == .resolution)
    }

    @Test func dellPenIsOneContactOnlyWhileTouching() throws {
        let (device, events) = try readEvemu("evemu-devices/dell_canvas_pen.evemu")
        var a = FrameAssembler(device: device)
        let s = Summary(events, &a)
        #expect(a.inputProtocol == .singleTouch)
        #expect(s.ids == [0])  // three hovers in proximity make no contact
        let duration = s.final[0]!.1 - s.began[0]!
        #expect(duration.seconds > 1.0 && duration.seconds < 1.4)
        let top = s.frames.compactMap { $0.contacts.first?.pressure?.value }.max() ?? 0
        #expect(top > 0.95 && top <= 1)
    }

    @Test func galaxySIsProtocolBWithoutSlotEvents() throws {
        let events = try readGetevent("MonkeyHelper/galaxys-paint.txt")
        let device = DeviceDescription(
            name: "Galaxy S (guessed axes)",
            absinfo: [
                EventCodes.ABS_MT_POSITION_X: AbsInfo(minimum: 0, maximum: 1023),
                EventCodes.ABS_MT_POSITION_Y: AbsInfo(minimum: 0, maximum: 1023),
            ])
        var a = FrameAssembler(device: device)
        let s = Summary(events, &a)
        #expect(a.inputProtocol == .slotted)
        #expect(s.ids.count == 34)
        #expect(s.final.count == 34)
    }

    @Test(arguments: [
        ("MonkeyHelper/phone-two-finger-drag.txt", 2),
        ("MonkeyHelper/tablet-two-finger-drag.txt", 2),
        ("MonkeyHelper/tablet-openCalender-drag-tap-tap.txt", 3),
    ])
    func androidProtocolA(file: String, contacts: Int) throws {
        let events = try readGetevent(file)
        let device = DeviceDescription(
            name: "Android (guessed axes)",
            absinfo: [
                EventCodes.ABS_MT_POSITION_X: AbsInfo(minimum: 0, maximum: 2047),
                EventCodes.ABS_MT_POSITION_Y: AbsInfo(minimum: 0, maximum: 2047),
            ])
        var a = FrameAssembler(device: device)
        let s = Summary(events, &a)
        #expect(a.inputProtocol == .unslotted)
        #expect(s.ids.count == contacts)
        #expect(s.final.count == contacts)
    }
}
