import TouchlineConfig
import TouchlineCore

// `[[device]]` and `[socket]` sections of the daemon's configuration (docs/live.md#devices):
// which touchscreen gets which rotation, calibration, size and graph, and which is left alone.
// Read purely, beside the graph and the actions, so that `--check-config` and tests see the
// daemon's errors; the executable reads a device's own graph file, TouchlineLive applies them.

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

/// `[[device]]` sections in order (the first that matches applies) and `[socket]`.
public struct DeviceConfiguration: Hashable, Sendable {
    public var devices: [DeviceSpec]
    /// `[socket] group`: the socket file's group (applied where the socket is made).
    public var socketGroup: String?

    public init(devices: [DeviceSpec] = [], socketGroup: String? = nil) {
        self.devices = devices
        self.socketGroup = socketGroup
    }

    /// The settings of the first section that matches, nil for none.
    public func settings(name: String, path: String, udev: [String: String]?) -> DeviceSpec? {
        devices.first { $0.matches(name: name, path: path, udev: udev) }
    }

    /// Whether any section matches on udev properties (else there is no need to read them).
    public var needsUdev: Bool { devices.contains { !$0.udev.isEmpty } }
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

struct DeviceReader: ConfigSectionReader {
    let source: ConfigSourceMap


    static let deviceKeys = "match.name, match.path, match.udev, rotation, calibration, size, graph and ignore"

    func read(_ root: TOMLTable) throws(ConfigError) -> DeviceConfiguration {
        var configuration = DeviceConfiguration()
        if let entry = root["socket"] {
            guard let table = entry.value.table else { throw wrong(entry.value, "socket", "a [socket] table (group)") }
            for setting in table.entries {
                guard setting.key == "group" else {
                    throw fail(setting.keyPosition, "unknown [socket] key '\(setting.key)'; expected group")
                }
                configuration.socketGroup = try string(setting.value, "socket.group", "a group name or number")
            }
        }
        if let entry = root["device"] {
            guard case let .array(items) = entry.value.kind, items.allSatisfy({ $0.table != nil }) else {
                throw wrong(entry.value, "device", "[[device]] sections (an array of tables)")
            }
            for item in items { configuration.devices.append(try readDevice(item)) }
        }
        return configuration
    }

    func string(_ v: TOMLValue, _ key: String, _ expected: String = "a non-empty string") throws(ConfigError) -> String {
        guard case let .string(s) = v.kind, !s.isEmpty, !s.utf8.contains(0) else { throw wrong(v, key, expected) }
        return s
    }

    func numbers(_ v: TOMLValue, count: Int, _ key: String, _ expected: String) throws(ConfigError) -> [Double] {
        guard case let .array(items) = v.kind, items.count == count else { throw wrong(v, key, expected) }
        var result: [Double] = []
        for item in items {
            switch item.kind {
            case let .integer(n): result.append(Double(n))
            case let .float(d) where d.isFinite: result.append(d)
            default: throw wrong(item, key, expected)
            }
        }
        return result
    }

    func readDevice(_ value: TOMLValue) throws(ConfigError) -> DeviceSpec {
        let table = value.table ?? TOMLTable()
        var spec = DeviceSpec(line: value.position.line)
        for entry in table.entries {
            let v = entry.value
            switch entry.key {
            case "match":
                guard let match = v.table else { throw wrong(v, "a device's match", "match.name, match.path or match.udev") }
                for m in match.entries {
                    switch m.key {
                    case "name": spec.name = try string(m.value, "match.name", "a glob on the device's name (* and ?)")
                    case "path": spec.path = try string(m.value, "match.path", "a glob on the device's path (* and ?)")
                    case "udev":
                        guard let properties = m.value.table, !properties.isEmpty else {
                            throw wrong(m.value, "match.udev", "a table of udev properties, as { ID_INPUT_TOUCHSCREEN = \"1\" }")
                        }
                        for p in properties.entries {
                            switch p.value.kind {
                            case let .string(s): spec.udev[p.key] = s
                            case let .integer(n): spec.udev[p.key] = String(n)
                            default: throw wrong(p.value, "match.udev.\(p.key)", "a string (udev properties are text)")
                            }
                        }
                    default:
                        throw fail(m.keyPosition, "unknown match key '\(m.key)'; expected name, path or udev")
                    }
                }
            case "rotation":
                guard case let .integer(n) = v.kind, let r = Rotation(rawValue: Int(truncatingIfNeeded: n)), Int64(r.rawValue) == n else {
                    throw wrong(v, "a device's rotation", "0, 90, 180 or 270 (degrees clockwise)")
                }
                spec.rotation = r
            case "calibration":
                spec.calibration = try numbers(v, count: 6, "a device's calibration", "six numbers, libinput's calibration matrix [a, b, c, d, e, f]")
            case "size":
                let wh = try numbers(v, count: 2, "a device's size", "[width, height] in mm, each from 1 to 10000")
                guard wh.allSatisfy({ $0 >= 1 && $0 <= 10_000 }) else {
                    throw wrong(v, "a device's size", "[width, height] in mm, each from 1 to 10000")
                }
                spec.size = Size(width: wh[0], height: wh[1])
            case "graph":
                spec.graph = try string(v, "a device's graph", "a graph file's path (relative to this configuration)")
            case "ignore":
                guard case let .bool(b) = v.kind else { throw wrong(v, "a device's ignore", "true or false") }
                spec.ignore = b
            default:
                throw fail(entry.keyPosition, "unknown device key '\(entry.key)'; a device has \(DeviceReader.deviceKeys)")
            }
        }
        if spec.name == nil && spec.path == nil && spec.udev.isEmpty {
            throw fail(value.position, "this [[device]] has no match; write match.name, match.path or match.udev (match.name = \"*\" for every device)")
        }
        return spec
    }
}

extension DeviceConfiguration {
    static func read(_ root: TOMLTable, file: String) throws(ConfigError) -> DeviceConfiguration {
        try DeviceReader(source: ConfigSourceMap(file: file)).read(root)
    }

    /// `replay --config`: the graph and `[[device]]` sections (so a trace's rotation,
    /// calibration and size apply as in the daemon); `[[action]]` and `[socket]` are refused.
    public static func parseForReplay(bytes: [UInt8], file: String, registry: RecognizerRegistry = .standard) throws(ConfigError) -> (graph: GraphConfiguration, devices: DeviceConfiguration) {
        let graph = try GraphConfiguration.parseWithSource(bytes: bytes, file: file, registry: registry, allowing: ["device"]).configuration
        let document: TOMLDocument
        do {
            document = try TOMLDocument.parse(bytes, file: file)
        } catch {
            throw ConfigError(file: error.file, line: error.line, column: error.column, message: error.message)
        }
        return (graph, try read(document.root, file: file))
    }
}
