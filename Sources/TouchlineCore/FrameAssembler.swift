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
    public internal(set) var counters = Counters()
    public internal(set) var inputProtocol: InputProtocol

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
}
