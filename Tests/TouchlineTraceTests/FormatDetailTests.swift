import Foundation
import Testing
import TouchlineCore
@testable import TouchlineTrace

@Suite struct EvemuDetailTests {
    /// evemu 1.3 (Dell Canvas) records resolutions; 1.1 (DTH2242) has four numbers per axis;
    /// 1.2 (Cypress) has five. Bits from B: lines continue across lines of one type.
    @Test func headersOfEachEvemuVersion() throws {
        let canvas = try readShared("evemu-devices/dell_canvas_touch.evemu")
        let d13 = try #require(canvas.devices.first)
        #expect([d13.bus, d13.vendor, d13.product, d13.version] == [3, 0x2575, 0x204, 0x111])
        #expect(d13.absinfo[EventCodes.ABS_MT_POSITION_X] == AbsInfo(minimum: 0, maximum: 32767, resolution: 55))
        #expect(d13.absinfo[EventCodes.ABS_MT_POSITION_Y] == AbsInfo(minimum: 0, maximum: 32767, resolution: 98))
        #expect(d13.slotCount == 5)
        #expect(d13.properties == [EventCodes.INPUT_PROP_DIRECT])
        #expect(d13.codes[EventCodes.EV_KEY] == [EventCodes.BTN_TOUCH])
        #expect(d13.kind == .touchscreen)

        let dth = try #require(try readShared("evemu-devices/Wacom DTH2242 Finger.events").devices.first)
        #expect(dth.absinfo[EventCodes.ABS_MT_POSITION_X] == AbsInfo(minimum: 0, maximum: 4648, fuzz: 4))
        #expect(dth.slotCount == 10)

        let cypress = try #require(try readShared("evemu-devices/CyPS2 Cypress Trackpad.two_finger_press.events").devices.first)
        #expect(cypress.absinfo[EventCodes.ABS_X] == AbsInfo(minimum: 0, maximum: 1600, resolution: 16))
        #expect(cypress.properties == [EventCodes.INPUT_PROP_BUTTONPAD, EventCodes.INPUT_PROP_SEMI_MT])
        #expect(cypress.codes[EventCodes.EV_KEY] == [0x110, 0x111, 0x112, 0x145, 0x148, 0x14a, 0x14d, 0x14e, 0x14f])
        #expect(cypress.kind == .touchpad)
    }

    @Test func eventsOfAHeaderlessFileUseItsDesc() throws {
        let ntrig = try readShared("evemu-devices/N-Trig MultiTouch.2-fingers-touch-release.events")
        let d = try #require(ntrig.devices.first)
        #expect(d.properties.isEmpty)
        #expect(d.absinfo[EventCodes.ABS_MT_POSITION_X]?.maximum == 9600)
        #expect(ntrig.events.first?.event == InputEvent(time: Timestamp(seconds: 1357751031, microseconds: 716015), type: 3, code: 0, value: 1588))
    }

    @Test func descriptionCandidates() {
        #expect(TraceReader.descriptionCandidates(forEventsPath: "../shared/traces/evemu-devices/N-Trig MultiTouch.2-fingers-touch-release.events") == [
            "../shared/traces/evemu-devices/N-Trig MultiTouch.2-fingers-touch-release.desc",
            "../shared/traces/evemu-devices/N-Trig MultiTouch.desc",
        ])
        #expect(TraceReader.descriptionCandidates(forEventsPath: "Wacom ISDv4 E6 Finger.2fg-tap.events") == [
            "Wacom ISDv4 E6 Finger.2fg-tap.desc", "Wacom ISDv4 E6 Finger.desc",
        ])
        #expect(TraceReader.descriptionCandidates(forEventsPath: "x/n4.events") == ["x/n4.desc"])
        #expect(TraceReader.descriptionCandidates(forEventsPath: "a.b/trace") == ["a.b/trace.desc"])
        #expect(TraceReader.descriptionCandidates(forEventsPath: "n4.desc") == [])
    }

    @Test func evemu2CommentsNegativeValuesAndCRLF() {
        let text = "N: T\r\nA: 39 0 65535 0 0 0\r\n####\r\nE: 0.000001 0003 0039 0000\t# EV_ABS / ABS_MT_TRACKING_ID   0\r\nE: 0.5 0003 0039 -1\r\n"
        let r = readAll(text)
        #expect(r.error == nil)
        #expect(r.events.map(\.event) == [
            InputEvent(time: Timestamp(microseconds: 1), type: 3, code: 0x39, value: 0),
            InputEvent(time: Timestamp(microseconds: 5), type: 3, code: 0x39, value: -1),
        ])
    }

    @Test func aHeaderLineAfterEventsIsAnError() {
        let r = readAll("N: T\nE: 0.000001 0000 0000 0\nN: Other\n", fileName: "two.evemu")
        #expect(r.error.map(String.init(describing:)) == "two.evemu:3: expected an event line 'E: sec.usec type code value', found a header line after the events")
        #expect(r.events.count == 1)
    }

    @Test func forcedFormatSkipsDetection() {
        let r = readAll("[    1.000000] EV_SYN SYN_REPORT 00000000\n", fileName: "g.evemu", options: TraceReaderOptions(format: .evemu))
        #expect(r.error.map(String.init(describing:)) == "g.evemu:1: expected an evemu line ('N:', 'I:', 'P:', 'B:', 'A:', 'E:' or a '#' comment), found '[    1.000000] EV_SYN SYN_REPORT 00000000'")
    }
}

