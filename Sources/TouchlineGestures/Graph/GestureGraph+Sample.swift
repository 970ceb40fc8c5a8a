import TouchlineCore

// A target's contacts reduced to one GroupSample per frame (split from GestureGraph.swift, issue
// 32 item 4): the general sample and the two-contact fast path that must equal it
// (`generalSampleEquals`, asserted in debug builds; FastPathTests on optimized ones).
extension GestureGraph {
    /// Two passes over the contacts (sums, then distances from the centroids), over a span
    /// whose loops run over its own indices (so no index is checked per contact): three passes
    /// with bounds checks were a fifth of a frame. The sums run in
    /// contact order, as before, so the figures are bit for bit the same.
    /// `turns` false leaves `rotationDelta` 0 unless a contact landed or lifted (the inputs
    /// then go to every member, whatever it reads).
    /// `excluding`: zone bits (`LandingZones`); a contact outside any of them is left out (the
    /// sample of a zoned recognizer's own contacts, `deliverSplit`). 0 everywhere else, where
    /// the test folds away. It is tested on the copied contact, not in the loop's `where`: Swift
    /// 6.3.1's optimizer aborted on a second `contacts[k]` there ("Found ownership error" in
    /// CopyPropagation, -c release only).
    @inline(__always) static func sample(_ contacts: Span<Tracked>, on t: Int, at time: Timestamp, lastTime: Timestamp?, turns readers: Bool = true,
                                         excluding: UInt8 = 0, moved: inout Bool) -> GroupSample {
        var s = GroupSample(time: time)
        var present = 0, ended = 0, cancelled = 0, began = 0
        var sum = Vector.zero
        var prevSum = Vector.zero, nowSum = Vector.zero
        // The largest squared distance: √ is monotonic and correctly rounded, so one root at
        // the end equals the largest of the roots.
        var travel2 = 0.0
        for k in contacts.indices where contacts[k].target == t {
            let c = contacts[k]
            if c.outside & excluding != 0 { continue }
            present &+= 1
            if c.phase == .ended { ended &+= 1 } else if c.phase == .cancelled { cancelled &+= 1 }
            if c.isNew { began &+= 1 } else {
                prevSum = Vector(dx: prevSum.dx + c.previous.x, dy: prevSum.dy + c.previous.y)
                nowSum = Vector(dx: nowSum.dx + c.position.x, dy: nowSum.dy + c.position.y)
                if c.position != c.previous { moved = true }
            }
            sum = Vector(dx: sum.dx + c.position.x, dy: sum.dy + c.position.y)
            let d = c.position - c.first
            travel2 = max(travel2, d.dx * d.dx + d.dy * d.dy)
        }
        let common = present &- began
        // At most `contactCapacity` contacts: the counts fit their 32-bit fields.
        s.presentCount = Int32(truncatingIfNeeded: present)
        s.endedCount = Int32(truncatingIfNeeded: ended)
        s.cancelledCount = Int32(truncatingIfNeeded: cancelled)
        s.beganCount = Int32(truncatingIfNeeded: began)
        s.remainingCount = Int32(truncatingIfNeeded: present &- ended &- cancelled)
        s.maxTravel = travel2.squareRoot()
        guard present > 0 else { return s }
        let n = Double(present), m = Double(common)
        // Two contacts, both in the previous frame (the steady state of every two-finger
        // gesture): the means halve, and x * 0.5 is x / 2 bit for bit. The divisions they
        // replace sat on the frame's longest chain of dependent operations.
        let halves = present == 2 && common == 2
        let centroid: Point, cPrev: Point, cNow: Point
        if halves {
            centroid = Point(x: sum.dx * 0.5, y: sum.dy * 0.5)
            cPrev = Point(x: prevSum.dx * 0.5, y: prevSum.dy * 0.5)
            cNow = Point(x: nowSum.dx * 0.5, y: nowSum.dy * 0.5)
        } else {
            centroid = Point(x: sum.dx / n, y: sum.dy / n)
            cPrev = Point(x: prevSum.dx / m, y: prevSum.dy / m)
            cNow = Point(x: nowSum.dx / m, y: nowSum.dy / m)
        }
        s.centroid = centroid
        var spread = 0.0
        var spanPrev = 0.0, spanNow = 0.0, turn = 0.0, weight = 0.0
        let turns = common >= 2
        // No contact landed: every present contact is common, the two sums are the same
        // additions in the same order, so the centroid is cNow bit for bit and a contact's
        // distance from it is its `lb` (two square roots fewer per frame).
        let allCommon = turns && began == 0
        // Two common contacts (the usual pinch and turn) sit on either side of their centroid:
        // both turn by the angle of the line between them, taken once from that line (one
        // atan2 instead of two, and no weighted mean: the atan2's division and series were a
        // sixth of a frame). More contacts: each one's turn about the centroid, weighted.
        let pair = common == 2
        var pairPrev = Vector.zero, pairNow = Vector.zero, pairCount = 0
        if pair {
            // From the first common contact to the second; the spans are the line's length
            // (below), and so is the spread when no contact landed.
            for k in contacts.indices where contacts[k].target == t {
                let c = contacts[k]
                if c.outside & excluding != 0 { continue }
                if c.isNew || !allCommon { spread += c.position.distance(to: centroid) }
                if c.isNew { continue }
                if pairCount == 0 {
                    pairPrev = Vector(dx: -c.previous.x, dy: -c.previous.y)
                    pairNow = Vector(dx: -c.position.x, dy: -c.position.y)
                } else {
                    pairPrev = Vector(dx: pairPrev.dx + c.previous.x, dy: pairPrev.dy + c.previous.y)
                    pairNow = Vector(dx: pairNow.dx + c.position.x, dy: pairNow.dy + c.position.y)
                }
                pairCount &+= 1
            }
        } else {
            let readsTurn = readers || began != 0 || ended != 0 || cancelled != 0
            for k in contacts.indices where contacts[k].target == t {
                let c = contacts[k]
                if c.outside & excluding != 0 { continue }
                guard turns && !c.isNew else {
                    spread += c.position.distance(to: centroid)
                    continue
                }
                let a = c.previous - cPrev
                let b = c.position - cNow
                let la = a.length, lb = b.length
                spread += allCommon ? lb : c.position.distance(to: centroid)
                spanPrev += la
                spanNow += lb
                // A contact near the centroid says little about the turn; weight by radius.
                let w = min(la, lb)
                if w > 0.01 && readsTurn {
                    turn += GestureMath.angle(from: a, to: b) * w
                    weight += w
                }
            }
        }
        // Two common contacts: each is half the line between them from their centroid, so
        // twice the mean distance is the line's length (a root instead of four, each on the
        // frame's longest chain).
        let pairPrev2 = pairPrev.dx * pairPrev.dx + pairPrev.dy * pairPrev.dy
        let pairNow2 = pairNow.dx * pairNow.dx + pairNow.dy * pairNow.dy
        if pair && allCommon {
            s.span = pairNow2.squareRoot()
        } else {
            s.span = halves ? 2 * spread * 0.5 : 2 * spread / n
        }
        if common > 0 {
            s.translationDelta = cNow - cPrev
            if turns {
                if pair {
                    spanPrev = pairPrev2.squareRoot()
                    spanNow = pairNow2.squareRoot()
                } else if halves {
                    spanPrev = 2 * spanPrev * 0.5
                    spanNow = 2 * spanNow * 0.5
                } else {
                    spanPrev = 2 * spanPrev / m
                    spanNow = 2 * spanNow / m
                }
                s.spanDelta = spanNow - spanPrev
                s.spanRatio = max(spanNow, Thresholds.minimumSpan) / max(spanPrev, Thresholds.minimumSpan)
                if pair {
                    // As above, a turn measured that close to the centroid says little.
                    let radius2 = min(pairPrev2, pairNow2)
                    let readsTurn = readers || began != 0 || ended != 0 || cancelled != 0
                    s.rotationDelta = readsTurn && radius2 > 4 * 0.01 * 0.01 ? GestureMath.angle(from: pairPrev, to: pairNow) : 0
                } else {
                    s.rotationDelta = weight > 0 ? turn / weight : 0
                }
            }
        }
        if let last = lastTime, s.time > last { s.elapsed = s.time - last }
        return s
    }

