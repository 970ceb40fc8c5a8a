import Foundation
import Testing

/// A device description that cannot be believed reaches the user as warnings on stderr in
/// `replay` and `inspect`, and the run goes on with the documented fallback (exit 0). On 532b116
/// the same file replayed silently with a 32.8 m × 10.9 m sensor.
@Suite struct DeviceWarningTests {
    static let evemu = """
        # EVEMU 1.3
        N: Implausible Panel
        I: 0018 0000 0000 0000
        P: 02 00 00 00 00 00 00 00
        A: 2f 0 9 0 0 0
        A: 35 0 32767 0 0 1
        A: 35 0 32767 0 0 1
        A: 36 0 32767 0 0 3
        A: 39 0 65535 0 0 0
        E: 0.010000 0003 0039 0001
        E: 0.010000 0003 0035 16000
        E: 0.010000 0003 0036 16000
        E: 0.010000 0000 0000 0000
        E: 0.060000 0003 0039 -001
        E: 0.060000 0000 0000 0000

        """

    @Test func replayAndInspectWarnAboutTheDescriptionAndGoOn() throws {
        let dir = Paths.temporaryDirectory()
        let file = dir.appendingPathComponent("implausible.evemu").path
        try Data(Self.evemu.utf8).write(to: URL(fileURLWithPath: file))
        for command in [["replay", file], ["inspect", file]] {
            let result = try touchline(arguments: command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let warnings = result.stderr.split(separator: "\n")
            #expect(warnings == [
                "touchline: \(file): device 0 (Implausible Panel): ABS_MT_POSITION_X is described more than once; using the last description (0..32767)",
                "touchline: \(file): device 0 (Implausible Panel): the device's resolution (x 1, y 3 units/mm) gives 32767.0 × 10922.3 mm, not a plausible sensor (20 mm to 3 m across); assuming a 10.1\" diagonal (181.4 × 181.4 mm); pass --size WxH in mm for real distances",
            ], "\(command)")
        }
        // The size assumed, 181.4 × 181.4 mm, and where it came from.
        try touchline(in: dir, "inspect", "implausible.evemu").expect(status: 0, stdout: "inspect-implausible.txt", stderr: "inspect-implausible.stderr.txt")
        // --size 300.0 × 100.0 mm overrides the implausible 32767.0 × 10922.3 mm.
        let sized = try touchline(in: dir, "replay", "--size", "300x100", "implausible.evemu")
        #expect(sized.status == 0)
        expectReport(sized.stderr, "replay-size-overrides.stderr.txt")
    }
}