@Suite struct GeteventDetailTests {
    /// The ranges assumed from what the devices sent in the look-ahead: 0 to the next power of
    /// two minus one above the highest value seen (galaxys-paint's y reaches 973: 0..1023).
    @Test(arguments: [
        ("MonkeyHelper/phone-two-finger-drag.txt", Int32(1023), Int32(1023), Int32(63), false),
        ("MonkeyHelper/tablet-two-finger-drag.txt", 2047, 1023, 255, false),
        ("MonkeyHelper/galaxys-paint.txt", 1023, 1023, 255, true),
    ] as [(String, Int32, Int32?, Int32, Bool)])
    func inferredRanges(path: String, maxX: Int32, maxY: Int32?, maxPressure: Int32, hasMisc: Bool) throws {
        let r = try readShared(path)
        let devices = r.devices
        let d = try #require(devices.first)
        #expect(devices.count == 1)
        #expect(d.absinfo[EventCodes.ABS_MT_POSITION_X]?.minimum == 0)
        #expect(d.absinfo[EventCodes.ABS_MT_POSITION_X]?.maximum == maxX)
        if let maxY { #expect(d.absinfo[EventCodes.ABS_MT_POSITION_Y]?.maximum == maxY) }
        #expect(d.absinfo[EventCodes.ABS_MT_PRESSURE]?.maximum == maxPressure)
        #expect(d.absinfo[EventCodes.ABS_MT_TRACKING_ID] == AbsInfo(minimum: 0, maximum: 65535))
        #expect((d.absinfo[EventCodes.ABS_MISC] != nil) == hasMisc)
        #expect(d.absinfo[EventCodes.ABS_MT_SLOT] == nil)
        #expect(d.kind == .touchscreen)
        #expect(d.name == "getevent")
    }

    @Test func valuesAreThirtyTwoBitHex() throws {
        let r = try readShared("MonkeyHelper/galaxys-paint.txt")
        #expect(r.events[0].event == InputEvent(time: Timestamp(seconds: 52032, microseconds: 679748), type: 3, code: EventCodes.ABS_MT_TRACKING_ID, value: 0x27d))
        #expect(r.events[6].event.value == -1)
        // The last line has no newline.
        #expect(r.events.last?.event.type == EventCodes.EV_SYN)
    }

    @Test func userRangesAndNameWin() throws {
        let bytes = try Paths.traceBytes("MonkeyHelper/phone-two-finger-drag.txt")
        let options = GeteventOptions(name: "Galaxy S", ranges: [EventCodes.ABS_MT_POSITION_X: AbsInfo(minimum: 0, maximum: 1079, resolution: 20)])
        let devices = readAll(bytes, fileName: "p", options: TraceReaderOptions(getevent: options)).devices
        #expect(devices[0].name == "Galaxy S")
        #expect(devices[0].absinfo[EventCodes.ABS_MT_POSITION_X] == AbsInfo(minimum: 0, maximum: 1079, resolution: 20))
        #expect(devices[0].absinfo[EventCodes.ABS_MT_POSITION_Y]?.maximum == 1023)
    }

    /// Several devices: "add device" headers, path prefixes, names cut at 20 characters,
    /// UP/DOWN key values and raw hex codes.
    @Test func severalDevicesWithPathsAndLabels() throws {
        let text = """
            add device 1: /dev/input/event4
              name:     "touch_dev"
            could not get driver version for /dev/input/mouse0, Not a typewriter
            add device 2: /dev/input/event1
              name:     "gpio-keys"
            [   10.000000] /dev/input/event4: EV_ABS       ABS_MT_POSITION_X    0000002b
            [   10.000000] /dev/input/event4: EV_KEY       BTN_TOUCH            DOWN
            [   10.000000] /dev/input/event4: EV_SYN       SYN_REPORT           00000000
            [   10.100000] /dev/input/event1: EV_KEY       KEY_VOLUMEDOWN       UP
            [   10.100000] /dev/input/event1: 0001         0072                 00000001
            [   10.200000] /dev/input/event4: EV_KEY       BTN_TOOL_DOUBLETAP   00000001
            [   10.200000] /dev/input/event4: EV_ABS       ABS_MT_TOUCH_MAJOR   ffffffff

            """
        let r = readAll(text, fileName: "multi.txt")
        #expect(r.devices.map(\.name) == ["touch_dev", "gpio-keys"])
        #expect(r.error == nil)
        #expect(r.events.map(\.device) == [0, 0, 0, 1, 1, 0, 0])
        #expect(r.events.map(\.event.value) == [0x2b, 1, 0, 0, 1, 1, -1])
        #expect(r.events[4].event.code == 0x72)
        #expect(r.events[5].event.code == EventCodes.BTN_TOOL_DOUBLETAP)
        // A look-ahead of one event describes each device at its first event instead: the same
        // numbers and names.
        let short = readAll(text, fileName: "multi.txt", options: TraceReaderOptions(getevent: GeteventOptions(lookAhead: 1)))
        #expect(short.events.map(\.device) == [0, 0, 0, 1, 1, 0, 0])
        #expect(short.devices.map(\.name) == ["touch_dev", "gpio-keys"])
    }

    @Test func nameCutAtTwentyCharacters() {
        // KEY_BRIGHTNESS_CYCLE is 20 long; KEY_BRIGHTNESS_TOGGLE (an alias of KEY_DISPLAYTOGGLE) is cut.
        let r = readAll("[    1.000000] EV_KEY       KEY_KBDILLUMTOGGLE   DOWN\n[    1.000000] EV_KEY       KEY_BRIGHTNESS_CYCLE DOWN\n")
        #expect(r.error == nil)
        #expect(r.events.map(\.event.code) == [0xe4, 0xf3])
    }

    @Test func timestampIsRequired() {
        let r = readAll("/dev/input/event4: EV_ABS ABS_X 00000001\n", fileName: "g.txt")
        #expect(r.error.map(String.init(describing:)) == "g.txt:1: expected a timestamp '[ sec.usec]' at the start of the event line: record with 'getevent -lt'")
    }
}

@Suite struct LibinputRecordDetailTests {
    @Test func headerFields() throws {
        let r = try readShared("libinput-record/CyPS2 Cypress Trackpad.two_finger_press.yml")
        let d = try #require(r.devices.first)
        #expect([d.bus, d.vendor, d.product, d.version] == [17, 2, 17, 1])
        #expect(d.properties == [2, 3])
        #expect(d.codes[EventCodes.EV_ABS] == [0, 1, 24, 28, 47, 53, 54, 57, 58])
        #expect(d.codes[EventCodes.EV_SYN] == Array(0...15))
        #expect(d.absinfo[53] == AbsInfo(minimum: 0, maximum: 1600, resolution: 16))
        #expect(d.udevProperties == ["ID_INPUT": "1", "ID_INPUT_HEIGHT_MM": "60", "ID_INPUT_TOUCHPAD": "1", "ID_INPUT_WIDTH_MM": "100"])
        #expect(d.kind == .touchpad)
        #expect(r.events.first?.event.time == .zero)
    }

