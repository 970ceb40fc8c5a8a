import TouchlineCore
import TouchlineGestures

// `touchline tune`'s search (docs/tuning.md). Greedy and deterministic: each round tries, for
// every numeric parameter of the graph's kinds, a fixed grid of values around its current one
// (each within the parameter's declared limits and its kind's relations), and takes the one
// change that makes the most labels hold while breaking none that held and adding no spurious
// event; ties go to the smaller change, then to the parameter that comes first. It stops when
// no change helps. A change that fixes labels only by breaking others is a trade-off: it is not
// taken, and the report shows it. The caller evaluates each round's candidates (on threads);
// the results come back in the candidates' order, so the choice never depends on timing.

/// A parameter a search may vary: `kind.name` as `[defaults]` writes it.
public struct TunableParameter: Sendable, Hashable {
    public var kind: String
    public var name: String
    public var unit: ParameterUnit
    public var key: String { "\(kind).\(name)" }

    public init(kind: String, name: String, unit: ParameterUnit) {
        self.kind = kind
        self.name = name
        self.unit = unit
    }

    /// The numeric parameters of the kinds `configuration` uses, in its recognizers' order,
    /// then documentation order; `only` (keys `kind.name` or whole kinds) narrows them.
    public static func all(in configuration: GraphConfiguration, only: [String]? = nil) -> [TunableParameter] {
        var found: [TunableParameter] = []
        var kinds: Set<String> = []
        for spec in configuration.recognizers {
            let kind = spec.kind.gesture.description
            guard kinds.insert(kind).inserted else { continue }
            for p in spec.kind.numericParameters {
                let parameter = TunableParameter(kind: kind, name: p.name, unit: p.unit)
                if let only, !only.contains(parameter.key), !only.contains(kind) { continue }
                found.append(parameter)
            }
        }
        return found
    }

    /// Its value in `configuration` (the first recognizer of its kind's).
    public func value(in configuration: GraphConfiguration) -> Double? {
        for spec in configuration.recognizers where spec.kind.gesture.description == kind {
            return spec.kind.numericParameters.first { $0.name == name }?.value
        }
        return nil
    }

    /// `configuration` with every recognizer of the kind at `value`, as `[defaults]` sets it;
    /// nil when the value is outside the parameter's limits or breaks a relation of its kind.
    public func applied(_ value: Double, to configuration: GraphConfiguration) -> GraphConfiguration? {
        var c = configuration
        for i in c.recognizers.indices where c.recognizers[i].kind.gesture.description == kind {
            guard c.recognizers[i].kind.set(name, ParameterValue(number: value, count: Int(value))), c.recognizers[i].kind.problem == nil else {
                return nil
            }
        }
        return c
    }

    /// The step values are rounded to: what a config would sensibly write.
    var resolution: Double {
        switch unit {
        case .millimetres: return 0.1
        case .milliseconds, .millimetresPerSecond: return 1
        case .degrees: return 0.5
        case .normalized: return 0.01
        case .count, .flag, .word, .words: return 1
        }
    }

    func rounded(_ v: Double) -> Double { (v / resolution).rounded() * resolution }

    /// The values a round tries around `current` (not `current` itself), ascending.
    func grid(around current: Double, factors: [Double] = Search.factors) -> [Double] {
        var values: [Double] = []
        if current > 0 {
            values = factors.map { rounded(current * $0) }
        } else {
            values = [1, 2, 3, 5, 10, 20, 50].map { rounded($0 * resolution * 10) }
        }
        var seen: Set<Double> = [rounded(current)]
        return values.filter { $0 > 0 && seen.insert($0).inserted }.sorted()
    }

    /// The value as a config writes it and a person reads it: `6`, `5.5`, `350`.
    public func text(_ v: Double) -> String {
        let decimals = unit == .normalized ? 2 : (unit == .millimetres || unit == .degrees ? 1 : 0)
        var s = formatFixed(v, decimals: decimals)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }

    /// With its unit: `6 mm`, `350 ms`.
    public func shown(_ v: Double) -> String {
        unit == .normalized ? text(v) : "\(text(v)) \(unit.rawValue)"
    }
}

/// What a configuration scores on a set of recordings: per recording, its labels' holds and
/// spurious events (nil: the configuration cannot make a graph).
public struct Outcome: Sendable, Equatable {
    public var recordings: [RecordingScore]
    public init(recordings: [RecordingScore]) { self.recordings = recordings }
    public var holds: [Bool] { recordings.flatMap(\.holds) }
    public var held: Int { recordings.reduce(0) { $0 + $1.held } }
    public var spurious: Int { recordings.reduce(0) { $0 + $1.spurious } }
}

public enum Search {
    /// The grid, as factors of the current value: finer near it, to 4× either way.
    public static let factors: [Double] = [0.25, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.1, 1.2, 1.35, 1.5, 1.75, 2, 2.25, 2.5, 3, 4]
    /// Rounds at most: each takes one change.
    public static let maximumRounds = 12

    /// One change taken: the parameter, its value before and after, and the labels (indices
    /// into the flattened labels) that hold because of it.
    public struct Step: Sendable, Equatable {
        public var parameter: TunableParameter
        public var from: Double
        public var to: Double
        public var fixed: [Int]
    }

    /// A change not taken: it fixes `fixed` but breaks `broken` (or adds spurious events).
    public struct TradeOff: Sendable, Equatable {
        public var parameter: TunableParameter
        public var from: Double
        public var to: Double
        public var fixed: [Int]
        public var broken: [Int]
        public var addedSpurious: Int
    }

