import TouchlineCore

// Per-tool parameters (docs/config.md#tools): a round that a pen starts runs its recognizers
// with their pen parameters (a press's slop, for a nib that slides as the force builds), a
// round of fingers with the configured ones. The choice is made once, when a closed arena
// opens, so a frame pays nothing for it; a graph whose kinds have no pen values never looks.
extension GestureGraph {
    /// Target `t`'s arena is about to open for contacts landing now: each member whose pen
    /// parameters differ from its finger parameters is made anew with the landing tool's. All
    /// members of a closed arena are idle (an arena closes only when none holds or waits), so
    /// nothing in flight is lost.
    @inline(never) mutating func takeParametersOfTheLandingTool(on t: Int) {
        // Through the checked subscript, not a span in a closure: on this closure Swift 6.3.1's
        // optimizer crashes in release ("leaked owned value" of the span in CopyPropagation).
        var pen = false
        for k in 0..<store.trackedCount {
            let contact = store[tracked: k]
            if contact.target == t && contact.isNew && contact.tool == .pen { pen = true }
        }
        for i in MemberIndices(arena.targets[t].members) {
            guard let penKind = penKinds[i] else { continue }
            let bit = UInt64(1) << UInt64(i)
            guard pen != (penMembers & bit != 0) else { continue }
            store.reinitialize(i, pen ? penKind : configuration.recognizers[i].kind, surface: surface)
            penMembers ^= bit
        }
    }
}
