import TouchlineCore

// One device's settings (docs/live.md#devices): which touchscreen gets which rotation,
// calibration, size and graph, and which is left alone. A value the graph's drivers consume
// (GesturePipeline: replay, the live session); TouchlineSettings reads `[[device]]` sections into it.

/// How a device's frames are turned before the graph sees them (DeviceTransform).
public enum Rotation: Int, Hashable, Sendable, CaseIterable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270
}

/// One `[[device]]`: a match, and the settings of the devices it matches.
public struct DeviceSpec: Hashable, Sendable {
    /// Glob (`*`, `?`) on the device's name, as the kernel reports it.
    public var name: String?
    /// Glob on the device node's path.
    public var path: String?
    /// udev properties (from udev's database), each of which must be present and equal.
    public var udev: [String: String] = [:]
    public var rotation: Rotation = .none
    /// libinput's LIBINPUT_CALIBRATION_MATRIX, row-major (a b c d e f): in normalized coordinates,
    /// x' = a·x + b·y + c, y' = d·x + e·y + f. Applied before the rotation.
    public var calibration: [Double]?
    /// The sensor's size in mm, overriding the resolution's (as `--size`).
    public var size: Size?
    /// This device's graph file, as written (relative to the configuration's directory); the
    /// executable reads it into `graphConfiguration`.
    public var graph: String?
    public var graphConfiguration: GraphConfiguration?
    /// Not opened at all.
    public var ignore = false
    /// Pass-through (docs/live.md#pass-through): the daemon's evdev source grabs the device and
    /// makes a uinput clone that receives every touch no `consume = true` recognizer keeps.
    public var passthrough = false
    /// Where the section starts, for messages about it.
    public var line: Int = 0

    public init(name: String? = nil, path: String? = nil, udev: [String: String] = [:], rotation: Rotation = .none,
                calibration: [Double]? = nil, size: Size? = nil, graph: String? = nil, ignore: Bool = false, line: Int = 0) {
        self.name = name
        self.path = path
        self.udev = udev
        self.rotation = rotation
        self.calibration = calibration
        self.size = size
        self.graph = graph
        self.ignore = ignore
        self.line = line
    }

    /// Whether a device with this name and path (and udev properties, when the match asks for
    /// any; nil: not known, which fails a udev match) is this section's.
    public func matches(name deviceName: String, path devicePath: String, udev properties: [String: String]?) -> Bool {
        if let name, !Glob.matches(name, deviceName) { return false }
        if let path, !Glob.matches(path, devicePath) { return false }
        if !udev.isEmpty {
            guard let properties else { return false }
            for (key, value) in udev where properties[key] != value { return false }
        }
        return true
    }

    /// The transform of this device's frames from its sensor's size, nil for none.
    public var transform: DeviceTransform? {
        DeviceTransform(rotation: rotation, calibration: calibration)
    }
}

/// `*` (any run, `/` included) and `?` (one character), on Characters.
public enum Glob {
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        // Iterative with one backtrack point: linear in practice, no recursion on hostile patterns.
        var i = 0, j = 0, star = -1, mark = 0
        while j < t.count {
            if i < p.count, p[i] == "?" || p[i] == t[j] {
                i += 1; j += 1
            } else if i < p.count, p[i] == "*" {
                star = i; mark = j; i += 1
            } else if star >= 0 {
                i = star + 1; mark += 1; j = mark
            } else {
                return false
            }
        }
        while i < p.count, p[i] == "*" { i += 1 }
        return i == p.count
    }
}
