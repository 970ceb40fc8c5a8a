import TouchlineCore

// GestureGraph's side of the arena (split from GestureGraph.swift along its MARKs, issue 32
// item 4): inputs handed to members, their actions applied, and the ArenaHost witnesses (the
// rules themselves are in Arena.swift).
extension GestureGraph {
    /// An input whose action the caller needs back (rejections, recorded transitions); frame
    /// inputs go through `deliver`. Both keep `deadlineMask` true (the kind's side of the call
    /// sets the recognizer's bit, UnsafeGraphStorage.swift).
    @inline(__always) mutating func handle(_ i: Int, _ input: RecognizerInput) -> RecognizerAction {
        store.handle(i, input, deadlines: &deadlineMask)
    }

    @inline(__always) mutating func deliver(_ i: Int, _ input: RecognizerInput, _ emit: (GestureEvent) -> Void) {
        // The state before is only read when recording: reading it on every input cost 6 % of
        // a frame (docs/performance.md).
        guard recordsTransitions else {
            apply(i, store.handle(i, input, deadlines: &deadlineMask), at: input.time, emit)
            return
        }
        let before = store.stateName(i)
        let action = handle(i, input)
        transitions.append(Transition(time: input.time, recognizer: names[i].description, from: before, input: input.name, to: store.stateName(i), action: action.name))
        apply(i, action, at: input.time, emit)
    }

    /// Contacts moved on target `t`. Only the members that receive contacts are visited. The
    /// steady state of a continuous gesture (its contacts move, it is active and has won) is
    /// taken here without the input and action enums: the recognizer updates in place and
    /// writes out its own fields, and its `changed` event is made where it is passed, with the
    /// fields every event of the frame shares (target, contacts) read once. The others get the
    /// input through `deliver`.
    @inline(__always) mutating func deliverMoved(to t: Int, members: UInt64, _ s: GroupSample, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        // What every `changed` event of the frame shares, read once.
        let target = targetNames[t]
        var fingers = 0, position = Point.zero, detail = GestureDetail(NoFields())
        // The mask is read once; a recognizer rejected by an earlier one's claim in this loop
        // is skipped by the status check.
        // Tested once, not per member (the kind's call in the loop could write `self`, so the
        // compiler read both flags again for each).
        let fast = usesFastPaths && !recordsTransitions
        for i in MemberIndices(members & arena.status.receiving) where arena.status[i].receivesContacts {
            if arena.status[i] == .won && fast && store.movedWhileActive(i, s, fingers: &fingers, position: &position, detail: &detail) {
                // Made where it is passed: a prepared event changed in place was copied whole
                // for every call.
                emit(GestureEvent(
                    seq: seq, time: time, device: device, gesture: kinds[i], phase: .changed, target: target, recognizer: names[i],
                    fingers: fingers, position: position, contacts: contactList(on: t), detail: detail))
                seq &+= 1
                continue
            }
            deliverMovedInput(i, s, emit)
        }
    }

    /// The moved input for a recognizer that is not an active continuous one. Not inlined: the
    /// input holds a copy of the sample, and made inline it had the whole sample copied on
    /// entry to the frame's loop, for every frame.
    @inline(never) mutating func deliverMovedInput(_ i: Int, _ s: GroupSample, _ emit: (GestureEvent) -> Void) {
        guard recordsTransitions else { return apply(i, store.moved(i, s, deadlines: &deadlineMask), at: s.time, emit) }
        deliver(i, .contactsMoved(s), emit)
    }

    /// Returns the recorded transitions and forgets them.
    public mutating func drainTransitions() -> [Transition] {
        defer { transitions.removeAll() }
        return transitions
    }

    mutating func apply(_ i: Int, _ action: RecognizerAction, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        switch action {
        case .none:
            break
        case .hold:
            hold(i, at: time, emit)
        case let .claim(reason):
            claim(i, reason, at: time, emit)
        case let .fail(reason):
            fail(i, reason, at: time, emit)
            if carry.carrier == i { carrierDone(i, at: time, emit) }
        case let .emit(e):
            if arena.status[i] == .won { emitEvent(i, e, at: time, emit) } else { reportBug(i, state: "not won", input: "emit", at: time, emit) }
        case let .finish(e, alsoEnded):
            if arena.status[i] == .won {
                emitEvent(i, e, at: time, emit)
                if alsoEnded {
                    var ended = e
                    ended.phase = .ended
                    emitEvent(i, ended, at: time, emit)
                }
                finished(i, at: time)
                if carry.carrier == i { carrierDone(i, at: time, emit) }
            } else {
                reportBug(i, state: "not won", input: "finish", at: time, emit)
            }
        case let .endByCount(e, count, minimum, maximum):
            endByCount(i, e, count: count, minimum: minimum, maximum: maximum, at: time, emit)
            if carry.carrier == i { carrierDone(i, at: time, emit) }
        case let .impossible(state, input):
            reportBug(i, state: state, input: input, at: time, emit)
            if carry.carrier == i { carrierDone(i, at: time, emit) }
        case let .locate(point):
            locate(i, point, at: time, emit)
        }
    }

    mutating func reportBug(_ i: Int, state: StaticString, input: StaticString, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        internalErrors += 1
        explainLine(i, .bug, .impossible(state: state, input: input), at: time, emit)
        _ = handle(i, .rejected(time))
        dropAfterBug(i, at: time, emit)
    }

    // MARK: - Arena host (the rules are in Arena.swift)

    @inline(__always) mutating func accepted(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        deliver(i, .accepted(time), emit)
    }

    mutating func rejected(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        let action = handle(i, .rejected(time))
        if case .none = action {} else { apply(i, action, at: time, emit) }
    }

    mutating func wonAtClose(_ i: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        reportBug(i, state: store.stateName(i), input: "arena close", at: time, emit)
    }

    /// Recorded for the observer when `tellsDecisions` (a graph with a consuming recognizer):
    /// a win with the contacts it claimed, its own (`ownContactList`). Decisions come at
    /// landings, lifts and deadlines, never on a steady frame.
    mutating func told(_ i: Int, _ verdict: ArenaDecision.Verdict, at time: Timestamp) {
        guard tellsDecisions else { return }
        let t = arena.targetOf[i]
        let contacts = verdict == .won && arena.arenaOf[i] == t ? ownContactList(i, on: t) : ContactList()
        decisions.append(ArenaDecision(recognizer: i, verdict: verdict, time: time, contacts: contacts))
    }
}