    /// Rows go through one of two parsers (libinput's fixed widths, or the general one that
    /// words the errors); every shape must give the same event whichever takes it.
    @Test(arguments: [
        ("- [  0,      0,   3,  57,    1000] # EV_ABS / ABS_MT_TRACKING_ID    1000", InputEvent(time: .zero, type: 3, code: 57, value: 1000)),
        ("- [  0,      0,   3,  57,      -1] # negative value", InputEvent(time: .zero, type: 3, code: 57, value: -1)),
        ("- [1234, 345678,   3,  53,   12345]", InputEvent(time: Timestamp(seconds: 1234, microseconds: 345_678), type: 3, code: 53, value: 12345)),
        ("- [  7,      1,   3,  53, 123456789] # wider than %7d", InputEvent(time: Timestamp(seconds: 7, microseconds: 1), type: 3, code: 53, value: 123_456_789)),
        ("- [0, 5, 3, 53, 10]", InputEvent(time: Timestamp(seconds: 0, microseconds: 5), type: 3, code: 53, value: 10)),
        ("- [  0,\t 0,   3,  53,  +10]", InputEvent(time: .zero, type: 3, code: 53, value: 10)),
        ("- [  0,      0,   0,   0,       0]", InputEvent(time: .zero, type: 0, code: 0, value: 0)),
        ("- [  0, 999999,   3,  53, -2147483648]#c", InputEvent(time: Timestamp(seconds: 0, microseconds: 999_999), type: 3, code: 53, value: Int32.min)),
    ])
    func eventRowShapes(row: String, expected: InputEvent) {
        let yaml = "version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event1\n  evdev:\n    name: \"T\"\n    id: [3, 1, 2, 3]\n    codes:\n      0: [0]\n      3: [53, 57]\n    absinfo:\n      53: [0, 100, 0, 0, 5]\n      57: [0, 65535, 0, 0, 0]\n  events:\n  - evdev:\n    \(row)\n"
        let r = readAll(yaml, fileName: "row.yml")
        #expect(r.error == nil, "\(String(describing: r.error))")
        #expect(r.events.map(\.event) == [expected])
    }

