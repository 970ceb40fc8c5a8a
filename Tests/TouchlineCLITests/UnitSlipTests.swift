// A bare number of milliseconds below 10 is almost surely seconds written without a unit, as a
// new user writes them: `timeout = 2` (a 2 ms action timeout) and `minimumDuration = 0.8`
// (every tap a long press) were accepted silently. They are refused, saying the unit the value
// was read in and the value with the unit probably meant; a unit written out is taken as is.
// The same for bare lengths (mm), speeds (mm/s) and angles (degrees): `slop = 0.003` meant in
// metres, `minimumVelocity = 0.1` in m/s, `maximumAngle = 0.5` in radians, and a target's
// `rect = [0, 0, 1, 1]` meant normalized, were all accepted silently on 8d7af8f.
import Foundation
import Testing

@Suite struct UnitSlipTests {
    func check(_ text: String) throws -> CLIResult { try checkConfig(text) }

    @Test func anActionTimeoutOfTwoIsRefusedAsMilliseconds() throws {
        // daemon.toml:4: … read in milliseconds: 2 ms, too short to be meant; write "2s" …
        try check("[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\ntimeout = 2\n").expect(status: 65, stderr: "check-config-unit-timeout.stderr.txt")
    }

    @Test func aLongPressMinimumOfPointEightIsRefusedAsMilliseconds() throws {
        try check("[[recognizer]]\nkind = \"longPress\"\nminimumDuration = 0.8\n").expect(status: 65, stderr: "check-config-unit-duration.stderr.txt")
        let defaults = try check("[defaults]\ntap.maxDuration = 5\n")
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
            let result = try check(text)
            #expect(result.status == 0, "\(text): \(result.stderr)")
        }
    }

    /// Each bare length, speed and angle below what anyone means, refused at the value with its
    /// unit and the likelier one (whichever lands in the parameter's range), in a recognizer,
    /// in [defaults] and in a pen value.
    @Test func bareLengthsSpeedsAndAnglesFarBelowTheirRangeAreRefused() throws {
        // The error of each, whole: at the value's line, its unit and the likelier one.
        let cases = [
            "[[recognizer]]\nkind = \"tap\"\nslop = 0.3\n",
            "[defaults]\npan.slop = 0.003\n",
            "[[recognizer]]\nkind = \"longPress\"\npen.slop = 0.8\n",
            "[[recognizer]]\nkind = \"swipe\"\nminimumVelocity = 0.1\n",
            "[[recognizer]]\nkind = \"swipe\"\nmaximumAngle = 0.5\n",
            // 0.01 rad is 0.57°, no likelier angle either: only the way to mean it.
            "[defaults]\nrotate.minimumAngle = 0.01\n",
            "[[target]]\nname = \"all\"\nrect = [0, 0, 1, 1]\n",
        ]
        var errors: [(String, String)] = []
        for text in cases {
            let result = try check(text)
            #expect(result.status == 65 && result.stdout.isEmpty, "\(text): \(result.stderr)")
            errors.append((text.split(separator: "\n").joined(separator: "; "), result.stderr))
        }
        expectReport(Report.table(errors), "check-config-units.stderr.txt")
    }

    /// 0 (no slop, no minimum), values at the thresholds, plausible ones and any value with its
    /// unit written stand.
    @Test func plausibleLengthsSpeedsAndAnglesStand() throws {
        for text in [
            "[[recognizer]]\nkind = \"tap\"\nslop = 0\n",
            "[[recognizer]]\nkind = \"tap\"\nslop = 1\n",
            "[[recognizer]]\nkind = \"tap\"\nslop = \"0.3mm\"\n",
            "[[recognizer]]\nkind = \"tap\"\nslop = \"0.3cm\"\n",
            "[[recognizer]]\nkind = \"swipe\"\nminimumVelocity = 0\n",
            "[[recognizer]]\nkind = \"swipe\"\nminimumVelocity = 1\n",
            "[[recognizer]]\nkind = \"swipe\"\nminimumVelocity = \"0.5mm/s\"\n",
            "[[recognizer]]\nkind = \"swipe\"\nmaximumAngle = 2\n",
            "[[recognizer]]\nkind = \"swipe\"\nmaximumAngle = \"0.5rad\"\n",
            "[[recognizer]]\nkind = \"rotate\"\nminimumAngle = 0\n",
            "[[recognizer]]\nkind = \"rotate\"\nminimumAngle = \"1deg\"\n",
            "[[target]]\nname = \"all\"\nrect = [0, 0, 1, 1]\nunits = \"normalized\"\n",
            "[[target]]\nname = \"dot\"\nrect = [0, 0, 1, 1]\nunits = \"mm\"\n",
            "[[target]]\nname = \"strip\"\nrect = [0, 0, 1, 100]\n",
        ] {
            let result = try check(text)
            #expect(result.status == 0, "\(text): \(result.stderr)")
        }
    }
}
