import Testing
import TouchlineCore
@testable import TouchlineTrace

/// getevent traces read in one pass: ranges from a `getevent -lp` header, the user or a bounded
/// look-ahead; a bad line after everything before it; device paths by hash.
@Suite struct GeteventStreamTests {
    func row(_ t: Int, _ type: String, _ code: String, _ value: Int32, path: String? = nil) -> String {
        let prefix = path.map { "\($0): " } ?? ""
        let hex = String(UInt32(bitPattern: value), radix: 16)
        return "[\(String(repeating: " ", count: 4))\(t / 1_000_000).\(String(t % 1_000_000).leftPadded(6))] \(prefix)\(type.padding(toLength: 12, withPad: " ", startingAt: 0)) \(code.padding(toLength: 20, withPad: " ", startingAt: 0)) \(hex.leftPadded(8))\n"
    }

    /// One finger down at (x, y) and up, as protocol B without slots (galaxys-paint's shape).
    func touch(_ t: Int, x: Int32, y: Int32, id: Int32, path: String? = nil) -> String {
        row(t, "EV_ABS", "ABS_MT_TRACKING_ID", id, path: path)
            + row(t, "EV_ABS", "ABS_MT_POSITION_X", x, path: path)
            + row(t, "EV_ABS", "ABS_MT_POSITION_Y", y, path: path)
            + row(t, "EV_SYN", "SYN_REPORT", 0, path: path)
            + row(t + 50_000, "EV_ABS", "ABS_MT_TRACKING_ID", -1, path: path)
            + row(t + 50_000, "EV_SYN", "SYN_REPORT", 0, path: path)
    }

    // MARK: a bad line

    /// 532b116 read the whole file for its ranges first, so a cut last line printed nothing.
    /// Now every event before it comes out, then the error naming its line; with the bad line
    /// inside the look-ahead and after it.
    @Test(arguments: [4096, 8])
    func badLastLineComesAfterEveryEventBeforeIt(lookAhead: Int) throws {
        var text = ""
        for k in 0..<10 { text += touch(1_000_000 + k * 100_000, x: 100 + Int32(k), y: 200, id: Int32(k)) }
        text += "[    2.000000] EV_ABS       ABS_MT_POSITION_X    0000"
        let r = readAll(text, fileName: "cut.txt", options: TraceReaderOptions(getevent: GeteventOptions(lookAhead: lookAhead)))
        #expect(r.events.count == 60)
        #expect(r.error.map(String.init(describing:)) == "cut.txt:61: expected a value of 8 hex digits (or UP/DOWN/REPEAT) after the code, found '0000'")
        #expect(r.devices.count == 1)
    }

    /// The reader stops at the bad line: nothing after it is returned.
    @Test func nothingAfterTheBadLine() throws {
        let text = touch(1_000_000, x: 1, y: 2, id: 1) + "garbage\n" + touch(2_000_000, x: 1, y: 2, id: 2)
        var reader = try TraceReader(source: BytesSource(text), fileName: "g.txt")
        var events = 0
        #expect(throws: TraceError.self) { while try reader.next() != nil { events += 1 } }
        #expect(events == 6)
        #expect(try reader.next() == nil)
    }

    // MARK: ranges

    @Test(arguments: [
        (Int32(0), Int32(0), Int32(0), Int32(1)),
        (0, 1, 0, 1),
        (0, 2, 0, 3),
        (4, 698, 0, 1023),
        (21, 973, 0, 1023),
        (0, 1023, 0, 1023),
        (0, 1024, 0, 2047),
        (0, 1552, 0, 2047),
        (0, 4095, 0, 4095),
        (-1, 3, -2, 3),
        (-100, 100, -128, 127),
        (0, Int32.max, 0, Int32.max),
        (Int32.min, -5, Int32.min, 0),
    ] as [(Int32, Int32, Int32, Int32)])
    func assumedRangeIsThePowerOfTwoAboveTheValuesSeen(lo: Int32, hi: Int32, minimum: Int32, maximum: Int32) {
        let range = GeteventDeviceFacts.assumedRange(code: EventCodes.ABS_MT_POSITION_Y, lowest: lo, highest: hi)
        #expect(range.minimum == minimum)
        #expect(range.maximum == maximum)
    }

