// The libinput source: the udev seat (hotplug, calibration from udev's
// LIBINPUT_CALIBRATION_MATRIX) or explicit paths. Touch events come back as evdev MT protocol B
// events (slot, tracking id, position in device units, SYN_REPORT at each touch frame), so the
// same frame assembler and graph run behind both backends and the outputs compare.
//
// libinput's touch API has no pressure and no contact size: the description handed on drops
// those axes, so frames carry none and peek/pop falls back (design: contact size, else time).
import CLibevdev
import CLibinput
import Glibc
import TouchlineCore

public final class LibinputSource {
    /// What a dispatch produced, in order.
    public enum Event {
        /// A touch device appeared (at start-up or hotplug). `description` is what frames are
        /// assembled against: the node's own, minus pressure and size axes.
        case added(id: Int, path: String, description: DeviceDescription)
        /// The device went away: its in-flight contacts must end as cancelled.
        case removed(id: Int, time: Timestamp)
        /// One converted evdev event.
        case input(id: Int, event: InputEvent)
    }

    private let context: OpaquePointer
    private let udev: OpaquePointer?
    public let fileDescriptor: Int32
    private var nextID = 1
    private var devices: [Int: DeviceState] = [:]
    private var pending: [Event] = []
    /// The path backend's removal detector: libinput's path backend stops reading a node that
    /// returns ENODEV but reports no DEVICE_REMOVED; the kernel's uevent says "remove", and
    /// libinput_path_remove_device turns that into one. (The udev backend does this itself.)
    private var monitor: OpaquePointer?
    /// The uevent socket to watch with the path backend; -1 with the udev backend.
    public private(set) var monitorDescriptor: Int32 = -1

    struct DeviceState {
        var handle: OpaquePointer
        var path: String
        var description: DeviceDescription
        var xMinimum: Int32
        var yMinimum: Int32
        var xWidth: UInt32
        var yWidth: UInt32
        var slotCount: Int32
        var nextTrackingID: Int32 = 1
    }

    /// libinput itself, loaded now (CLibinput's shim.h says why not at start-up).
    static func load() throws(SystemError) {
        if let error = touchline_libinput_error() {
            throw SystemError("load libinput (apt install libinput10: \(String(cString: error)))", code: ENOENT)
        }
    }

    /// The udev seat backend: every device of `seat`, and hotplug.
    public init(seat: String) throws(SystemError) {
        try Self.load()
        guard let udev = udev_new() else { throw SystemError("udev_new", code: ENOMEM) }
        guard let li = tl_libinput_udev_create_context(touchline_libinput_interface(), nil, udev) else {
            udev_unref(udev)
            throw SystemError("libinput_udev_create_context", code: ENOMEM)
        }
        if tl_libinput_udev_assign_seat(li, seat) != 0 {
            tl_libinput_unref(li)
            udev_unref(udev)
            throw SystemError("libinput_udev_assign_seat", path: seat, code: EINVAL)
        }
        self.udev = udev
        self.context = li
        self.fileDescriptor = tl_libinput_get_fd(li)
    }

    /// The path backend: exactly these nodes, no hotplug (removal is still reported).
    public init(paths: [String]) throws(SystemError) {
        try Self.load()
        guard let li = tl_libinput_path_create_context(touchline_libinput_interface(), nil) else {
            throw SystemError("libinput_path_create_context", code: ENOMEM)
        }
        self.context = li
        self.fileDescriptor = tl_libinput_get_fd(li)
        // Kernel uevents, not udevd's: removal must be seen even where udevd does not run.
        let udev = udev_new()
        self.udev = udev
        if let udev, let monitor = udev_monitor_new_from_netlink(udev, "kernel") {
            _ = udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
            if udev_monitor_enable_receiving(monitor) == 0 {
                self.monitor = monitor
                self.monitorDescriptor = udev_monitor_get_fd(monitor)
            } else {
                udev_monitor_unref(monitor)
            }
        }
        for path in paths {
            // libinput logs why; the usual reasons are EACCES and "not a device udev knows".
            if tl_libinput_path_add_device(li, path) == nil {
                let probe = DeviceProbe.probe(path: path)
                if case .unreadable(let e) = probe.verdict { throw e }
                if probe.verdict == .noPermission { throw SystemError("open", path: path, code: EACCES) }
                throw SystemError("libinput_path_add_device (is udev running and the device initialised?)", path: path, code: ENODEV)
            }
        }
    }

