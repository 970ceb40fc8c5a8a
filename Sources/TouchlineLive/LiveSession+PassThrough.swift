// Pass-through in the live session (docs/live.md#pass-through): a grabbed device's frames go
// through its planner (TouchlineGestures' PassThroughSet, the one `replay --passthrough` runs,
// so both decide the same) and its encoder to its clone. The session decides which devices
// are passed through, from the `[[device]]` sections it runs now (at open, and again on every
// reload), and asks its source (`SourceRequest`); the source grabs and makes the clone
// (`SourceEvent.cloned`) or hands it back (`.releasable`) when no contact is down; the
// planners decide, the clone writes. Closing a clone gives its device back (PassThroughClone).
import TouchlineCore
import TouchlineGestures

/// The session's pass-through state: the planners, and per output index the clone and its
/// encoder.
struct LivePassThroughState {
    /// No report per contact: no one asks the daemon for them, and a device passed through
    /// for months would keep one per touch (its counters and hold histogram are bounded).
    var set = PassThroughSet(keepsReports: false)
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
        guard wanted != passThrough.wanted.contains(id), !wanted || sourceGrabs else { return }
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
        guard let device = devices[id], output == .gestures, let graph = pipeline.graph(of: device.index),
              let assembler = pipeline.assembler(of: device.index)
        else {
            sink.warn("\(clone.node): a pass-through clone of a device the session does not run; removed")
            clone.close()
            return
        }
        // A source that clones on its own (a dry run's preview, a script) is followed too: a
        // reload that turns pass-through off releases it.
        passThrough.wanted.insert(id)
        passThrough.set.start(device: device.index, graph: graph, slotCount: PassThroughEncoder.slots(of: assembler.device))
        passThrough.encoders[device.index] = PassThroughEncoder(device: assembler.device, geometry: assembler.geometry)
        passThrough.clones[device.index] = clone
        sink.warn("\(device.path) (\(device.name)): passed through to \(clone.node)")
    }

    /// The source handed device `id`'s clone back (no contact down on it): its contacts lift on
    /// the clone, which goes, and the device is its other readers' again.
    mutating func releasable(_ id: Int) throws {
        guard let device = devices[id], !passThrough.wanted.contains(id) else { return }
        try endPassThrough(device.index, at: outputTime(clock.now()))
    }

    /// Runs `body` with the planners and a function that writes a planner's frame to its
    /// clone; a clone that fails to write is reported and closed, which gives its device back
    /// (the session passes it through no more: a reload asks again).
    mutating func passingThrough<R>(_ body: (inout GesturePipeline, inout PassThroughSet, (GestureEvent) -> Void, (Int, PassThroughFrame) -> Void) -> R) throws -> R {
        // Out of `self` while the pipeline is lent: the two are changed together.
        var set = PassThroughSet()
        var encoders: [Int: PassThroughEncoder] = [:]
        var scratch: [InputEvent] = []
        swap(&set, &passThrough.set)
        swap(&encoders, &passThrough.encoders)
        swap(&scratch, &passThrough.scratch)
        let clones = passThrough.clones
        let probe = passThroughProbe
        var failed: [(Int, Error)] = []
        let send: (Int, PassThroughFrame) -> Void = { device, frame in
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
        let result = try pipeline.emitting(to: sink) { pipeline, emit in
            withoutActuallyEscaping(emit) { emit in body(&pipeline, &set, emit, send) }
        }
        swap(&set, &passThrough.set)
        swap(&encoders, &passThrough.encoders)
        swap(&scratch, &passThrough.scratch)
        // While a viewer follows (followViewers), each hold decided goes to it at once.
        if passThrough.set.keepsReports {
            for (device, report) in passThrough.set.drainReports() { try sink.viewHold(report, device: device) }
        }
        for (device, error) in failed where passThrough.clones[device] != nil {
            sink.warn("pass-through clone \(passThrough.clones[device]!.node): \(error); removed, the device is given back")
            passThrough.clones.removeValue(forKey: device)?.close()
            passThrough.encoders[device] = nil
            if let id = devices.first(where: { $0.value.index == device })?.key { wantPassThrough(id, false) }
        }
        return result
    }

    /// One event of a device while some device is passed through: hold bounds and graph
    /// deadlines before its frame in time order, the event, and the frame to the planner.
    mutating func feedPassingThrough(_ event: InputEvent, index: Int) throws {
        try passingThrough { pipeline, set, emit, send in
            if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_REPORT {
                set.advance(&pipeline, to: event.time, emit: { e in emit(e) }, output: send)
            }
            let completed = pipeline.feed(device: index, event, emit: emit)
            if completed { set.frame(device: index, pipeline.assembledFrame(of: index), pipeline, output: send) }
        }
    }

    /// The timer: graph deadlines and hold bounds up to `t` (output time), in time order.
    mutating func advancePassingThrough(to t: Timestamp) throws {
        try passingThrough { pipeline, set, emit, send in
            set.advance(&pipeline, to: t, through: true, emit: emit, output: send)
        }
    }

    /// The earliest hold bound, on the source's clock.
    var passThroughDeadline: Timestamp? { passThrough.set.nextDeadline.map(pipeline.inputTime) }

    /// Device `index` ends (removed, stopped, the daemon's exit): its clone's contacts lift,
    /// then the clone goes. Call before the device's graph finishes.
    mutating func endPassThrough(_ index: Int, at time: Timestamp) throws {
        guard let clone = passThrough.clones[index] else { return }
        let counters = index < passThrough.set.planners.count ? passThrough.set.planners[index]?.counters : nil
        try passingThrough { _, set, _, send in set.finish(device: index, at: time, output: send) }
        _ = passThrough.set.drainReports()
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

    /// A device's graph was rebuilt (reload, registered target): its planner reads the new one.
    mutating func passThroughGraphChanged(_ index: Int) {
        guard passThrough.clones[index] != nil, let graph = pipeline.graph(of: index) else { return }
        passThrough.set.graphChanged(device: index, graph)
    }
}
