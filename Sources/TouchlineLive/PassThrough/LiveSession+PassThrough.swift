// Pass-through in the live session (docs/live.md#pass-through): a grabbed device's frames go
// through its planner, a stage of the pipeline (`GesturePipeline.passThrough`, the one
// `replay --passthrough` runs, so both decide the same, its hold bounds in the pipeline's one
// deadline order), and its encoder to its clone (`SessionOutput`). The session decides which devices
// are passed through, from the `[[device]]` sections it runs now (at open, and again on every
// reload), and asks its source (`SourceRequest`); the source grabs and makes the clone
// (`SourceEvent.cloned`) or hands it back (`.releasable`) when no contact is down; the
// planners decide, the clone writes. Closing a clone gives its device back (PassThroughClone).
import TouchlineCore
import TouchlineGestures

/// The session's pass-through state (the planners are the pipeline's): per output index the
/// clone and its encoder.
struct LivePassThroughState {
    var encoders: [Int: PassThroughEncoder] = [:]
    var clones: [Int: any PassThroughClone] = [:]
    /// One frame's events, reused.
    var scratch: [InputEvent] = []
    /// The devices (source numbers) the session wants passed through, as last asked.
    var wanted: Set<Int> = []
    /// Requests for the source, made while it delivers (it is busy then), sent after.
    var requests: [SourceRequest] = []
}

extension LiveSession {
    /// Whether any device is passed through now.
    var passesThrough: Bool { !passThrough.clones.isEmpty }

    /// Whether device `id`'s settings pass it through; asks the source when that changes.
    mutating func wantPassThrough(_ id: Int, _ wanted: Bool) {
        // A source that cannot grab is asked for nothing (the daemon refuses pass-through on
        // one at start; a reload that asks for it is told so on its line).
        guard wanted != passThrough.wanted.contains(id), !wanted || table.sourceGrabs else { return }
        if wanted {
            passThrough.wanted.insert(id)
            passThrough.requests.append(.passThrough(device: id))
        } else {
            passThrough.wanted.remove(id)
            passThrough.requests.append(.release(device: id))
        }
    }

    /// Sends the source what the session asked while it was delivering (what it delivers in
    /// turn is taken at once, and may ask more).
    mutating func sendRequests(_ source: inout some LiveSource) throws {
        while !passThrough.requests.isEmpty {
            let request = passThrough.requests.removeFirst()
            try source.request(request) { try self.take($0) }
        }
    }

    /// The source made device `id`'s clone: its planner starts from the device's next frame.
    mutating func cloned(_ id: Int, _ clone: any PassThroughClone) {
        guard let device = table.devices[id], output == .gestures, pipeline.graph(of: device.index) != nil,
              let assembler = pipeline.assembler(of: device.index)
        else {
            sink.warn("\(clone.node): a pass-through clone of a device the session does not run; removed")
            clone.close()
            return
        }
        // A source that clones on its own (a dry run's preview, a script) is followed too: a
        // reload that turns pass-through off releases it.
        passThrough.wanted.insert(id)
        pipeline.startPassThrough(device: device.index, slotCount: PassThroughEncoder.slots(of: assembler.device))
        passThrough.encoders[device.index] = PassThroughEncoder(device: assembler.device, geometry: assembler.geometry)
        passThrough.clones[device.index] = clone
        sink.warn("\(device.path) (\(device.name)): passed through to \(clone.node)")
    }

    /// The source handed device `id`'s clone back (no contact down on it): its contacts lift on
    /// the clone, which goes, and the device is its other readers' again.
    mutating func releasable(_ id: Int) throws {
        guard let device = table.devices[id], !passThrough.wanted.contains(id) else { return }
        try endPassThrough(device.index, at: outputTime(clock.now()))
    }