    deinit {
        for state in devices.values { tl_libinput_device_unref(state.handle) }
        if let monitor { udev_monitor_unref(monitor) }
        tl_libinput_unref(context)
        if let udev { udev_unref(udev) }
    }

    /// Lets libinput read its descriptors and hands on what happened. Touch events of a device
    /// removed in the same dispatch are dropped: libinput releases a removed device's touches
    /// as ordinary lifts, and the removal must read as a cancellation, not as a lift.
    public func dispatch(_ body: (Event) -> Void) throws(SystemError) {
        if let monitor {
            while let uevent = udev_monitor_receive_device(monitor) {
                if let action = udev_device_get_action(uevent), String(cString: action) == "remove",
                   let node = udev_device_get_devnode(uevent) {
                    let path = String(cString: node)
                    for state in devices.values where state.path == path { tl_libinput_path_remove_device(state.handle) }
                }
                udev_device_unref(uevent)
            }
        }
        let rc = tl_libinput_dispatch(context)
        if rc != 0 { throw SystemError("libinput_dispatch", code: -rc) }
        pending.removeAll(keepingCapacity: true)
        while let event = tl_libinput_get_event(context) {
            convert(event)
            tl_libinput_event_destroy(event)
        }
        var removedIDs: Set<Int> = []
        for e in pending { if case .removed(let id, _) = e { removedIDs.insert(id) } }
        for e in pending {
            if case .input(let id, _) = e, removedIDs.contains(id) { continue }
            body(e)
        }
    }

