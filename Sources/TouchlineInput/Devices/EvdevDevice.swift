// A live evdev device through libevdev: the full-fidelity source (pressure, touch size, every
// code the kernel sends). The libevdev handle and the descriptor never leave this file.
import CLibevdev
import Glibc
import TouchlineCore

/// An open `/dev/input/eventN`, non-blocking, its clock switched to CLOCK_MONOTONIC so that
/// event times, the timerfd and latency measurements share one clock (libinput does the same).
public final class EvdevDevice {
    public let path: String
    public let description: DeviceDescription
    /// For epoll registration only; owned and closed by this object.
    public let fileDescriptor: Int32
    public private(set) var isGrabbed = false
    /// SYN_DROPPED resyncs libevdev performed (device nonsense, counted: principle 9).
    public private(set) var droppedCount = 0

    private let handle: OpaquePointer
    /// The kernel's `phys` (empty when the driver sets none): Touchline's own pass-through
    /// clones carry `PassThroughClonePhys.prefix`, which discovery skips.
    public let phys: String

    /// Whether a read left the device open or found it gone.
    public enum ReadStatus: Sendable, Equatable {
        case open
        /// The device was removed (ENODEV): close it and cancel what it had in flight.
        case gone
    }

    /// Opens the device. `grab` takes it exclusively (EVIOCGRAB): no other reader, X server or
    /// compositor sees its events while Touchline runs.
    public init(path: String, grab: Bool = false) throws(SystemError) {
        let fd = touchline_open_nonblocking(path, 0)
        guard fd >= 0 else { throw SystemError.last("open", path: path) }
        var dev: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &dev)
        guard rc == 0, let dev else {
            close(fd)
            throw SystemError("read device description", path: path, code: -rc)
        }
        let clock = libevdev_set_clock_id(dev, touchline_clock_monotonic())
        if clock != 0 {
            libevdev_free(dev)
            close(fd)
            throw SystemError("set clock to CLOCK_MONOTONIC", path: path, code: -clock)
        }
        if grab {
            let g = libevdev_grab(dev, LIBEVDEV_GRAB)
            if g != 0 {
                libevdev_free(dev)
                close(fd)
                throw SystemError("grab (EVIOCGRAB)", path: path, code: -g)
            }
            isGrabbed = true
        }
        self.path = path
        self.fileDescriptor = fd
        self.handle = dev
        self.phys = libevdev_get_phys(dev).map { String(cString: $0) } ?? ""
        self.description = EvdevDevice.describe(dev)
    }

    /// Whether a contact is down, as libevdev's state says (`BTN_TOUCH`, or a slot with a
    /// tracking id): a device is grabbed only when nothing is down, or the reader that had the
    /// touch would never see it lift.
    public var hasContactDown: Bool {
        if libevdev_get_event_value(handle, UInt32(EventCodes.EV_KEY), UInt32(EventCodes.BTN_TOUCH)) != 0 { return true }
        let slots = libevdev_get_num_slots(handle)
        guard slots > 0 else { return false }
        for s in 0..<UInt32(slots) where libevdev_get_slot_value(handle, s, UInt32(EventCodes.ABS_MT_TRACKING_ID)) >= 0 { return true }
        return false
    }

    /// Takes the device exclusively (EVIOCGRAB) when no contact is down; false when one is
    /// (try again once it lifted). The kernel drops the grab when the descriptor closes, so a
    /// daemon that dies leaves the device to its other readers.
    public func grabWhenIdle() throws(SystemError) -> Bool {
        if isGrabbed { return true }
        if hasContactDown { return false }
        let g = libevdev_grab(handle, LIBEVDEV_GRAB)
        if g != 0 { throw SystemError("grab (EVIOCGRAB)", path: path, code: -g) }
        isGrabbed = true
        return true
    }

    /// Gives the grab back (pass-through's clone goes: TouchlineLive's UInputClone.close).
    public func ungrab() {
        if isGrabbed { _ = libevdev_grab(handle, LIBEVDEV_UNGRAB) }
        isGrabbed = false
    }

    deinit {
        if isGrabbed { _ = libevdev_grab(handle, LIBEVDEV_UNGRAB) }
        libevdev_free(handle)
        close(fileDescriptor)
    }

    /// Reads every event the kernel has queued, in order, until the device would block.
    ///
    /// On SYN_DROPPED (the kernel's buffer overflowed) libevdev resyncs: `body` first gets the
    /// SYN_DROPPED event, then the events that bring the device's state up to date (ending with
    /// a SYN_REPORT), so the frame assembler can end contacts that vanished as cancelled.
    public func readAvailable(_ body: (InputEvent) -> Void) throws(SystemError) -> ReadStatus {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc = libevdev_next_event(handle, flags, &event)
            if rc == LIBEVDEV_READ_STATUS_SUCCESS.rawValue {
                body(EvdevDevice.convert(event))
            } else if rc == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                if flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue {
                    droppedCount += 1
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                }
                body(EvdevDevice.convert(event))
            } else if rc == -EAGAIN {
                // In sync mode, EAGAIN ends the resync; then normal events may follow.
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return .open
            } else if rc == -ENODEV {
                return .gone
            } else if rc == -EINTR {
                continue
            } else {
                throw SystemError("read", path: path, code: -rc)
            }
        }
    }

    static func convert(_ e: input_event) -> InputEvent {
        var e = e
        let us = withUnsafePointer(to: &e) { touchline_event_microseconds($0) }
        return InputEvent(time: Timestamp(microseconds: us), type: e.type, code: e.code, value: e.value)
    }

    /// The DeviceDescription of an open libevdev handle: what a libinput-record header holds.
    static func describe(_ dev: OpaquePointer) -> DeviceDescription {
        var properties: [UInt16] = []
        for p in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(dev, p) != 0 {
            properties.append(UInt16(p))
        }
        var codes: [UInt16: [UInt16]] = [:]
        var absinfo: [UInt16: AbsInfo] = [:]
        for type in 0...EventCodes.EV_MAX where libevdev_has_event_type(dev, UInt32(type)) != 0 {
            guard let maxCode = EventCodes.maxCode(type: type) else { continue }
            var list: [UInt16] = []
            for code in 0...maxCode where libevdev_has_event_code(dev, UInt32(type), UInt32(code)) != 0 {
                list.append(code)
                if type == EventCodes.EV_ABS, let info = libevdev_get_abs_info(dev, UInt32(code)) {
                    absinfo[code] = AbsInfo(
                        minimum: info.pointee.minimum, maximum: info.pointee.maximum,
                        fuzz: info.pointee.fuzz, flat: info.pointee.flat,
                        resolution: info.pointee.resolution, value: info.pointee.value)
                }
            }
            codes[type] = list
        }
        return DeviceDescription(
            name: libevdev_get_name(dev).map { String(cString: $0) } ?? "",
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)),
            properties: properties, codes: codes, absinfo: absinfo)
    }
}
