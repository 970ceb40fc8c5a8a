// Raw evdev events → TouchFrame at every SYN_REPORT. (API contract; implementation pending.)

/// Turns a device's raw events into frames of contacts (see docs/frame-assembly.md).
public struct FrameAssembler: Sendable {
    public struct Options: Hashable, Sendable {
        /// The sensor size in mm when the user gives it (overrides absinfo resolution).
        public var userSize: Size?
        /// Contacts tracked at once; more are ignored and counted (a device sending 40 contacts
        /// must not make the graph's storage grow without bound).
        public var maxContacts: Int
        public init(userSize: Size? = nil, maxContacts: Int = 32) {
            self.userSize = userSize
            self.maxContacts = maxContacts
        }
    }

    /// Device nonsense that was tolerated, counted (principle 9).
    public struct Counters: Hashable, Sendable {
        public var timeWentBackwards = 0
        public var droppedResyncs = 0
        public var slotsOutOfRange = 0
        public var contactsOverCapacity = 0
        public init() {}
    }

    public let device: DeviceDescription
    public let options: Options
    public let geometry: SurfaceGeometry
    /// The last completed frame; valid after `feed` returned true.
    public private(set) var frame: TouchFrame
    public private(set) var counters = Counters()

    public init(device: DeviceDescription, options: Options = Options()) {
        self.device = device
        self.options = options
        self.geometry = SurfaceGeometry(device: device, userSize: options.userSize)
        self.frame = TouchFrame(time: .zero)
    }

    /// Feeds one raw event. Returns true when the event completed a frame, now in `frame`.
    public mutating func feed(_ event: InputEvent) -> Bool {
        fatalError("FrameAssembler.feed is not implemented yet")
    }

    /// Ends every live contact as cancelled at `time` (device removed, SIGTERM). Returns true
    /// when that made a frame, now in `frame`.
    public mutating func cancelAll(at time: Timestamp) -> Bool {
        fatalError("FrameAssembler.cancelAll is not implemented yet")
    }
}
