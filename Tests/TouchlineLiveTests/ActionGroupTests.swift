// An action is its process group (issue 24, item 10): what its command leaves running in the
// background keeps the action running, holding its place under maxRunning, until the group is
// empty, and no longer than its timeout. Real processes; bounded waits on the runner's descriptor;
// the session's clock is virtual (the test moves it).
import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineLive

@Suite struct ActionGroupTests {
    /// One place (`maxRunning = 1`), taken by a tap whose shell exits at once, leaving a
    /// `sleep 0.3` in its group; and when the tap came.
    func startingABackgroundSleep(seconds: String = "0.3") throws -> (ActionHarness, Date) {
        let harness = try ActionHarness("""
            [actions]
            maxRunning = 1

            [[action]]
            gesture = "tap"
            timeout = "60s"
            shell = true
            argv = "(sleep \(seconds) &); exit 0"
            """)
        let start = Date()
        harness.runner.handle(event(TapRecognizer.gesture, .recognized, at: 1))
        return (harness, start)
    }

    /// The shell exits at once; its background `sleep 0.3` holds the only place until it ends
    /// by itself, found by the runner's check of the group, with no warning and nothing killed.
    @Test func aBackgroundProcessHoldsTheActionsPlaceUntilItEnds() throws {
        let (harness, start) = try startingABackgroundSleep()
        // The shell's exit wakes the runner: it is reaped, and the group stays.
        harness.runner.wait(milliseconds: 1000)
        #expect(harness.runner.running == 1)
        harness.runner.handle(event(TapRecognizer.gesture, .recognized, at: 2))
        #expect(harness.runner.started == 1)
        #expect(harness.runner.skipped == 1)
        #expect(harness.settle(seconds: 5))
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed >= 0.3 && elapsed < 3, "the group ended after \(elapsed) s")
        #expect(harness.runner.killed == 0)
        #expect(!harness.box.lines.contains { $0.contains("timeout") }, "\(harness.box.lines)")
    }

    /// Events re-arm the runner all the time (each `handle` says its next deadline): the
    /// group's check stays 200 ms of the session's clock after the leader's exit, not put off
    /// by an event every 20 ms. On the virtual clock: the leader's exit is waited for on the
    /// runner's descriptor, the events' time is moved by the test.
    @Test func eventsDoNotPutOffTheGroupsCheck() throws {
        let (harness, _) = try startingABackgroundSleep(seconds: "30")
        let check = harness.clock.time + .milliseconds(200)
        let end = Date().addingTimeInterval(5)
        while harness.runner.nextDeadline != check, Date() < end { harness.runner.wait(milliseconds: 50) }
        #expect(harness.runner.nextDeadline == check, "the shell's exit was not seen")
        for ms in stride(from: Int64(20), through: 180, by: 20) {
            harness.clock.advance(to: harness.clock.time + .milliseconds(20))
            harness.runner.handle(event(PanRecognizer.gesture, .changed, at: ms))
            #expect(harness.runner.nextDeadline == check)
        }
        // At the check the group is still there (its sleep runs): the next is 200 ms on.
        harness.pass(.milliseconds(20))
        #expect(harness.runner.running == 1)
        #expect(harness.runner.nextDeadline == check + .milliseconds(200))
    }
}