    /// 532b116 put the edge at the highest value seen (973 in galaxys-paint), so a stroke that
    /// starts at 962 began 0.6 % from the edge. The assumed range ends at 1023, one warning
    /// names it and how to override it, and the user's range wins.
    @Test func theEdgeIsNotTheHighestValueSeen() throws {
        let text = touch(1_000_000, x: 300, y: 962, id: 1) + touch(2_000_000, x: 698, y: 973, id: 2)
        var reader = try TraceReader(source: BytesSource(text), fileName: "paint.txt")
        let d = reader.devices[0]
        #expect(d.absinfo[EventCodes.ABS_MT_POSITION_Y] == AbsInfo(minimum: 0, maximum: 1023))
        #expect(d.absinfo[EventCodes.ABS_MT_POSITION_X] == AbsInfo(minimum: 0, maximum: 1023))
        #expect(d.absinfo[EventCodes.ABS_MT_TRACKING_ID] == AbsInfo(minimum: 0, maximum: 65535))
        let warnings = reader.takeWarnings()
        #expect(warnings == ["paint.txt: no 'getevent -lp' header gives the axis ranges of getevent; guessed from the first 4096 events: ABS_MT_POSITION_X 0..1023 (no touch showed its edge: the next power of two), ABS_MT_POSITION_Y 0..1023 (no touch showed its edge: the next power of two); pass --range AXIS=MIN:MAX to give the real ones (docs/traces.md, \"Axis ranges\")"])
        while try reader.next() != nil {}
        #expect(reader.takeWarnings().isEmpty, "one warning, not one per event")

        let given = GeteventOptions(ranges: [EventCodes.ABS_MT_POSITION_Y: AbsInfo(minimum: 0, maximum: 1919)])
        var user = try TraceReader(source: BytesSource(text), fileName: "paint.txt", options: TraceReaderOptions(getevent: given))
        #expect(user.devices[0].absinfo[EventCodes.ABS_MT_POSITION_Y] == AbsInfo(minimum: 0, maximum: 1919))
        #expect(user.takeWarnings().first?.contains("ABS_MT_POSITION_Y") == false)
    }

    /// A value beyond the assumed range after the look-ahead passes unchanged (the frame
    /// assembler clamps it) and gives one warning naming its line, per axis.
    @Test func aLaterValueBeyondTheAssumedRange() throws {
        var text = ""
        for k in 0..<4 { text += touch(1_000_000 + k * 100_000, x: 500, y: 500, id: Int32(k)) }
        text += touch(3_000_000, x: 500, y: 1500, id: 9) + touch(4_000_000, x: 500, y: 1600, id: 10)
        var reader = try TraceReader(source: BytesSource(text), fileName: "late.txt", options: TraceReaderOptions(getevent: GeteventOptions(lookAhead: 8)))
        #expect(reader.devices[0].absinfo[EventCodes.ABS_MT_POSITION_Y] == AbsInfo(minimum: 0, maximum: 511))
        _ = reader.takeWarnings()
        var ys: [Int32] = []
        var warnings: [String] = []
        while let e = try reader.next() {
            if e.event.code == EventCodes.ABS_MT_POSITION_Y { ys.append(e.event.value) }
            warnings += reader.takeWarnings()
        }
        #expect(ys.suffix(2) == [1500, 1600])
        #expect(warnings == ["late.txt:27: ABS_MT_POSITION_Y 1500 is beyond the assumed range 0..511; the frame assembler clamps it to the edge; pass --range ABS_MT_POSITION_Y=MIN:MAX to give the real range"])
        var assembler = FrameAssembler(device: reader.devices[0])
        _ = assembler.feed(InputEvent(time: .zero, type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_TRACKING_ID, value: 1))
        _ = assembler.feed(InputEvent(time: .zero, type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_POSITION_Y, value: 1500))
        let framed = assembler.feed(InputEvent(time: .zero, type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0))
        #expect(framed)
        #expect(assembler.frame.contacts.first?.normalized.y == 1)
    }

