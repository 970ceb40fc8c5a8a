// The trace clock's arithmetic saturates: with a large speed and a long time since the start,
// or a small speed and a far trace time, a value beyond Int64 microseconds trapped (SIGILL in
// the daemon's SIGTERM path, issue 24 item 6). A far future is only "never".
import Testing
import TouchlineCore
@testable import TouchlineLive

@Suite struct TraceClockTests {
    @Test func farInstantsSaturateInsteadOfTrapping() {
        let fast = TraceClock(speed: 1e308)
        fast.start = Timestamp(microseconds: Int64.min / 2)
        #expect(fast.now().microseconds > Int64.max / 8)

        let slow = TraceClock(speed: 1e-15)
        #expect(slow.realTime(Timestamp(microseconds: 1_000_000)).microseconds >= Int64.max / 4)
        slow.start = Timestamp(microseconds: Int64.max - 10)
        #expect(slow.realTime(Timestamp(microseconds: 1_000_000)) == Timestamp(microseconds: Int64.max))
    }

    @Test func ordinaryInstantsAreUnchanged() {
        let clock = TraceClock(speed: 2)
        clock.start = Timestamp(microseconds: 5_000_000)
        clock.origin = Timestamp(microseconds: 1_000)
        #expect(clock.realTime(Timestamp(microseconds: 2_001_000)) == Timestamp(microseconds: 6_000_000))
        #expect(saturatingSum(7, -3) == 7)
        #expect(saturatingSum(7, .nan) == 7)
        #expect(saturatingSum(7, 2.9) == 9)
    }
}
