import TouchlineCore

// Palms (docs/gestures.md#palms), libinput's touchscreen rule: a contact the firmware marks
// `MT_TOOL_PALM` never starts or joins a gesture, and a contact that turns into a palm while
// it is part of one ends there as cancelled. Only frames with a palm come here: `process` tests
// the frame's flag first (one test a frame), so every caller of the public entry point gets
// the rule, and the rest of the per-frame path pays nothing for palms.
extension GestureGraph {
    /// The frame without its palms, through `process`: a palm the graph tracks (it landed as a
    /// finger or pen) is cancelled in this frame, with an explain line for each winner it
    /// leaves; any other palm is left out, and so stays out for its whole life (the graph
    /// tracks only contacts whose landing it saw). The copy allocates, on palm frames only.
    @inline(never) mutating func processFilteringPalms(_ frame: TouchFrame, emit: (GestureEvent) -> Void) {
        var kept = TouchFrame(time: frame.time, afterDrop: frame.afterDrop)
        kept.contacts.reserveCapacity(frame.contacts.count)
        for c in frame.contacts {
            guard c.tool == .palm else {
                kept.contacts.append(c)
                continue
            }
            // Through the checked subscript, not a span in a closure (see GestureGraph+Pens.swift:
            // Swift 6.3.1's optimizer crashed on such a closure in release).
            var t = -1
            for i in 0..<store.trackedCount where store[tracked: i].id == c.id { t = store[tracked: i].target }
            guard t >= 0 else { continue }
            explainPalm(on: t, at: frame.time, emit)
            var cancelled = c
            cancelled.phase = .cancelled
            kept.contacts.append(cancelled)
        }
        kept.hasPalm = false
        process(kept, emit: emit)
    }

    /// Before its winners on target `t` end as cancelled: why (with `--explain`).
    private mutating func explainPalm(on t: Int, at time: Timestamp, _ emit: (GestureEvent) -> Void) {
        guard explain, t < arena.targets.count else { return }
        for i in MemberIndices(arena.owners(of: t)) {
            explainLine(i, .ended, .note("a contact turned into a palm (MT_TOOL_PALM): cancelled"), at: time, emit)
        }
    }
}
