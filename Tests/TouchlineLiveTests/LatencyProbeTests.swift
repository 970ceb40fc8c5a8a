// The histogram behind `touchline daemon --measure`: exact below 64 ns, then within 1/64 of
// the value, percentiles by rank, and events outside a frame (fired by a deadline) not counted.
import Testing
@testable import TouchlineLive

@Suite struct LatencyProbeTests {
    @Test func percentilesOfAKnownSpreadAreWithinTheBucketWidth() {
        let probe = LatencyProbe()
        // 1 µs … 1,000 µs, one sample each: p50 is 500 µs, p99 990, p99.9 999.
        for us in 1...1000 { probe.record(Int64(us) * 1000) }
        #expect(probe.samples == 1000)
        for (fraction, want) in [(0.5, 500_000.0), (0.99, 990_000.0), (0.999, 999_000.0), (1.0, 1_000_000.0)] {
            let got = Double(probe.percentile(fraction))
            #expect(got >= want && got <= want * (1 + 1.0 / 64), "p\(fraction * 100): \(got) ns for \(want)")
        }
        #expect(probe.maximum == 1_000_000)
    }

    @Test func smallValuesAreExactAndEveryBucketHoldsItsValues() {
        let probe = LatencyProbe()
        for v: Int64 in [0, 1, 63] { probe.record(v) }
        #expect(probe.percentile(1.0 / 3) == 0)
        #expect(probe.percentile(1.0) == 63)
        // Every value lies in a bucket whose upper bound is at least it and within 1/64 above.
        var v: Int64 = 1
        while v < Int64(1) << 62 {
            for x in [v, v + 1, v * 3 / 2] {
                let bound = LatencyProbe.upperBound(LatencyProbe.bucket(x))
                #expect(bound >= x && Double(bound) <= Double(x) * (1 + 1.0 / 64) + 1, "\(x) → \(bound)")
            }
            v *= 2
        }
    }

    @Test func onlyEventsWrittenDuringAFrameCount() {
        let probe = LatencyProbe()
        probe.eventWritten()            // a deadline's event: no frame
        probe.frameRead()
        probe.eventWritten()
        probe.eventWritten()
        probe.frameDone()
        probe.eventWritten()            // after the frame
        #expect(probe.frames == 1)
        #expect(probe.samples == 2)
        #expect(probe.summary.hasPrefix("latency frame read → event written to the socket: 2 events of 1 frames; p50 "))
    }

    @Test func aFramesClockStartsAtItsFirstEventNotItsSynReport() {
        let probe = LatencyProbe.passThrough()
        probe.eventRead(at: 1_000)          // ABS_MT_SLOT: the frame starts
        probe.eventRead(at: 2_000)          // ABS_MT_POSITION_X: the same frame
        probe.frameRead()                   // SYN_REPORT: whole, the clock kept
        #expect(probe.frameStart == 1_000)
        probe.frameDone()
        #expect(probe.frameStart == nil)
        probe.eventRead(at: 5_000)          // the next frame's first event
        #expect(probe.frameStart == 5_000)
        #expect(probe.frames == 1)
    }

    @Test func theBucketsLineNamesEachNonEmptyBucketByItsUpperBound() {
        let probe = LatencyProbe.passThrough()
        for v: Int64 in [5, 5, 100_000] { probe.record(v) }
        #expect(probe.buckets == "latency buckets (clone frames): 5:2 \(LatencyProbe.upperBound(LatencyProbe.bucket(100_000))):1")
    }
}