    static let header = """
        add device 1: /dev/input/event4
          name:     "fts_ts"
          events:
            KEY (0001): BTN_TOUCH             BTN_TOOL_FINGER*
            ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                        ABS_MT_POSITION_X     : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 11
                        ABS_MT_POSITION_Y     : value 0, min 0, max 2399, fuzz 0, flat 0, resolution 11
                        ABS_MT_TRACKING_ID    : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0
          input props:
            INPUT_PROP_DIRECT
        add device 2: /dev/input/event0
          name:     "mtk-kpd"
          events:
            KEY (0001): 0072  0073  0074
          input props:
            <none>
        could not get driver version for /dev/input/mouse0, Not a typewriter

        """

    /// A `getevent -lp` header gives the ranges, codes and properties: nothing is assumed, and
    /// events stream without a look-ahead.
    @Test func rangesFromAGeteventLpHeader() throws {
        let text = Self.header + touch(1_000_000, x: 540, y: 1200, id: 1, path: "/dev/input/event4")
            + row(1_100_000, "EV_KEY", "KEY_VOLUMEDOWN", 1, path: "/dev/input/event0")
        var reader = try TraceReader(source: BytesSource(text), fileName: "lp.txt")
        #expect(reader.takeWarnings().isEmpty)
        let touch = reader.devices[0]
        #expect(touch.name == "fts_ts")
        #expect(touch.absinfo[EventCodes.ABS_MT_POSITION_X] == AbsInfo(minimum: 0, maximum: 1079, resolution: 11))
        #expect(touch.absinfo[EventCodes.ABS_MT_POSITION_Y] == AbsInfo(minimum: 0, maximum: 2399, resolution: 11))
        #expect(touch.slotCount == 10)
        #expect(touch.codes[EventCodes.EV_KEY] == [EventCodes.BTN_TOOL_FINGER, EventCodes.BTN_TOUCH].sorted())
        #expect(touch.properties == [EventCodes.INPUT_PROP_DIRECT])
        #expect(touch.kind == .touchscreen)
        var events: [TraceEvent] = []
        while let e = try reader.next() { events.append(e) }
        #expect(events.map(\.device) == [0, 0, 0, 0, 0, 0, 1])
        let keys = reader.devices[1]
        #expect(keys.name == "mtk-kpd")
        #expect(keys.codes[EventCodes.EV_KEY] == [0x72, 0x73, 0x74])
        #expect(keys.properties.isEmpty)
        #expect(reader.takeWarnings().isEmpty)

        // --range overrides the header too.
        let given = GeteventOptions(ranges: [EventCodes.ABS_MT_POSITION_X: AbsInfo(minimum: 0, maximum: 719)])
        let user = try TraceReader(source: BytesSource(text), fileName: "lp.txt", options: TraceReaderOptions(getevent: given))
        #expect(user.devices[0].absinfo[EventCodes.ABS_MT_POSITION_X] == AbsInfo(minimum: 0, maximum: 719))
    }

    /// A header may list an ABS code past the kernel's largest (0x3f): it is left out, with a
    /// warning naming the line, so that the trace converts to an evemu file that reads back.
    /// After 4ceb273 it went into absinfo and the evemu writer wrote 'A: ff', which its own
    /// reader refuses.
    @Test func aHeaderCodePastTheKernelsLargestIsLeftOut() throws {
        let text = """
            add device 1: /dev/input/event4
              events:
                ABS (0003): ABS_MT_POSITION_X     : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 11
                            00ff                  : value 0, min 0, max 10, fuzz 0, flat 0, resolution 0
                            ABS_MT_POSITION_Y     : value 0, min 0, max 2399, fuzz 0, flat 0, resolution 11
                            ABS_MT_TRACKING_ID    : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0

            """ + touch(1_000_000, x: 540, y: 1200, id: 1, path: "/dev/input/event4")
        var reader = try TraceReader(source: BytesSource(text), fileName: "lp.txt")
        var events: [InputEvent] = []
        while let e = try reader.next() { events.append(e.event) }
        #expect(reader.takeWarnings() == ["lp.txt:4: the 'getevent -lp' block lists EV_ABS code '00ff', beyond the kernel's largest (0x003f); it is left out of the device's description"])
        let device = reader.devices[0]
        #expect(device.absinfo[0xff] == nil)
        #expect(device.codes[EventCodes.EV_ABS] == [EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID])
        #expect(device.absinfo[EventCodes.ABS_MT_POSITION_Y] == AbsInfo(minimum: 0, maximum: 2399, resolution: 11))

        var writer = EvemuWriter(device: device, sink: BytesSink())
        for e in events { try writer.write(e) }
        try writer.finish()
        let back = readAll((writer.sink as! BytesSink).bytes, fileName: "back.evemu")
        #expect(back.error == nil, "\(String(describing: back.error))")
        #expect(back.events.count == events.count)
    }

