// A virtual device in the kernel (uinput) made from a DeviceDescription: how `touchline play`
// and the end-to-end tests drive a real kernel with recorded input.
import CLibevdev
import Glibc
import TouchlineCore

public final class UInputDevice {
    public let description: DeviceDescription
    /// The evdev node the kernel made for it (`/dev/input/eventN`).
    public let devnode: String
    /// Its sysfs path (`/sys/devices/virtual/input/inputN`).
    public let syspath: String

    private let template: OpaquePointer
    private var uinput: OpaquePointer?
    private let fd: Int32
    /// The descriptor opened here (a device with a phys), closed after the device is
    /// destroyed; -1 when libevdev opened and closes its own.
    private var ownFD: Int32
    /// Reused between frames so writing allocates only when a frame is larger than any before.
    private var buffer: [input_event] = []

    /// Creates the device through `/dev/uinput` (libevdev_uinput_create_from_device), with the
    /// description's name, ids, properties, codes and absinfo. The kernel stamps the events
    /// with its own time when they are written.
    /// `phys`: the kernel's physical path for it (`UI_SET_PHYS`), so readers can tell it
    /// (Touchline's pass-through clones: `PassThroughClonePhys`).
    public init(description: DeviceDescription, phys: String? = nil) throws(SystemError) {
        guard let dev = libevdev_new() else { throw SystemError("libevdev_new", code: ENOMEM) }
        // libevdev's uinput creation sets no phys: with one, the descriptor is opened here and
        // UI_SET_PHYS given before libevdev creates the device on it.
        var ownFD: Int32 = -1
        if let phys {
            ownFD = touchline_open_nonblocking("/dev/uinput", 1)
            guard ownFD >= 0 else {
                libevdev_free(dev)
                throw SystemError.last("create uinput device", path: "/dev/uinput")
            }
            guard touchline_uinput_set_phys(ownFD, String(phys.utf8.prefix(63)) ?? "touchline") == 0 else {
                let error = SystemError.last("create uinput device (UI_SET_PHYS)", path: "/dev/uinput")
                Glibc.close(ownFD)
                libevdev_free(dev)
                throw error
            }
        }
        // uinput caps names at 80 bytes (UINPUT_MAX_NAME_SIZE) including the terminator.
        libevdev_set_name(dev, String(description.name.utf8.prefix(79)) ?? "touchline")
        libevdev_set_id_bustype(dev, Int32(description.bus))
        libevdev_set_id_vendor(dev, Int32(description.vendor))
        libevdev_set_id_product(dev, Int32(description.product))
        libevdev_set_id_version(dev, Int32(description.version))
        for p in description.properties { _ = libevdev_enable_property(dev, UInt32(p)) }
        for (type, list) in description.codes.sorted(by: { $0.key < $1.key }) {
            // EV_SYN is always on; force feedback needs effect slots a recording does not carry.
            if type == EventCodes.EV_SYN || type == 0x15 { continue }
            _ = libevdev_enable_event_type(dev, UInt32(type))
            for code in list {
                if type == EventCodes.EV_ABS {
                    let a = description.absinfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
                    var info = input_absinfo(
                        value: a.value, minimum: a.minimum, maximum: a.maximum,
                        fuzz: a.fuzz, flat: a.flat, resolution: a.resolution)
                    _ = withUnsafePointer(to: &info) { libevdev_enable_event_code(dev, UInt32(type), UInt32(code), $0) }
                } else if type == 0x14 {
                    // EV_REP codes carry the repeat delay and period in ms.
                    var value: Int32 = code == 0 ? 250 : 33
                    _ = withUnsafePointer(to: &value) { libevdev_enable_event_code(dev, UInt32(type), UInt32(code), $0) }
                } else {
                    _ = libevdev_enable_event_code(dev, UInt32(type), UInt32(code), nil)
                }
            }
        }
        var created: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(dev, ownFD >= 0 ? ownFD : LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &created)
        guard rc == 0, let created else {
            if ownFD >= 0 { Glibc.close(ownFD) }
            libevdev_free(dev)
            throw SystemError("create uinput device", path: "/dev/uinput", code: -rc)
        }
        self.description = description
        self.template = dev
        self.uinput = created
        self.fd = libevdev_uinput_get_fd(created)
        self.ownFD = ownFD
        self.devnode = libevdev_uinput_get_devnode(created).map { String(cString: $0) } ?? ""
        self.syspath = libevdev_uinput_get_syspath(created).map { String(cString: $0) } ?? ""
    }

