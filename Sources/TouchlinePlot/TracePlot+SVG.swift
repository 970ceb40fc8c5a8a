import TouchlineCore
import TouchlineGestures

// The picture: a header, then per device its surface to scale (targets, contact paths whose
// width follows pressure or touch size, marks at down and up) and under it a timeline (contact
// rows, one lane per recognizer with bars and ticks). User units are pixels at 100 %; every
// number goes through SVGWriter's fixed formatting, every list is in recording order, so the
// same trace gives the same bytes.

extension TracePlot {
    static let width = 960.0
    /// Room right of the timeline for the labels of gestures near the end.
    static let rightPadding = 90.0
    static let margin = 16.0
    static let labelWidth = 150.0
    static let surfaceMaximumHeight = 480.0
    static let laneHeight = 22.0
    static let contactRowHeight = 10.0
    /// Tableau 10: distinct hues that stay apart for the common colour-vision deficiencies.
    static let palette = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
        "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    ]
    /// The gesture lanes' colours: darker tones than the contacts' (Tableau 10's dark
    /// companions, ColorBrewer Dark2), so that a bar is never mistaken for a contact of the
    /// same colour above it.
    static let lanePalette = [
        "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e",
        "#a6761d", "#666666", "#1f4e79", "#8c2d04", "#4a1486",
    ]
    static let style: StaticString = """
        text{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;font-size:11px;fill:#222}
        .header{font-size:12px}.title{font-size:12px;font-weight:bold}
        .surface{fill:#fbfbfb;stroke:#444;stroke-width:1}
        .target{fill:#4e79a7;fill-opacity:0.06;stroke:#4e79a7;stroke-width:0.8;stroke-dasharray:4 2}
        .target-label{font-size:10px;fill:#4e79a7}
        .contact{fill-opacity:0.8;stroke:none}
        .down{stroke:none}.up{fill:none;stroke-width:1.5}
        .axis{stroke:#666;stroke-width:0.6}.grid{stroke:#e2e2e2;stroke-width:0.6}
        .lane-label{font-size:10px;fill:#444}.tick-label{font-size:9px;fill:#222}
        .bar{fill-opacity:0.75}.tick{stroke-width:2}.contact-bar{fill-opacity:0.7}
        .scale{stroke:#444;stroke-width:1.5}

        """

    /// The time window drawn: from the first frame (plus `--from`) to the last (or `--to`).
    var window: (from: Timestamp, to: Timestamp) { Self.window(first: first, last: last, options: options) }

    static func window(first: Timestamp?, last: Timestamp?, options: Options) -> (from: Timestamp, to: Timestamp) {
        let start = first ?? .zero
        let end = last ?? start
        func at(_ seconds: Double) -> Timestamp {
            Timestamp(microseconds: Self.adding(start.microseconds, fixedScaled(seconds, decimals: 6)))
        }
        let from = options.from.map(at) ?? start
        var to = options.to.map(at) ?? end
        // One millisecond at least: a trace of one frame still has a timeline to draw.
        let least = Self.adding(from.microseconds, 1000)
        if to.microseconds < least { to = Timestamp(microseconds: least) }
        return (from, to)
    }