    @Test func aHeaderRangeWithoutMinAndMaxIsAnError() {
        let text = "add device 1: /dev/input/event4\n  events:\n    ABS (0003): ABS_MT_POSITION_X     : value 0, fuzz 0\n" + touch(1, x: 1, y: 1, id: 1)
        let r = readAll(text, fileName: "lp.txt")
        #expect(r.error.map(String.init(describing:)) == "lp.txt:3: expected ': value V, min MIN, max MAX, fuzz F, flat F, resolution R' after 'ABS_MT_POSITION_X', found no min or max")
    }

    // MARK: device paths

    /// 532b116 searched the paths seen so far for every event (28 s and 917 MiB for 50,000).
    /// Now a hash table numbers them: every event names its own path's device, in order of
    /// first appearance, each device described before its first event. (Timing is measured on
    /// the command line, not here.)
    /// 50,000 paths: the first 1,024 send events, the others are only listed (`add device`),
    /// as a getevent of a machine with every node would print them. Numbered by hash, so linear.
    @Test func fiftyThousandDevicePaths() throws {
        let count = 50_000
        let sending = GeteventDecoder.maxSendingDevices
        var text = ""
        text.reserveCapacity(count * 140)
        for k in 0..<count {
            let path = "/dev/input/event\(k)"
            if k < sending {
                text += row(1_000_000 + k, "EV_ABS", "ABS_MT_POSITION_X", Int32(k % 1000), path: path)
                text += row(1_000_000 + k, "EV_SYN", "SYN_REPORT", 0, path: path)
            } else {
                text += "add device \(k + 1): \(path)\n"
            }
        }
        // The first device again, at the end: its old number.
        text += row(2_000_000, "EV_SYN", "SYN_REPORT", 0, path: "/dev/input/event0")
        var reader = try TraceReader(source: BytesSource(text), fileName: "many.txt")
        var n = 0
        var misnumbered = 0
        while let e = try reader.next() {
            let expected = n == 2 * sending ? 0 : n / 2
            if e.device != expected || e.device >= reader.devices.count { misnumbered += 1 }
            n += 1
        }
        #expect(n == 2 * sending + 1)
        #expect(misnumbered == 0)
        #expect(reader.devices.count == count)
        #expect(reader.devices[count - 1].name == "/dev/input/event\(count - 1)")
        // Each device's range comes from its own values (345 sent 345).
        #expect(reader.devices[345].absinfo[EventCodes.ABS_MT_POSITION_X] == AbsInfo(minimum: 0, maximum: 511))
        #expect(reader.devices[999].absinfo[EventCodes.ABS_MT_POSITION_X] == AbsInfo(minimum: 0, maximum: 1023))
    }

    /// Each device that sends costs a consumer an assembler and a graph: past the kernel's
    /// 1,024 input devices, the first event of one more is an error after every event before it
    /// (on 532b116, 50,000 sending paths took 28 s and 917 MiB).
    @Test func moreSendingDevicesThanAMachineHasIsAnError() {
        var text = ""
        for k in 0...GeteventDecoder.maxSendingDevices {
            text += row(1_000_000 + k, "EV_SYN", "SYN_REPORT", 0, path: "/dev/input/event\(k)")
        }
        let r = readAll(text, fileName: "many.txt")
        #expect(r.events.count == GeteventDecoder.maxSendingDevices)
        #expect(r.error.map(String.init(describing:)) == "many.txt:1025: a 1025th device sends events (/dev/input/event1024): expected at most 1024, the most input devices the kernel numbers; is this one trace?")
    }

