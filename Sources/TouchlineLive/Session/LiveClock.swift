// The session's clock: when a stop or a removal happened and how late output went out. The
// recognizers never read it (their time is the events'); deadlines are waited for by the
// source, which owns the timer. A virtual clock makes that time a test's to move.
import TouchlineInput
import TouchlineCore

public protocol LiveClock: AnyObject {
    /// Now, on the clock of the source's event times.
    func now() -> Timestamp
}

/// CLOCK_MONOTONIC, the clock live event times are on (devices are switched to it).
public final class MonotonicClock: LiveClock {
    public init() {}
    public func now() -> Timestamp { EventLoop.now() }
}

/// Time that moves only when told: a scripted source moves it to each event's time and to each
/// deadline it fires, so a session under test never sleeps.
public final class VirtualClock: LiveClock {
    public private(set) var time: Timestamp
    public init(start: Timestamp = .zero) { time = start }
    public func now() -> Timestamp { time }
    /// Moves time forward to `t` (never back: the session's times stay monotonic).
    public func advance(to t: Timestamp) { if t > time { time = t } }
}
