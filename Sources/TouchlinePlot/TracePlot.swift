import TouchlineCore
import TouchlineGestures

// What `touchline plot` draws, collected from the frames and events of one replay: the caller
// runs `GesturePipeline` exactly as `touchline replay` does and hands every completed frame and
// every emitted event here, so the picture shows the events replay prints and nothing else
// (there is no second recognition path). `svg()` renders it (TracePlot+SVG.swift).

/// The contacts, gestures and devices of one replayed trace, and their picture.
public struct TracePlot: Sendable {
    public struct Options: Sendable {
        /// The window to draw, in seconds from the trace's first frame (nil: its start, its end).
        public var from: Double?
        public var to: Double?
        /// At most this many points per contact path (Ramer–Douglas–Peucker, PathSimplifier).
        public var maximumPoints: Int
        public init(from: Double? = nil, to: Double? = nil, maximumPoints: Int = 2000) {
            self.from = from
            self.to = to
            self.maximumPoints = maximumPoints
        }
    }

    /// A labelled rectangle on a surface, in mm.
    public struct Target: Sendable {
        public var name: String
        public var rect: Rect
        public init(name: String, rect: Rect) {
            self.name = name
            self.rect = rect
        }
    }

    /// A device's panel: its surface (as its graph sees it, rotated when configured so).
    public struct Device: Sendable {
        public var index: Int
        public var name: String
        public var size: Size
        /// How the size was found: "resolution", "userSize", "assumed" (SurfaceGeometry.Source).
        public var sizeSource: String
        public var targets: [Target]
        public init(index: Int, name: String, size: Size, sizeSource: String, targets: [Target]) {
            self.index = index
            self.name = name
            self.size = size
            self.sizeSource = sizeSource
            self.targets = targets
        }
    }

    struct Sample: Sendable {
        var time: Timestamp
        var position: Point
        /// Pressure (0...1) or touch size (mm), whichever the device reports; nil: neither.
        var pressure: Double?
        var major: Double?
    }

    struct Track: Sendable {
        var device: Int
        var id: ContactID
        /// Its order among its device's contacts: its colour.
        var ordinal: Int
        var samples: [Sample] = []
        var cancelled = false
        /// False while the contact is down: at the end of a trace, it has no end mark.
        var lifted = false
        var down: Timestamp { samples.first?.time ?? .zero }
        var up: Timestamp { samples.last?.time ?? .zero }
    }

    /// A continuous gesture, began to ended (or cancelled); or a discrete one (`end` nil).
    struct Mark: Sendable {
        var device: Int
        var lane: Int
        var gesture: String
        var begin: Timestamp
        var end: Timestamp?
        var continuous: Bool
        var cancelled = false
        var label: String
    }

    struct Lane: Sendable {
        var device: Int
        var recognizer: GestureName
    }

    public let options: Options
    public private(set) var devices: [Device] = []
    var tracks: [Track] = []
    var marks: [Mark] = []
    var lanes: [Lane] = []
    /// The track of each live contact, by device and id; the open mark of each lane.
    var live: [UInt64: Int] = [:]
    var open: [Int: Int] = [:]
    var contactsPerDevice: [Int: Int] = [:]
    public private(set) var first: Timestamp?
    public private(set) var last: Timestamp?
    /// Every event given, as replay prints them (for the header).
    public private(set) var eventCount = 0

    public init(options: Options = Options()) { self.options = options }

    /// A device, before its first frame.
    public mutating func add(_ device: Device) { devices.append(device) }

    /// A completed frame of `device`, as `GesturePipeline.frame(of:)` gives it.
    public mutating func record(_ frame: TouchFrame, device: Int) {
        if first == nil { first = frame.time }
        last = max(last ?? frame.time, frame.time)
        for contact in frame.contacts {
            let key = UInt64(UInt32(truncatingIfNeeded: device)) << 32 | UInt64(contact.id.raw)
            let k: Int
            if let existing = live[key] {
                k = existing
            } else {
                let ordinal = contactsPerDevice[device, default: 0]
                contactsPerDevice[device] = ordinal + 1
                k = tracks.count
                tracks.append(Track(device: device, id: contact.id, ordinal: ordinal))
                live[key] = k
            }
            tracks[k].samples.append(Sample(
                time: frame.time, position: contact.position, pressure: contact.pressure?.value, major: contact.touchMajor?.value))
            if contact.phase.isFinal {
                tracks[k].cancelled = contact.phase == .cancelled
                tracks[k].lifted = true
                live[key] = nil
            }
        }
    }

    /// An event as replay emits it.
    public mutating func record(_ event: GestureEvent) {
        guard event.gesture != .explain else { return }
        eventCount += 1
        if first == nil { first = event.time }
        last = max(last ?? event.time, event.time)
        let lane = laneIndex(device: event.device, recognizer: event.recognizer)
        switch event.phase {
        case .began:
            open[lane] = marks.count
            marks.append(Mark(
                device: event.device, lane: lane, gesture: event.gesture.description, begin: event.time,
                end: nil, continuous: true, label: Self.label(event)))
        case .changed, .ended, .cancelled:
            guard let m = open[lane] else { return }
            marks[m].label = Self.label(event)
            if event.phase != .changed {
                marks[m].end = event.time
                marks[m].cancelled = event.phase == .cancelled
                open[lane] = nil
            }
        case .recognized:
            marks.append(Mark(
                device: event.device, lane: lane, gesture: event.gesture.description, begin: event.time,
                end: nil, continuous: false, label: Self.label(event)))
        case .won, .waiting, .held, .failed, .bug:
            return
        }
    }

    mutating func laneIndex(device: Int, recognizer: GestureName) -> Int {
        if let k = lanes.firstIndex(where: { $0.device == device && $0.recognizer == recognizer }) { return k }
        lanes.append(Lane(device: device, recognizer: recognizer))
        return lanes.count - 1
    }

    /// The gesture's name and its key values (count, direction, edge, scale, rotation, the drop
    /// target, how a peek ended), as `--format text` writes them.
    static func label(_ event: GestureEvent) -> String {
        var label = event.gesture.description
        event.detail.forEachField { key, value in
            switch key.description {
            case "count", "direction", "edge", "scale", "rotation", "dropTarget", "end":
                label += " \(key)=\(value)"
            default:
                break
            }
        }
        if event.phase == .cancelled { label += " (cancelled)" }
        return label
    }

    /// The number of contacts recorded (each is one path in the picture when the window holds it).
    public var contactCount: Int { tracks.count }
    /// The continuous gestures (bars) and discrete ones (ticks) recorded.
    public var barCount: Int { marks.count(where: { $0.continuous }) }
    public var tickCount: Int { marks.count(where: { !$0.continuous }) }
}
