import TouchlineCore

// The page's calibration as a sequence (docs/calibrate.md#the-page): crosshairs shown one at a
// time, each touch taken only once the page says it shows the crosshair the touch is for, the
// fit when every point has its touch, a point far off (or the worst, when the points
// disagree) asked again, then done. Pure: the page's answers and the device's touches come in
// as values, the lines the page reads go out as bytes; the executable decides where they come
// from (a live device, a recording played as each crosshair appears).

/// The crosshairs a page shows, in the order it asks for them: the corners inset by
/// `inset`, the centre, then the middles of the edges, so that any first 4 to 9 span the
/// screen (the first four are already the widest spread a finger reaches exactly).
public enum CalibrationLayout {
    /// How far in from each edge, as a fraction of the width (height): a finger reaches the
    /// point exactly, and the edge's bezel does not get in the way.
    public static let inset = 0.1
    public static let counts = 4...9

    static let order: [(Double, Double)] = [
        (inset, inset), (1 - inset, inset), (1 - inset, 1 - inset), (inset, 1 - inset), (0.5, 0.5),
        (0.5, inset), (1 - inset, 0.5), (0.5, 1 - inset), (inset, 0.5),
    ]

    /// The first `count` points (4 to 9), normalized screen coordinates.
    public static func points(_ count: Int) -> [Point] {
        order.prefix(min(max(count, counts.lowerBound), counts.upperBound)).map { Point(x: $0.0, y: $0.1) }
    }

    /// The points as `--points` takes them ("0.1,0.1 0.9,0.1 …"): `calibrate --from` of the
    /// same taps with these gives the same calibration.
    public static func text(_ points: [Point]) -> String {
        points.map { "\(formatFixed($0.x, decimals: 3)),\(formatFixed($0.y, decimals: 3))" }.joined(separator: " ")
    }
}

/// One calibration by a page: which point is asked for, the touches taken, the outcome.
public struct CalibrationRun: Sendable {
    /// What the page may say, and nothing else: it shows point `index` now (touches from now
    /// on are for it), or the person asked to redo the previous point while the page showed
    /// `index`.
    public enum Answer: Hashable, Sendable {
        case shown(Int)
        case redo(Int)

