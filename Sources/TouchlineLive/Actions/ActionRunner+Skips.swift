// An action skipped because `[actions] maxRunning` commands already run is said once on stderr,
// then counted: a pan at 250 Hz with a long command running wrote 250 lines a second to the
// journal (issue 24, item 11). The count goes out when its interval is over (the runner's
// `nextDeadline` wakes the session's wait for it, so a burst that stops is still reported) and at exit (`finish`).
import TouchlineCore
import TouchlineSettings

extension ActionRunner {
    /// Skips of one action (by its line) counted since `since`, not said yet.
    struct SkipReport {
        var reason: String
        var count = 0
        var since: Timestamp
    }

    /// How long skips are counted before their count is said.
    static let skipReportInterval = Interval.milliseconds(10_000)

    /// `action` was skipped for `reason`: said at once when its action has no interval open,
    /// else counted.
    func reportSkip(_ action: ActionSpec, reason: String) {
        let t = clock.now()
        if var report = skipReports[action.line], t < report.since + Self.skipReportInterval {
            report.count += 1
            report.reason = reason
            skipReports[action.line] = report
            return
        }
        sayCountedSkips(of: action.line, at: t)
        warn("action (line \(action.line)) skipped: \(reason) (more skips of it are counted and reported every \(Int(Self.skipReportInterval.seconds)) s)")
        skipReports[action.line] = SkipReport(reason: reason, since: t)
    }

    /// Says the counts whose interval is over (all of them with `all`, at exit); an action
    /// still skipped goes on being counted from now, one quiet for a whole interval is said at
    /// once again.
    func reportSkips(at t: Timestamp, all: Bool = false) {
        for line in skipReports.keys.sorted() {
            guard let report = skipReports[line], all || t >= report.since + Self.skipReportInterval else { continue }
            if report.count == 0 || all {
                sayCountedSkips(of: line, at: t)
                skipReports[line] = nil
            } else {
                sayCountedSkips(of: line, at: t)
                skipReports[line] = SkipReport(reason: report.reason, since: t)
            }
        }
    }

    /// The earliest time a count falls due (the runner's `nextDeadline` includes it).
    var skipReportDeadline: Timestamp? {
        skipReports.values.filter { $0.count > 0 }.map { $0.since + Self.skipReportInterval }.min()
    }

    private func sayCountedSkips(of line: Int, at t: Timestamp) {
        guard let report = skipReports[line], report.count > 0 else { return }
        let seconds = formatFixed(max(0, (t - report.since).seconds), decimals: 1)
        warn("action (line \(line)) skipped \(report.count) more \(report.count == 1 ? "time" : "times") in the last \(seconds) s: \(report.reason)")
    }
}
