// What `touchline inspect` reports about one device's input, accumulated frame by frame so that
// a file of any size is summarized in constant memory.

/// Counts and extremes over a stream of raw events and the frames assembled from them.
public struct TouchStatistics: Hashable, Sendable {
    public private(set) var eventCount = 0
    public private(set) var frameCount = 0
    public private(set) var firstTime: Timestamp?
    public private(set) var lastTime: Timestamp?
    /// The most contacts down at once.
    public private(set) var maxContacts = 0
    /// Touch sequences: contacts from began to ended or cancelled (a contact still down at the
    /// end of the input counts too).
    public private(set) var sequenceCount = 0
    public private(set) var cancelledCount = 0
    /// Shortest and longest sequence, from its first frame to its last.
    public private(set) var shortestSequence: Interval?
    public private(set) var longestSequence: Interval?
    /// The largest and smallest normalized pressure seen, when the device reports pressure.
    public private(set) var pressureRange: ClosedRange<Double>?
    /// Begin times of live contacts, to measure sequence durations; bounded by the assembler's
    /// contact cap.
    private var beganAt: [ContactID: Timestamp] = [:]
    /// The ids of the first `maxContactIDs` sequences, in the order they began: the ids the
    /// events' `contacts` name (`touchline inspect --json`). Bounded: a trace of hours has
    /// tens of thousands.
    public private(set) var contactIDs: [ContactID] = []
    public static let maxContactIDs = 4096

    /// One touch sequence: when and where it went down and came up, to label a recording by
    /// hand (`touchline inspect --json`'s `touches`).
    public struct Touch: Hashable, Sendable {
        public var id: ContactID
        public var start: Timestamp
        public var startPosition: Point
        /// Nil while it is down (still down at the end of the input).
        public var end: Timestamp?
        public var endPosition: Point
        public var cancelled = false
    }

    /// The first `maxContactIDs` sequences, in the order they began (as `contactIDs`).
    public private(set) var touches: [Touch] = []
    /// Per live contact, its index in `touches` (nil past the bound).
    private var touchIndex: [ContactID: Int] = [:]

    public init() {}

    public mutating func count(event: InputEvent) {
        eventCount += 1
        if firstTime == nil { firstTime = event.time }
        lastTime = event.time
    }

    public mutating func count(frame: TouchFrame) {
        frameCount += 1
        maxContacts = max(maxContacts, frame.activeCount)
        for contact in frame.contacts {
            if let p = contact.pressure?.value, !contact.phase.isFinal || contact.phase == .ended {
                pressureRange = pressureRange.map { min($0.lowerBound, p)...max($0.upperBound, p) } ?? p...p
            }
            switch contact.phase {
            case .began:
                sequenceCount += 1
                if contactIDs.count < Self.maxContactIDs {
                    contactIDs.append(contact.id)
                    touchIndex[contact.id] = touches.count
                    touches.append(Touch(id: contact.id, start: frame.time, startPosition: contact.position, end: nil, endPosition: contact.position))
                }
                beganAt[contact.id] = frame.time
            case .moved, .stationary:
                break
            case .ended, .cancelled:
                if contact.phase == .cancelled { cancelledCount += 1 }
                if let k = touchIndex.removeValue(forKey: contact.id) {
                    touches[k].end = frame.time
                    touches[k].endPosition = contact.position
                    touches[k].cancelled = contact.phase == .cancelled
                }
                if let start = beganAt.removeValue(forKey: contact.id) {
                    let d = frame.time - start
                    shortestSequence = shortestSequence.map { min($0, d) } ?? d
                    longestSequence = longestSequence.map { max($0, d) } ?? d
                }
            }
        }
    }

    /// From the first event to the last.
    public var duration: Interval {
        guard let a = firstTime, let b = lastTime else { return .zero }
        return b - a
    }

    /// Contacts still down at the end.
    public var openSequences: Int { beganAt.count }
}
