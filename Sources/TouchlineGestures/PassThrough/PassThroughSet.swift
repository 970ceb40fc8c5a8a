import TouchlineCore

/// The pass-through stage of a `GesturePipeline` (its `passThrough`): the planners of the
/// devices passed through, by device index. The pipeline steps them in its one time order
/// with the graphs: before a frame, every graph deadline and every planner deadline (a hold
/// bound, a join window) that falls before it, the earliest first, each planner hearing what
/// its graph's arena decided after each step (`GestureGraph.decisions`); `nextDeadline` is
/// part of the pipeline's. `replay --passthrough` and the daemon's pass-through devices run
/// the same pipeline, so both decide the same.
public struct PassThroughSet: Sendable {
    public let bound: PassThroughBound
    /// Whether the planners keep a report per decision for `drainReports` (`--explain`); a
    /// daemon's keep none, so that nothing grows with the contacts of a device's life, except
    /// while a `touchline view` follows it (it drains them as they come).
    public var keepsReports: Bool {
        didSet { for d in planners.indices where planners[d] != nil { planners[d]!.keepsReports = keepsReports } }
    }
    /// Whether the planners keep every arena decision they hear (`drainTold`: tests).
    public var keepsDecisions = false
    /// By device index; nil: that device has no clone.
    public private(set) var planners: [PassThroughPlanner?] = []
    /// What finished planners counted and reported (not yet drained).
    private var finishedCounters = PassThroughCounters()
    private var finishedReports: [(device: Int, report: HoldReport)] = []

    public init(bound: PassThroughBound = .standard, keepsReports: Bool = true) {
        self.bound = bound
        self.keepsReports = keepsReports
    }

    /// How many devices are passed through now (0: the pipeline's frame path skips the stage).
    public private(set) var count = 0

    /// Whether reports wait for `drainReports`.
    public var hasReports: Bool { keepsReports && (count > 0 || !finishedReports.isEmpty) }

    /// Gives `device` a clone with `slotCount` slots, its planner reading `graph`.
    public mutating func start(device: Int, graph: GestureGraph, slotCount: Int) {
        if planners.count <= device { planners += repeatElement(nil, count: device + 1 - planners.count) }
        if planners[device] == nil { count += 1 }
        planners[device] = PassThroughPlanner(graph: graph, slotCount: slotCount, bound: bound, keepsReports: keepsReports)
        planners[device]!.keepsDecisions = keepsDecisions
    }

    public func isStarted(_ device: Int) -> Bool { device >= 0 && device < planners.count && planners[device] != nil }

    /// The earliest hold bound over every planner.
    public var nextDeadline: Timestamp? {
        var earliest: Timestamp?
        for p in planners { if let d = p?.nextDeadline, earliest.map({ d < $0 }) ?? true { earliest = d } }
        return earliest
    }

    /// Device `device`'s planner decides again at `time` (its graph moved to it: a deadline of
    /// any device, or a hold bound), hearing what `graph`'s arena told.
    public mutating func step(device: Int, at time: Timestamp, graph: GestureGraph, output: (Int, PassThroughFrame) -> Void) {
        guard isStarted(device) else { return }
        planners[device]!.advance(to: time, graph: graph) { output(device, $0) }
    }

    /// Device `device` completed `frame` (as assembled), which `graph` has processed: its
    /// planner takes it.
    public mutating func frame(device: Int, _ frame: TouchFrame, graph: GestureGraph, output: (Int, PassThroughFrame) -> Void) {
        guard isStarted(device) else { return }
        planners[device]!.frame(frame, graph: graph) { output(device, $0) }
    }

    /// The graph of `device` was replaced (a reload, a registered target).
    public mutating func graphChanged(device: Int, _ graph: GestureGraph) {
        guard isStarted(device) else { return }
        planners[device]!.graphChanged(graph)
    }

    /// Device `device` ends (removed, stopped): contacts down on its clone lift at `time`.
    public mutating func finish(device: Int, at time: Timestamp, output: (Int, PassThroughFrame) -> Void) {
        guard isStarted(device) else { return }
        planners[device]!.finish(at: time) { output(device, $0) }
        finishedCounters.add(planners[device]!.counters)
        finishedReports += planners[device]!.drainReports().map { (device, $0) }
        planners[device] = nil
        count -= 1
    }

    /// Returns the decisions every planner heard (`keepsDecisions`) and forgets them.
    public mutating func drainTold() -> [(device: Int, decision: ArenaDecision)] {
        var out: [(device: Int, decision: ArenaDecision)] = []
        for d in planners.indices where planners[d] != nil {
            for decision in planners[d]!.drainTold() { out.append((d, decision)) }
        }
        return out
    }

    /// Returns every planner's reports (device, report) and forgets them.
    public mutating func drainReports() -> [(device: Int, report: HoldReport)] {
        var out = finishedReports
        finishedReports = []
        for d in planners.indices where planners[d] != nil {
            for r in planners[d]!.drainReports() { out.append((d, r)) }
        }
        return out
    }

    /// The counters summed over every planner.
    public var counters: PassThroughCounters {
        var sum = finishedCounters
        for p in planners { if let c = p?.counters { sum.add(c) } }
        return sum
    }
}
