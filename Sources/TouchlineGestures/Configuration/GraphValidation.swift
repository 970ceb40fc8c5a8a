import TouchlineCore

// The rules a graph configuration must meet before a graph is built from it
// (docs/config.md#validation). The limits are generous on purpose: they reject what cannot
// work or cannot be meant (a negative slop, a tap of zero duration, a 10 km margin, a name
// that would fill a terminal), never a tuning someone might want.

extension GraphConfiguration {
    /// The documented limits of docs/config.md#validation.
    public enum Limits {
        /// Longest target or recognizer name, in bytes of UTF-8 (names travel in every event).
        public static let nameBytes = 64
        /// Longest duration a parameter may hold; durations must also be positive (a tap of
        /// 0 ms or a velocity measured over no time cannot happen).
        public static let longestDuration = Interval.milliseconds(60_000)
        /// Largest distance a parameter or a target in mm may hold: the widest panel Touchline
        /// believes (device descriptions outside roughly 20 mm…3 m get a fallback). Distances
        /// may be 0 (no slop, no minimum).
        public static let longestDistance = 3_000.0
        /// Largest speed, mm/s: 10 m/s, about twice the fastest flick.
        public static let highestSpeed = 10_000.0
        /// Largest `swipe.maximumAngle`, degrees: the angle from the nearest axis is never more
        /// than 45°, so a larger limit means nothing.
        public static let widestSwipeAngle = 45.0
        /// Largest `rotate.minimumAngle`, degrees.
        public static let widestRotateAngle = 180.0
        /// Most fingers a recognizer may ask for: the contacts a graph tracks at once.
        public static let mostFingers = GestureGraph.contactCapacity
        /// Most taps in a series.
        public static let mostTaps = 64
        /// Largest `z` of a target either way: stacking order needs no more.
        public static let farthestZ = 1_000_000
    }

    /// Checks everything docs/config.md#validation lists, in declaration order (targets, then
    /// recognizers, then `requiresFailureOf` cycles), and throws the first problem found.
    public func validate() throws(GraphConfigurationError) {
        _ = try resolve()
    }

    /// The references resolved to indices, for `GestureGraph.init`.
    struct Resolved {
        /// Recognizer i's target index.
        var targetOf: [Int]
        /// Recognizer i's `simultaneousWith`, as indices.
        var simultaneousWith: [[Int]]
        /// Recognizer i's `requiresFailureOf`, as indices.
        var requiresFailureOf: [[Int]]
        /// Recognizer i's `dropTargets`, as a mask of target indices (bit t: target t).
        var dropTargets: [UInt64] = []
    }

