// Raw evdev events → TouchFrame at every SYN_REPORT. The rules (protocols, matching, SYN_DROPPED,
// clamping, caps) are written down in docs/frame-assembly.md; this file follows them.
//
// Hot path: every array is reserved at init and reused (`removeAll(keepingCapacity:)`), slots
// and contacts are plain structs in those arrays, and nothing per event builds a String or a
// dictionary, so a steady stream of frames allocates nothing (principle 10).

/// Turns a device's raw events into frames of contacts (see docs/frame-assembly.md).
public struct FrameAssembler: Sendable {
    public struct Options: Hashable, Sendable {
        /// The sensor size in mm when the user gives it (overrides absinfo resolution).
        public var userSize: Size?
        /// Contacts tracked at once; more are ignored and counted (a device sending 40 contacts
        /// must not make the graph's storage grow without bound). 1...1024.
        public var maxContacts: Int
        /// Protocol A only (no tracking ids): the farthest a contact may move between two frames
        /// and still be matched as the same contact. Beyond it the old contact ends and a new one
        /// begins. 30 mm is a 1.8 m/s flick at 60 Hz, faster than the fastest swipe in the traces
        /// we have (N-Trig, MonkeyHelper: under 15 mm per frame), yet well under the spacing of
        /// two fingers put down in different places.
        public var maxJump: Millimetres
        /// What follows a SYN_DROPPED in the event stream this assembler is fed.
        public var dropRecovery: DropRecovery

        public init(
            userSize: Size? = nil, maxContacts: Int = 32, maxJump: Millimetres = Millimetres(30),
            dropRecovery: DropRecovery = .discardUntilReport
        ) {
            self.userSize = userSize
            self.maxContacts = maxContacts
            self.maxJump = maxJump
            self.dropRecovery = dropRecovery
        }
    }

    /// What follows a SYN_DROPPED in the stream (kernel: Documentation/input/event-codes.rst).
    public enum DropRecovery: Hashable, Sendable {
        /// The raw kernel stream, or a trace of it: the events up to and including the next
        /// SYN_REPORT are a torn frame and are ignored; nobody can query the device afterwards.
        case discardUntilReport
        /// A libevdev source that reads the sync events (`LIBEVDEV_READ_FLAG_SYNC`) and feeds them
        /// after the SYN_DROPPED: the events up to the next SYN_REPORT are libevdev's deltas
        /// between the state we saw and the device's real state, so they are applied.
        case syncEventsFollow
    }

    /// How the device reports contacts; decided from its description, or from its first frame
    /// when the description cannot tell.
    public enum InputProtocol: String, Hashable, Sendable {
        /// MT protocol B: ABS_MT_SLOT and ABS_MT_TRACKING_ID (also semi-MT devices).
        case slotted
        /// MT protocol A: contacts separated by SYN_MT_REPORT, tracking ids optional.
        case unslotted
        /// BTN_TOUCH + ABS_X/ABS_Y, one contact (touchscreens, pens).
        case singleTouch
        /// MT axes but no ABS_MT_SLOT in the description (a trace without a header): the first
        /// frame with MT data decides, SYN_MT_REPORT meaning protocol A, anything else protocol B
        /// in slot 0.
        case undecided
    }

    /// Device nonsense that was tolerated, counted (principle 9).
    public struct Counters: Hashable, Sendable {
        /// SYN_REPORTs whose time was earlier than the previous one's (clamped).
        public var timeWentBackwards = 0
        /// SYN_DROPPED events.
        public var droppedResyncs = 0
        /// ABS_MT_SLOT events selecting a slot outside 0..<slot count (their data is ignored).
        public var slotsOutOfRange = 0
        /// Contacts ignored because `maxContacts` were down: per ignored protocol-B tracking id,
        /// per ignored protocol-A report (so per frame while it lasts).
        public var contactsOverCapacity = 0
        public init() {}
    }

    public let device: DeviceDescription
    public let options: Options
    public let geometry: SurfaceGeometry
    /// What was wrong with the device's description and what is assumed instead, then the
    /// geometry's warnings (docs/frame-assembly.md, "Device descriptions"); for the user.
    public let warnings: [String]
    /// The last completed frame; valid after `feed` or `cancelAll` returned true.
    public internal(set) var frame: TouchFrame
    public private(set) var counters = Counters()
    public private(set) var inputProtocol: InputProtocol

    /// Slots the assembler stores at most, whatever ABS_MT_SLOT's maximum says: a description
    /// claiming 2^31 slots must not allocate 2^31 slots. Real devices have at most 60 or so.
    public static let maxSlots = 256
    /// Slots stored for a device whose description has no ABS_MT_SLOT (a header-less trace that
    /// turns out to be protocol B): more than any touchscreen we know of has.
    public static let undeclaredSlots = 64

    // MARK: State

