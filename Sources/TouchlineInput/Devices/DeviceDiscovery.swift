// `touchline devices` and device selection: which event nodes exist, and for each, whether
// Touchline uses it and, when not, why.
import CLibevdev
import Glibc
import TouchlineCore

/// Whether Touchline recognizes gestures on a device, and why not when it does not.
public enum DeviceVerdict: Hashable, Sendable, CustomStringConvertible {
    /// A touchscreen: used.
    case used
    /// Touch with position axes but not a direct-touch screen (a touchpad): its positions are
    /// not screen positions, so screen gestures would be wrong there.
    case notDirect
    /// A pen or stylus digitizer; pens are not fingers (no multi-contact gestures).
    case pen
    /// No ABS_MT_POSITION_X/Y nor ABS_X/Y: keyboards, buttons, relative mice.
    case noTouchAxes
    /// The node could not be opened for lack of permission (EACCES/EPERM).
    case noPermission
    /// The node could not be opened or read for another reason.
    case unreadable(SystemError)
    /// Touchline's own pass-through clone (its `phys` starts with `PassThroughClonePhys.prefix`):
    /// never opened, or the daemon would read its own output.
    case passThroughClone

    public var isUsed: Bool { self == .used }

    /// A short token for scripts: used, not-direct, pen, no-touch-axes, no-permission, error.
    public var token: String {
        switch self {
        case .used: return "used"
        case .notDirect: return "not-direct"
        case .pen: return "pen"
        case .noTouchAxes: return "no-touch-axes"
        case .noPermission: return "no-permission"
        case .unreadable: return "error"
        case .passThroughClone: return "clone"
        }
    }

    public var description: String {
        switch self {
        case .used: return "used"
        case .notDirect: return "not used: not a direct-touch screen (a touchpad; INPUT_PROP_DIRECT unset)"
        case .pen: return "not used: a pen digitizer, not finger touch"
        case .noTouchAxes: return "not used: no MT or position axes (ABS_MT_POSITION_X/Y, ABS_X/Y)"
        case .noPermission: return "not used: no permission to read it (run as root or join the 'input' group)"
        case .unreadable(let e): return "not used: \(e)"
        case .passThroughClone: return "not used: Touchline's own pass-through clone (phys \(PassThroughClonePhys.prefix)…)"
        }
    }

    /// The verdict for a description: the same rule `touchline run` uses to pick devices.
    public init(for device: DeviceDescription) {
        switch device.kind {
        case .touchscreen: self = .used
        case .touchpad: self = .notDirect
        case .pen: self = .pen
        case .keyboard, .pointer, .other:
            self = (device.xAxis != nil && device.yAxis != nil) ? .notDirect : .noTouchAxes
        }
    }

    public init(for error: SystemError) {
        self = error.isPermissionDenied ? .noPermission : .unreadable(error)
    }
}

/// One input node as `touchline devices` shows it.
public struct DeviceProbe: Sendable {
    public var path: String
    /// nil when the node could not be opened (the verdict says why).
    public var description: DeviceDescription?
    public var verdict: DeviceVerdict

    /// Opens the node just long enough to read its description.
    public static func probe(path: String) -> DeviceProbe {
        do {
            let device = try EvdevDevice(path: path)
            if PassThroughClonePhys.isClone(device.phys) { return DeviceProbe(path: path, description: device.description, verdict: .passThroughClone) }
            return DeviceProbe(path: path, description: device.description, verdict: DeviceVerdict(for: device.description))
        } catch {
            return DeviceProbe(path: path, description: nil, verdict: DeviceVerdict(for: error))
        }
    }
}

public enum DeviceDirectory {
    /// The `eventN` nodes in `directory`, by number (event2 before event10).
    public static func eventNodes(in directory: String = "/dev/input") -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var numbers: [Int] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix("event"), let n = Int(name.dropFirst(5)) { numbers.append(n) }
        }
        return numbers.sorted().map { "\(directory)/event\($0)" }
    }
}

/// New event nodes in a directory (hotplug for the evdev backend, without udev): an inotify
/// watch whose descriptor joins the event loop.
public final class DeviceDirectoryWatcher {
    public let directory: String
    public let fileDescriptor: Int32
    private var buffer = [CChar](repeating: 0, count: 4096)

    public init(directory: String = "/dev/input") throws(SystemError) {
        var watch: Int32 = -1
        let fd = touchline_inotify_directory(directory, &watch)
        guard fd >= 0 else { throw SystemError.last("inotify_add_watch", path: directory) }
        self.directory = directory
        self.fileDescriptor = fd
    }

    deinit { close(fileDescriptor) }

    /// The `eventN` paths created or changed since the last call (may repeat a path).
    public func changedNodes() throws(SystemError) -> [String] {
        var paths: [String] = []
        while true {
            let fd = fileDescriptor
            let n = buffer.withUnsafeMutableBufferPointer { touchline_inotify_read(fd, $0.baseAddress, UInt($0.count)) }
            if n < 0 { throw SystemError.last("read(inotify)", path: directory) }
            if n == 0 { return paths }
            buffer.withUnsafeBufferPointer { p in
                var offset: UInt = 0
                while offset < UInt(n) {
                    var name: UnsafePointer<CChar>?
                    offset = touchline_inotify_record(p.baseAddress, offset, &name)
                    if let name {
                        let s = String(cString: name)
                        if s.hasPrefix("event"), Int(s.dropFirst(5)) != nil { paths.append(directory + "/" + s) }
                    }
                }
            }
        }
    }
}

/// The `phys` of Touchline's pass-through clones (docs/live.md#pass-through):
/// `touchline-passthrough/` and the node it clones (`touchline-passthrough//dev/input/event5`).
/// Other tools can tell a clone by it too (udev: `ATTRS{phys}=="touchline-passthrough/*"`).
public enum PassThroughClonePhys {
    public static let prefix = "touchline-passthrough/"
    public static func of(path: String) -> String { prefix + path }
    public static func isClone(_ phys: String) -> Bool { phys.hasPrefix(prefix) }
}