    @Test(arguments: [
        "- [  0,      0,   3,  5 7,    1000]",
        "- [  0,      0,   3,  57,    1000]x",
        "- [  0,  1000000,   3,  57,    1000]",
        "- [  0,      0,   3,  57,    10 00]",
        "- [  0,      0,  99,  57,    1000]",
        "- [  0,      0,   3,  57]",
    ])
    func badEventRowsAreErrors(row: String) {
        let yaml = "version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event1\n  evdev:\n    name: \"T\"\n    id: [3, 1, 2, 3]\n    codes:\n      0: [0]\n      3: [53, 57]\n  events:\n  - evdev:\n    \(row)\n"
        let r = readAll(yaml, fileName: "row.yml")
        #expect(r.error?.line == 13, "\(String(describing: r.error))")
    }

    /// libinput record lists each device's events under that device; unknown keys and
    /// non-evdev event items (`--with-libinput`) are skipped.
    @Test func twoDevicesAndUnknownKeys() {
        let yaml = """
            # libinput record
            version: 1
            ndevices: 2
            libinput:
              version: "1.22.1"
            future_key: [1, 2]
            devices:
            - node: /dev/input/event1
              evdev:
                name: "First \\"quoted\\" # not a comment"
                id: [3, 1, 2, 3]
                codes:
                  0: [0]
                  3: [53]
                absinfo:
                  53: [0, 100, 0, 0, 5]
                properties: [1]
                mystery: {a: 1}
              udev:
                properties:
                - ID_INPUT=1
                - ID_INPUT_TOUCHSCREEN=1
              quirks:
              events:
              # Current time is 04:56:02
              - evdev:
                - [  0,      0,   3,  53,      10] # EV_ABS / ABS_MT_POSITION_X 10
                - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
              - libinput:
                  type: TOUCH_DOWN
                  time: 0.0
              - evdev:
                - [  0,  10000,   0,   0,       0]
            - node: /dev/input/event2
              evdev:
                name: "Second"
                id: [25, 0, 1, 0]
                codes:
                  1: [116]
                properties: []
              events:
              - evdev:
                - [  1,      5,   1, 116,       1]

            """
        let r = readAll(yaml, fileName: "two.yml")
        #expect(r.error == nil, "\(String(describing: r.error))")
        #expect(r.devices.map(\.name) == ["First \"quoted\" # not a comment", "Second"])
        #expect(r.events.map(\.device) == [0, 0, 0, 1])
        #expect(r.events.last?.event == InputEvent(time: Timestamp(seconds: 1, microseconds: 5), type: 1, code: 116, value: 1))
        #expect(r.devices[1].codes == [1: [116]])
        #expect(r.devices[0].udevProperties["ID_INPUT_TOUCHSCREEN"] == "1")

        // Written back, it stays two devices, each with its own events.
        var writer = LibinputRecordWriter(devices: r.devices, sink: BytesSink())
        for e in r.events { try? writer.write(e) }
        try? writer.finish()
        let back = readAll((writer.sink as! BytesSink).bytes)
        #expect(back.devices[0] == r.devices[0])
        // The second device had no udev properties: the writer gives it those its kind implies.
        #expect(back.devices[1].udevProperties == ["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1"])
        #expect(back.devices[1].codes[1] == [116])
        #expect(back.events.map(\.device) == [0, 0, 0, 1])
        #expect(back.events.map(\.event.time.microseconds) == [0, 0, 10000, 1_000_005])
    }

