// formatFixed, JSONWriter and the frame JSON line.
import Testing
@testable import TouchlineCore

@Suite struct FormatFixedTests {
    @Test(arguments: [
        (1.5, 2, "1.50"), (-1.5, 2, "-1.50"), (0.125, 2, "0.13"), (-0.125, 2, "-0.13"),
        (-0.004, 2, "0.00"), (-0.0, 2, "0.00"), (-0.00004, 4, "0.0000"), (-0.00005, 4, "-0.0001"), (0.00005, 4, "0.0001"),
        (12.345678, 0, "12"), (-12.5, 0, "-13"), (0.5, 3, "0.500"), (1e300, 2, "9000000000000000.00"),
        (-1e300, 2, "-9000000000000000.00"), (Double.nan, 2, "0.00"), (-Double.infinity, 3, "0.000"),
    ] as [(Double, Int, String)])
    func doubles(value: Double, decimals: Int, expected: String) {
        #expect(formatFixed(value, decimals: decimals) == expected)
    }

    @Test(arguments: [
        (Int64(1_234_567), 6, "1.234567"), (Int64(-5), 6, "-0.000005"), (Int64(0), 0, "0"), (Int64(0), 3, "0.000"),
        (Int64(-1), 0, "-1"), (Int64.min, 0, "-9223372036854775808"), (Int64.max, 6, "9223372036854.775807"),
    ] as [(Int64, Int, String)])
    func integers(value: Int64, decimals: Int, expected: String) {
        #expect(formatFixed(value, decimals: decimals) == expected)
    }

    @Test func timestampsPrintSixDecimals() {
        #expect(Timestamp(seconds: 1_357_751_031, microseconds: 716_015).description == "1357751031.716015")
        #expect(Timestamp(microseconds: -1).description == "-0.000001")
    }
}

@Suite struct JSONWriterTests {
    @Test func escaping() {
        var w = JSONWriter()
        w.beginObject()
        w.field("s", "quote \" backslash \\ newline \n return \r tab \t bell \u{07} nul \u{0} é ✓")
        w.endObject()
        #expect(w.string == #"{"s":"quote \" backslash \\ newline \n return \r tab \t bell \u0007 nul \u0000 é ✓"}"#)
    }

    @Test func commasNestingAndLines() {
        var w = JSONWriter()
        w.beginObject()
        w.field("a", 1)
        w.field("b", Int64(-2))
        w.beginArray("list")
        w.element("x")
        w.element(-0.0001, decimals: 2)
        w.element(2.5, decimals: 1)
        w.endArray()
        w.beginArray("objects")
        w.beginObject(); w.field("t", true); w.endObject()
        w.beginObject(); w.field("f", false); w.fieldNull("n"); w.endObject()
        w.endArray()
        w.field("k", raw: "began")
        w.field("time", Timestamp(microseconds: 1_500_000))
        w.endObject()
        w.newline()
        w.beginObject(); w.endObject(); w.newline()
        #expect(w.string == """
            {"a":1,"b":-2,"list":["x",0.00,2.5],"objects":[{"t":true},{"f":false,"n":null}],"k":"began","time":1.500000}
            {}

            """)
        w.reset()
        #expect(w.bytes.isEmpty)
    }
}

@Suite struct FrameJSONTests {
    @Test func everyField() {
        let frame = TouchFrame(
            time: Timestamp(microseconds: 1_234_567),
            contacts: [
                Contact(
                    id: ContactID(0), phase: .began, position: Point(x: 12.344, y: 56.775),
                    normalized: Point(x: 0.12344, y: 0.56775), pressure: Pressure(0.5),
                    touchMajor: Millimetres(1.2), touchMinor: Millimetres(0.8), slot: 0),
                Contact(
                    id: ContactID(3), phase: .cancelled, position: Point(x: 0, y: 100),
                    normalized: Point(x: 0, y: 1), slot: -1),
            ],
            afterDrop: true)
        #expect(frame.jsonLine(device: 2) == """
            {"time":1.234567,"device":2,"contacts":[{"id":0,"phase":"began","slot":0,"x":12.34,"y":56.78,"nx":0.1234,"ny":0.5678,"pressure":0.500,"major":1.20,"minor":0.80},{"id":3,"phase":"cancelled","x":0.00,"y":100.00,"nx":0.0000,"ny":1.0000}],"afterDrop":true}

            """)
    }

    @Test func optionalKeysAreOmitted() {
        let frame = TouchFrame(
            time: Timestamp(microseconds: 10_000),
            contacts: [Contact(id: ContactID(7), phase: .stationary, position: Point(x: 1, y: 2), normalized: Point(x: 0.01, y: 0.04), slot: 4)])
        #expect(frame.jsonLine() == #"{"time":0.010000,"contacts":[{"id":7,"phase":"stationary","slot":4,"x":1.00,"y":2.00,"nx":0.0100,"ny":0.0400}]}"# + "\n")
    }

    @Test func linesFromTheAssemblerAreDeterministic() {
        let s = Script()
        s.slot(0).track(1).at(250, 125).pressure(100).major(30).syn(at: 0.010)
        s.slot(0).lift().syn(at: 0.020)
        var a = FrameAssembler(device: Devices.slotted())
        var w = JSONWriter()
        for e in s.events where a.feed(e) { a.frame.writeJSON(device: nil, into: &w) }
        #expect(w.string == """
            {"time":0.010000,"contacts":[{"id":0,"phase":"began","slot":0,"x":25.00,"y":12.50,"nx":0.2500,"ny":0.2500,"pressure":0.500,"major":3.00,"minor":0.00}]}
            {"time":0.020000,"contacts":[{"id":0,"phase":"ended","slot":0,"x":25.00,"y":12.50,"nx":0.2500,"ny":0.2500,"pressure":0.500,"major":3.00,"minor":0.00}]}

            """)
    }

    @Test func phaseNames() {
        for phase in ContactPhase.allCases {
            #expect(phase.staticName.description == phase.description)
        }
    }

    /// Past the 48 bytes written on the stack (more than 24 decimals), the digits go straight
    /// into the array's tail.
    @Test func manyDecimalsAreWrittenInPlace() {
        var out: [UInt8] = Array("x=".utf8)
        appendFixed(Int64(-123), decimals: 30, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "x=-0.000000000000000000000000000123")
        out = []
        appendFixed(Int64.min, decimals: 40, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "-0.0000000000000000000009223372036854775808")
    }
}
