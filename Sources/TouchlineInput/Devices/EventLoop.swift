// The live driver's one wait: epoll over the device descriptors, ONE timerfd armed to the
// graph's earliest deadline (disarmed when nothing is pending, so an idle process never wakes),
// and a signalfd for SIGINT/SIGTERM/SIGHUP. No polling, no sleeps (libinput's timer.c is the
// model: one timerfd for all timers).
import CLibevdev
import Glibc
import TouchlineCore

public final class EventLoop {
    /// What woke the loop.
    public enum Wake: Sendable, Equatable {
        /// A watched descriptor is readable (or hung up): its token.
        case readable(UInt64)
        /// The armed deadline was reached.
        case deadline(Timestamp)
        /// SIGINT, SIGTERM or SIGHUP.
        case signal(Int32)
    }

    private let epoll: Int32
    private let timer: Int32
    private let signals: Int32
    private static let timerToken = UInt64.max
    private static let signalToken = UInt64.max - 1
    /// The deadline the timerfd is armed to; nil when disarmed. Re-arming to the same value is
    /// skipped: one syscall less per frame on the hot path.
    public private(set) var armedDeadline: Timestamp?

    /// `handleSignals` blocks SIGINT/SIGTERM/SIGHUP for the process and reports them as wakes.
    public init(handleSignals: Bool = true) throws(SystemError) {
        let ep = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard ep >= 0 else { throw SystemError.last("epoll_create1") }
        let tf = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard tf >= 0 else {
            let e = SystemError.last("timerfd_create")
            close(ep)
            throw e
        }
        var sf: Int32 = -1
        if handleSignals {
            sf = touchline_signalfd()
            guard sf >= 0 else {
                let e = SystemError.last("signalfd")
                close(ep); close(tf)
                throw e
            }
        }
        epoll = ep
        timer = tf
        signals = sf
        if touchline_epoll_add(ep, tf, EventLoop.timerToken) != 0 { throw SystemError.last("epoll_ctl(timerfd)") }
        if sf >= 0, touchline_epoll_add(ep, sf, EventLoop.signalToken) != 0 { throw SystemError.last("epoll_ctl(signalfd)") }
    }

    deinit {
        close(epoll)
        close(timer)
        if signals >= 0 { close(signals) }
    }

    /// Watches a descriptor for input; `token` comes back in `.readable`.
    public func watch(_ fd: Int32, token: UInt64) throws(SystemError) {
        precondition(token < EventLoop.signalToken, "token reserved for the loop's own descriptors")
        if touchline_epoll_add(epoll, fd, token) != 0 { throw SystemError.last("epoll_ctl(add)") }
    }

    public func unwatch(_ fd: Int32) {
        _ = touchline_epoll_remove(epoll, fd)
    }

    /// Arms the timer to `deadline` (CLOCK_MONOTONIC, the clock of live event times), or disarms
    /// it for nil.
    public func setDeadline(_ deadline: Timestamp?) throws(SystemError) {
        if deadline == armedDeadline { return }
        // 0 would disarm timerfd: a deadline at or before the epoch fires at once instead.
        let us = deadline.map { max(1, $0.microseconds) } ?? 0
        if touchline_timerfd_set(timer, us) != 0 { throw SystemError.last("timerfd_settime") }
        armedDeadline = deadline
    }

    /// Blocks until a descriptor is readable, the deadline passes or a signal arrives.
    public func wait() throws(SystemError) -> Wake {
        while true {
            var token: UInt64 = 0
            var bits: UInt32 = 0
            let n = touchline_epoll_wait_one(epoll, &token, &bits)
            if n < 0 { throw SystemError.last("epoll_wait") }
            if n == 0 { continue }
            switch token {
            case EventLoop.timerToken:
                let count = touchline_timerfd_read(timer)
                if count < 0 { throw SystemError.last("read(timerfd)") }
                // A re-arm between expiry and read leaves nothing to read: not our deadline.
                if count == 0 { continue }
                guard let fired = armedDeadline else { continue }
                armedDeadline = nil
                return .deadline(fired)
            case EventLoop.signalToken:
                let signo = touchline_signalfd_read(signals)
                if signo < 0 { throw SystemError.last("read(signalfd)") }
                if signo == 0 { continue }
                return .signal(signo)
            default:
                return .readable(token)
            }
        }
    }

    /// Now on CLOCK_MONOTONIC, the clock of live event times (for latency measurement only; the
    /// recognizers never read a clock).
    public static func now() -> Timestamp { Timestamp(microseconds: touchline_monotonic_microseconds()) }
}
