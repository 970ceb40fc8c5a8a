// `touchline daemon --measure`: how long a frame takes from the moment its first event reaches
// the session (read from the device, or due from the trace) to the moment each gesture event
// it produced has been written to the clients' sockets (send(2) returned), or its frame to the
// pass-through clone (write(2) returned). From the first event, not the SYN_REPORT: the work on
// the frame's other events (the assembler's) is part of what a frame waits for (issue 31). The session and the
// socket sink hold an optional probe: when it is nil (always, unless --measure) the cost is one
// nil check per event and per gesture event, and the clock is never read.
//
// Samples go into a fixed log-linear histogram (64 steps per power of two, so a percentile is
// within 1.6 % of the value; HdrHistogram's layout), allocated once: a soak of 10^8 events
// measures without growing.
import TouchlineInput

public final class LatencyProbe {
    static let subBits = 6
    static let subCount = 1 << subBits
    /// Counts by bucket: values below 64 ns exactly, then 64 buckets per power of two.
    var counts: [Int]
    public private(set) var samples = 0
    public private(set) var maximum: Int64 = 0
    /// When the current frame's first event arrived (ns), or nil outside a frame: events fired
    /// by a deadline belong to no frame and are not counted.
    var frameStart: Int64?
    /// Frames seen (SYN_REPORTs), with or without events.
    public private(set) var frames = 0

    /// What is measured, for the summary ("frame read → event written to the socket").
    let measured: String
    let unit: String

    public init(measuring measured: String = "frame read → event written to the socket", unit: String = "events") {
        counts = Array(repeating: 0, count: (64 - Self.subBits + 1) * Self.subCount)
        self.measured = measured
        self.unit = unit
    }

    /// A pass-through clone's probe: from the frame read to its frame written to the clone.
    public static func passThrough() -> LatencyProbe {
        LatencyProbe(measuring: "frame read → frame written to the pass-through clone", unit: "clone frames")
    }

    /// An event arrived at `now` (ns): the first since the last frame ended starts the
    /// frame's clock.
    public func eventRead(at now: Int64) {
        if frameStart == nil { frameStart = now }
    }

    /// A SYN_REPORT arrived: the frame is whole (its clock started at its first event).
    public func frameRead() {
        frames += 1
        if frameStart == nil { frameStart = MonotonicNanoseconds.now() }
    }

    /// The frame's events are all out.
    public func frameDone() { frameStart = nil }

    /// Whether the next event starts a frame's clock (the session reads the clock only then).
    public var waitsForFrameStart: Bool { frameStart == nil }

    /// One of the frame's gesture events went to the sockets.
    public func eventWritten() {
        guard let start = frameStart else { return }
        record(MonotonicNanoseconds.now() - start)
    }

    public func record(_ nanoseconds: Int64) {
        let value = max(0, nanoseconds)
        counts[Self.bucket(value)] += 1
        samples += 1
        if value > maximum { maximum = value }
    }

    static func bucket(_ value: Int64) -> Int {
        if value < Int64(subCount) { return Int(value) }
        let magnitude = 63 - value.leadingZeroBitCount          // >= subBits
        let shift = magnitude - subBits
        let sub = Int(value >> Int64(shift)) - subCount          // 0 ..< subCount
        return (shift + 1) * subCount + sub
    }

    /// The largest value a bucket holds.
    static func upperBound(_ bucket: Int) -> Int64 {
        if bucket < subCount { return Int64(bucket) }
        let shift = bucket / subCount - 1
        let sub = bucket % subCount
        return ((Int64(subCount + sub + 1)) << Int64(shift)) - 1
    }

    /// The value at or below which `fraction` of the samples lie (the bucket's upper bound,
    /// never above the maximum seen); 0 without samples.
    public func percentile(_ fraction: Double) -> Int64 {
        guard samples > 0 else { return 0 }
        let rank = max(1, Int((fraction * Double(samples)).rounded(.up)))
        var seen = 0
        for (bucket, count) in counts.enumerated() where count > 0 {
            seen += count
            if seen >= rank { return min(Self.upperBound(bucket), maximum) }
        }
        return maximum
    }

    /// The histogram's non-empty buckets as `upper:count` (ns) after the unit, one line: runs
    /// pooled by a script (scripts/passthrough-latency.py) give the pooled percentiles exactly
    /// as one run's, from the same buckets.
    public var buckets: String {
        var line = "latency buckets (\(unit)):"
        for (bucket, count) in counts.enumerated() where count > 0 { line += " \(Self.upperBound(bucket)):\(count)" }
        return line
    }

    /// One line for standard error.
    public var summary: String {
        func us(_ ns: Int64) -> String {
            let tenths = (ns + 50) / 100
            return "\(tenths / 10).\(tenths % 10) µs"
        }
        return "latency \(measured): \(samples) \(unit) of \(frames) frames; "
            + "p50 \(us(percentile(0.5))), p99 \(us(percentile(0.99))), p99.9 \(us(percentile(0.999))), max \(us(maximum))"
    }
}