    @Test func writerRefusesInterleavedDevices() throws {
        var writer = LibinputRecordWriter(devices: [DeviceDescription(name: "a"), DeviceDescription(name: "b")], sink: BytesSink())
        let e = InputEvent(time: .zero, type: 0, code: 0, value: 0)
        try writer.write(TraceEvent(device: 1, event: e))
        #expect(throws: TraceWriterError.self) { try writer.write(TraceEvent(device: 0, event: e)) }
    }
}

@Suite struct WriterOutputTests {
    let device = DeviceDescription(
        name: "Test Screen", bus: 0x18, vendor: 0x1, product: 0x2, version: 0x3,
        properties: [EventCodes.INPUT_PROP_DIRECT],
        codes: [0: [0], 1: [EventCodes.BTN_TOUCH], 3: [0x2f, 0x35, 0x36, 0x39]],
        absinfo: [
            0x2f: AbsInfo(minimum: 0, maximum: 9),
            0x35: AbsInfo(minimum: 0, maximum: 799, resolution: 10),
            0x36: AbsInfo(minimum: 0, maximum: 479, resolution: 10),
            0x39: AbsInfo(minimum: 0, maximum: 65535),
        ])
    let events = [
        InputEvent(time: Timestamp(microseconds: 5_000_100), type: 3, code: 0x39, value: 7),
        InputEvent(time: Timestamp(microseconds: 5_000_100), type: 3, code: 0x35, value: 400),
        InputEvent(time: Timestamp(microseconds: 5_000_100), type: 0, code: 0, value: 0),
        InputEvent(time: Timestamp(microseconds: 5_012_100), type: 3, code: 0x39, value: -1),
        InputEvent(time: Timestamp(microseconds: 5_012_100), type: 0, code: 0, value: 0),
    ]