    /// The values of a changed parameter around its chosen one under which every label holds as
    /// it does with the choice (sampled: the lowest and highest of the contiguous samples).
    public struct Range: Sendable, Equatable {
        public var parameter: TunableParameter
        public var chosen: Double
        public var low: Double
        public var high: Double
        /// The range reaches the lowest or highest sample (it may go on past it).
        public var openLow: Bool
        public var openHigh: Bool
    }

    public struct Result: Sendable {
        public var before: Outcome
        public var after: Outcome
        public var configuration: GraphConfiguration
        public var steps: [Step]
        /// The last round's trade-offs, the best per parameter (most fixed, then fewest broken,
        /// then the smaller change).
        public var tradeOffs: [TradeOff]
        public var ranges: [Range]
        public var evaluations: Int
        /// The final value of each parameter changed, in the parameters' order.
        public var changes: [(parameter: TunableParameter, from: Double, to: Double)]
    }

    /// Searches `parameters` from `configuration`. `evaluate` scores a batch of configurations
    /// (nil for one that makes no graph), in their order.
    public static func run(
        _ configuration: GraphConfiguration, parameters: [TunableParameter],
        evaluate: ([GraphConfiguration]) -> [Outcome?]
    ) -> Result? {
        guard let before = evaluate([configuration]).first ?? nil else { return nil }
        var evaluations = 1
        var current = configuration
        var now = before
        var steps: [Step] = []
        var tradeOffs: [TradeOff] = []
        for _ in 0..<maximumRounds {
            var candidates: [(parameter: TunableParameter, from: Double, to: Double, configuration: GraphConfiguration)] = []
            for p in parameters {
                guard let v = p.value(in: current) else { continue }
                for w in p.grid(around: v) {
                    if let c = p.applied(w, to: current) { candidates.append((p, v, w, c)) }
                }
            }
            let outcomes = evaluate(candidates.map(\.configuration))
            evaluations += candidates.count
            let held = now.holds
            var best: (index: Int, fixed: [Int], distance: Double)?
            var worse: [TunableParameter: (TradeOff, Double)] = [:]
            for (i, candidate) in candidates.enumerated() {
                guard let outcome = outcomes[i] else { continue }
                let holds = outcome.holds
                var fixed: [Int] = []
                var broken: [Int] = []
                for j in holds.indices where holds[j] != held[j] {
                    if holds[j] { fixed.append(j) } else { broken.append(j) }
                }
                guard !fixed.isEmpty else { continue }
                let distance = abs(logRatio(candidate.to, candidate.from))
                let added = max(0, outcome.spurious - now.spurious)
                if broken.isEmpty && added == 0 {
                    if best.map({ fixed.count > $0.fixed.count || (fixed.count == $0.fixed.count && distance < $0.distance) }) ?? true {
                        best = (i, fixed, distance)
                    }
                } else {
                    let t = TradeOff(parameter: candidate.parameter, from: candidate.from, to: candidate.to, fixed: fixed, broken: broken, addedSpurious: added)
                    if let (other, d) = worse[candidate.parameter] {
                        let key = (-(fixed.count), broken.count + added, distance)
                        if key >= (-(other.fixed.count), other.broken.count + other.addedSpurious, d) { continue }
                    }
                    worse[candidate.parameter] = (t, distance)
                }
            }
            tradeOffs = parameters.compactMap { worse[$0]?.0 }
            guard let best else { break }
            let chosen = candidates[best.index]
            steps.append(Step(parameter: chosen.parameter, from: chosen.from, to: chosen.to, fixed: best.fixed))
            current = chosen.configuration
            now = outcomes[best.index]!
        }
        // What changed, once per parameter, and how far each may move without changing a label.
        var changes: [(parameter: TunableParameter, from: Double, to: Double)] = []
        for p in parameters {
            guard let a = p.value(in: configuration), let b = p.value(in: current), a != b else { continue }
            changes.append((p, a, b))
        }
        var ranges: [Range] = []
        for change in changes {
            let p = change.parameter
            let samples = p.grid(around: change.to, factors: [0.25, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.05, 1.1, 1.15, 1.2, 1.3, 1.4, 1.5, 1.75, 2, 2.5, 3, 4])
            let tried = samples.compactMap { v in p.applied(v, to: current).map { (v, $0) } }
            let outcomes = evaluate(tried.map(\.1))
            evaluations += tried.count
            let below = tried.indices.filter { tried[$0].0 < change.to }.reversed()
            let above = tried.indices.filter { tried[$0].0 > change.to }
            func same(_ i: Int) -> Bool { outcomes[i].map { $0.holds == now.holds && $0.spurious <= now.spurious } ?? false }
            var low = change.to
            var high = change.to
            var openLow = true
            var openHigh = true
            for i in below { if same(i) { low = tried[i].0 } else { openLow = false; break } }
            for i in above { if same(i) { high = tried[i].0 } else { openHigh = false; break } }
            ranges.append(Range(parameter: p, chosen: change.to, low: low, high: high, openLow: openLow, openHigh: openHigh))
        }
        return Result(before: before, after: now, configuration: current, steps: steps, tradeOffs: tradeOffs, ranges: ranges,
                      evaluations: evaluations, changes: changes)
    }

    /// log(a/b) without Foundation, enough to order changes by size: the ratio's distance from
    /// 1 either way (2× and ½ equally far).
    static func logRatio(_ a: Double, _ b: Double) -> Double {
        guard a > 0, b > 0 else { return abs(a - b) }
        return a >= b ? a / b - 1 : b / a - 1
    }
}
