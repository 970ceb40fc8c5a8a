import TouchlineCore

/// The pass-through planners of a pipeline's devices, stepped in one time order with the
/// graphs: before a frame, every graph deadline and every planner deadline (a hold bound, a
/// join window) that falls before it, the earliest first, each planner hearing what its
/// graph's arena decided after each step (`GestureGraph.decisions`). Used by
/// `replay --passthrough` and the daemon's pass-through devices alike, so both decide the same.
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

    /// Gives `device` a clone with `slotCount` slots, its planner reading `graph`.
    public mutating func start(device: Int, graph: GestureGraph, slotCount: Int) {
        if planners.count <= device { planners += repeatElement(nil, count: device + 1 - planners.count) }
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

    /// Fires, in time order, every graph deadline and planner deadline before `time` (through
    /// it with `through`), each planner hearing its arena and deciding again after each.
    public mutating func advance(_ pipeline: inout GesturePipeline, to time: Timestamp?, through: Bool = false,
                                 emit: (GestureEvent) -> Void, output: (Int, PassThroughFrame) -> Void) {
        while true {
            let g = pipeline.nextDeadline, p = nextDeadline
            guard let next = [g, p].compactMap({ $0 }).min() else { return }
            if let time, through ? next > time : next >= time { return }
            pipeline.advance(to: next, emit: emit)
            step(pipeline, at: next, output: output)
        }
    }

    /// Every planner decides again at `time` (after the graphs moved to it).
    public mutating func step(_ pipeline: GesturePipeline, at time: Timestamp, output: (Int, PassThroughFrame) -> Void) {
        for d in planners.indices where planners[d] != nil {
            guard let graph = pipeline.graph(of: d) else { continue }
            planners[d]!.advance(to: time, graph: graph) { output(d, $0) }
        }
    }

    /// Device `device` completed `frame` (`feed` returned true; the frame as assembled,
    /// `pipeline.assembledFrame(of:)`), which its graph has processed: its planner takes it.
    public mutating func frame(device: Int, _ frame: TouchFrame, _ pipeline: GesturePipeline, output: (Int, PassThroughFrame) -> Void) {
        guard isStarted(device), let graph = pipeline.graph(of: device) else { return }
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
