import Testing
import TouchlineCore
@testable import TouchlineTrace

/// Phone captures without their `getevent -lp` header (what record-and-replay tools keep):
/// ranges guessed from where touches meet the edges (docs/traces.md, "Axis ranges"), the
/// numeric `getevent -t` form, and `getevent -ltr`'s rates.
@Suite struct GeteventRangeGuessTests {
    let x = EventCodes.ABS_MT_POSITION_X
    let y = EventCodes.ABS_MT_POSITION_Y

    /// 9b4ee5b took 0..2047 × 0..4095 for this 1080×2220 phone (the next powers of two), so the
    /// home gestures from y 2219 and the back gestures from x 1079 started 105 and 54 mm from
    /// those edges. Two touches start at each edge and travel inward, and 1079 and 2219 are a
    /// panel's last column and row: those are the edges.
    @Test func aPhoneCaptureWithEdgeSwipesFindsItsEdges() throws {
        var reader = try TraceReader(source: BytesSource(PhoneCapture.text()), fileName: "phone.txt")
        let d = reader.devices[0]
        #expect(d.absinfo[x] == AbsInfo(minimum: 0, maximum: 1079))
        #expect(d.absinfo[y] == AbsInfo(minimum: 0, maximum: 2219))
        // Not places: no edge to find.
        #expect(d.absinfo[EventCodes.ABS_MT_TOUCH_MAJOR] == AbsInfo(minimum: 0, maximum: 15))
        #expect(reader.rangeSource(device: 0, code: x) == .edges)
        #expect(reader.rangeSource(device: 0, code: y) == .edges)
        #expect(reader.rangeSource(device: 0, code: EventCodes.ABS_MT_TOUCH_MAJOR) == .powerOfTwo)
        #expect(reader.rangeSource(device: 0, code: EventCodes.ABS_PRESSURE) == nil)
        #expect(reader.takeWarnings() == [
            "phone.txt: no 'getevent -lp' header gives the axis ranges of getevent; guessed from the first 4096 events: ABS_MT_POSITION_X 0..1079 (touches reach its edge), ABS_MT_POSITION_Y 0..2219 (touches reach its edge), ABS_MT_TOUCH_MAJOR 0..15 (the next power of two); pass --range AXIS=MIN:MAX to give the real ones (docs/traces.md, \"Axis ranges\")",
        ])
        while try reader.next() != nil {}
        #expect(reader.takeWarnings().isEmpty, "no value lies beyond the guessed edges")
    }

    /// The failure case: when no touch reaches an edge, the data cannot say where it is, and
    /// the power of two keeps every touch away from it (no edge swipe is made up).
    @Test func withoutTouchesAtTheEdgesThePowerOfTwoStays() throws {
        // Only the taps and the strokes that start mid-screen (reversed gestures end at the
        // edge, but once per edge: one is where a user stopped, not a wall).
        let lines = PhoneCapture.text().split(separator: "\n", omittingEmptySubsequences: false)
        let taps = lines.filter { line in
            // The touches at 1000, 1004 and 1008 s are the taps.
            line.hasPrefix("[    1000.") || line.hasPrefix("[    1004.") || line.hasPrefix("[    1008.")
        }.joined(separator: "\n") + "\n"
        let reader = try TraceReader(source: BytesSource(taps), fileName: "taps.txt")
        #expect(reader.devices[0].absinfo[x] == AbsInfo(minimum: 0, maximum: 1023))
        #expect(reader.devices[0].absinfo[y] == AbsInfo(minimum: 0, maximum: 2047))
        #expect(reader.rangeSource(device: 0, code: x) == .powerOfTwo)
        #expect(reader.rangeSource(device: 0, code: y) == .powerOfTwo)
    }

    /// With pointer emulation (ABS_X and ABS_Y beside the MT axes), the single-touch axes take
    /// the MT axes' guess, as the kernel copies their ranges.
    @Test func pointerEmulationAxesFollowTheMultitouchOnes() throws {
        var text = ""
        for line in PhoneCapture.text().split(separator: "\n") {
            text += line + "\n"
            for (mt, st) in [("ABS_MT_POSITION_X   ", "ABS_X               "), ("ABS_MT_POSITION_Y   ", "ABS_Y               ")] where line.contains(mt) {
                text += line.replacing(mt, with: st) + "\n"
            }
        }
        let reader = try TraceReader(source: BytesSource(text), fileName: "phone.txt")
        #expect(reader.devices[0].absinfo[EventCodes.ABS_X] == AbsInfo(minimum: 0, maximum: 1079))
        #expect(reader.devices[0].absinfo[EventCodes.ABS_Y] == AbsInfo(minimum: 0, maximum: 2219))
        #expect(reader.rangeSource(device: 0, code: EventCodes.ABS_X) == .edges)
        #expect(reader.devices[0].absinfo[y] == AbsInfo(minimum: 0, maximum: 2219))
    }

    /// `--range` wins over the guess, per axis; the other axis is still guessed.
    @Test func aGivenRangeWinsOverTheGuess() throws {
        let options = TraceReaderOptions(getevent: GeteventOptions(ranges: [EventCodes.ABS_MT_POSITION_Y: AbsInfo(minimum: 0, maximum: 2399)]))
        let reader = try TraceReader(source: BytesSource(PhoneCapture.text()), fileName: "phone.txt", options: options)
        #expect(reader.devices[0].absinfo[y] == AbsInfo(minimum: 0, maximum: 2399))
        #expect(reader.rangeSource(device: 0, code: y) == .range)
        #expect(reader.rangeSource(device: 0, code: x) == .edges)
    }

    /// A panel size within 1 % at or above the highest value seen: D − 1, or D when the value
    /// is D itself; none for the shared traces' 973 (galaxys-paint) and 1539 (TF201).
    @Test(arguments: [
        (Int32(2219), Int32?(2219)), (2212, 2219), (2198, 2219), (2196, nil), (2220, 2220),
        (1079, 1079), (1070, 1079), (1080, 1080), (1014, 1023), (973, nil), (1539, nil),
        (2399, 2399), (3199, 3199), (719, 719), (1, nil), (237, 239), (236, nil), (65536, 65536), (65537, nil), (Int32.max, nil),
    ] as [(Int32, Int32?)])
    func panelMaximum(highest: Int32, expected: Int32?) {
        #expect(PanelEdges.panelMaximum(atOrAbove: highest) == expected)
    }

    /// Two touches that start or end within 1 % of the highest value and travel 5 % inward;
    /// one is not enough, nor are taps or strokes along the edge.
    @Test func howManyTouchesShowAnEdge() {
        let home = TouchExtent(first: 2219, last: 1500, lowest: 1500)
        let out = TouchExtent(first: 1400, last: 2205, lowest: 1400)
        let tap = TouchExtent(first: 2219, last: 2219, lowest: 2219)
        let along = TouchExtent(first: 2210, last: 2215, lowest: 2150)
        let far = TouchExtent(first: 2100, last: 1200, lowest: 1200)
        #expect(PanelEdges.edgeMaximum(highest: 2219, touches: [home, out]) == 2219)
        #expect(PanelEdges.edgeMaximum(highest: 2219, touches: [home, home]) == 2219)
        #expect(PanelEdges.edgeMaximum(highest: 2219, touches: [home]) == nil)
        #expect(PanelEdges.edgeMaximum(highest: 2219, touches: [home, tap, along, far]) == nil)
        // galaxys-paint's y: three strokes start or end near 973, but no panel ends there.
        let strokes = [TouchExtent(first: 973, last: 960, lowest: 867), TouchExtent(first: 887, last: 972, lowest: 878)]
        #expect(PanelEdges.edgeMaximum(highest: 973, touches: strokes) == nil)
    }

    /// The shared getevent traces keep their ranges (their labels assume no more): only the
    /// Galaxy S drag, whose two fingers cross the whole width to 1009 and 1014, shows an edge,
    /// and its panel maximum is the power of two it had.
    @Test(arguments: [
        ("MonkeyHelper/phone-two-finger-drag.txt", Int32(1023), Int32(1023), AxisRangeSource.edges, AxisRangeSource.powerOfTwo),
        ("MonkeyHelper/tablet-two-finger-drag.txt", 2047, 1023, .powerOfTwo, .powerOfTwo),
        ("MonkeyHelper/tablet-openCalender-drag-tap-tap.txt", 2047, 511, .powerOfTwo, .powerOfTwo),
        ("MonkeyHelper/galaxys-paint.txt", 1023, 1023, .powerOfTwo, .powerOfTwo),
    ] as [(String, Int32, Int32, AxisRangeSource, AxisRangeSource)])
    func sharedTracesKeepTheirRanges(path: String, maxX: Int32, maxY: Int32, sourceX: AxisRangeSource, sourceY: AxisRangeSource) throws {
        var reader = try TraceReader(source: BytesSource(try Paths.traceBytes(path)), fileName: path)
        #expect(reader.devices[0].absinfo[x]?.maximum == maxX)
        #expect(reader.devices[0].absinfo[y]?.maximum == maxY)
        #expect(reader.rangeSource(device: 0, code: x) == sourceX)
        #expect(reader.rangeSource(device: 0, code: y) == sourceY)
        while try reader.next() != nil {}
    }

    // MARK: the forms getevent prints

    /// `getevent -t` (no -l) prints type, code and value as hex ("0003 0035 0000021c"), what
    /// recorders write: the same events, devices and guess as `-lt`.
    @Test func theNumericFormReadsAsTheLabelledOne() throws {
        let labelled = readAll(PhoneCapture.text(.labelled), fileName: "phone.txt")
        let numeric = readAll(PhoneCapture.text(.numeric), fileName: "phone.txt")
        #expect(PhoneCapture.text(.numeric).hasPrefix("[    1000.000000] 0003 002f 00000000\n"))
        #expect(numeric.error == nil)
        #expect(numeric.events.count == 375)
        #expect(numeric.events == labelled.events)
        #expect(numeric.devices == labelled.devices)
    }

    /// 9b4ee5b stopped at the first `getevent -ltr` rate ("unexpected 'rate' after the value").
    /// The rate says what the timestamps say: read and ignored, on SYN_REPORT lines.
    @Test func getevent_ltrRatesAreReadAndIgnored() throws {
        let text = PhoneCapture.text(.labelledWithRate)
        #expect(text.contains("SYN_REPORT           00000000             rate 120\n"))
        let rated = readAll(text, fileName: "phone.txt")
        #expect(rated.error == nil)
        #expect(rated.events == readAll(PhoneCapture.text(), fileName: "phone.txt").events)
        let negative = readAll("[    1.000000] EV_SYN       SYN_REPORT           00000000             rate -5\n")
        #expect(negative.error == nil && negative.events.count == 1)
    }

    /// What is not a rate is refused with its line and column.
    @Test(arguments: [
        ("[    1.000000] EV_SYN       SYN_REPORT           00000000             rate x\n",
         "r.txt:2:76: expected a whole number after 'rate' (getevent -r), found 'x'"),
        ("[    1.000000] EV_SYN       SYN_REPORT           00000000             rate\n",
         "r.txt:2:75: expected a whole number after 'rate' (getevent -r), found the end of the line"),
        ("[    1.000000] EV_SYN       SYN_REPORT           00000000             rate 60 hz\n",
         "r.txt:2:79: unexpected 'hz' after the value: expected the end of the line (or ' rate N' after a SYN_REPORT, as getevent -r prints)"),
        ("[    1.000000] EV_ABS       ABS_MT_POSITION_X    0000002b             rate 60\n",
         "r.txt:2:71: unexpected 'rate' after the value: expected the end of the line (or ' rate N' after a SYN_REPORT, as getevent -r prints)"),
    ])
    func whatIsNotARateIsRefusedWithItsColumn(line: String, message: String) {
        let r = readAll("[    0.500000] EV_SYN       SYN_REPORT           00000000\n" + line, fileName: "r.txt")
        #expect(r.error.map(String.init(describing:)) == message)
        #expect(r.events.count == 1, "the line before it is returned")
    }
}

