// FrameAssembler's frames (split from FrameAssembler.swift along its MARK, issue 32 item 4): the
// slots made into a TouchFrame at SYN_REPORT (docs/frame-assembly.md).
extension FrameAssembler {
    /// The frame time: never earlier than the previous one (a device or trace whose clock
    /// steps back must not make recognizers see negative durations).
    mutating func clampedTime(_ time: Timestamp) -> Timestamp {
        var t = time
        if let last = lastReportTime, time < last {
            t = last
            counters.timeWentBackwards += 1
        }
        lastReportTime = t
        return t
    }

    mutating func finishFrame(at time: Timestamp) -> Bool {
        let t = clampedTime(time)
        if inputProtocol == .undecided && !pending.isEmpty { latchSlotted() }
        switch inputProtocol {
        case .slotted: finishSlotted()
        case .unslotted: finishUnslotted()
        case .singleTouch: finishSingle()
        case .undecided: break
        }
        var afterDrop = false
        if resyncing {
            // We cannot know when a contact that vanished during the drop really lifted.
            for i in tracks.indices where tracks[i].stage == .ended { tracks[i].stage = .cancelled }
            afterDrop = true
            resyncing = false
        }
        if maybeStale && touchReleased {
            // The kernel says no finger is down; contacts still live lost their lift in the drop.
            // Contacts that began in this very frame have a fresh tracking id: not stale.
            for i in tracks.indices where tracks[i].stage == .down {
                if tracks[i].slot >= 0 && Int(tracks[i].slot) < slots.count && inputProtocol == .slotted {
                    slots[Int(tracks[i].slot)].hasContact = false
                }
                tracks[i].stage = .cancelled
                afterDrop = true
            }
        }
        resetFrameScratch()
        buildFrame(at: t, afterDrop: afterDrop)
        return !frame.contacts.isEmpty
    }

    var activeCount: Int {
        var n = 0
        for i in tracks.indices where !tracks[i].stage.isFinal { n += 1 }
        return n
    }

    mutating func newID() -> ContactID {
        let id = ContactID(nextID)
        nextID &+= 1
        return id
    }

    mutating func copySlot(_ s: Int, into i: Int) {
        tracks[i].x = xAxis.clamp(slots[s].x)
        tracks[i].y = yAxis.clamp(slots[s].y)
        tracks[i].pressure = pressureAxis.present ? slots[s].pressure : nil
        tracks[i].major = slots[s].major
        tracks[i].minor = slots[s].minor
        tracks[i].tool = ContactTool(mtToolType: slots[s].tool)
    }

    mutating func finishSlotted() {
        takeSlotValues()
        if toolsChanged {
            // Only in a frame that sent ABS_MT_TOOL_TYPE: a frame of fingers copies no tool.
            toolsChanged = false
            for i in tracks.indices where !tracks[i].stage.isFinal && tracks[i].slot >= 0 && Int(tracks[i].slot) < slots.count {
                tracks[i].tool = ContactTool(mtToolType: slots[Int(tracks[i].slot)].tool)
            }
        }
        guard anyBegins else { return }
        anyBegins = false
        var active = activeCount
        for s in slots.indices where slots[s].beginsContact {
            slots[s].beginsContact = false
            if active >= maxContacts {
                slots[s].overCapacity = true
                counters.contactsOverCapacity += 1
                continue
            }
            let track = Track(
                id: newID(), slot: Int32(s), trackingID: slots[s].trackingID, x: 0, y: 0, lastX: 0, lastY: 0,
                stage: .began)
            tracks.append(track)
            copySlot(s, into: tracks.count - 1)
            slots[s].hasContact = true
            active += 1
        }
    }

    mutating func finishSingle() {
        var live = -1
        for i in tracks.indices where !tracks[i].stage.isFinal { live = i }
        let x = xAxis.clamp(singleX)
        let y = yAxis.clamp(singleY)
        let pressure: Int32? = pressureAxis.present ? singlePressure : nil
        if live >= 0 {
            tracks[live].x = x
            tracks[live].y = y
            tracks[live].pressure = pressure
            tracks[live].tool = singleTool
            if !touching { tracks[live].stage = .ended }
        } else if touching {
            tracks.append(
                Track(
                    id: newID(), slot: -1, trackingID: -1, x: x, y: y, lastX: x, lastY: y, pressure: pressure,
                    tool: singleTool, stage: .began))
        }
    }

