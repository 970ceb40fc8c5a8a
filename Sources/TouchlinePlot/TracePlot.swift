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
        /// Contacts, frames of contacts and gestures kept for the picture: the plot's memory
        /// grew with the trace (300,000 contacts took 512 MB on 8d7af8f, issue 24, item 11).
        /// Past them, the rest of the trace is still replayed (the events are the same) but not
        /// drawn, and counted (`leftOut`).
        public var maximumContacts: Int
        public var maximumSamples: Int
        public var maximumGestures: Int
        public init(from: Double? = nil, to: Double? = nil, maximumPoints: Int = 2000,
                    maximumContacts: Int = 10_000, maximumSamples: Int = 1_000_000, maximumGestures: Int = 100_000) {
            self.from = from
            self.to = to
            self.maximumPoints = maximumPoints
            self.maximumContacts = maximumContacts
            self.maximumSamples = maximumSamples
            self.maximumGestures = maximumGestures
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
        /// Its first and last frames' times (kept when its samples are let go: a contact wholly
        /// before the window).
        var down: Timestamp = .zero
        var up: Timestamp = .zero
        /// Its firmest pressure and largest size: its device's widths are relative to them.
        var peak = Peak()
    }

    /// The firmest pressure and largest touch size seen.
    struct Peak: Sendable {
        var pressure = 0.0
        var major = 0.0
        mutating func take(_ contact: Contact) {
            pressure = max(pressure, contact.pressure?.value ?? 0)
            major = max(major, contact.touchMajor?.value ?? 0)
        }
        mutating func take(_ other: Peak) {
            pressure = max(pressure, other.pressure)
            major = max(major, other.major)
        }
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
    /// The track of each live contact, by device and id (-1: one left out); the open mark of
    /// each lane.
    var live: [UInt64: Int] = [:]
    /// Frames of contacts kept (each track's samples together), and contacts kept with theirs.
    var sampleCount = 0
    var keptContacts = 0
    /// Per device, the peak of its contacts not kept (after the window, or past the limits):
    /// they still set its widths, as when every contact was kept.
    var peakNotKept: [Int: Peak] = [:]
    /// What the limits left out (`Options.maximumContacts`…): contacts (whole, or their frames
    /// past the limit) and gestures.
    public private(set) var leftOut = (contacts: 0, frames: 0, gestures: 0)
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
            } else if let to = recordingWindow.to, frame.time > to {
                // After the window: never drawn (nor is any contact after it), so not kept.
                k = -1
                live[key] = k
            } else if keptContacts >= options.maximumContacts || sampleCount >= options.maximumSamples {
                leftOut.contacts += 1
                k = -1
                live[key] = k
            } else {
                let ordinal = contactsPerDevice[device, default: 0]
                contactsPerDevice[device] = ordinal + 1
                k = tracks.count
                tracks.append(Track(device: device, id: contact.id, ordinal: ordinal, down: frame.time))
                keptContacts += 1
                live[key] = k
            }
            if k < 0 {
                peakNotKept[device, default: Peak()].take(contact)
                if contact.phase.isFinal { live[key] = nil }
                continue
            }
            tracks[k].peak.take(contact)
            if sampleCount < options.maximumSamples {
                tracks[k].samples.append(Sample(
                    time: frame.time, position: contact.position, pressure: contact.pressure?.value, major: contact.touchMajor?.value))
                tracks[k].up = frame.time
                sampleCount += 1
            } else {
                leftOut.frames += 1
            }
            if contact.phase.isFinal {
                tracks[k].cancelled = contact.phase == .cancelled
                tracks[k].lifted = true
                live[key] = nil
                // Wholly before the window: nothing of it is drawn, so its frames make room
                // (its times and peak stay, for the timeline's rows and the widths).
                if let from = recordingWindow.from, tracks[k].up < from {
                    sampleCount -= tracks[k].samples.count
                    tracks[k].samples = []
                    keptContacts -= 1
                }
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
        let (from, to) = recordingWindow
        // Outside the window (anything after it, a tick before it): never drawn, so not kept.
        let outside = to.map { event.time > $0 } == true || (event.phase == .recognized && from.map { event.time < $0 } == true)
        switch event.phase {
        case .began where outside || marks.count >= options.maximumGestures,
             .recognized where outside || marks.count >= options.maximumGestures:
            if !outside { leftOut.gestures += 1 }
            // Its changes and end belong to no mark kept.
            if event.phase == .began { open[lane] = nil }
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

    /// The gesture's name, its fingers when more than one (a three-finger tap is not a tap),
    /// and its key values (count, direction, edge, scale, rotation, the drop target, how a peek
    /// ended), as `--format text` writes them.
    static func label(_ event: GestureEvent) -> String {
        var label = event.gesture.description
        if event.fingers > 1 { label += " fingers=\(event.fingers)" }
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

    /// The window's ends as recording can know them: from the first frame (`first`), without
    /// the last (nil: no bound), as `window` (TracePlot+SVG.swift) draws it.
    var recordingWindow: (from: Timestamp?, to: Timestamp?) {
        guard let first, options.from != nil || options.to != nil else { return (nil, nil) }
        let bounds = Self.window(first: first, last: nil, options: options)
        return (options.from == nil ? nil : bounds.from, options.to == nil ? nil : bounds.to)
    }

    /// What the limits left out, for a person (the picture's header, and `plot`'s stderr); nil
    /// when nothing was.
    public var leftOutNote: String? {
        var parts: [String] = []
        if leftOut.contacts > 0 { parts.append("\(leftOut.contacts) contact\(leftOut.contacts == 1 ? "" : "s")") }
        if leftOut.frames > 0 { parts.append("\(leftOut.frames) frame\(leftOut.frames == 1 ? "" : "s") of contacts") }
        if leftOut.gestures > 0 { parts.append("\(leftOut.gestures) gesture\(leftOut.gestures == 1 ? "" : "s")") }
        if parts.isEmpty { return nil }
        return "not drawn: " + parts.joined(separator: ", ") + " past a picture's limits (\(options.maximumContacts) contacts, "
            + "\(options.maximumSamples) frames of contacts, \(options.maximumGestures) gestures); --from and --to draw a part of the trace"
    }

    /// The number of contacts recorded (each is one path in the picture when the window holds it).
    public var contactCount: Int { tracks.count }
    /// The continuous gestures (bars) and discrete ones (ticks) recorded.
    public var barCount: Int { marks.count(where: { $0.continuous }) }
    public var tickCount: Int { marks.count(where: { !$0.continuous }) }
}