    /// Validates and resolves every name to its index.
    func resolve() throws(GraphConfigurationError) -> Resolved {
        typealias E = GraphConfigurationError
        if targets.isEmpty {
            throw E(.count, .graph, key: nil, "a graph needs at least one target (GraphConfiguration.default has one, the whole surface)")
        }
        var targetIndex: [String: Int] = [:]
        for (k, t) in targets.enumerated() {
            let subject = E.Subject.target(t.name, k)
            try Self.checkName(t.name, subject)
            if let first = targetIndex[t.name] {
                throw E(.duplicate, subject, key: "name", "target \(E.quoted(t.name)) is declared twice (targets \(first + 1) and \(k + 1)); give each a unique name")
            }
            targetIndex[t.name] = k
            try Self.checkRect(t, subject)
        }

        if recognizers.count > GraphConfiguration.maximumRecognizers {
            throw E(.count, .graph, key: nil, "a graph holds at most \(GraphConfiguration.maximumRecognizers) recognizers, this one has \(recognizers.count)")
        }
        var recognizerIndex: [String: Int] = [:]
        var targetOf: [Int] = []
        targetOf.reserveCapacity(recognizers.count)
        for (k, r) in recognizers.enumerated() {
            let subject = E.Subject.recognizer(r.name, k)
            try Self.checkName(r.name, subject)
            if let first = recognizerIndex[r.name] {
                throw E(.duplicate, subject, key: "name", "recognizer \(E.quoted(r.name)) is declared twice (recognizers \(first + 1) and \(k + 1)); give each a unique name")
            }
            recognizerIndex[r.name] = k
            guard let t = targetIndex[r.target] else {
                throw E(.reference, subject, key: "target", "recognizer \(E.quoted(r.name)) names target \(E.quoted(r.target)), which is not declared; targets: \(Self.list(targets.map(\.name)))")
            }
            targetOf.append(t)
            try Self.checkParameters(r.kind, subject)
            if r.consume { try Self.checkHold(r, subject) }
        }

        func indices(_ key: String, _ names: [String], of k: Int) throws(E) -> [Int] {
            let r = recognizers[k]
            let subject = E.Subject.recognizer(r.name, k)
            var out: [Int] = []
            for other in names {
                guard let j = recognizerIndex[other] else {
                    throw E(.reference, subject, key: key, "recognizer \(E.quoted(r.name)) names recognizer \(E.quoted(other)) in \(key), which is not declared; recognizers: \(Self.list(recognizers.map(\.name)))")
                }
                if j == k && key == "requiresFailureOf" {
                    throw E(.cycle, subject, key: key, "recognizer \(E.quoted(r.name)) requires its own failure (\(r.name) → \(r.name)), so it would wait for ever; remove it from its requiresFailureOf")
                }
                if j == k {
                    throw E(.reference, subject, key: key, "recognizer \(E.quoted(r.name)) names itself in \(key); a recognizer is always simultaneous with itself")
                }
                if targetOf[j] != targetOf[k] {
                    throw E(.crossTarget, subject, key: key, "recognizer \(E.quoted(r.name)) (target \(E.quoted(r.target))) names recognizer \(E.quoted(other)) (target \(E.quoted(recognizers[j].target))) in \(key); arenas are per target, so a relation holds only between recognizers of one target")
                }
                out.append(j)
            }
            return out
        }
        var simultaneous: [[Int]] = []
        var requires: [[Int]] = []
        for k in recognizers.indices {
            simultaneous.append(try indices("simultaneousWith", recognizers[k].simultaneousWith, of: k))
            requires.append(try indices("requiresFailureOf", recognizers[k].requiresFailureOf, of: k))
        }
        if let cycle = Self.firstCycle(requires) {
            let path = (cycle + [cycle[0]]).map { recognizers[$0].name }.joined(separator: " → ")
            let first = recognizers[cycle[0]]
            throw E(.cycle, .recognizer(first.name, cycle[0]), key: "requiresFailureOf", "requiresFailureOf makes recognizers wait for each other's failure for ever: \(path); remove one of these relations")
        }
        var drops: [UInt64] = []
        for (k, r) in recognizers.enumerated() {
            drops.append(try Self.dropTargetMask(r, k, targetIndex))
        }
        return Resolved(targetOf: targetOf, simultaneousWith: simultaneous, requiresFailureOf: requires, dropTargets: drops)
    }

    /// A carrier's `dropTargets` as a mask of target indices: each a declared target, other than
    /// the carrier's own (an item is not dropped on where it was lifted from), among the first
    /// 64 (the carry keeps them as a 64-bit set, as the arena keeps its members); only a kind
    /// that carries may name any. The error is at the `dropTargets` key.
    static func dropTargetMask(_ r: RecognizerSpec, _ k: Int, _ targetIndex: [String: Int]) throws(GraphConfigurationError) -> UInt64 {
        typealias E = GraphConfigurationError
        guard !r.dropTargets.isEmpty else { return 0 }
        let subject = E.Subject.recognizer(r.name, k)
        guard r.kind.recognizer.carries else {
            throw E(.reference, subject, key: "dropTargets", "recognizer \(E.quoted(r.name)) is a \(r.kind.gesture.name) and names dropTargets; only a recognizer that carries its contacts across targets (drag) has drop targets")
        }
        var mask: UInt64 = 0
        for name in r.dropTargets {
            guard let t = targetIndex[name] else {
                throw E(.reference, subject, key: "dropTargets", "recognizer \(E.quoted(r.name)) names target \(E.quoted(name)) in dropTargets, which is not declared; targets: \(list(targetIndex.sorted { $0.value < $1.value }.map(\.key)))")
            }
            if name == r.target {
                throw E(.reference, subject, key: "dropTargets", "recognizer \(E.quoted(r.name)) names its own target \(E.quoted(name)) in dropTargets; an item is dropped somewhere else than where it was lifted")
            }
            guard t < 64 else {
                throw E(.count, subject, key: "dropTargets", "recognizer \(E.quoted(r.name)) names target \(E.quoted(name)) (target \(t + 1)) in dropTargets; drop targets must be among the first 64 targets declared")
            }
            mask |= 1 << UInt64(t)
        }
        return mask
    }

