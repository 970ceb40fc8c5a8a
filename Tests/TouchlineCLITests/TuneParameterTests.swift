import Foundation
import Testing

/// Issue 36, item 5: what `tune --parameters` takes, and what `inspect --json` gives to label a
/// recording by hand.
@Suite struct TuneParameterTests {
    /// `--parameters` that names nothing, or a name twice, is refused before anything is read
    /// (`""` searched nothing and said nothing; duplicates merged silently).
    @Test func parametersNamingNothingOrTwiceAreRefused() throws {
        for (list, message) in [
            ("", #"--parameters "": names no parameter; give kind.parameter or kind names, comma-separated (edgeSwipe.margin,tap), or leave the option out to search them all."#),
            (" , ", #"--parameters " , ": names no parameter; give kind.parameter or kind names, comma-separated (edgeSwipe.margin,tap), or leave the option out to search them all."#),
            ("tap,,pan", #"--parameters "tap,,pan": item 2 is empty."#),
            ("tap.slop,pan,tap.slop", "--parameters: 'tap.slop' is given twice."),
            ("tap.maxDuration,tap", "--parameters: 'tap.maxDuration' is searched already as part of 'tap'."),
        ] {
            let result = try touchline("tune", "/nonexistent/labels.json", "--parameters", list)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: \(message)\n"), "\(list): \(result.stderr)")
        }
    }

    /// `inspect --json` gives each touch's start and end (seconds from the trace's first
    /// event, as labels count) and where it went down and up: enough to label by hand.
    @Test func inspectGivesEachTouchsTimes() throws {
        // touches: contact 0 from 0.000 to 0.072 s at 60.00,50.00; contact 1 from 0.192 s.
        try touchline(in: Paths.recordings, "inspect", "--json", "double-tap.yml").expect(status: 0, stdout: "inspect-double-tap.json")
    }
}
