// Issue 24, item 11: `plot`'s memory grew with the trace (300,000 contacts: 512 MB on 8d7af8f).
// A picture keeps bounded numbers of contacts, frames and gestures, and says what it left out.
import Foundation
import Testing

@Suite struct PlotLimitsTests {
    /// tap.yml's device with `count` taps, 0.5 s apart, each two frames.
    func taps(_ count: Int) throws -> String {
        let header = try String(contentsOf: Paths.recordings.appendingPathComponent("tap.yml"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.hasPrefix("  events:") }
        var out = header.joined(separator: "\n") + "\n  events:\n"
        for i in 0..<count {
            let down = 40_000 + Int64(i) * 500_000, up = down + 80_000
            let x = 200 + (i * 37) % 1700, y = 200 + (i * 53) % 900
            for (us, lines) in [(down, ["3, 57, \(i)", "3, 53, \(x)", "3, 54, \(y)", "1, 330, 1", "0, 0, 0"]),
                                (up, ["3, 57, -1", "1, 330, 0", "0, 0, 0"])] {
                out += "  - evdev:\n"
                for line in lines { out += "    - [\(us / 1_000_000), \(us % 1_000_000), \(line)]\n" }
            }
        }
        return out
    }

    /// On 8d7af8f `plot` kept every frame of every contact and every gesture (300,000 contacts:
    /// 512 MB), and 10,050 taps were all drawn without a word. A picture keeps at most 10,000
    /// contacts: the rest are counted in its header and on stderr (their gestures, far below
    /// their own limit, are all drawn); `--from` draws a later part
    /// of the same trace whole, since contacts before the window make room.
    @Test func plotBoundsWhatItKeepsAndSaysWhatItLeftOut() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("taps.yml").path
        try Data(try taps(10_050).utf8).write(to: URL(fileURLWithPath: trace))
        let note = "not drawn: 50 contacts past a picture's limits (10000 contacts, 1000000 frames of contacts, 100000 gestures); --from and --to draw a part of the trace"

        let whole = try touchline("plot", trace, "-o", "-")
        #expect(whole.status == 0, "stderr: \(whole.stderr)")
        #expect(whole.stderr == "touchline: \(trace): \(note)\n")
        #expect(whole.stdout.contains("10000 contacts; gestures: 0 continuous (bars), 10050 discrete (ticks)"))
        #expect(whole.stdout.contains(">\(note)</text>"))
        #expect(whole.stdout.components(separatedBy: "<path class=\"contact\"").count - 1 == 10_000)

        // The last 100 taps (0.5 s apart): all there, nothing left out.
        let late = try touchline("plot", trace, "-o", "-", "--from", "4975")
        #expect(late.status == 0 && late.stderr.isEmpty, "stderr: \(late.stderr)")
        #expect(late.stdout.contains("100 contacts; gestures: 0 continuous (bars), 100 discrete (ticks), in this window"))
    }
}
