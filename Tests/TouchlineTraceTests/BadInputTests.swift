import Testing
import TouchlineCore
@testable import TouchlineTrace

/// Bad input gets "FILE:LINE: what was expected", and everything before the bad line has
/// already been yielded.
@Suite struct BadInputTests {
    let evemuHeader = """
        # EVEMU 1.3
        N: Test Screen
        I: 0018 0000 0000 0000
        P: 02 00 00 00 00 00 00 00
        A: 2f 0 9 0 0 0
        A: 35 0 799 0 0 10
        A: 36 0 479 0 0 10
        A: 39 0 65535 0 0 0

        """

    func message(_ r: ReadResult) -> String? { r.error.map { String(describing: $0) } }

    @Test func emptyFile() {
        let r = readAll("", fileName: "empty.evemu")
        #expect(message(r) == "empty.evemu:1: empty file: expected an evemu, libinput record or getevent -lt trace")
        #expect(r.events.isEmpty)
    }

    @Test func binaryGarbage() {
        let garbage: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x0A, 0xFF, 0xFE]
        let r = readAll(garbage, fileName: "a.out")
        #expect(message(r) == "a.out:1: binary data: expected a text trace (evemu, libinput record YAML or getevent -lt)")
    }

    @Test func binaryGarbageWithoutNewlinesStopsAtTheLineLimit() {
        let garbage = [UInt8](repeating: 0x41, count: 200_000)
        let r = readAll(garbage, fileName: "blob", options: TraceReaderOptions(maxLineLength: 1024))
        #expect(message(r) == "blob:1: a line longer than 1024 bytes: expected a text trace with lines (is this a binary file?)")
    }

    @Test func textThatIsNoTrace() {
        let r = readAll("hello world\n", fileName: "notes.txt")
        #expect(message(r) == "notes.txt:1: not a trace Touchline can read: expected an evemu line ('N:', 'E:', ...), a libinput record line ('version: 1') or a getevent -lt line ('[ sec.usec] EV_ABS ...'), found 'hello world'")
    }

    @Test func truncatedLastLine() {
        let r = readAll(evemuHeader + "E: 0.000000 0003 0039 7\nE: 0.000000 0000 0000 0\nE: 0.010000 0003", fileName: "cut.evemu")
        #expect(message(r) == "cut.evemu:11: expected a hexadecimal event code after the type, found the end of the line")
        #expect(r.events.count == 2)
    }

    @Test func badHexCode() {
        let r = readAll(evemuHeader + "E: 0.000000 0003 0039 7\nE: 0.000000 0003 00zz 5\n", fileName: "hex.evemu")
        #expect(message(r) == "hex.evemu:10: expected a hexadecimal event code after the type, found '00zz'")
        #expect(r.events.count == 1)
    }

    @Test func unknownEventType() {
        let r = readAll(evemuHeader + "E: 0.000000 0003 0039 7\nE: 0.000000 0020 0000 1\n", fileName: "type.evemu")
        #expect(message(r) == "type.evemu:10: unknown event type 0x0020: expected a type the kernel defines (EV_SYN, EV_KEY, EV_ABS, ...)")
        #expect(r.events.count == 1)
    }

    @Test func codeOutOfRangeForItsType() {
        let r = readAll(evemuHeader + "E: 0.000000 0003 0050 1\n", fileName: "code.evemu")
        #expect(message(r) == "code.evemu:9: event code 0x0050 is out of range for EV_ABS: expected at most 0x003f")
    }

    @Test func headerWithNoEvents() {
        let r = readAll(evemuHeader, fileName: "header.evemu")
        #expect(message(r) == "header.evemu:8: no events: the file ends after its header; expected 'E: sec.usec type code value' event lines")
    }

    @Test func eventsFileWithNoDescription() {
        let r = readAll("E: 1330496004.684626 0003 0039 7\nE: 1330496004.684629 0003 0035 1488\n", fileName: "Device.tap.events")
        #expect(message(r) == "Device.tap.events:1: event lines without a device description: this is a header-less evemu .events file; give its .desc file (--desc FILE, or NAME.desc beside it)")
    }

    @Test func eventsFileWithDescription() throws {
        let desc = try TraceReader.readDescription(source: BytesSource(evemuHeader), fileName: "Device.desc")
        #expect(desc.name == "Test Screen")
        let r = readAll("E: 1.000001 0003 0039 7\nE: 1.000002 0000 0000 0\n", fileName: "Device.tap.events", options: TraceReaderOptions(description: desc))
        #expect(r.error == nil)
        #expect(r.devices == [desc])
        #expect(r.events.map(\.event) == [
            InputEvent(time: Timestamp(microseconds: 1_000_001), type: 3, code: 0x39, value: 7),
            InputEvent(time: Timestamp(microseconds: 1_000_002), type: 0, code: 0, value: 0),
        ])
    }

    @Test func libinputRecordBrokenEventRow() {
        let yaml = """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event1
              evdev:
                name: "Test"
                id: [3, 1, 2, 3]
                codes:
                  0: [0]
                  3: [53]
                absinfo:
                  53: [0, 100, 0, 0, 5]
                properties: [1]
              events:
              - evdev:
                - [  0,      0,   3,  53,      10]
                - [  0,      0,   0,   0,       0]
              - evdev:
                - [  0,  10000,   3,  53 11]
                - [  0,  10000,   0,   0,       0]

            """
        let r = readAll(yaml, fileName: "broken.yml")
        #expect(message(r) == "broken.yml:19: expected an event row '- [sec, usec, type, code, value]' with 5 numbers, but after number 4 found '11]' instead of ','")
        #expect(r.events.count == 2)
        #expect(r.devices.first?.absinfo[53] == AbsInfo(minimum: 0, maximum: 100, resolution: 5))
    }

    @Test func libinputRecordWithoutEvents() {
        let r = readAll("version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event1\n  evdev:\n    name: \"Test\"\n  events:\n", fileName: "empty.yml")
        #expect(message(r) == "empty.yml:7: no events: expected an 'events:' list of '- evdev:' blocks with rows '- [sec, usec, type, code, value]'")
    }

    @Test func libinputRecordOtherVersion() {
        let r = readAll("version: 2\n", fileName: "v2.yml")
        #expect(message(r) == "v2.yml:1: unsupported libinput record version 2: expected version 1")
    }

    @Test func geteventBadValue() {
        let text = "[    1.000000] EV_ABS       ABS_MT_POSITION_X    0000002b\n[    1.000001] EV_ABS       ABS_MT_POSITION_Y    zz\n"
        let r = readAll(text, fileName: "g.txt")
        #expect(message(r) == "g.txt:2: expected a value of 8 hex digits (or UP/DOWN/REPEAT) after the code, found 'zz'")
        #expect(r.events.count == 1)
    }

    @Test func geteventUnknownName() {
        let r = readAll("[    1.000000] EV_ABS       ABS_NOPE    0000002b\n", fileName: "g.txt")
        #expect(message(r) == "g.txt:1: unknown event code 'ABS_NOPE' for EV_ABS: expected a code name of EV_ABS such as ABS_MT_POSITION_X, or 4 hex digits")
    }

    /// After an error the reader stays stopped; it does not skip the bad line and go on.
    @Test func nextAfterAnErrorReturnsNil() throws {
        var reader = try TraceReader(source: BytesSource(evemuHeader + "E: 0.0 0003 0039 7\nE: bad\nE: 0.0 0000 0000 0\n"), fileName: "x")
        #expect(try reader.next() != nil)
        #expect(throws: TraceError.self) { try reader.next() }
        #expect(try reader.next() == nil)
    }
}