    private func convert(_ event: OpaquePointer) {
        let type = tl_libinput_event_get_type(event)
        guard let device = tl_libinput_event_get_device(event) else { return }
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            guard tl_libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 else { return }
            added(device)
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            let id = Int(touchline_device_id(device))
            guard let state = devices.removeValue(forKey: id) else { return }
            tl_libinput_device_unref(state.handle)
            pending.append(.removed(id: id, time: EventLoop.now()))
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP,
             LIBINPUT_EVENT_TOUCH_CANCEL, LIBINPUT_EVENT_TOUCH_FRAME:
            let id = Int(touchline_device_id(device))
            guard var state = devices[id], let touch = tl_libinput_event_get_touch_event(event) else { return }
            let time = Timestamp(microseconds: Int64(bitPattern: tl_libinput_event_touch_get_time_usec(touch)))
            func emit(_ code: UInt16, _ value: Int32) {
                pending.append(.input(id: id, event: InputEvent(time: time, type: EventCodes.EV_ABS, code: code, value: value)))
            }
            if type == LIBINPUT_EVENT_TOUCH_FRAME {
                pending.append(.input(id: id, event: InputEvent(time: time, type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0)))
                return
            }
            // Single-touch devices report slot -1: they have one contact, slot 0.
            let slot = max(0, tl_libinput_event_touch_get_slot(touch))
            emit(EventCodes.ABS_MT_SLOT, slot)
            switch type {
            case LIBINPUT_EVENT_TOUCH_DOWN:
                emit(EventCodes.ABS_MT_TRACKING_ID, state.nextTrackingID)
                state.nextTrackingID = state.nextTrackingID == Int32.max ? 1 : state.nextTrackingID + 1
                devices[id] = state
                position(touch, state, emit)
            case LIBINPUT_EVENT_TOUCH_MOTION:
                position(touch, state, emit)
            default:
                // UP, and CANCEL (libinput cancels a touch it judges a palm): both end it;
                // protocol B has no per-contact cancel.
                emit(EventCodes.ABS_MT_TRACKING_ID, -1)
            }
        default:
            return
        }
    }

    /// Device units again: with the axis range as the width, libinput's transform is the raw
    /// value minus the minimum (after calibration), exactly.
    private func position(_ touch: OpaquePointer, _ state: DeviceState, _ emit: (UInt16, Int32) -> Void) {
        let x = tl_libinput_event_touch_get_x_transformed(touch, state.xWidth)
        let y = tl_libinput_event_touch_get_y_transformed(touch, state.yWidth)
        emit(EventCodes.ABS_MT_POSITION_X, state.xMinimum &+ Int32(x.rounded()))
        emit(EventCodes.ABS_MT_POSITION_Y, state.yMinimum &+ Int32(y.rounded()))
    }

    private func added(_ device: OpaquePointer) {
        var path = ""
        if let udevDevice = tl_libinput_device_get_udev_device(device) {
            if let node = udev_device_get_devnode(udevDevice) { path = String(cString: node) }
            udev_device_unref(udevDevice)
        }
        var description = DeviceDescription(name: String(cString: tl_libinput_device_get_name(device)))
        if !path.isEmpty, let probed = DeviceProbe.probe(path: path).description { description = probed }
        description = LibinputSource.touchDescription(from: description)
        let x = description.absinfo[EventCodes.ABS_MT_POSITION_X] ?? AbsInfo(minimum: 0, maximum: 0)
        let y = description.absinfo[EventCodes.ABS_MT_POSITION_Y] ?? AbsInfo(minimum: 0, maximum: 0)
        let id = nextID
        nextID += 1
        touchline_device_set_id(device, UInt(id))
        tl_libinput_device_ref(device)
        devices[id] = DeviceState(
            handle: device, path: path, description: description,
            xMinimum: x.minimum, yMinimum: y.minimum,
            xWidth: UInt32(max(1, Int64(x.maximum) - Int64(x.minimum) + 1)),
            yWidth: UInt32(max(1, Int64(y.maximum) - Int64(y.minimum) + 1)),
            slotCount: Int32(max(1, description.slotCount)))
        pending.append(.added(id: id, path: path, description: description))
    }

    /// The description frames are assembled against: MT protocol B position axes (from ABS_X/Y
    /// for single-touch devices), no pressure, no contact size, as libinput delivers.
    public static func touchDescription(from device: DeviceDescription) -> DeviceDescription {
        var d = device
        let dropped: Set<UInt16> = [
            EventCodes.ABS_PRESSURE, EventCodes.ABS_MT_PRESSURE, EventCodes.ABS_MT_TOUCH_MAJOR,
            EventCodes.ABS_MT_TOUCH_MINOR, EventCodes.ABS_MT_WIDTH_MAJOR, EventCodes.ABS_MT_WIDTH_MINOR,
        ]
        for code in dropped { d.absinfo[code] = nil }
        if d.absinfo[EventCodes.ABS_MT_POSITION_X] == nil, let x = d.absinfo[EventCodes.ABS_X] { d.absinfo[EventCodes.ABS_MT_POSITION_X] = x }
        if d.absinfo[EventCodes.ABS_MT_POSITION_Y] == nil, let y = d.absinfo[EventCodes.ABS_Y] { d.absinfo[EventCodes.ABS_MT_POSITION_Y] = y }
        if d.absinfo[EventCodes.ABS_MT_SLOT] == nil { d.absinfo[EventCodes.ABS_MT_SLOT] = AbsInfo(minimum: 0, maximum: 0) }
        if d.absinfo[EventCodes.ABS_MT_TRACKING_ID] == nil { d.absinfo[EventCodes.ABS_MT_TRACKING_ID] = AbsInfo(minimum: 0, maximum: 65535) }
        var abs = Set(d.codes[EventCodes.EV_ABS] ?? [])
        abs.subtract(dropped)
        abs.formUnion([EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID])
        d.codes[EventCodes.EV_ABS] = abs.sorted()
        return d
    }
}