    @Test func libinputRecordText() throws {
        var writer = LibinputRecordWriter(devices: [device], sink: BytesSink())
        for e in events { try writer.write(TraceEvent(device: 0, event: e)) }
        try writer.finish()
        #expect((writer.sink as! BytesSink).text == """
            # libinput record
            version: 1
            ndevices: 1
            libinput:
              version: "1.22.1"
              git: "unknown"
            system:
              os: "unknown"
              kernel: "unknown"
              dmi: "unknown"
            # Written by Touchline from a trace; the versions above are the format's, not a live system's.
            devices:
            - node: /dev/input/event0
              evdev:
                # Name: Test Screen
                # ID: bus 0x18 vendor 0x1 product 0x2 version 0x3
                name: "Test Screen"
                id: [24, 1, 2, 3]
                codes:
                  0: [0] # EV_SYN
                  1: [330] # EV_KEY
                  3: [47, 53, 54, 57] # EV_ABS
                absinfo:
                  47: [0, 9, 0, 0, 0]
                  53: [0, 799, 0, 0, 10]
                  54: [0, 479, 0, 0, 10]
                  57: [0, 65535, 0, 0, 0]
                properties: [1]
              udev:
                properties:
                - ID_INPUT=1
                - ID_INPUT_TOUCHSCREEN=1
              quirks:
              events:
              - evdev:
                - [  0,      0,   3,  57,       7] # EV_ABS / ABS_MT_TRACKING_ID           7
                - [  0,      0,   3,  53,     400] # EV_ABS / ABS_MT_POSITION_X          400
                - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
              - evdev:
                - [  0,  12000,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID          -1
                - [  0,  12000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms

            """)
    }

    @Test func evemuText() throws {
        var writer = EvemuWriter(device: device, sink: BytesSink())
        for e in events { try writer.write(e) }
        try writer.finish()
        let text = (writer.sink as! BytesSink).text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // evemu-record's header: the comments, then N: I: P: (docs/traces.md#writers).
        #expect(Array(lines.prefix(5)) == [
            "# EVEMU 1.3", "# Written by Touchline from a trace (evemu-record adds the kernel and DMI of a live system)",
            "# Input device name: \"Test Screen\"", "# Input device ID: bus 0x18 vendor 0x01 product 0x02 version 0x03", "# Supported events:",
        ])
        let n = try #require(lines.firstIndex(of: "N: Test Screen"))
        #expect(Array(lines[(n - 2)...(n + 2)]) == [
            "# Properties:", "#   Property  type 1 (INPUT_PROP_DIRECT)", "N: Test Screen", "I: 0018 0001 0002 0003", "P: 02 00 00 00 00 00 00 00",
        ])
        #expect(lines.contains("#     Event code 53 (ABS_MT_POSITION_X)"))
        #expect(lines.contains("#       Max      799"))
        #expect(lines.contains("B: 00 01 00 00 00 00 00 00 00"))
        #expect(lines.contains("B: 01 00 04 00 00 00 00 00 00"))
        #expect(lines.filter { $0.hasPrefix("B: 01") }.count == 12)
        #expect(lines.contains("B: 03 00 00 00 00 00 80 60 02"))
        #expect(lines.contains("A: 35 0 799 0 0 10"))
        #expect(Array(lines.suffix(6)) == [
            "E: 0.000000 0003 0039 0007\t# EV_ABS / ABS_MT_TRACKING_ID   7",
            "E: 0.000000 0003 0035 0400\t# EV_ABS / ABS_MT_POSITION_X    400",
            "E: 0.000000 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms",
            "E: 0.012000 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1",
            "E: 0.012000 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +12ms", "",
        ])
        let back = readAll(text)
        #expect(back.devices == [device])
        #expect(back.events.count == events.count)
    }
}

@Suite struct OpenTests {
    /// A tiny file system of shared traces for `TraceReader.open`.
    func open(_ path: String, desc: String? = nil) throws -> TraceReader {
        try TraceReader.open(
            path: path, descriptionPath: desc,
            openFile: { p in
                guard let data = FileManager.default.contents(atPath: p) else { throw TestFailure("no file \(p)") }
                return BytesSource([UInt8](data))
            },
            fileExists: { FileManager.default.fileExists(atPath: $0) })
    }

    @Test func findsTheDescBesideAnEventsFile() throws {
        var reader = try open(Paths.trace("evemu-devices/Wacom ISDv4 E6 Finger.2fg-tap.events"))
        #expect(reader.devices.first?.name == "Wacom ISDv4 E6 Finger")
        var n = 0
        while try reader.next() != nil { n += 1 }
        #expect(n == 17)
    }

    @Test func explicitDescWins() throws {
        let reader = try open(Paths.trace("xorg-integration-tests/n4.events"), desc: Paths.trace("evemu-devices/N-Trig MultiTouch.desc"))
        #expect(reader.devices.first?.name == "N-Trig MultiTouch")
    }

    /// 532b116 opened a getevent trace twice (a pass for the ranges, then the read) and a
    /// header-less evemu file twice (before and after finding its .desc): a pipe or FIFO has no
    /// second time. Every trace is now opened once; the .desc once more.
    @Test(arguments: [
        ("MonkeyHelper/galaxys-paint.txt", 1, 2935),
        ("evemu-devices/Wacom ISDv4 E6 Finger.2fg-tap.events", 2, 17),
        ("libinput-record/Atmel maXTouch Touchscreen.1-finger-fast-taps.yml", 1, -1),
    ])
    func opensTheTraceOnce(_ relative: String, opens: Int, events: Int) throws {
        let path = Paths.trace(relative)
        // A missing trace is a failure, never a test that passes without reading it.
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing: the shared traces must be at ../shared/traces from the package root")
        var opened: [String] = []
        var reader = try TraceReader.open(
            path: path,
            openFile: { p in
                opened.append(p)
                return BytesSource([UInt8](FileManager.default.contents(atPath: p)!), chunkLimit: 1000)
            },
            fileExists: { FileManager.default.fileExists(atPath: $0) })
        var n = 0
        while try reader.next() != nil { n += 1 }
        #expect(opened.count == opens)
        #expect(opened.filter { $0 == path }.count == 1)
        if events >= 0 { #expect(n == events) }
        if reader.format == .getevent {
            #expect(reader.devices.first?.absinfo[EventCodes.ABS_MT_POSITION_Y]?.maximum == 1023)
        }
    }

    @Test func namesTheCandidatesWhenNoDescExists() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("touchline-open-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("Pad.tap.events")
        try Data("E: 0.000001 0000 0000 0\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: TraceError(
            file: file.path, line: 1,
            message: "event lines without a device description: this is a header-less evemu .events file; give its .desc file (--desc FILE, or NAME.desc beside it); none of '\(dir.path)/Pad.tap.desc', '\(dir.path)/Pad.desc' exists",
            needsDescription: true)) { try open(file.path) }
    }
}