/// Regressions for inputs the fuzzers made up.
@Suite struct FuzzRegressionTests {
    /// Seconds with 18 digits used to wrap Int64 microseconds, and a writer subtracting two such
    /// times trapped. Seconds are now limited to 12 digits.
    @Test func hugeSecondsAreAnError() {
        let r = readAll("N: T\nE: 0.000001 0000 0000 0\nE: 999999999999999999.000001 0000 0000 0\n", fileName: "t.evemu")
        #expect(r.error.map(String.init(describing:)) == "t.evemu:3: expected an event line 'E: sec.usec type code value' starting with a time 'sec.usec', found '999999999999999999.00000…'")
        #expect(r.events.count == 1)
    }

    @Test func writersSurviveExtremeTimes() throws {
        var writer = LibinputRecordWriter(devices: [DeviceDescription(name: "x")], sink: BytesSink())
        try writer.write(TraceEvent(device: 0, event: InputEvent(time: Timestamp(microseconds: .max), type: 0, code: 0, value: 0)))
        try writer.write(TraceEvent(device: 0, event: InputEvent(time: Timestamp(microseconds: .min), type: 0, code: 0, value: .min)))
        try writer.finish()
        var evemu = EvemuWriter(device: DeviceDescription(name: "x"), sink: BytesSink())
        try evemu.write(InputEvent(time: Timestamp(microseconds: .min), type: 0, code: 0, value: .min))
        try evemu.write(InputEvent(time: Timestamp(microseconds: .max), type: 0, code: 0, value: .max))
        try evemu.finish()
        #expect((evemu.sink as! BytesSink).text.hasSuffix(
            "E: 0.000000 0000 0000 -2147483648\t# ------------ SYN_REPORT (-2147483648) ---------- +0ms\n"
                + "E: 0.000000 0000 0000 2147483647\t# ------------ SYN_REPORT (2147483647) ---------- +0ms\n"))
    }
}