    mutating func finishUnslotted() {
        if !pending.isEmpty { endReport() }  // a last report without its SYN_MT_REPORT
        if reports.isEmpty || touchReleased {
            // An empty report, a frame without MT data, or BTN_TOUCH 0: no contact is down.
            for i in tracks.indices where !tracks[i].stage.isFinal { tracks[i].stage = .ended }
            return
        }
        for i in tracks.indices { tracks[i].match = -1 }
        // Tracking ids, where the device sends them (Android), are authoritative.
        for r in reports.indices {
            guard let tid = reports[r].trackingID else { continue }
            for i in tracks.indices where !tracks[i].stage.isFinal && tracks[i].match < 0 && tracks[i].trackingID == tid {
                tracks[i].match = r
                reports[r].match = i
                break
            }
        }
        matchNearest()
        for i in tracks.indices where !tracks[i].stage.isFinal {
            let r = tracks[i].match
            if r < 0 {
                tracks[i].stage = .ended
            } else {
                tracks[i].x = xAxis.clamp(reports[r].x ?? lastMTX)
                tracks[i].y = yAxis.clamp(reports[r].y ?? lastMTY)
                tracks[i].pressure = pressureAxis.present ? reports[r].pressure : nil
                tracks[i].major = reports[r].major
                tracks[i].minor = reports[r].minor
                tracks[i].tool = ContactTool(mtToolType: reports[r].tool ?? 0)
                tracks[i].slot = Int32(r)
            }
        }
        var active = activeCount
        for r in reports.indices where reports[r].match < 0 {
            if active >= maxContacts {
                counters.contactsOverCapacity += 1
                continue
            }
            let x = xAxis.clamp(reports[r].x ?? lastMTX)
            let y = yAxis.clamp(reports[r].y ?? lastMTY)
            tracks.append(
                Track(
                    id: newID(), slot: Int32(r), trackingID: reports[r].trackingID ?? -1, x: x, y: y, lastX: x,
                    lastY: y, pressure: pressureAxis.present ? reports[r].pressure : nil, major: reports[r].major,
                    minor: reports[r].minor, tool: ContactTool(mtToolType: reports[r].tool ?? 0), stage: .began))
            active += 1
        }
    }

    /// Distance in mm between a track's last position and a report, or nil beyond `maxJump`.
    func jump(track i: Int, report r: Int) -> Double? {
        let a = geometry.millimetres(x: tracks[i].x, y: tracks[i].y)
        let b = geometry.millimetres(x: xAxis.clamp(reports[r].x ?? lastMTX), y: yAxis.clamp(reports[r].y ?? lastMTY))
        let d = a.distance(to: b)
        return d <= options.maxJump.value ? d : nil
    }

    /// Matches the reports without a tracking id to the tracks not yet matched: the assignment
    /// of least total distance (an unmatched track costs `maxJump`) when there are at most
    /// `optimalTracks` tracks and `optimalReports` reports, else greedily, closest pair first.
    mutating func matchNearest() {
        var trackIdx = SIMD4<Int32>(repeating: -1)
        var reportIdx = SIMD8<Int32>(repeating: -1)
        var nt = 0
        var nr = 0
        var small = true
        for i in tracks.indices where !tracks[i].stage.isFinal && tracks[i].match < 0 {
            if nt < 4 { trackIdx[nt] = Int32(i) } else { small = false }
            nt += 1
        }
        for r in reports.indices where reports[r].match < 0 && reports[r].trackingID == nil {
            if nr < 8 { reportIdx[nr] = Int32(r) } else { small = false }
            nr += 1
        }
        if nt == 0 || nr == 0 { return }
        if small {
            var cost = SIMD32<Double>(repeating: .infinity)
            for a in 0..<nt {
                for b in 0..<nr {
                    if let d = jump(track: Int(trackIdx[a]), report: Int(reportIdx[b])) { cost[a * 8 + b] = d }
                }
            }
            var best = SIMD4<Int8>(repeating: -1)
            var bestCost = Double.infinity
            var current = SIMD4<Int8>(repeating: -1)
            FrameAssembler.search(
                0, nt: nt, nr: nr, cost: cost, penalty: options.maxJump.value, used: 0, sum: 0,
                current: &current, best: &best, bestCost: &bestCost)
            for a in 0..<nt where best[a] >= 0 {
                let i = Int(trackIdx[a])
                let r = Int(reportIdx[Int(best[a])])
                tracks[i].match = r
                reports[r].match = i
            }
            return
        }
        while true {
            var bestD = Double.infinity
            var bi = -1
            var br = -1
            for i in tracks.indices where !tracks[i].stage.isFinal && tracks[i].match < 0 {
                for r in reports.indices where reports[r].match < 0 && reports[r].trackingID == nil {
                    if let d = jump(track: i, report: r), d < bestD {
                        bestD = d
                        bi = i
                        br = r
                    }
                }
            }
            if bi < 0 { return }
            tracks[bi].match = br
            reports[br].match = bi
        }
    }

