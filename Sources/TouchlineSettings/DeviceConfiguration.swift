import TouchlineConfig
import TouchlineCore
import TouchlineGestures

// `[[device]]` and `[socket]` sections of the daemon's configuration (docs/live.md#devices),
// read into DeviceSpec values (TouchlineGestures) purely, beside the graph and the actions, so
// that `--check-config` and tests see the daemon's errors; the executable reads a device's own
// graph file, TouchlineLive applies them.

/// `[[device]]` sections in order (the first that matches applies) and `[socket]`.
public struct DeviceConfiguration: Hashable, Sendable {
    public var devices: [DeviceSpec]
    /// `[socket] group`: the socket file's group (applied where the socket is made, once: a
    /// reload cannot change it, `startupSettings`).
    public var socketGroup: String?
    /// Where `[socket] group`'s value is written, for the daemon's check that the group exists.
    public var socketGroupPosition: ConfigPosition?
    /// `[socket] clientZ = [min, max]`: the z a target registered on the socket may take
    /// (docs/live.md#registered-targets); nil: registered targets sit below the graph's own.
    public var clientZ: ClosedRange<Int>?

    public init(devices: [DeviceSpec] = [], socketGroup: String? = nil, clientZ: ClosedRange<Int>? = nil) {
        self.devices = devices
        self.socketGroup = socketGroup
        self.clientZ = clientZ
    }

    /// The settings of the first section that matches, nil for none.
    public func settings(name: String, path: String, udev: [String: String]?) -> DeviceSpec? {
        devices.first { $0.matches(name: name, path: path, udev: udev) }
    }

    /// Whether any section matches on udev properties (else there is no need to read them).
    public var needsUdev: Bool { devices.contains { !$0.udev.isEmpty } }
}

struct DeviceReader: ConfigSectionReader {
    let source: ConfigSourceMap


    static let deviceKeys = "match.name, match.path, match.udev, rotation, calibration, size, graph, ignore and passthrough"

    func read(_ root: TOMLTable) throws(ConfigError) -> DeviceConfiguration {
        var configuration = DeviceConfiguration()
        if let entry = root["socket"] {
            guard let table = entry.value.table else { throw wrong(entry.value, "socket", "a [socket] table (group, clientZ)") }
            for setting in table.entries {
                switch setting.key {
                case "group":
                    configuration.socketGroup = try string(setting.value, "socket.group", "a group name or number")
                    configuration.socketGroupPosition = setting.value.position
                case "clientZ":
                    configuration.clientZ = try zRange(setting.value)
                default:
                    throw fail(setting.keyPosition, "unknown [socket] key '\(setting.key)'; expected group or clientZ")
                }
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

    /// `[min, max]`, two integers a target's z may take, min ≤ max.
    func zRange(_ v: TOMLValue) throws(ConfigError) -> ClosedRange<Int> {
        let expected = "[min, max]: two integers from -\(GraphConfiguration.Limits.farthestZ) to \(GraphConfiguration.Limits.farthestZ), min ≤ max (the z registered targets may take)"
        guard case let .array(items) = v.kind, items.count == 2,
              case let .integer(low) = items[0].kind, case let .integer(high) = items[1].kind,
              GraphConfiguration.zAllowed(low), GraphConfiguration.zAllowed(high), low <= high else {
            throw wrong(v, "socket.clientZ", expected)
        }
        return Int(low)...Int(high)
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
            case "passthrough":
                guard case let .bool(b) = v.kind else { throw wrong(v, "a device's passthrough", "true or false (grab it and give the system a clone that receives every touch no consume = true recognizer keeps)") }
                spec.passthrough = b
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

    /// `replay --config` and `plot --config`: the graph and `[[device]]` sections (so a
    /// trace's rotation, calibration and size apply as in the daemon). A daemon's file is read
    /// whole and checked as the daemon checks it, so a preview never takes a file the daemon
    /// would refuse; its `[[action]]`, `[actions]` and `[socket]` do nothing in a replay, and
    /// `leftOut` names those present (the caller says so once).
    public static func parseForReplay(bytes: [UInt8], file: String, registry: RecognizerRegistry = .standard) throws(ConfigError) -> (graph: GraphConfiguration, devices: DeviceConfiguration, leftOut: [String]) {
        // Read once (docs/config.md#size-limits).
        let document = try ConfigSourceMap.document(bytes, file: file)
        let daemon = try DaemonConfiguration.parse(document: document, file: file, registry: registry)
        let leftOut = [("action", "[[action]]"), ("actions", "[actions]"), ("socket", "[socket]")].compactMap { document.root[$0.0] == nil ? nil : $0.1 }
        return (daemon.graph, daemon.devices, leftOut)
    }
}
