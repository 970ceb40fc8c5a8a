import TouchlineCore
import TouchlineGestures

// Whether labels hold over a recording's events, as ../shared/traces/score.py decides it: an
// event of a label's gesture (any phase) whose time, from the recording's first event, lies in
// the window and that meets every condition counts; `has` needs `min` of them, `none` none.

/// The labels of one recording under one configuration.
public struct RecordingScore: Sendable, Equatable {
    /// Per label, in the labels' order.
    public var holds: [Bool]
    /// Events that break a `none` label (the spurious gestures).
    public var spurious: Int

    public var held: Int { holds.reduce(0) { $0 + ($1 ? 1 : 0) } }
}

/// Counts, event by event, the matches of a recording's labels: what a candidate's graph emits
/// goes straight here, so a search keeps no events. A gesture's labels are found once per kind
/// (the kinds are few), and the window is tested before any condition.
public struct LabelCounter {
    let labels: [Label]
    let origin: Timestamp
    private var counts: [Int]
    /// Per gesture kind seen, the labels naming it.
    private var byKind: [(kind: GestureKind, labels: [Int])] = []

    public init(_ labels: [Label], origin: Timestamp) {
        self.labels = labels
        self.origin = origin
        counts = [Int](repeating: 0, count: labels.count)
    }

    public mutating func count(_ event: GestureEvent) {
        guard event.gesture != .explain else { return }
        var k = 0
        while k < byKind.count && byKind[k].kind != event.gesture { k += 1 }
        if k == byKind.count {
            let name = event.gesture.description
            byKind.append((event.gesture, labels.indices.filter { labels[$0].gestures.contains(name) }))
        }
        guard !byKind[k].labels.isEmpty else { return }
        let t = Double((event.time - origin).microseconds) / 1_000_000
        for i in byKind[k].labels where labels[i].contains(t) && Scoring.meets(labels[i], event) { counts[i] += 1 }
    }

    public var score: RecordingScore {
        var score = RecordingScore(holds: [], spurious: 0)
        for (label, count) in zip(labels, counts) {
            switch label.kind {
            case .has: score.holds.append(count >= label.minimum)
            case .none:
                score.holds.append(count == 0)
                score.spurious += count
            }
        }
        return score
    }
}

public enum Scoring {
    /// The labels of `recording` against `events` (its replay's; explain lines are skipped).
    public static func score(_ labels: [Label], events: [GestureEvent], in recording: Recording) -> RecordingScore {
        var counter = LabelCounter(labels, origin: recording.origin)
        for event in events { counter.count(event) }
        return counter.score
    }

    /// Every condition holds: an action's filter (FieldFilter), and `phase`, which a label may
    /// name too.
    static func meets(_ label: Label, _ event: GestureEvent) -> Bool {
        for condition in label.conditions {
            if condition.field == "phase" {
                guard case let .word(w) = condition.value, (event.phase.description == w) == (condition.op == .equal) else { return false }
                continue
            }
            if !condition.holds(for: event) { return false }
        }
        return true
    }

    /// What a missed label saw, for `touchline score`: the matching events against the need,
    /// the nearest events of its gesture, and for a `has` the nearest failed attempt with the
    /// explain reason that decided it (threshold and margin). `explained`: the recording's events
    /// with explain lines; `configuration`: the graph that made them (recognizer names to kinds).
    public static func miss(_ label: Label, explained: [GestureEvent], in recording: Recording, configuration: GraphConfiguration) -> [String] {
        let plain = explained.filter { $0.gesture != .explain }
        let same = plain.filter { label.gestures.contains($0.gesture.description) }
        let hits = same.filter { label.contains(recording.seconds($0.time)) && meets(label, $0) }
        var lines: [String] = []
        switch label.kind {
        case .none:
            lines.append("\(hits.count) matching: " + hits.prefix(3).map { render($0, recording, label) }.joined(separator: "; ") + (hits.count > 3 ? " ..." : ""))
            return lines
        case .has:
            lines.append("\(hits.count) matching (need \(label.minimum))")
        }
        let inWindow = same.filter { label.contains(recording.seconds($0.time)) }
        if !inWindow.isEmpty {
            lines.append("\(inWindow.count) \(label.gestures.joined(separator: "|")) in the window, not meeting the conditions: "
                + inWindow.prefix(3).map { render($0, recording, label) }.joined(separator: "; "))
        } else if let near = nearest(same, label, recording) {
            lines.append("nearest \(label.gestures.joined(separator: "|")): \(render(near, recording, label))")
        } else {
            lines.append("no \(label.gestures.joined(separator: "|")) events at all")
        }
        var kinds: [String: String] = [:]
        for spec in configuration.recognizers { kinds[spec.name] = spec.kind.gesture.description }
        let attempts = explained.filter {
            $0.gesture == .explain && $0.phase == .failed && label.gestures.contains(kinds[$0.recognizer.description] ?? $0.recognizer.description)
        }
        if let attempt = nearest(attempts, label, recording), let reason = attempt.detail.reason {
            lines.append("nearest attempt: \(formatFixed(recording.seconds(attempt.time), decimals: 3)) s \(attempt.recognizer) failed: \(reason)")
        }
        return lines
    }

    /// The event nearest the label's window (inside it first), the earliest on a tie.
    static func nearest(_ events: [GestureEvent], _ label: Label, _ recording: Recording) -> GestureEvent? {
        var best: (Double, Int64, GestureEvent)?
        for e in events {
            let key = (label.distance(recording.seconds(e.time)), e.time.microseconds)
            if best.map({ key < ($0.0, $0.1) }) ?? true { best = (key.0, key.1, e) }
        }
        return best?.2
    }

    /// `1.234 s pan began fingers=2 scale=0.71`: the time, phase, fingers and the fields the
    /// label's conditions name.
    static func render(_ e: GestureEvent, _ recording: Recording, _ label: Label) -> String {
        var text = "\(formatFixed(recording.seconds(e.time), decimals: 3)) s"
        if label.gestures.count > 1 { text += " \(e.gesture)" }
        text += " \(e.phase) fingers=\(e.fingers)"
        let named = Set(label.conditions.map(\.field))
        e.detail.forEachField { key, value in
            guard named.contains(key.description) else { return }
            switch value {
            case let .integer(n): text += " \(key)=\(n)"
            case let .number(x, decimals): text += " \(key)=\(formatFixed(x, decimals: decimals))"
            case let .duration(d): text += " \(key)=\(formatFixed(d.microseconds, decimals: 6))"
            case let .word(w): text += " \(key)=\(w)"
            case let .name(n): text += " \(key)=\(n)"
            case .text, .names, .null: break
            }
        }
        return text
    }
}