    /// Exhaustive search over at most 4 tracks × 8 reports (9^4 = 6561 leaves at worst).
    static func search(
        _ a: Int, nt: Int, nr: Int, cost: SIMD32<Double>, penalty: Double, used: UInt32, sum: Double,
        current: inout SIMD4<Int8>, best: inout SIMD4<Int8>, bestCost: inout Double
    ) {
        if sum >= bestCost { return }
        if a == nt {
            bestCost = sum
            best = current
            return
        }
        for b in 0..<nr where used & (1 << UInt32(b)) == 0 {
            let d = cost[a * 8 + b]
            if d.isFinite {
                current[a] = Int8(b)
                search(
                    a + 1, nt: nt, nr: nr, cost: cost, penalty: penalty, used: used | (1 << UInt32(b)), sum: sum + d,
                    current: &current, best: &best, bestCost: &bestCost)
            }
        }
        current[a] = -1
        search(
            a + 1, nt: nt, nr: nr, cost: cost, penalty: penalty, used: used, sum: sum + penalty,
            current: &current, best: &best, bestCost: &bestCost)
    }

    /// The frame from the tracks, then the tracks moved on (finished ones dropped). The frame's
    /// storage is overwritten in place (UnsafeStorage.swift): appending contact by contact, with
    /// a uniqueness and capacity check and a copy each, was a fifth of a replay
    /// (docs/performance.md). The storage only grows within its reserved capacity.
    mutating func buildFrame(at time: Timestamp, afterDrop: Bool) {
        frame.time = time
        frame.afterDrop = afterDrop
        let n = tracks.count
        let have = frame.contacts.count
        if have > n {
            frame.contacts.removeLast(have - n)
        } else if have < n {
            frame.contacts.append(contentsOf: repeatElement(Contact(id: ContactID(0), phase: .ended, position: .zero, normalized: .zero), count: n - have))
        }
        let live = writeContactsAndCompactTracks()
        tracks.removeLast(n - live)
        if maybeStale && live == 0 { maybeStale = false }
    }

    func contact(_ t: Track) -> Contact {
        FrameAssembler.contact(t, geometry: geometry, pressureAxis: pressureAxis, unitsPerMillimetreForSize: unitsPerMillimetreForSize)
    }

    @inline(__always)
    static func contact(_ t: Track, geometry: SurfaceGeometry, pressureAxis: Axis, unitsPerMillimetreForSize: Double) -> Contact {
        let phase: ContactPhase
        switch t.stage {
        case .began: phase = .began
        case .ended: phase = .ended
        case .cancelled: phase = .cancelled
        case .down: phase = (t.x == t.lastX && t.y == t.lastY) ? .stationary : .moved
        }
        var c = Contact(
            id: t.id, phase: phase, position: geometry.millimetres(x: t.x, y: t.y),
            normalized: geometry.normalized(x: t.x, y: t.y), slot: t.slot, tool: t.tool)
        // Positions are clamped to declared axes already; this keeps 0...1 true even for a
        // device that declares no axis range (where normalized positions mean little).
        c.normalized.x = min(max(c.normalized.x, 0), 1)
        c.normalized.y = min(max(c.normalized.y, 0), 1)
        if let p = t.pressure, pressureAxis.present {
            let v = (Double(p) - Double(pressureAxis.minimum)) / (Double(pressureAxis.maximum) - Double(pressureAxis.minimum))
            c.pressure = Pressure(min(max(v, 0), 1))
        }
        if let m = t.major { c.touchMajor = Millimetres(Double(max(0, m)) / unitsPerMillimetreForSize) }
        if let m = t.minor { c.touchMinor = Millimetres(Double(max(0, m)) / unitsPerMillimetreForSize) }
        return c
    }
}
