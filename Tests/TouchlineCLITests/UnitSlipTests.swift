// A bare number of milliseconds below 10 is almost surely seconds written without a unit, as a
// new user writes them: `timeout = 2` (a 2 ms action timeout) and `minimumDuration = 0.8`
// (every tap a long press) were accepted silently. They are refused, saying the unit the value
// was read in and the value with the unit probably meant; a unit written out is taken as is.
import Foundation
import Testing

@Suite struct UnitSlipTests {
    func check(_ text: String) throws -> (CLIResult, String) {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let path = try dir.write("daemon.toml", text)
        return (try touchline("daemon", "--check-config", path), path)
    }

    @Test func anActionTimeoutOfTwoIsRefusedAsMilliseconds() throws {
        let (result, path) = try check("[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\ntimeout = 2\n")
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(path):4:"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("timeout = 2 is read in milliseconds: 2 ms, too short to be meant; write \"2s\" for 2 s (2000 ms), or \"2ms\" if 2 ms is meant"), "stderr: \(result.stderr)")
    }

    @Test func aLongPressMinimumOfPointEightIsRefusedAsMilliseconds() throws {
        let (result, path) = try check("[[recognizer]]\nkind = \"longPress\"\nminimumDuration = 0.8\n")
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(path):3:"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("longPress.minimumDuration = 0.8 is read in milliseconds: 0.8 ms, too short to be meant; write \"0.8s\" for 0.8 s (800 ms)"), "stderr: \(result.stderr)")
        let defaults = try check("[defaults]\ntap.maxDuration = 5\n").0
        #expect(defaults.status == 65, "stderr: \(defaults.stderr)")
    }

    @Test func plausibleBareNumbersAndWrittenUnitsStand() throws {
        for text in [
            "[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\ntimeout = 2000\n",
            "[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\ntimeout = \"2ms\"\n",
            "[[recognizer]]\nkind = \"longPress\"\nminimumDuration = 800\n",
            "[[recognizer]]\nkind = \"longPress\"\nminimumDuration = \"0.8s\"\n",
            "[[recognizer]]\nkind = \"longPress\"\nminimumDuration = 10\n",
        ] {
            let (result, _) = try check(text)
            #expect(result.status == 0, "\(text): \(result.stderr)")
        }
    }
}
