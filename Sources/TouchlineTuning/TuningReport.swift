import TouchlineCore
import TouchlineGestures

// What `touchline tune` prints and writes, from a search's result: the before/after table,
// each change with the labels it fixed and its robust range, the trade-offs not taken, the
// labels still missed and the k-fold check (the tuned config is TunedConfig's).

extension Outcome {
    /// `configuration` over `recordings` (each with its labels); nil when it makes no graph.
    public static func of(_ configuration: GraphConfiguration, recordings: [Recording], labels: [[Label]]) -> Outcome? {
        var scores: [RecordingScore] = []
        for (recording, labels) in zip(recordings, labels) {
            var counter = LabelCounter(labels, origin: recording.origin)
            do { try recording.run(configuration) { counter.count($0) } } catch { return nil }
            scores.append(counter.score)
        }
        return Outcome(recordings: scores)
    }
}

public enum TuningReport {
    /// The report's lines. `files`: each recording's name; `labels`: per recording its labels
    /// (their flattened order is the outcomes').
    public static func lines(_ r: Search.Result, parameters: [TunableParameter], files: [String], labels: [[Label]]) -> [String] {
        var names: [String] = []
        for (file, list) in zip(files, labels) { for label in list { names.append("\(file): \(label)") } }
        var out: [String] = []
        let width = max(9, files.map(\.count).max() ?? 0)
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        out.append("\(pad("recording", width))  before   after")
        for (i, file) in files.enumerated() {
            let t = labels[i].count
            out.append("\(pad(file, width))  \(pad("\(r.before.recordings[i].held)/\(t)", 7))  \(r.after.recordings[i].held)/\(t)")
        }
        let total = labels.reduce(0) { $0 + $1.count }
        out.append("\(pad("labels hold", width))  \(pad("\(r.before.held)/\(total)", 7))  \(r.after.held)/\(total)")
        out.append("\(pad("spurious", width))  \(pad("\(r.before.spurious)", 7))  \(r.after.spurious)")
        out.append("")
        out.append("searched \(parameters.count) parameters (\(r.evaluations) evaluations)")
        if r.changes.isEmpty && r.before.held == total {
            out.append("changed: nothing (every label holds already)")
        } else if r.changes.isEmpty {
            out.append("changed: nothing (no value of a parameter alone makes another label hold without breaking one)")
        } else {
            out.append("changed:")
            for change in r.changes {
                let p = change.parameter
                var line = "  \(p.key): \(p.shown(change.from)) -> \(p.shown(change.to))"
                if let range = r.ranges.first(where: { $0.parameter == p }) {
                    let low = (range.openLow ? "≤" : "") + p.text(range.low)
                    let high = (range.openHigh ? "≥" : "") + p.text(range.high)
                    line += " (the same labels hold from \(low) to \(high)\(p.unit == .normalized ? "" : " " + p.unit.rawValue))"
                }
                out.append(line)
                let fixed = r.steps.filter { $0.parameter == p }.flatMap(\.fixed).sorted()
                for i in fixed { out.append("    fixed \(names[i])") }
            }
            let unchanged = parameters.count - r.changes.count
            out.append("unchanged: the other \(unchanged) parameters")
        }
        if !r.tradeOffs.isEmpty {
            out.append("trade-offs (not taken: each fixes labels only by breaking others or adding spurious events):")
            for t in r.tradeOffs {
                let p = t.parameter
                var line = "  \(p.key): \(p.shown(t.from)) -> \(p.shown(t.to)) fixes \(t.fixed.count), breaks \(t.broken.count)"
                if t.addedSpurious > 0 { line += ", adds \(t.addedSpurious) spurious" }
                out.append(line)
                for i in t.fixed { out.append("    fixes  \(names[i])") }
                for i in t.broken { out.append("    breaks \(names[i])") }
            }
        }
        let missed = r.after.holds.indices.filter { !r.after.holds[$0] }
        if !missed.isEmpty {
            out.append("still missed:")
            for i in missed { out.append("  \(names[i])") }
        }
        return out
    }

    /// k-fold: recording i is in fold i mod k; each fold is scored with the configuration tuned
    /// on the others. Lines: per fold, held before and after on the recordings it left out.
    public static func holdout(
        _ k: Int, configuration: GraphConfiguration, parameters: [TunableParameter], recordings: [Recording], labels: [[Label]],
        evaluate: ([GraphConfiguration], [Int]) -> [Outcome?]
    ) -> [String] {
        var out = ["holdout (\(k)-fold: each fold scored with the values tuned on the others):"]
        var before = 0
        var after = 0
        var total = 0
        for fold in 0..<k {
            let train = recordings.indices.filter { $0 % k != fold }
            let test = recordings.indices.filter { $0 % k == fold }
            guard let tuned = Search.run(configuration, parameters: parameters, evaluate: { evaluate($0, train) }),
                  let a = evaluate([configuration], test).first ?? nil, let b = evaluate([tuned.configuration], test).first ?? nil
            else { continue }
            let n = test.reduce(0) { $0 + labels[$1].count }
            let changed = tuned.changes.map { "\($0.parameter.key) = \($0.parameter.text($0.to))" }.joined(separator: ", ")
            out.append("  fold \(fold + 1): \(test.count) recording\(test.count == 1 ? "" : "s"), \(a.held)/\(n) -> \(b.held)/\(n) (spurious \(a.spurious) -> \(b.spurious)); tuned on the others: \(changed.isEmpty ? "no change" : changed)")
            before += a.held
            after += b.held
            total += n
        }
        out.append("  held out in all: \(before)/\(total) -> \(after)/\(total)")
        return out
    }
}
