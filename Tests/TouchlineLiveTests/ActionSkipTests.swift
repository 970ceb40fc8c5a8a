// Skipped actions on a clock the test moves (issue 24, item 11): the first skip said, the rest
// counted and said when their 10 s are over, then counted afresh; a quiet action is said at
// once again. The real daemon's case is Tests/TouchlineCLITests/ActionSkipReportTests.swift.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineLive

@Suite struct ActionSkipTests {
    @Test func skipsAreCountedAndSaidEveryTenSeconds() throws {
        let configuration = try DaemonConfiguration.parse(bytes: Array("""
            [actions]
            maxRunning = 1

            [[action]]
            gesture = "tap"
            timeout = "3600s"
            argv = ["sleep", "60"]
            """.utf8), file: "daemon.toml")
        let clock = VirtualClock(start: Timestamp(microseconds: 1_000_000))
        let box = WarningBox()
        let runner = try ActionRunner(configuration.actions, warn: { box.lines.append($0) }, clock: clock)
        defer { runner.finish(grace: 0) }
        func taps(_ count: Int, every ms: Int64) {
            for _ in 0..<count {
                runner.handle(event(TapRecognizer.gesture, .recognized, at: clock.time.microseconds / 1000))
                clock.advance(to: clock.time + .milliseconds(ms))
            }
        }
        let reason = "1 action already running ([actions] maxRunning)"
        taps(1 + 250, every: 4)                 // one runs, 250 skipped within a second
        #expect(box.lines == ["action (line 4) skipped: \(reason) (more skips of it are counted and reported every 10 s)"])
        #expect(runner.nextDeadline == Timestamp(microseconds: 11_004_000))
        clock.advance(to: Timestamp(microseconds: 11_010_000))
        runner.service()                        // the session's wait reached it (10 s after the first skip): 249 counted
        #expect(box.lines.last == "action (line 4) skipped 249 more times in the last 10.0 s: \(reason)")
        taps(3, every: 100)                     // counted afresh
        clock.advance(to: Timestamp(microseconds: 21_020_000))
        runner.service()
        #expect(box.lines.last == "action (line 4) skipped 3 more times in the last 10.0 s: \(reason)")
        clock.advance(to: Timestamp(microseconds: 31_030_000))
        runner.service()                        // a quiet interval: nothing to say, the count ends
        #expect(box.lines.count == 3)
        taps(1, every: 4)                       // said at once again
        #expect(box.lines.count == 4 && box.lines.last?.hasPrefix("action (line 4) skipped: ") == true)
        #expect(runner.started == 1 && runner.skipped == 254)
    }
}