    /// The sample of two contacts that were both down in the previous frame (every frame of a
    /// two-finger gesture but its first): the same operations as `sample(_:on:at:lastTime:moved:)` in
    /// the same order (so the same bits, which `SampleTests` checks), written out without its
    /// loops, counters and per-contact branches, which were most of a two-finger frame's
    /// sample.
    @inline(__always) static func samplePair(_ c0: Tracked, _ c1: Tracked, at time: Timestamp, lastTime: Timestamp?, turns readers: Bool = true, moved: inout Bool) -> GroupSample {
        assert(!c0.isNew && !c1.isNew && c0.target == c1.target && c0.id != c1.id, "samplePair needs two contacts of one target, both down before")
        var ended: Int32 = 0, cancelled: Int32 = 0
        if c0.phase == .ended { ended &+= 1 } else if c0.phase == .cancelled { cancelled &+= 1 }
        if c1.phase == .ended { ended &+= 1 } else if c1.phase == .cancelled { cancelled &+= 1 }
        // The general sums start from zero: 0 + x is not x when x is −0.
        let prevSum = Vector(dx: (0.0 + c0.previous.x) + c1.previous.x, dy: (0.0 + c0.previous.y) + c1.previous.y)
        let nowSum = Vector(dx: (0.0 + c0.position.x) + c1.position.x, dy: (0.0 + c0.position.y) + c1.position.y)
        moved = c0.position != c0.previous || c1.position != c1.previous
        let d0 = c0.position - c0.first, d1 = c1.position - c1.first
        let travel2 = max(max(0.0, d0.dx * d0.dx + d0.dy * d0.dy), d1.dx * d1.dx + d1.dy * d1.dy)
        // The sum of all contacts is the sum of the common ones: the centroid is cNow.
        let cPrev = Point(x: prevSum.dx * 0.5, y: prevSum.dy * 0.5)
        let cNow = Point(x: nowSum.dx * 0.5, y: nowSum.dy * 0.5)
        let pairPrev = Vector(dx: -c0.previous.x + c1.previous.x, dy: -c0.previous.y + c1.previous.y)
        let pairNow = Vector(dx: -c0.position.x + c1.position.x, dy: -c0.position.y + c1.position.y)
        let pairPrev2 = pairPrev.dx * pairPrev.dx + pairPrev.dy * pairPrev.dy
        let pairNow2 = pairNow.dx * pairNow.dx + pairNow.dy * pairNow.dy
        let spanPrev = pairPrev2.squareRoot()
        let spanNow = pairNow2.squareRoot()
        let radius2 = min(pairPrev2, pairNow2)
        let readsTurn = readers || ended != 0 || cancelled != 0
        var elapsed = Interval.zero
        if let last = lastTime, time > last { elapsed = time - last }
        return GroupSample(
            time: time, present: 2, remaining: 2 &- ended &- cancelled, ended: ended, cancelled: cancelled, centroid: cNow,
            span: spanNow, translationDelta: cNow - cPrev, spanDelta: spanNow - spanPrev,
            spanRatio: max(spanNow, Thresholds.minimumSpan) / max(spanPrev, Thresholds.minimumSpan),
            rotationDelta: readsTurn && radius2 > 4 * 0.01 * 0.01 ? GestureMath.angle(from: pairPrev, to: pairNow) : 0,
            maxTravel: travel2.squareRoot(), elapsed: elapsed)
    }
}