    /// The first cycle of the "requires the failure of" relation, as recognizer indices
    /// starting from its earliest declared member; nil when there is none. Depth first, in
    /// declaration order, so the answer does not depend on anything but the configuration.
    static func firstCycle(_ requires: [[Int]]) -> [Int]? {
        // 0 unvisited, 1 on the current path, 2 done.
        var mark = Array(repeating: 0, count: requires.count)
        var path: [Int] = []
        // Iterative, so that a long chain cannot overflow the stack: (node, next edge).
        var stack: [(node: Int, edge: Int)] = []
        for start in requires.indices where mark[start] == 0 {
            stack.append((start, 0))
            mark[start] = 1
            path.append(start)
            while let top = stack.last {
                if top.edge < requires[top.node].count {
                    stack[stack.count - 1].edge += 1
                    let next = requires[top.node][top.edge]
                    if mark[next] == 1, let from = path.firstIndex(of: next) {
                        let cycle = Array(path[from...])
                        // Rotate to start at the earliest declared member.
                        let lowest = cycle.indices.min { cycle[$0] < cycle[$1] } ?? 0
                        return Array(cycle[lowest...] + cycle[..<lowest])
                    }
                    if mark[next] == 0 {
                        mark[next] = 1
                        path.append(next)
                        stack.append((next, 0))
                    }
                } else {
                    mark[top.node] = 2
                    path.removeLast()
                    stack.removeLast()
                }
            }
        }
        return nil
    }

