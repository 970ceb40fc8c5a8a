import TouchlineCore
import TouchlineGestures

// The timeline under a device's surface: a time axis, rows of contacts (down to up; contacts
// that do not overlap in time share a row, so a trace of a thousand taps stays a few rows
// high) and one lane per recognizer: a bar from began to ended (dashed red outline when
// cancelled), a tick for a discrete gesture, each labelled with the gesture's name and key values.

extension TracePlot {
    func timeline(_ w: inout SVGWriter, _ device: Device, from: Timestamp, to: Timestamp, y: inout Double) {
        let x0 = Self.margin + Self.labelWidth, x1 = Self.width - Self.margin - Self.rightPadding
        let span = Double(Self.difference(to, from))
        func x(_ t: Timestamp) -> Double {
            let clamped = min(max(t, from), to)
            return x0 + Double(Self.difference(clamped, from)) / span * (x1 - x0)
        }
        // Contact rows: each contact in the first row free at its down time.
        let contacts = tracks.indices.filter {
            tracks[$0].device == device.index && tracks[$0].up >= from && tracks[$0].down <= to
        }
        var rowEnds: [Timestamp] = []
        var rowOf: [Int] = []
        for k in contacts {
            if let row = rowEnds.firstIndex(where: { $0 < tracks[k].down }) {
                rowEnds[row] = tracks[k].up
                rowOf.append(row)
            } else {
                rowEnds.append(tracks[k].up)
                rowOf.append(rowEnds.count - 1)
            }
        }
        let laneIndices = lanes.indices.filter { lanes[$0].device == device.index }
        let top = y + 16
        let contactsHeight = Double(max(rowEnds.count, 1)) * Self.contactRowHeight + 6
        let bottom = top + contactsHeight + Double(laneIndices.count) * Self.laneHeight
        axis(&w, from: from, to: to, top: top, bottom: bottom, x: x)
        w.text("contacts", at: Point(x: Self.margin, y: top + 9), class: "lane-label")
        for (n, k) in contacts.enumerated() {
            let track = tracks[k]
            let rowY = top + Double(rowOf[n]) * Self.contactRowHeight + 2
            let a = x(track.down), b = x(track.up)
            let title = "contact \(track.id.raw): \(seconds(track.down)) s to \(seconds(track.up)) s"
            w.raw("<rect class=\"contact-bar\"")
            w.attribute("x", a)
            w.attribute("y", rowY)
            w.attribute("width", max(1, b - a))
            w.attribute("height", Self.contactRowHeight - 3)
            w.attribute("fill", Self.palette[track.ordinal % Self.palette.count])
            w.raw("><title>")
            w.escaped(title)
            w.raw("</title></rect>\n")
        }
        var laneY = top + contactsHeight
        for (n, lane) in laneIndices.enumerated() {
            let colour = Self.lanePalette[n % Self.lanePalette.count]
            w.line(from: Point(x: Self.margin, y: laneY), to: Point(x: x1, y: laneY), class: "grid")
            w.text(lanes[lane].recognizer.description, at: Point(x: Self.margin, y: laneY + 14), class: "lane-label")
            // A label is left out where the previous one would still cover it (about 5.5 px a
            // character); every bar and tick keeps its label as a tooltip (<title>).
            var labelEnd = -1.0
            for mark in marks where mark.lane == lane {
                let end = markEnd(mark)
                guard end >= from && mark.begin <= to else { continue }
                let a = x(mark.begin)
                if mark.continuous {
                    w.raw("<rect class=\"bar\"")
                    w.attribute("x", a)
                    w.attribute("y", laneY + 10)
                    w.attribute("width", max(1, x(end) - a))
                    w.attribute("height", 9)
                    w.attribute("fill", colour)
                    if mark.cancelled { w.raw(" stroke=\"#c0392b\" stroke-dasharray=\"3 2\"") }
                } else {
                    w.raw("<line class=\"tick\"")
                    w.attribute("x1", a)
                    w.attribute("y1", laneY + 8)
                    w.attribute("x2", a)
                    w.attribute("y2", laneY + Self.laneHeight - 1)
                    w.attribute("stroke", colour)
                }
                w.raw("><title>")
                w.escaped("\(mark.label): \(seconds(mark.begin)) s\(mark.continuous ? " to \(seconds(end)) s" : "")")
                w.raw(mark.continuous ? "</title></rect>\n" : "</title></line>\n")
                if a >= labelEnd {
                    let labelX = mark.continuous ? a : a + 3
                    w.text(mark.label, at: Point(x: labelX, y: laneY + 8), class: "tick-label")
                    labelEnd = labelX + Double(mark.label.utf8.count) * 5.5 + 4
                }
            }
            laneY += Self.laneHeight
        }
        y = bottom + 4
    }

    /// Grid lines and labels at a round step (1, 2 or 5 × 10^k s), in seconds from the first frame.
    func axis(_ w: inout SVGWriter, from: Timestamp, to: Timestamp, top: Double, bottom: Double, x: (Timestamp) -> Double) {
        let base = (first ?? from).microseconds
        let span = Double(Self.difference(to, from)) / 1_000_000
        var step = 1e-3
        while step * 8 < span {
            if step * 2 * 8 >= span { step *= 2; break }
            if step * 5 * 8 >= span { step *= 5; break }
            step *= 10
        }
        let decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3
        let startRelative = Double(Self.difference(from, Timestamp(microseconds: base))) / 1_000_000
        var n = (startRelative / step).rounded(.up)
        var drawn = 0
        w.line(from: Point(x: x(from), y: top - 2), to: Point(x: x(to), y: top - 2), class: "axis")
        while true {
            let seconds = n * step
            let t = Timestamp(microseconds: Self.adding(base, fixedScaled(seconds, decimals: 6)))
            guard t <= to, drawn < 100 else { break }
            drawn += 1
            let px = x(t)
            w.line(from: Point(x: px, y: top - 5), to: Point(x: px, y: bottom), class: "grid")
            w.text("\(formatFixed(seconds, decimals: decimals)) s", at: Point(x: px, y: top - 7), class: "lane-label", anchor: .middle)
            n += 1
        }
    }
}
