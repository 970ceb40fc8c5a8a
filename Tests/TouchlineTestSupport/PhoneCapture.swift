import TouchlineCore

/// A phone capture as a record-and-replay tool keeps it: `getevent -lt` (or `-t`, or `-ltr`)
/// of one 1080×2220 panel (0...1079 × 0...2219, 18.5:9, 120 Hz), protocol B, with no
/// `getevent -lp` header. Like the kernel, it prints a value only when it changes and a frame
/// only when something changed. The touches, one finger each, a second apart:
///
/// | time (s from 1000) | touch |
/// |---|---|
/// | 0 | tap at (540, 1200) |
/// | 1 | home gesture: up from the bottom edge (y 2219 → 1500) |
/// | 2 | back gesture from the left edge (x 0 → 420) |
/// | 3 | back gesture from the right edge (x 1079 → 660) |
/// | 4 | tap at (300, 600) |
/// | 5 | home gesture from y 2210 (9 rows above the edge) to 1400 |
/// | 6 | back gesture from x 1073 to 640 |
/// | 7 | back gesture from x 5 to 430 |
/// | 8 | tap at (800, 1800) |
public enum PhoneCapture {
    public enum Form: Sendable {
        /// `getevent -lt`: names, values in 8 hex digits padded as getevent pads them.
        case labelled
        /// `getevent -t`: type, code and value in hex, what recorders write.
        case numeric
        /// `getevent -ltr`: as `labelled`, with " rate N" after each SYN_REPORT but the first.
        case labelledWithRate
    }

    /// The time of the first event, in µs.
    public static let start = 1_000_000_000

    public static func text(_ form: Form = .labelled) -> String {
        var writer = Writer(form: form)
        let frame = 8_333
        func line(from a: (Int32, Int32), to b: (Int32, Int32), _ n: Int) -> [(Int32, Int32)] {
            (0..<n).map { k in
                let f = Double(k) / Double(n - 1)
                return (Int32((Double(a.0) + Double(b.0 - a.0) * f).rounded()), Int32((Double(a.1) + Double(b.1 - a.1) * f).rounded()))
            }
        }
        let strokes: [[(Int32, Int32)]] = [
            Array(repeating: (540, 1200), count: 6),
            line(from: (540, 2219), to: (560, 1500), 18),
            line(from: (0, 1100), to: (420, 1120), 18),
            line(from: (1079, 900), to: (660, 910), 18),
            Array(repeating: (300, 600), count: 7),
            line(from: (400, 2210), to: (420, 1400), 18),
            line(from: (1073, 1300), to: (640, 1310), 18),
            line(from: (5, 700), to: (430, 690), 18),
            Array(repeating: (800, 1800), count: 6),
        ]
        for (k, points) in strokes.enumerated() {
            var t = start + k * 1_000_000
            writer.row(t, "EV_ABS", "ABS_MT_SLOT", 0)
            writer.row(t, "EV_ABS", "ABS_MT_TRACKING_ID", Int32(101 + k))
            writer.row(t, "EV_ABS", "ABS_MT_POSITION_X", points[0].0)
            writer.row(t, "EV_ABS", "ABS_MT_POSITION_Y", points[0].1)
            writer.row(t, "EV_ABS", "ABS_MT_TOUCH_MAJOR", 8)
            writer.row(t, "EV_KEY", "BTN_TOUCH", 1)
            writer.row(t, "EV_SYN", "SYN_REPORT", 0)
            var previous = points[0]
            for p in points.dropFirst() {
                t += frame
                if p == previous { continue }
                if p.0 != previous.0 { writer.row(t, "EV_ABS", "ABS_MT_POSITION_X", p.0) }
                if p.1 != previous.1 { writer.row(t, "EV_ABS", "ABS_MT_POSITION_Y", p.1) }
                writer.row(t, "EV_SYN", "SYN_REPORT", 0)
                previous = p
            }
            t += frame
            writer.row(t, "EV_ABS", "ABS_MT_TRACKING_ID", -1)
            writer.row(t, "EV_KEY", "BTN_TOUCH", 0)
            writer.row(t, "EV_SYN", "SYN_REPORT", 0)
        }
        return writer.text
    }

    struct Writer {
        var form: Form
        var text = ""
        var lastReport: Int?

        static let codes: [String: UInt16] = [
            "EV_SYN": 0, "EV_KEY": 1, "EV_ABS": 3, "SYN_REPORT": 0, "BTN_TOUCH": 0x14a, "ABS_MT_SLOT": 0x2f,
            "ABS_MT_TRACKING_ID": 0x39, "ABS_MT_POSITION_X": 0x35, "ABS_MT_POSITION_Y": 0x36, "ABS_MT_TOUCH_MAJOR": 0x30,
        ]

        /// As getevent prints it: "[%8ld.%06ld] ", then "%-12.12s %-20.20s %08x" and 12 spaces
        /// (a key's UP/DOWN as "%-20.20s") with -l, or "%04x %04x %08x" without.
        mutating func row(_ t: Int, _ type: String, _ code: String, _ value: Int32) {
            let seconds = String(t / 1_000_000)
            let micros = String(t % 1_000_000)
            var line = "[" + String(repeating: " ", count: max(0, 8 - seconds.count)) + seconds + "."
                + String(repeating: "0", count: 6 - micros.count) + micros + "] "
            let hexValue = hex(UInt32(bitPattern: value), 8)
            switch form {
            case .numeric:
                line += hex(UInt32(Self.codes[type]!), 4) + " " + hex(UInt32(Self.codes[code]!), 4) + " " + hexValue
            case .labelled, .labelledWithRate:
                let shown = type == "EV_KEY" ? (value == 0 ? "UP" : "DOWN").padded(20) : hexValue + String(repeating: " ", count: 12)
                line += type.padded(12) + " " + code.padded(20) + " " + shown
            }
            if form == .labelledWithRate && code == "SYN_REPORT" {
                if let last = lastReport { line += " rate \(1_000_000 / (t - last))" }
                lastReport = t
            }
            text += line + "\n"
        }

        func hex(_ v: UInt32, _ digits: Int) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: max(0, digits - s.count)) + s
        }
    }
}

extension String {
    fileprivate func padded(_ width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
