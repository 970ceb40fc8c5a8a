// FrameAssembler's events (split from FrameAssembler.swift along its MARK, issue 32 item 4): each
// evdev event applied to the slots, by protocol (docs/frame-assembly.md).
extension FrameAssembler {
    mutating func abs(_ code: UInt16, _ value: Int32) {
        switch inputProtocol {
        case .singleTouch:
            switch code {
            case EventCodes.ABS_X: singleX = value
            case EventCodes.ABS_Y: singleY = value
            case EventCodes.ABS_PRESSURE: singlePressure = value
            default: break
            }
        case .slotted:
            slottedAbs(code, value)
        case .unslotted, .undecided:
            if code == EventCodes.ABS_MT_SLOT && inputProtocol == .undecided {
                latchSlotted()
                slottedAbs(code, value)
                return
            }
            switch code {
            case EventCodes.ABS_MT_POSITION_X: pending.x = value; lastMTX = value
            case EventCodes.ABS_MT_POSITION_Y: pending.y = value; lastMTY = value
            case EventCodes.ABS_MT_PRESSURE: pending.pressure = value
            case EventCodes.ABS_MT_TOUCH_MAJOR: pending.major = value
            case EventCodes.ABS_MT_TOUCH_MINOR: pending.minor = value
            case EventCodes.ABS_MT_TRACKING_ID: pending.trackingID = value
            case EventCodes.ABS_MT_TOOL_TYPE: pending.tool = value
            default: break
            }
        }
    }

    mutating func slottedAbs(_ code: UInt16, _ value: Int32) {
        if code == EventCodes.ABS_MT_SLOT {
            if value >= 0 && Int(value) < slots.count {
                currentSlot = Int(value)
            } else {
                currentSlot = -1
                counters.slotsOutOfRange += 1
            }
            return
        }
        let s = currentSlot
        guard s >= 0 else { return }
        switch code {
        case EventCodes.ABS_MT_TRACKING_ID: setTrackingID(value, slot: s)
        case EventCodes.ABS_MT_POSITION_X: slots[s].x = value
        case EventCodes.ABS_MT_POSITION_Y: slots[s].y = value
        case EventCodes.ABS_MT_PRESSURE: slots[s].pressure = value
        case EventCodes.ABS_MT_TOUCH_MAJOR: slots[s].major = value
        case EventCodes.ABS_MT_TOUCH_MINOR: slots[s].minor = value
        case EventCodes.ABS_MT_TOOL_TYPE:
            slots[s].tool = value
            toolsChanged = true
        default: break
        }
    }

    mutating func setTrackingID(_ value: Int32, slot s: Int) {
        let id: Int32 = value < 0 ? -1 : value
        if id == slots[s].trackingID { return }
        // A new id without a -1 first is tracking-id reuse: the old contact ends here too.
        if slots[s].hasContact {
            endTrack(inSlot: s)
            slots[s].hasContact = false
        }
        slots[s].trackingID = id
        slots[s].overCapacity = false
        slots[s].beginsContact = id >= 0
        if id >= 0 { anyBegins = true }
    }

    mutating func endTrack(inSlot s: Int) {
        for i in tracks.indices where tracks[i].slot == Int32(s) && !tracks[i].stage.isFinal {
            copySlot(s, into: i)
            tracks[i].stage = .ended
            return
        }
    }

    mutating func key(_ code: UInt16, _ value: Int32) {
        if code == EventCodes.BTN_TOOL_PEN || code == EventCodes.BTN_TOOL_RUBBER {
            // A single-touch pen says which tool is in range; MT devices say it per slot.
            singleTool = value != 0 ? .pen : .finger
            return
        }
        guard code == EventCodes.BTN_TOUCH else { return }
        // Key repeat (value 2) keeps the key down.
        if inputProtocol == .singleTouch {
            touching = value != 0
        } else if value == 0 {
            touchReleased = true
        }
    }

    mutating func endReport() {
        if inputProtocol == .undecided { inputProtocol = .unslotted }
        guard inputProtocol == .unslotted else { return }
        // A negative tracking id describes no contact (as -1 lifts a slot in protocol B).
        if pending.isEmpty || (pending.trackingID ?? 0) < 0 {
            pending = Report()
            return
        }
        if reports.count < maxContacts {
            var r = pending
            // Protocol A sends every value of every contact; if a driver skips one, the value
            // last sent is the best guess (what the kernel's own state would hold).
            if r.x == nil { r.x = lastMTX }
            if r.y == nil { r.y = lastMTY }
            reports.append(r)
        } else {
            counters.contactsOverCapacity += 1
        }
        pending = Report()
    }

    mutating func drop() {
        counters.droppedResyncs += 1
        switch options.dropRecovery {
        case .discardUntilReport:
            discarding = true
        case .syncEventsFollow:
            resyncing = true
        }
        maybeStale = true
    }

    /// Forgets what the current, unfinished frame said (slot values stay: they are the device's
    /// state, not the frame's).
    mutating func resetFrameScratch() {
        reports.removeAll(keepingCapacity: true)
        pending = Report()
        touchReleased = false
    }

    /// An unslotted device sent MT data without SYN_MT_REPORT (or an ABS_MT_SLOT): it is protocol
    /// B without slot events (MonkeyHelper galaxys-paint). What it sent so far goes to slot 0.
    mutating func latchSlotted() {
        inputProtocol = .slotted
        let p = pending
        pending = Report()
        let s = currentSlot
        guard s >= 0 else { return }
        if let t = p.trackingID { setTrackingID(t, slot: s) }
        if let v = p.x { slots[s].x = v }
        if let v = p.y { slots[s].y = v }
        if let v = p.pressure { slots[s].pressure = v }
        if let v = p.major { slots[s].major = v }
        if let v = p.minor { slots[s].minor = v }
        if let v = p.tool { slots[s].tool = v }
    }
}
