// A progress line on standard error for a long replay: a person waiting on a trace of an hour
// sees that it moves and how far it is; a script never sees it (only when standard error is a
// terminal). The cost per event is one increment and one comparison: the clock is read once
// every `checkEvery` events, and the line rewritten at most four times a second. The clock and
// the writer are passed in, so the tests drive it with a fake clock and a list of lines.
import Glibc
import TouchlineCore

public struct ProgressLine {
    let file: String
    /// Monotonic microseconds at the start, and when the line may first appear.
    let started: Int64
    let delay: Int64
    @usableFromInline var events = 0
    @usableFromInline var nextCheck = ProgressLine.checkEvery
    var shownAt: Int64?
    let clock: () -> Int64
    let write: (String) -> Void

    @usableFromInline static let checkEvery = 4096
    static let interval: Int64 = 250_000

    /// `clock`: monotonic microseconds; `delay`: how long the replay runs before the line shows.
    public init(file: String, delay: Int64, clock: @escaping () -> Int64, write: @escaping (String) -> Void) {
        self.file = file
        self.delay = delay
        self.clock = clock
        self.write = write
        started = clock()
    }

    /// A progress line when standard error is a terminal that standard output is not (on one
    /// terminal the output itself shows the progress, and the line would cut into it); nil
    /// otherwise. It appears after 2 s, or after TOUCHLINE_PROGRESS_AFTER seconds (the tests
    /// set 0, so a short replay shows it).
    public static func forStandardError(file: String) -> ProgressLine? {
        guard isatty(2) == 1 else { return nil }
        if isatty(1) == 1 {
            var a = stat(), b = stat()
            if fstat(1, &a) == 0 && fstat(2, &b) == 0 && a.st_rdev == b.st_rdev { return nil }
        }
        var delay: Int64 = 2_000_000
        if let text = getenv("TOUCHLINE_PROGRESS_AFTER").map({ String(cString: $0) }), let seconds = Double(text), seconds >= 0, seconds < 1e6 {
            delay = Int64(seconds * 1e6)
        }
        return ProgressLine(file: file, delay: delay, clock: monotonicMicroseconds, write: StandardError.write)
    }

    /// One event read, at `time` (as printed).
    @inlinable @inline(__always)
    public mutating func count(time: Timestamp) {
        events &+= 1
        if events >= nextCheck { check(time: time) }
    }

    @usableFromInline
    mutating func check(time: Timestamp) {
        nextCheck = events + Self.checkEvery
        let now = clock()
        guard now - started >= delay, now - (shownAt ?? Int64.min / 2) >= Self.interval else { return }
        shownAt = now
        // \r and erase-to-end: the line is rewritten in place.
        write("\r\u{1b}[Ktouchline: \(file): \(events) events read, at \(formatFixed(time.microseconds / 1000, decimals: 3)) s")
    }

    /// Erases the line, if one was shown, so that what follows starts on a clean line.
    public func clear() {
        if shownAt != nil { write("\r\u{1b}[K") }
    }

    public static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }
}

public enum Terminal {
    /// Whether `fd` is a terminal (isatty(3)): colours and progress lines only for a person.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}