    /// Every device named costs its path and description for the whole trace: past 65,536
    /// paths, the line naming one more is an error after every event before it (after 4ceb273
    /// any number were kept: a 100 MB file of `add device` lines is 3 M devices, over 1 GB).
    @Test func moreDevicePathsThanTheCapIsAnError() {
        var text = row(1, "EV_SYN", "SYN_REPORT", 0, path: "/dev/input/event0")
        for k in 1..<GeteventDecoder.maxDevicePaths { text += "add device \(k + 1): /dev/input/event\(k)\n" }
        text += row(2, "EV_SYN", "SYN_REPORT", 0, path: "/dev/input/event0")
        text += "add device 65537: /dev/input/event65536\n"
        text += row(3, "EV_SYN", "SYN_REPORT", 0, path: "/dev/input/event0")
        let r = readAll(text, fileName: "listed.txt")
        #expect(r.events.count == 2)
        #expect(r.error.map(String.init(describing:)) == "listed.txt:65538: a 65537th device path '/dev/input/event65536': expected at most 65536 devices named in one trace; is this one trace?")
    }

    @Test func aPathTooLongIsAnError() {
        let path = "/dev/" + String(repeating: "x", count: 2000)
        let r = readAll(row(1, "EV_SYN", "SYN_REPORT", 0, path: path), fileName: "long.txt")
        #expect(r.error.map(String.init(describing:))?.hasPrefix("long.txt:1: a device path of 2005 bytes: expected at most 1024, found '/dev/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'") == true)
    }

    // MARK: messages

    /// 532b116 printed control bytes raw, replaced bytes that are not UTF-8, did not shorten the
    /// token and, for a name of another type, expected the very name it had found.
    @Test func unknownNamesAreQuotedAsTheLineHoldsThem() {
        let good = row(1, "EV_ABS", "ABS_MT_POSITION_X", 1)
        var bytes = Array((good + "[    0.000002] EV_ABS       ABS_").utf8) + [0xFF, 0x01, 0x09]
        bytes += Array((String(repeating: "X", count: 100) + " 00000001\n").utf8)
        let r = readAll(bytes, fileName: "g.txt")
        #expect(r.events.count == 1)
        #expect(r.error.map(String.init(describing:)) == "g.txt:2: unknown event code 'ABS_\\xff\\x01' for EV_ABS: expected a code name of EV_ABS such as ABS_MT_POSITION_X, or 4 hex digits")

        let long = readAll(good + "[    0.000002] EV_ABS       ABS_" + String(repeating: "Y", count: 100) + " 00000001\n", fileName: "g.txt")
        #expect(long.error.map(String.init(describing:)) == "g.txt:2: unknown event code 'ABS_YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYY…' for EV_ABS: expected a code name of EV_ABS such as ABS_MT_POSITION_X, or 4 hex digits")

        let other = readAll(good + "[    0.000002] EV_KEY       ABS_MT_POSITION_X    00000001\n", fileName: "g.txt")
        #expect(other.error.map(String.init(describing:)) == "g.txt:2: event code 'ABS_MT_POSITION_X' is a code of EV_ABS, not of EV_KEY: expected a code name of EV_KEY such as BTN_TOUCH, or 4 hex digits")

        let type = readAll(good + "[    0.000002] EV_ABZ       ABS_MT_POSITION_X    00000001\n", fileName: "g.txt")
        #expect(type.error.map(String.init(describing:)) == "g.txt:2: unknown event type 'EV_ABZ': expected a type name such as EV_ABS, EV_KEY or EV_SYN, or 4 hex digits")

        let utf8 = readAll(good + "[    0.000002] EV_ABS       ABS_é    00000001\n", fileName: "g.txt")
        #expect(utf8.error.map(String.init(describing:)) == "g.txt:2: unknown event code 'ABS_é' for EV_ABS: expected a code name of EV_ABS such as ABS_MT_POSITION_X, or 4 hex digits")
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