    /// The SVG document, for `file` (the header names it).
    public func svg(file: String) -> [UInt8] {
        var body = SVGWriter()
        var y = Self.margin
        let (from, to) = window
        header(&body, file: file, from: from, to: to, y: &y)
        for device in devices {
            panel(&body, device, from: from, to: to, y: &y)
        }
        var out = SVGWriter()
        let height = (y + Self.margin).rounded(.up)
        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"")
        out.attribute("width", Self.width)
        out.attribute("height", height)
        out.raw(" viewBox=\"0 0 ")
        out.number(Self.width)
        out.raw(" ")
        out.number(height)
        out.raw("\">\n<style>\n")
        out.raw(Self.style)
        out.raw("</style>\n")
        out.rect(Rect(x: 0, y: 0, width: Self.width, height: height), class: "background", fill: "#ffffff")
        out.bytes += body.bytes
        out.raw("</svg>\n")
        return out.bytes
    }

    /// What the window shows: contacts with a frame in it, gestures that overlap it.
    func drawn(from: Timestamp, to: Timestamp) -> (contacts: Int, bars: Int, ticks: Int) {
        let contacts = tracks.count(where: { $0.samples.contains { $0.time >= from && $0.time <= to } })
        var bars = 0, ticks = 0
        for mark in marks where mark.begin <= to && markEnd(mark) >= from {
            if mark.continuous { bars += 1 } else { ticks += 1 }
        }
        return (contacts, bars, ticks)
    }

    /// Where a mark's bar ends: its `ended`, or the trace's last time when it has none.
    func markEnd(_ mark: Mark) -> Timestamp { mark.end ?? (mark.continuous ? (last ?? mark.begin) : mark.begin) }

    /// A time in seconds with millisecond precision, rounded half away from zero.
    func seconds(_ t: Timestamp) -> String { Self.milliseconds(t.microseconds) }

    static func milliseconds(_ us: Int64) -> String {
        formatFixed(adding(us, us >= 0 ? 500 : -500) / 1000, decimals: 3)
    }

    /// A trace's times are whatever its lines say: sums and differences of them saturate
    /// instead of trapping.
    static func adding(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    static func difference(_ a: Timestamp, _ b: Timestamp) -> Int64 {
        let (d, overflow) = a.microseconds.subtractingReportingOverflow(b.microseconds)
        return overflow ? (a > b ? .max : .min) : d
    }

    func header(_ w: inout SVGWriter, file: String, from: Timestamp, to: Timestamp, y: inout Double) {
        y += 14
        w.text("touchline plot \(file)", at: Point(x: Self.margin, y: y), class: "title")
        let span = Self.milliseconds(Self.difference(to, from))
        let base = first ?? from
        let shown = drawn(from: from, to: to)
        y += 16
        w.text(
            "\(seconds(from)) s to \(seconds(to)) s (\(span) s); the timeline counts seconds from the first frame, \(seconds(base)) s",
            at: Point(x: Self.margin, y: y), class: "header")
        y += 16
        w.text(
            "\(shown.contacts) contact\(shown.contacts == 1 ? "" : "s"); gestures: \(shown.bars) continuous (bars), \(shown.ticks) discrete (ticks)"
                + (options.from == nil && options.to == nil ? "" : ", in this window"),
            at: Point(x: Self.margin, y: y), class: "header")
        // Only past the limits (a trace of more contacts than a picture can show): the header
        // of every other plot stays as it was.
        if let note = leftOutNote {
            y += 16
            w.text(note, at: Point(x: Self.margin, y: y), class: "header")
        }
        y += 6
    }

    func panel(_ w: inout SVGWriter, _ device: Device, from: Timestamp, to: Timestamp, y: inout Double) {
        y += 18
        let sizeNote: String
        switch device.sizeSource {
        case "resolution": sizeNote = "from its resolution"
        case "userSize": sizeNote = "as given"
        default: sizeNote = "assumed: the device reports no plausible resolution"
        }
        w.text("device \(device.index): \(device.name), \(device.size) (\(sizeNote))", at: Point(x: Self.margin, y: y), class: "title")
        y += 8
        // The surface, to scale.
        let size = Size(width: max(device.size.width, 1), height: max(device.size.height, 1))
        let scale = min((Self.width - 2 * Self.margin) / size.width, Self.surfaceMaximumHeight / size.height)
        let origin = Point(x: Self.margin, y: y)
        func map(_ p: Point) -> Point { Point(x: origin.x + p.x * scale, y: origin.y + p.y * scale) }
        w.rect(Rect(x: origin.x, y: origin.y, width: size.width * scale, height: size.height * scale), class: "surface")
        // Each target's name at its top left, moved down a line while it would cover a name
        // already written (targets that share a corner, a strip along an edge of the surface),
        // about 5.5 px a character as the timeline's labels.
        var placed: [Rect] = []
        for target in device.targets {
            let r = target.rect
            let a = map(Point(x: r.x, y: r.y))
            w.rect(Rect(x: a.x, y: a.y, width: r.width * scale, height: r.height * scale), class: "target")
            var label = Rect(x: a.x + 3, y: a.y + 2, width: Double(target.name.utf8.count) * 5.5, height: 11)
            var moves = 0
            while moves < 20, placed.contains(where: { $0.x < label.maxX && label.x < $0.maxX && $0.y < label.maxY && label.y < $0.maxY }) {
                label.y += 12
                moves += 1
            }
            placed.append(label)
            w.text(target.name, at: Point(x: label.x, y: label.y + 9), class: "target-label")
        }
        // Widths are relative to the device's firmest (or largest) touch, so that a device whose
        // pressure stays low still shows its variation.
        // Every contact's, drawn or not (each track's peak, and those not kept).
        var peak = peakNotKept[device.index] ?? Peak()
        for track in tracks where track.device == device.index { peak.take(track.peak) }
        let strongest = (pressure: peak.pressure, major: peak.major)
        for track in tracks where track.device == device.index {
            contactPath(&w, track, from: from, to: to, scale: scale, strongest: strongest, map: map)
        }
        y += size.height * scale
        // A scale bar: 10 mm (50 on a surface wider than 500 mm).
        let tenth = size.width > 500 ? 50.0 : 10.0
        y += 14
        w.line(from: Point(x: Self.margin, y: y), to: Point(x: Self.margin + tenth * scale, y: y), class: "scale")
        w.text("\(formatFixed(tenth, decimals: 0)) mm", at: Point(x: Self.margin + tenth * scale + 4, y: y + 4), class: "lane-label")
        y += 10
        timeline(&w, device, from: from, to: to, y: &y)
    }

    /// One filled outline per contact (a ribbon whose width follows pressure or touch size), its
    /// down mark (filled circle) and up mark (open circle; a cross when cancelled).
    func contactPath(
        _ w: inout SVGWriter, _ track: Track, from: Timestamp, to: Timestamp, scale: Double,
        strongest: (pressure: Double, major: Double), map: (Point) -> Point
    ) {
        let samples = track.samples.filter { $0.time >= from && $0.time <= to }
        guard let firstSample = samples.first, let lastSample = samples.last else { return }
        let colour = Self.palette[track.ordinal % Self.palette.count]
        let kept = PathSimplifier.simplify(samples.map(\.position), maximum: options.maximumPoints)
        let points = kept.map { map(samples[$0].position) }
        let half = kept.map { max(0.8, Self.strokeWidth(samples[$0], strongest: strongest) * scale) / 2 }
        var left: [Point] = [], right: [Point] = []
        left.reserveCapacity(points.count)
        right.reserveCapacity(points.count)
        var normal = Vector(dx: 0, dy: -1)
        for i in points.indices {
            let a = points[max(0, i - 1)], b = points[min(points.count - 1, i + 1)]
            let d = Vector(dx: b.x - a.x, dy: b.y - a.y)
            if d.length > 1e-9 { normal = Vector(dx: -d.dy / d.length, dy: d.dx / d.length) }
            left.append(Point(x: points[i].x + normal.dx * half[i], y: points[i].y + normal.dy * half[i]))
            right.append(Point(x: points[i].x - normal.dx * half[i], y: points[i].y - normal.dy * half[i]))
        }
        var outline = left + right.reversed()
        if points.count == 1 {
            // A contact that never moved: a small diamond where it was.
            let p = points[0], h = half[0]
            outline = [Point(x: p.x, y: p.y - h), Point(x: p.x + h, y: p.y), Point(x: p.x, y: p.y + h), Point(x: p.x - h, y: p.y)]
        }
        let title = "device \(track.device) contact \(track.id.raw): down \(seconds(track.down)) s, "
            + "\(track.cancelled ? "cancelled" : track.lifted ? "up" : "still down at the end,") \(seconds(track.up)) s, \(track.samples.count) frames, \(points.count) points drawn"
        w.polygon(outline, class: "contact", fill: colour, title: title)
        if firstSample.time == track.down { w.circle(map(firstSample.position), radius: 3.5, class: "down", colour: colour, fill: colour) }
        if track.lifted && lastSample.time == track.up {
            let p = map(lastSample.position)
            if track.cancelled {
                w.line(from: Point(x: p.x - 3, y: p.y - 3), to: Point(x: p.x + 3, y: p.y + 3), class: "up", stroke: colour)
                w.line(from: Point(x: p.x - 3, y: p.y + 3), to: Point(x: p.x + 3, y: p.y - 3), class: "up", stroke: colour)
            } else {
                w.circle(p, radius: 5, class: "up", colour: colour)
            }
        }
    }

    /// The stroke's width in mm: 0.4 to 3 mm following pressure (relative to the device's
    /// firmest), else touch size (relative to its largest), else 1 mm.
    static func strokeWidth(_ sample: Sample, strongest: (pressure: Double, major: Double)) -> Double {
        if let p = sample.pressure, strongest.pressure > 0 { return 0.4 + 2.6 * min(max(p / strongest.pressure, 0), 1) }
        if let major = sample.major, strongest.major > 0 { return 0.4 + 2.6 * min(max(major / strongest.major, 0), 1) }
        return 1
    }
}
