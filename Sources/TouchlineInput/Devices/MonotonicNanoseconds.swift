// CLOCK_MONOTONIC to the nanosecond, for measurements only (`touchline daemon --measure`): the
// live path's own clock is EventLoop.now(), in microseconds, the unit of evdev times. A
// frame's trip through the daemon takes a few microseconds, too few for that unit.
import Glibc

public enum MonotonicNanoseconds {
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
