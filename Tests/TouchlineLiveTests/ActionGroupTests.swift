// An action is its process group (issue 24, item 10): what its command leaves running in the
// background keeps the action running, holding its place under maxRunning, until the group is
// empty, and no longer than its timeout. Real processes; bounded waits on the runner's descriptor.
import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineLive

@Suite struct ActionGroupTests {
    /// One place (`maxRunning = 1`), taken by a tap whose shell exits at once, leaving a
    /// `sleep 0.3` in its group; and when the tap came.
    func startingABackgroundSleep() throws -> (ActionHarness, Date) {
        let harness = try ActionHarness("""
            [actions]
            maxRunning = 1

            [[action]]
            gesture = "tap"
            timeout = "60s"
            shell = true
            argv = "(sleep 0.3 &); exit 0"
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

    /// As in the daemon's loop: `service()` only when the runner's descriptor is readable, and
    /// an event every 20 ms (each re-arming the runner's timer). The group's check still comes
    /// every 200 ms: the place is free soon after the background sleep ends, not at the timeout.
    @Test func eventsDoNotPutOffTheGroupsCheck() throws {
        let (harness, start) = try startingABackgroundSleep()
        var ms: Int64 = 1
        while harness.runner.running > 0 && Date().timeIntervalSince(start) < 5 {
            var ready = pollfd(fd: harness.runner.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 20) == 1 { harness.runner.service() }
            ms += 20
            harness.runner.handle(event(PanRecognizer.gesture, .changed, at: ms))
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect(harness.runner.running == 0 && elapsed < 3, "the group was still counted after \(elapsed) s")
    }
}