    static func checkName(_ name: String, _ subject: GraphConfigurationError.Subject) throws(GraphConfigurationError) {
        let what = subject.kind.rawValue
        if name.isEmpty {
            throw GraphConfigurationError(.name, subject, key: "name", "a \(what)'s name cannot be empty (\(what) \(subject.index + 1))")
        }
        if name.utf8.count > Limits.nameBytes {
            throw GraphConfigurationError(.name, subject, key: "name", "\(what) name \(GraphConfigurationError.quoted(name, length: false)) is \(name.utf8.count) bytes; a name is at most \(Limits.nameBytes) bytes of UTF-8")
        }
        if let bad = name.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw GraphConfigurationError(.name, subject, key: "name", "\(what) name \(GraphConfigurationError.quoted(name)) holds the control character U+\(hex4(bad.value)); a name holds no control characters")
        }
    }

    static func checkRect(_ t: TargetSpec, _ subject: GraphConfigurationError.Subject) throws(GraphConfigurationError) {
        let limit = t.units == .normalized ? 1.0 : Limits.longestDistance
        let unit = t.units == .normalized ? "" : " mm"
        let r = t.rect
        let shown = "[\(number(r.x)), \(number(r.y)), \(number(r.width)), \(number(r.height))]"
        let expected = "x and y within -\(number(limit))…\(number(limit))\(unit), width and height greater than 0 and at most \(number(limit))\(unit)"
        let fine = [r.x, r.y].allSatisfy { $0.isFinite && abs($0) <= limit }
            && [r.width, r.height].allSatisfy { $0.isFinite && $0 > 0 && $0 <= limit }
        if !fine {
            throw GraphConfigurationError(.range, subject, key: "rect", "target \(GraphConfigurationError.quoted(t.name)) has rect \(shown) (\(t.units.rawValue)); expected \(expected)")
        }
        guard zAllowed(Int64(t.z)) else {
            throw GraphConfigurationError(.range, subject, key: "z", "target \(GraphConfigurationError.quoted(t.name)) has z \(t.z); expected \(zExpected)")
        }
    }

    package static func zAllowed(_ z: Int64) -> Bool { z >= -Int64(Limits.farthestZ) && z <= Int64(Limits.farthestZ) }
    package static var zExpected: String { "an integer from -\(Limits.farthestZ) to \(Limits.farthestZ) (higher is on top)" }

    static func checkParameters(_ kind: RecognizerKind, _ subject: GraphConfigurationError.Subject) throws(GraphConfigurationError) {
        let kindName = kind.gesture.name.description
        guard let problem = kind.problem else { return }
        if problem.isRelation {
            throw GraphConfigurationError(.minimumAboveMaximum, subject, key: problem.key, relatedKey: problem.relatedKey, "\(subject) (\(kindName)): \(problem.found); expected \(problem.expected)")
        }
        throw GraphConfigurationError(.range, subject, key: problem.key, "\(subject) (\(kindName)): \(problem.key) is \(problem.found); expected \(problem.expected)")
    }

    /// A consuming recognizer must be able to claim before its hold bound releases the contacts
    /// it could take (docs/live.md#pass-through): one that claims later never keeps a touch from
    /// the clone, and every touch it could take waits the whole bound for nothing. A consuming
    /// three-finger long press (500 ms) with the standard bound (150 ms) was such a one, and
    /// `--check-config` said ok. The error names both numbers and the fix, at the `hold` (or
    /// `holdDistance`) key when the file sets it, else at `consume`.
    static func checkHold(_ r: RecognizerSpec, _ subject: GraphConfigurationError.Subject) throws(GraphConfigurationError) {
        let floor = r.kind.claimFloor
        let bound = r.hold ?? .standard
        let kindName = r.kind.gesture.name.description
        let whose = r.hold == nil ? "the standard hold bound" : "its own hold bound"
        if floor.time > bound.time {
            let fix = floor.time <= PassThroughBound.longestTime
                ? "raise hold to at least \(milliseconds(floor.time)) (hold = \"\(floor.time.microseconds / 1000)ms\"; fingers that land one after another need a little more)"
                : "a hold is at most \(milliseconds(PassThroughBound.longestTime)): shorten the recognizer's wait, or drop consume"
            throw GraphConfigurationError(.hold, subject, key: r.hold == nil ? "consume" : "hold",
                                          "\(subject) (\(kindName)) claims \(milliseconds(floor.time)) after its contacts land at the earliest, but with consume = true a contact it could take is held at most \(milliseconds(bound.time)) (\(whose)), so it would never keep a touch from the clone: \(fix)")
        }
        if floor.distance >= bound.distance {
            let fix = floor.distance < PassThroughBound.longestDistance
                ? "raise holdDistance above \(number(floor.distance)) mm (holdDistance = \"\(number((floor.distance + 1).rounded(.up)))mm\")"
                : "a holdDistance is at most \(number(PassThroughBound.longestDistance)) mm: shorten the recognizer's distance, or drop consume"
            throw GraphConfigurationError(.hold, subject, key: r.hold == nil ? "consume" : "holdDistance",
                                          "\(subject) (\(kindName)) claims after a contact moved \(number(floor.distance)) mm at the least, but with consume = true a contact it could take is held only until it moved \(number(bound.distance)) mm (\(whose)), so it would never keep a touch from the clone: \(fix)")
        }
    }

    /// A number as a message shows it: "3", "2.5", "-1", "nan", "inf".
    static func number(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }

    static func milliseconds(_ d: Interval) -> String {
        let us = d.microseconds
        return us % 1000 == 0 ? "\(us / 1000) ms" : formatFixed(us, decimals: 3) + " ms"
    }

    static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Names for a "declared: …" list, each shortened, at most ten.
    static func list(_ names: [String]) -> String {
        let shown = names.prefix(10).map { GraphConfigurationError.quoted($0) }.joined(separator: ", ")
        return names.count > 10 ? shown + ", … (\(names.count) in all)" : shown
    }
}