    /// Runs `body` on the pipeline with the session's outputs as its sink (`SessionOutput`):
    /// gesture events to the session's sink, each clone frame through its device's encoder to
    /// its clone. The sink's first error is thrown once `body` is done (the pipeline's state
    /// stays whole); a clone that fails to write is reported and closed, which gives its device
    /// back (the session passes it through no more: a reload asks again).
    @discardableResult
    mutating func stepping<R>(_ body: (inout GesturePipeline, inout SessionOutput) -> R) throws -> R {
        var out = SessionOutput(sink: sink, clones: passThrough.clones, probe: latency.passThroughProbe)
        // Out of `self` while the pipeline is lent: the two are changed together.
        swap(&out.encoders, &passThrough.encoders)
        swap(&out.scratch, &passThrough.scratch)
        let result = body(&pipeline, &out)
        swap(&out.encoders, &passThrough.encoders)
        swap(&out.scratch, &passThrough.scratch)
        for (device, error) in out.failed where passThrough.clones[device] != nil {
            sink.warn("pass-through clone \(passThrough.clones[device]!.node): \(error); removed, the device is given back")
            passThrough.clones.removeValue(forKey: device)?.close()
            passThrough.encoders[device] = nil
            // Its planner leaves the pipeline's stage (what it would still send has no clone).
            var gone = SessionOutput(sink: sink, clones: [:], probe: nil)
            pipeline.finishPassThrough(device: device, at: .zero, into: &gone)
            if let id = table.devices.first(where: { $0.value.index == device })?.key { wantPassThrough(id, false) }
        }
        if let failure = out.failure { throw failure }
        return result
    }

    /// Device `index` ends (removed, stopped, the daemon's exit): its clone's contacts lift,
    /// then the clone goes. Call before the device's graph finishes.
    mutating func endPassThrough(_ index: Int, at time: Timestamp) throws {
        guard let clone = passThrough.clones[index] else { return }
        let planners = pipeline.passThrough.planners
        let counters = index < planners.count ? planners[index]?.counters : nil
        try stepping { pipeline, out in pipeline.finishPassThrough(device: index, at: time, into: &out) }
        // The device's counters, once, at its end.
        if let counters { sink.warn("\(clone.node): pass-through ends: \(counters.summary)") }
        // Whatever the planner had, nothing stays down on the clone.
        passThrough.scratch.removeAll(keepingCapacity: true)
        passThrough.encoders[index]?.liftAll(at: time, into: &passThrough.scratch)
        if !passThrough.scratch.isEmpty { try? clone.write(passThrough.scratch) }
        clone.close()
        passThrough.clones[index] = nil
        passThrough.encoders[index] = nil
    }
}

/// What the pipeline makes in a live session, where it goes: gesture events to the session's
/// sink (its first error kept: the events after it are dropped, not half-processed), clone
/// frames through their device's encoder to the clone (a failing clone noted for the session
/// to close).
struct SessionOutput: PipelineSink {
    let sink: any LiveSink
    let clones: [Int: any PassThroughClone]
    let probe: LatencyProbe?
    var encoders: [Int: PassThroughEncoder] = [:]
    /// One frame's events, reused.
    var scratch: [InputEvent] = []
    var failure: Error?
    var failed: [(Int, Error)] = []

    init(sink: any LiveSink, clones: [Int: any PassThroughClone], probe: LatencyProbe?) {
        self.sink = sink
        self.clones = clones
        self.probe = probe
    }

    mutating func event(_ event: GestureEvent) {
        guard failure == nil else { return }
        do { try sink.gesture(event) } catch { failure = error }
    }

    /// While a viewer follows (LiveSession.followViewers turns the planners' reports on), each
    /// hold decided goes to it as the pipeline drains it.
    mutating func hold(device: Int, _ report: HoldReport) {
        guard failure == nil else { return }
        do { try sink.viewHold(report, device: device) } catch { failure = error }
    }

    mutating func clone(device: Int, _ frame: PassThroughFrame) {
        guard encoders[device] != nil, let clone = clones[device] else { return }
        scratch.removeAll(keepingCapacity: true)
        encoders[device]!.encode(frame, into: &scratch)
        guard !scratch.isEmpty else { return }
        do {
            try clone.write(scratch)
            probe?.eventWritten()
        } catch {
            failed.append((device, error))
        }
    }
}