        /// `shown=3` or `redo=3` among a query's parameters (others are ignored, the token's
        /// among them); nil for anything else. At most two digits: a page shows 9 points.
        public static func parse(_ query: Substring) -> Answer? {
            var found: Answer?
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0] == "shown" || parts[0] == "redo" else { continue }
                guard found == nil, (1...2).contains(parts[1].count), parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                      let n = Int(parts[1]) else { return nil }
                found = parts[0] == "shown" ? .shown(n) : .redo(n)
            }
            return found
        }
    }

    public enum Outcome: Sendable {
        /// The fit of the touches taken (with an outlier left out when one stayed far off),
        /// and the points it was made of, in the targets' order.
        case fitted(Calibration, [CalibrationPoint])
        /// No fit: why (touches on one line after every re-ask).
        case failed(String)
    }

    /// How many times a point (or, for touches that fit no map, all of them) is asked again
    /// before the run ends with what it has.
    public static let maximumAsks = 3

    public let targets: [Point]
    /// The panel, mm (native axes): residuals and the outlier rule are measured on it.
    public let sensor: Size
    public let tolerance: Double
    /// Per target, its touch (normalized device coordinates), once taken.
    public private(set) var touches: [Point?]
    /// The point asked for now; nil once the run has its outcome.
    public private(set) var current: Int? = 0
    /// Whether the page said it shows `current`: only then is a touch taken for it (a touch
    /// before, such as the one that started the page, is not the crosshair's).
    public private(set) var armed = false
    /// Why `current` is asked again, for the page to say.
    public private(set) var note: String?
    public private(set) var asks = 0
    /// Counts the times a point was put to the page (a new point, one asked again, a redo):
    /// the page answers `shown` once per prompt.
    public private(set) var prompt = 0
    public private(set) var outcome: Outcome?
    /// The points in the order their touches were taken (redo goes back along it).
    var taken: [Int] = []

    public init(targets: [Point], sensor: Size, tolerance: Double = Calibration.defaultTolerance) {
        self.targets = targets
        self.sensor = sensor
        self.tolerance = tolerance
        touches = Array(repeating: nil, count: targets.count)
    }

    /// The page's answer; false when it changes nothing (a stale or foreign index).
    public mutating func answer(_ answer: Answer) -> Bool {
        guard outcome == nil, let current else { return false }
        switch answer {
        case .shown(let index):
            guard index == current, !armed else { return false }
            armed = true
            return true
        case .redo(let index):
            // The tap on the page's redo button reached the device too: when it was taken for
            // the point shown (and the run moved on), it goes, and so does the touch before it
            // (the one to redo).
            if taken.last == index {
                touches[taken.removeLast()] = nil
            } else if index != current {
                return false
            }
            if let previous = taken.popLast() {
                touches[previous] = nil
                self.current = previous
            } else {
                touches[index] = nil
            }
            armed = false
            note = "touch it again"
            prompt += 1
            return true
        }
    }

    /// A touch at `normalized` (device coordinates, 0…1 of each axis); false when not taken
    /// (no point shown yet, or the run is over). Taking the last touch fits.
    public mutating func touch(_ normalized: Point) -> Bool {
        guard outcome == nil, armed, let index = current, normalized.x.isFinite, normalized.y.isFinite else { return false }
        touches[index] = normalized
        taken.append(index)
        armed = false
        note = nil
        prompt += 1
        if let next = touches.firstIndex(where: { $0 == nil }) {
            current = next
            return true
        }
        let points = zip(touches, targets).map { CalibrationPoint(touched: $0!, target: $1) }
        let calibration: Calibration
        do {
            calibration = try Calibration.fit(points, sensor: sensor, tolerance: tolerance)
        } catch {
            guard asks < Self.maximumAsks else {
                finish(.failed(error.description))
                return true
            }
            asks += 1
            touches = touches.map { _ in nil }
            taken = []
            current = 0
            note = "\(error): touch them all again"
            return true
        }
        if asks < Self.maximumAsks, let again = calibration.outlier ?? (calibration.agrees ? nil : calibration.worst) {
            asks += 1
            touches[again] = nil
            taken.removeAll { $0 == again }
            current = again
            note = calibration.outlier != nil
                ? "it was \(formatFixed(calibration.residuals[again], decimals: 1)) mm off the fit of the others: touch it again"
                : "the points disagree by more than \(formatFixed(tolerance, decimals: 1)) mm; this one is \(formatFixed(calibration.residuals[again], decimals: 1)) mm off: touch it again"
            return true
        }
        finish(.fitted(calibration, points))
        return true
    }

    mutating func finish(_ outcome: Outcome) {
        self.outcome = outcome
        current = nil
        armed = false
    }

    /// The line the page reads now: `{"calibrate":"point","index":2,"of":9,"prompt":2,"x":0.900,"y":0.900,
    /// "taken":2,"note":…,"device":…,"panelWidth":…,"panelHeight":…}` while a point is asked for (the
    /// panel's mm let the page draw the crosshair to scale), `{"calibrate":"failed",…}`, or, with
    /// `done` (the executable's texts of a fitted outcome), `{"calibrate":"done",…}`. Names are
    /// data: the page shows them as text.
    public func line(device: CalibratedDevice, done: Done? = nil) -> [UInt8] {
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        switch (outcome, current) {
        case (nil, let index?):
            w.field("calibrate", raw: "point")
            w.field("index", index)
            w.field("of", targets.count)
            w.field("prompt", prompt)
            w.field("x", targets[index].x, decimals: 4)
            w.field("y", targets[index].y, decimals: 4)
            w.field("taken", touches.count(where: { $0 != nil }))
            if let note { w.field("note", note) }
        case (.failed(let reason)?, _):
            w.field("calibrate", raw: "failed")
            w.field("reason", reason)
        case (.fitted(let calibration, _)?, _):
            w.field("calibrate", raw: "done")
            w.field("agrees", calibration.agrees)
            w.field("worst", calibration.residuals.isEmpty ? 0 : calibration.residuals[calibration.worst], decimals: 1)
            w.beginArray("residuals")
            for r in calibration.residuals { w.element(r, decimals: 1) }
            w.endArray()
            if let outlier = calibration.outlier { w.field("outlier", outlier) }
            w.field("found", calibration.findings)
            if let done {
                w.field("report", done.report)
                w.field("rule", done.rule)
                w.field("section", done.section)
                w.field("xinput", done.xinput)
                if let written = done.written { w.field("written", written) }
            }
        case (nil, nil):
            w.field("calibrate", raw: "failed")
            w.field("reason", "no point to ask for")
        }
        w.field("device", device.name)
        w.field("panelWidth", device.sensor.width, decimals: 2)
        w.field("panelHeight", device.sensor.height, decimals: 2)
        w.endObject()
        return w.bytes
    }

    /// What the page shows when done: the report and the three outputs (as the terminal
    /// prints them), and where the rule was written.
    public struct Done: Sendable {
        public var report, rule, section, xinput: String
        public var written: String?
        public init(report: String, rule: String, section: String, xinput: String, written: String?) {
            (self.report, self.rule, self.section, self.xinput, self.written) = (report, rule, section, xinput, written)
        }
    }
}
