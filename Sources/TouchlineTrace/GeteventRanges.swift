import TouchlineCore

// How a getevent trace without a `getevent -lp` header gets its axis ranges: guessed from the
// events the reader looks ahead at (docs/traces.md, "Axis ranges").

/// Where an axis range of a trace's device came from, as `touchline inspect` reports it.
public enum AxisRangeSource: String, Sendable, Hashable, CaseIterable {
    /// The trace describes the device: an evemu or libinput record header, a `.desc` file, or a
    /// `getevent -lp` block.
    case header
    /// The user gave it (`--range`, `GeteventOptions.ranges`).
    case range
    /// Guessed: at least two touches start or end within 1 % of the highest value seen and
    /// travel inward, and a panel size lies within that 1 % at or above it: the edge is there.
    case edges
    /// Guessed: nothing showed the edge, so 0 to the smallest 2^k − 1 at or above the highest
    /// value seen (the edge lies beyond every value seen).
    case powerOfTwo

    /// How `inspect` says it.
    public var explanation: String {
        switch self {
        case .header: "from the trace's description"
        case .range: "given with --range"
        case .edges: "guessed from the data: touches reach this edge, a panel size"
        case .powerOfTwo: "guessed from the data: no touch showed the edge, so the next power of two above the values seen"
        }
    }
}

/// The edge rule: what a look-ahead's touches say about where a position axis ends.
enum PanelEdges {
    /// Pixel counts of phone and tablet panels along either side (portrait and landscape
    /// alike: controllers report in the panel's own orientation), and the power-of-two ranges
    /// touch controllers report in their own units. A panel of D rows reports 0...D−1, some
    /// drivers 0...D; so the maxima considered are D − 1 and D.
    static let sizes: [Int32] = [
        240, 256, 320, 360, 480, 512, 540, 600, 720, 768, 800, 854, 960, 1024, 1080, 1200, 1280,
        1440, 1480, 1520, 1560, 1600, 1920, 2048, 2160, 2220, 2240, 2280, 2340, 2400, 2460, 2520,
        2560, 2960, 3040, 3088, 3120, 3200, 4096, 8192, 16384, 32768, 65536,
    ]

    /// How many touches must show an edge before it is believed: one stroke ending at the
    /// highest value is where a user happened to stop; two that start or end at the same place
    /// and move inward have met a wall.
    static let minimumTouches = 2

    /// The tolerance around the highest value: 1 % of it, at least 2 units (22 units of a
    /// 2220-row phone, about 1.5 mm: a finger's centre on the last row is that far in).
    static func tolerance(_ highest: Int32) -> Int32 { max(2, highest / 100) }

    /// How far inward (5 % of the highest value) a touch must travel to count: a tap or a drag
    /// along the edge says nothing of where the edge is.
    static func travel(_ highest: Int32) -> Int32 { highest / 20 }

    /// The smallest panel maximum (D − 1 or D of `sizes`) at or above `highest` and within
    /// `tolerance` of it, or nil.
    static func panelMaximum(atOrAbove highest: Int32) -> Int32? {
        let limit = Int64(highest) + Int64(tolerance(highest))
        guard let d = sizes.first(where: { $0 >= highest }) else { return nil }
        // 0...D-1 when the highest value fits it, else 0...D (the value is D itself).
        let candidate = d - 1 >= highest ? d - 1 : d
        return Int64(candidate) <= limit ? candidate : nil
    }

    /// The guessed maximum of an axis whose highest value seen is `highest`, given each touch's
    /// extent on it; nil when the data shows no edge (the caller takes the power of two).
    static func edgeMaximum(highest: Int32, touches: [TouchExtent]) -> Int32? {
        guard highest > 0, let maximum = panelMaximum(atOrAbove: highest) else { return nil }
        let near = highest - tolerance(highest)
        let inward = highest - travel(highest)
        var count = 0
        for t in touches where (t.first >= near || t.last >= near) && t.lowest <= inward {
            count += 1
            if count >= minimumTouches { return maximum }
        }
        return nil
    }
}

/// One touch (a contact from down to up, or to the end of the look-ahead) along one axis, in
/// device units: where it began and ended, and its lowest value.
struct TouchExtent: Equatable {
    var first: Int32
    var last: Int32
    var lowest: Int32
}

/// The touches of one device's look-ahead, found by the frame assembler (protocol A, B and single
/// touch alike), along the two axes it reads.
struct LookAheadTouches {
    var x: [TouchExtent] = []
    var y: [TouchExtent] = []
    /// The ABS codes the assembler read positions from.
    var xCode: UInt16 = EventCodes.ABS_MT_POSITION_X
    var yCode: UInt16 = EventCodes.ABS_MT_POSITION_Y

    /// Feeds `events` to an assembler for `device` (whose position ranges hold every value seen,
    /// so nothing is clamped) and turns its contacts back into device units.
    init(device: DeviceDescription, events: some Sequence<InputEvent>) {
        var assembler = FrameAssembler(device: device)
        let multitouch = device.isMultitouch || device.absinfo[EventCodes.ABS_X] == nil
        if !multitouch {
            xCode = EventCodes.ABS_X
            yCode = EventCodes.ABS_Y
        }
        guard let xInfo = device.absinfo[xCode], let yInfo = device.absinfo[yCode] else { return }
        // Normalized positions are clamped to 0...1 over a span of at most 2^32, so this is
        // finite and exact; the guard keeps a trace from ever making Int64(_:) trap.
        func raw(_ normalized: Double, _ info: AbsInfo) -> Int32 {
            let v = (normalized * (Double(info.maximum) - Double(info.minimum)) + Double(info.minimum)).rounded()
            return v.isFinite ? Int32(clamping: Int64(Swift.max(-5e9, Swift.min(5e9, v)))) : 0
        }
        var index: [ContactID: Int] = [:]
        for event in events where assembler.feed(event) {
            for c in assembler.frame.contacts {
                let px = raw(c.normalized.x, xInfo), py = raw(c.normalized.y, yInfo)
                if let k = index[c.id] {
                    x[k].last = px
                    x[k].lowest = min(x[k].lowest, px)
                    y[k].last = py
                    y[k].lowest = min(y[k].lowest, py)
                } else {
                    index[c.id] = x.count
                    x.append(TouchExtent(first: px, last: px, lowest: px))
                    y.append(TouchExtent(first: py, last: py, lowest: py))
                }
            }
        }
    }
}
