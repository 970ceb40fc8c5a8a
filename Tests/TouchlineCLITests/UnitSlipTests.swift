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

    /// Each bare length, speed and angle below what anyone means, refused at the value with its
    /// unit and the likelier one (whichever lands in the parameter's range), in a recognizer,
    /// in [defaults] and in a pen value.
    @Test func bareLengthsSpeedsAndAnglesFarBelowTheirRangeAreRefused() throws {
        let cases: [(text: String, line: Int, message: String)] = [
            ("[[recognizer]]\nkind = \"tap\"\nslop = 0.3\n", 3,
             "tap.slop = 0.3 is read in millimetres: 0.3 mm, too short to be meant; write \"0.3cm\" for 0.3 cm (3 mm), or \"0.3mm\" if 0.3 mm is meant (a bare number is millimetres, docs/config.md#units)"),
            ("[defaults]\npan.slop = 0.003\n", 2,
             "pan.slop = 0.003 is read in millimetres: 0.003 mm, too short to be meant; write \"0.003m\" for 0.003 m (3 mm), or \"0.003mm\" if 0.003 mm is meant"),
            ("[[recognizer]]\nkind = \"longPress\"\npen.slop = 0.8\n", 3,
             "longPress.slop = 0.8 is read in millimetres: 0.8 mm, too short to be meant; write \"0.8cm\" for 0.8 cm (8 mm)"),
            ("[[recognizer]]\nkind = \"swipe\"\nminimumVelocity = 0.1\n", 3,
             "swipe.minimumVelocity = 0.1 is read in millimetres per second: 0.1 mm/s, too slow to be meant; write \"0.1m/s\" for 0.1 m/s (100 mm/s), or \"0.1mm/s\" if 0.1 mm/s is meant (a bare number is millimetres per second, docs/config.md#units)"),
            ("[[recognizer]]\nkind = \"swipe\"\nmaximumAngle = 0.5\n", 3,
             "swipe.maximumAngle = 0.5 is read in degrees: 0.5 deg, too small to be meant; write \"0.5rad\" for 0.5 rad (28.648 deg), or \"0.5deg\" if 0.5 deg is meant (a bare number is degrees, docs/config.md#units)"),
            // 0.01 rad is 0.57°, no likelier angle either: only the way to mean it.
            ("[defaults]\nrotate.minimumAngle = 0.01\n", 2,
             "rotate.minimumAngle = 0.01 is read in degrees: 0.01 deg, too small to be meant; write \"0.01deg\" if 0.01 deg is meant"),
            ("[[target]]\nname = \"all\"\nrect = [0, 0, 1, 1]\n", 3,
             "target 'all' has rect = [0, 0, 1, 1] read in millimetres (no units written): 1 × 1 mm, too small to be touched; write units = \"normalized\" for 1 × 1 of the surface, or units = \"mm\" if 1 × 1 mm is meant (docs/config.md#units)"),
        ]
        for (text, line, message) in cases {
            let (result, path) = try check(text)
            #expect(result.status == 65, "\(text): \(result.stderr)")
            #expect(result.stderr.contains("\(path):\(line):"), "\(text): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(text): \(result.stderr)")
        }
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
            let (result, _) = try check(text)
            #expect(result.status == 0, "\(text): \(result.stderr)")
        }
    }
}