    /// One kernel slot's current values (sticky, as the kernel's own slot state: an unchanged
    /// value is not resent, so a new contact may inherit its slot's last position).
    struct Slot: Sendable {
        var trackingID: Int32 = -1
        var x: Int32
        var y: Int32
        var pressure: Int32
        var major: Int32?
        var minor: Int32?
        /// ABS_MT_TOOL_TYPE, sticky as the other values (0: finger).
        var tool: Int32 = 0
        var hasContact = false
        /// A new tracking id arrived this frame; the contact begins at SYN_REPORT.
        var beginsContact = false
        /// Its contact was refused for capacity; ignored until its tracking id changes.
        var overCapacity = false
    }

    enum Stage: Sendable {
        case began
        case down
        case ended
        case cancelled
        var isFinal: Bool { self == .ended || self == .cancelled }
    }

    /// One contact the assembler follows, in device units until the frame is built.
    struct Track: Sendable {
        var id: ContactID
        var slot: Int32
        var trackingID: Int32
        var x: Int32
        var y: Int32
        var lastX: Int32
        var lastY: Int32
        var pressure: Int32?
        var major: Int32?
        var minor: Int32?
        var tool: ContactTool = .finger
        var stage: Stage
        /// Protocol A matching: the report index this frame, -1 when none.
        var match: Int = -1
    }

    /// One protocol-A contact report (the events between two SYN_MT_REPORTs).
    struct Report: Sendable {
        var x: Int32?
        var y: Int32?
        var pressure: Int32?
        var major: Int32?
        var minor: Int32?
        var trackingID: Int32?
        var tool: Int32?
        var match: Int = -1
        var isEmpty: Bool {
            x == nil && y == nil && pressure == nil && major == nil && minor == nil && trackingID == nil && tool == nil
        }
    }

    /// Axis facts read once from the description.
    struct Axis: Sendable {
        var minimum: Int32
        var maximum: Int32
        var present: Bool
        init(_ info: AbsInfo?) {
            minimum = info?.minimum ?? 0
            maximum = info?.maximum ?? 0
            present = info != nil && (info?.span ?? 0) > 0
        }
        /// Wild values are clamped to the declared range, so positions stay on the sensor.
        func clamp(_ v: Int32) -> Int32 { present ? min(max(v, minimum), maximum) : v }
    }

    let xAxis: Axis
    let yAxis: Axis
    let pressureAxis: Axis
    let unitsPerMillimetreForSize: Double
    let maxContacts: Int

    /// Live contacts, and those ending in the frame being built, sorted by id: new contacts get
    /// the next id and are appended, compaction keeps the order.
    var tracks: [Track] = []
    var nextID: UInt32 = 0
    var lastReportTime: Timestamp?

    // Protocol B
    var slots: [Slot] = []
    /// -1 while the device has selected a slot out of range.
    var currentSlot = 0
    var anyBegins = false

    // Protocol A (and undecided)
    var reports: [Report] = []
    var pending = Report()
    var lastMTX: Int32 = 0
    var lastMTY: Int32 = 0

    // Single touch
    var touching = false
    var singleX: Int32 = 0
    var singleY: Int32 = 0
    var singlePressure: Int32 = 0
    /// An ABS_MT_TOOL_TYPE arrived in this frame: the live tracks take their slots' tools.
    var toolsChanged = false
    /// BTN_TOOL_PEN or BTN_TOOL_RUBBER in range: the single-touch contact is a pen.
    var singleTool = ContactTool.finger

    // Per frame
    var touchReleased = false

    // SYN_DROPPED
    var discarding = false
    /// The next SYN_REPORT ends the resync frame.
    var resyncing = false
    /// Since a drop, until no contact is left, contacts may be stale (their lift lost in the
    /// drop); BTN_TOUCH 0 then cancels them.
    var maybeStale = false

    // MARK: Init

    /// The geometry an assembler for `device` has, without building one: what a summary of a
    /// device that sent no event needs (a trace may list thousands of those).
    public static func geometry(of device: DeviceDescription, options: Options = Options()) -> SurfaceGeometry {
        var device = device
        device.absinfo = device.checkedAbsinfo().absinfo
        return SurfaceGeometry(device: device, userSize: options.userSize)
    }

