import Testing
import TouchlineCore
@testable import TouchlineTrace

/// A bad field is quoted whole, as the line holds it (shortened when long), with what was
/// expected: on 532b116 a failed parse quoted what it left behind ("'z35'" for "655z35", the
/// next field for a number past 64 bits, "'0000'" for "00000").
@Suite struct FieldMessageTests {
    static let header = """
        # EVEMU 1.3
        N: Test Screen
        I: 0018 0000 0000 0000
        P: 02 00 00 00 00 00 00 00
        A: 35 0 799 0 0 10
        A: 36 0 479 0 0 10
        A: 39 0 65535 0 0 0

        """

    static let eventLines: [(String, String)] = [
        ("E: 0.000000 0003 0035 1234567890123456789012345",
         "event value '123456789012345678901234…' does not fit in 32 bits: expected -2147483648 to 2147483647"),
        ("E: 0.000000 0003 0035 99999999999", "event value '99999999999' does not fit in 32 bits"),
        ("E: 0.000000 0003 0035 -99999999999999999999", "event value '-99999999999999999999' does not fit in 32 bits"),
        ("E: 0.1234567 0003 0035 1", "expected up to 6 digits of microseconds after the '.' of the time, found '1234567'"),
        ("E: 0.000000 0003 0035 12abc", "expected a decimal event value after the code, found '12abc'"),
    ]

    @Test(arguments: eventLines)
    func evemuEventField(_ line: String, _ expected: String) {
        let r = readAll(Self.header + line + "\n", fileName: "t.evemu")
        #expect(r.error?.line == 8)
        #expect(r.error?.message.hasPrefix(expected) == true, "got: \(r.error?.message ?? "no error")")
    }

    static let headerLines: [(String, String)] = [
        ("A: 2f 0 99999999999999999999 0 0", "the max '99999999999999999999' does not fit in 32 bits: expected -2147483648 to 2147483647"),
        ("A: 2f 0 4294967296 0 0", "the max '4294967296' does not fit in 32 bits"),
        ("A: 2f 0 9 0x10 0", "but the fuzz is not one, found '0x10'"),
        ("A: 2f 0 9z9 0 0", "but the max is not one, found '9z9'"),
        ("A: 2f - 9 0 0", "but the min is not one, found '-'"),
        ("A: 2fff 0 9 0 0", "with the axis code in hex (2 digits), found '2fff'"),
        ("A: 2f 0 9 0 0 5 6", "4 or 5 decimal numbers after the code, found 6: '0 9 0 0 5 6'"),
        ("A: 2f 0 9", "4 or 5 decimal numbers after the code, found 2: '0 9'"),
        ("I: 0018 00000 0000 0000", "but the vendor is '00000'"),
        ("P: 02 1ff", "after 'P:', found '1ff'"),
        ("B: 03 00 zz", "in the 'B:' line, found 'zz'"),
    ]

    @Test(arguments: headerLines)
    func evemuHeaderField(_ line: String, _ expected: String) {
        // The bad line replaces the first 'A:' line (line 5).
        let text = Self.header.replacingOccurrences(of: "A: 35 0 799 0 0 10", with: line) + "E: 0.000000 0000 0000 0\n"
        let r = readAll(text, fileName: "t.evemu")
        #expect(r.error?.line == 5)
        #expect(r.error?.message.contains(expected) == true, "got: \(r.error?.message ?? "no error")")
    }

    static let rows: [(String, String)] = [
        ("- [  0, 99999999999999999999999,   3,  53, 10]", "but number 2 is '99999999999999999999999' (too many digits)"),
        ("- [  0,      0,   3,  53, 99999999999999999999999]", "but number 5 is '99999999999999999999999' (too many digits)"),
        ("- [  0,      0,   3,  53, 12abc]", "but number 5 is '12abc'"),
        // Numbers that parse but are out of range, quoted as the row holds them (after
        // 4ceb273 the messages printed the parsed numbers, and the type and code in hex).
        ("- [  0,      0,   3,  53, +09999999999]", "event value '+09999999999' does not fit in 32 bits: expected -2147483648 to 2147483647"),
        ("- [+05,   1000000,   3,  53, 10]", "expected a time of 0 to 999999999999 seconds and 0 to 999999 microseconds, found seconds '+05' and microseconds '1000000'"),
        ("- [ -0,  -0001,   3,  53, 10]", "found seconds '-0' and microseconds '-0001'"),
        ("- [  0,      0,  032,  53, 10]", "unknown event type '032': expected a type the kernel defines (0 EV_SYN, 1 EV_KEY, 3 EV_ABS, ...)"),
        ("- [  0,      0,  -03,  53, 10]", "unknown event type '-03'"),
        ("- [  0,      0,   3, +099, 10]", "event code '+099' is out of range for EV_ABS: expected 0 to 63"),
        ("- [  0,      0,   3, -0053, 10]", "event code '-0053' is out of range for EV_ABS"),
    ]

    @Test(arguments: rows)
    func libinputRecordRowNumber(_ row: String, _ expected: String) {
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
                \(row)

            """
        let r = readAll(yaml, fileName: "t.yml")
        #expect(r.error?.line == 16)
        #expect(r.error?.message.contains(expected) == true, "got: \(r.error?.message ?? "no error")")
    }
}