    deinit {
        remove()
        libevdev_free(template)
    }

    /// Writes events (typically one frame, ending with SYN_REPORT) in one write(2), so that a
    /// reader never sees half a frame. The events' own times are ignored: the kernel stamps them.
    public func write<C: Collection<InputEvent>>(_ events: C) throws(SystemError) {
        guard uinput != nil else {
            if events.isEmpty { return }
            throw SystemError("write", path: devnode, code: ENODEV)
        }
        try writeFrame(events, to: fd, path: devnode, buffer: &buffer)
    }

    /// Destroys the device now (an unplug, as far as readers can tell).
    public func remove() {
        if let uinput { libevdev_uinput_destroy(uinput) }
        uinput = nil
        if ownFD >= 0 { Glibc.close(ownFD) }
        ownFD = -1
    }

    /// Opens /dev/uinput once and closes it, making nothing: where uinput is a module not yet
    /// loaded, opening its static node loads it, and udev then applies its rules to the node
    /// (70-touchline.rules makes the user `touchline` its owner). The daemon does it as root
    /// before `--user` drops, so that a touchscreen plugged in later can be cloned even on a
    /// machine where nothing had loaded uinput since the package was installed (a rule reaches
    /// a static node only when udev starts). A failure is ignored: a clone that then cannot be
    /// made says why.
    public static func loadModule() {
        let fd = touchline_open_nonblocking("/dev/uinput", 1)
        if fd >= 0 { Glibc.close(fd) }
    }
}

/// Injects events into an existing evdev node (write(2) on `/dev/input/eventN` delivers them to
/// every reader of that device): `touchline play --device PATH`; or into any file opened for
/// writing (a pipe: `daemon --passthrough-to`, a pass-through clone measured without uinput).
public final class EvdevInjector {
    public let path: String
    private let fd: Int32
    private var buffer: [input_event] = []

    public init(path: String) throws(SystemError) {
        let fd = touchline_open_nonblocking(path, 1)
        guard fd >= 0 else { throw SystemError.last("open for writing", path: path) }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    public func write<C: Collection<InputEvent>>(_ events: C) throws(SystemError) {
        try writeFrame(events, to: fd, path: path, buffer: &buffer)
    }
}

/// Encodes events as kernel `input_event`s into `buffer` (reused, so a frame allocates nothing
/// once it has grown) and writes them in one write(2), so that a reader never sees half a
/// frame. The events' own times are ignored: the kernel stamps them.
private func writeFrame<C: Collection<InputEvent>>(
    _ events: C, to fd: Int32, path: String, buffer: inout [input_event]
) throws(SystemError) {
    buffer.removeAll(keepingCapacity: true)
    for e in events {
        var raw = input_event()
        touchline_set_event(&raw, e.type, e.code, e.value)
        buffer.append(raw)
    }
    if buffer.isEmpty { return }
    let (written, err): (Int, Int32) = buffer.withUnsafeBufferPointer { p in
        let n = touchline_write_events(fd, p.baseAddress, p.count)
        return (n, n < 0 ? touchline_errno() : 0)
    }
    if written < 0 { throw SystemError("write", path: path, code: err) }
    if written != buffer.count * MemoryLayout<input_event>.stride {
        throw SystemError("write (short)", path: path, code: EIO)
    }
}