    public init(device: DeviceDescription, options: Options = Options()) {
        precondition(
            (1...1024).contains(options.maxContacts),
            "FrameAssembler.Options.maxContacts must be in 1...1024, not \(options.maxContacts)")
        self.device = device
        self.options = options
        // Axes after the documented fallbacks (min > max, zero width); `device` stays as given.
        let (checkedAbsinfo, descriptionWarnings) = device.checkedAbsinfo()
        var device = device
        device.absinfo = checkedAbsinfo
        self.geometry = SurfaceGeometry(device: device, userSize: options.userSize)
        self.warnings = descriptionWarnings + geometry.warnings
        self.maxContacts = options.maxContacts
        // Contact size has no axis of its own; the geometric mean of both axes' densities is
        // exact for square pixels and the best single number otherwise.
        self.unitsPerMillimetreForSize = (geometry.xUnitsPerMillimetre * geometry.yUnitsPerMillimetre).squareRoot()

        let hasMTSlots = device.absinfo[EventCodes.ABS_MT_SLOT] != nil
        let hasMTAxes = device.isMultitouch
        if hasMTSlots {
            inputProtocol = .slotted
        } else if hasMTAxes {
            inputProtocol = .undecided
        } else if device.absinfo[EventCodes.ABS_X] != nil && device.absinfo[EventCodes.ABS_Y] != nil {
            inputProtocol = .singleTouch
        } else {
            // Nothing declared (a header-less trace): MT events, if any, decide.
            inputProtocol = .undecided
        }
        let multitouch = inputProtocol != .singleTouch
        xAxis = Axis(multitouch ? device.absinfo[EventCodes.ABS_MT_POSITION_X] : device.absinfo[EventCodes.ABS_X])
        yAxis = Axis(multitouch ? device.absinfo[EventCodes.ABS_MT_POSITION_Y] : device.absinfo[EventCodes.ABS_Y])
        let pressureInfo = multitouch ? device.absinfo[EventCodes.ABS_MT_PRESSURE] : device.absinfo[EventCodes.ABS_PRESSURE]
        pressureAxis = Axis(pressureInfo)

        // Twice the contacts: in one frame every slot may end its contact and begin another.
        frame = TouchFrame(time: .zero)
        frame.contacts.reserveCapacity(2 * maxContacts)
        tracks.reserveCapacity(2 * maxContacts)
        reports.reserveCapacity(maxContacts)

        let slotCount = hasMTSlots ? max(1, min(device.slotCount, FrameAssembler.maxSlots)) : FrameAssembler.undeclaredSlots
        let majorInfo = device.absinfo[EventCodes.ABS_MT_TOUCH_MAJOR]
        let minorInfo = device.absinfo[EventCodes.ABS_MT_TOUCH_MINOR]
        let initial = Slot(
            x: device.absinfo[EventCodes.ABS_MT_POSITION_X]?.value ?? 0,
            y: device.absinfo[EventCodes.ABS_MT_POSITION_Y]?.value ?? 0,
            pressure: pressureInfo?.value ?? 0,
            major: majorInfo.map { $0.value }, minor: minorInfo.map { $0.value })
        slots = Array(repeating: initial, count: slotCount)
        if let slotInfo = device.absinfo[EventCodes.ABS_MT_SLOT] {
            currentSlot = (0..<slotCount).contains(Int(slotInfo.value)) ? Int(slotInfo.value) : 0
        }
        singleX = device.absinfo[EventCodes.ABS_X]?.value ?? 0
        singleY = device.absinfo[EventCodes.ABS_Y]?.value ?? 0
        singlePressure = device.absinfo[EventCodes.ABS_PRESSURE]?.value ?? 0
    }

    // MARK: Feeding

    /// Feeds one raw event. Returns true when the event completed a frame, now in `frame`.
    public mutating func feed(_ event: InputEvent) -> Bool {
        if discarding {
            if event.type == EventCodes.EV_SYN {
                if event.code == EventCodes.SYN_DROPPED {
                    counters.droppedResyncs += 1
                } else if event.code == EventCodes.SYN_REPORT {
                    discarding = false
                    resyncing = true
                    resetFrameScratch()
                }
            }
            return false
        }
        switch event.type {
        case EventCodes.EV_SYN:
            switch event.code {
            case EventCodes.SYN_REPORT: return finishFrame(at: event.time)
            case EventCodes.SYN_MT_REPORT: endReport()
            case EventCodes.SYN_DROPPED: drop()
            default: break
            }
        case EventCodes.EV_ABS: abs(event.code, event.value)
        case EventCodes.EV_KEY: key(event.code, event.value)
        default: break
        }
        return false
    }

    /// Ends every live contact as cancelled at `time` (device removed, SIGTERM). Returns true
    /// when that made a frame, now in `frame`.
    public mutating func cancelAll(at time: Timestamp) -> Bool {
        resetFrameScratch()
        for i in tracks.indices where !tracks[i].stage.isFinal {
            tracks[i].stage = .cancelled
        }
        for i in slots.indices {
            // The tracking id stays: only a new one (a new finger) begins a contact again.
            slots[i].hasContact = false
            slots[i].beginsContact = false
            slots[i].overCapacity = false
        }
        // The kernel will not resend BTN_TOUCH 1 for a finger still down, so none is re-begun.
        touching = false
        maybeStale = false
        let t = clampedTime(time)
        buildFrame(at: t, afterDrop: false)
        return !frame.contacts.isEmpty
    }

    // MARK: Events

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

    // MARK: Frames

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
