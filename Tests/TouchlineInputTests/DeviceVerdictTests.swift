import Testing
import TouchlineCore
@testable import TouchlineInput

/// Descriptions shaped like the devices `touchline devices` meets (the same facts the shared
/// traces' headers carry), and the verdict each must get.
enum Devices {
    static func touchscreen(pressure: Bool = true) -> DeviceDescription {
        var absinfo: [UInt16: AbsInfo] = [
            EventCodes.ABS_X: AbsInfo(minimum: 0, maximum: 2170, resolution: 10),
            EventCodes.ABS_Y: AbsInfo(minimum: 0, maximum: 1356, resolution: 10),
            EventCodes.ABS_MT_SLOT: AbsInfo(minimum: 0, maximum: 9),
            EventCodes.ABS_MT_POSITION_X: AbsInfo(minimum: 0, maximum: 2170, resolution: 10),
            EventCodes.ABS_MT_POSITION_Y: AbsInfo(minimum: 0, maximum: 1356, resolution: 10),
            EventCodes.ABS_MT_TRACKING_ID: AbsInfo(minimum: 0, maximum: 65535),
            EventCodes.ABS_MT_TOUCH_MAJOR: AbsInfo(minimum: 0, maximum: 255, resolution: 10),
        ]
        if pressure { absinfo[EventCodes.ABS_MT_PRESSURE] = AbsInfo(minimum: 0, maximum: 255) }
        return DeviceDescription(
            name: "Touchline Test Touchscreen", bus: 3, vendor: 0x1234, product: 0x5678, version: 1,
            properties: [EventCodes.INPUT_PROP_DIRECT],
            codes: [
                EventCodes.EV_SYN: [0],
                EventCodes.EV_KEY: [EventCodes.BTN_TOUCH],
                EventCodes.EV_ABS: absinfo.keys.sorted(),
            ],
            absinfo: absinfo)
    }

    static var touchpad: DeviceDescription {
        var d = touchscreen()
        d.name = "Touchline Test Touchpad"
        d.properties = [EventCodes.INPUT_PROP_POINTER, EventCodes.INPUT_PROP_BUTTONPAD]
        d.codes[EventCodes.EV_KEY] = [EventCodes.BTN_LEFT, EventCodes.BTN_TOOL_FINGER, EventCodes.BTN_TOUCH, EventCodes.BTN_TOOL_DOUBLETAP]
        return d
    }

    static var pen: DeviceDescription {
        let absinfo: [UInt16: AbsInfo] = [
            EventCodes.ABS_X: AbsInfo(minimum: 0, maximum: 59674, resolution: 100),
            EventCodes.ABS_Y: AbsInfo(minimum: 0, maximum: 33566, resolution: 100),
            EventCodes.ABS_PRESSURE: AbsInfo(minimum: 0, maximum: 4095),
        ]
        return DeviceDescription(
            name: "Touchline Test Pen", bus: 3, properties: [EventCodes.INPUT_PROP_DIRECT],
            codes: [
                EventCodes.EV_SYN: [0],
                EventCodes.EV_KEY: [EventCodes.BTN_TOOL_PEN, EventCodes.BTN_TOUCH, EventCodes.BTN_STYLUS],
                EventCodes.EV_ABS: absinfo.keys.sorted(),
            ],
            absinfo: absinfo)
    }

    static var keyboard: DeviceDescription {
        DeviceDescription(
            name: "Touchline Test Keyboard", bus: 3,
            codes: [EventCodes.EV_SYN: [0], EventCodes.EV_KEY: Array(1...88)])
    }
}

@Suite struct DeviceVerdictTests {
    @Test func touchscreenIsUsed() {
        #expect(DeviceVerdict(for: Devices.touchscreen()) == .used)
        #expect(DeviceVerdict(for: Devices.touchscreen()).token == "used")
    }

    @Test func touchpadIsNotDirect() {
        let verdict = DeviceVerdict(for: Devices.touchpad)
        #expect(verdict == .notDirect)
        #expect(verdict.description.contains("INPUT_PROP_DIRECT"))
    }

    @Test func penIsNotFingerTouch() {
        #expect(DeviceVerdict(for: Devices.pen) == .pen)
    }

    @Test func keyboardHasNoTouchAxes() {
        let verdict = DeviceVerdict(for: Devices.keyboard)
        #expect(verdict == .noTouchAxes)
        #expect(verdict.token == "no-touch-axes")
    }

    @Test func permissionErrorsAreTheirOwnVerdict() {
        #expect(DeviceVerdict(for: SystemError("open", path: "/dev/input/event3", code: 13)) == .noPermission)
        #expect(DeviceVerdict(for: SystemError("open", path: "/dev/input/event3", code: 1)) == .noPermission)
        let other = DeviceVerdict(for: SystemError("open", path: "/dev/input/event3", code: 19))
        #expect(other.token == "error")
        #expect(other.description.contains("/dev/input/event3"))
    }

    @Test func systemErrorNamesPathOperationAndErrno() {
        let e = SystemError("open", path: "/dev/input/event7", code: 13)
        #expect(e.description == "/dev/input/event7: open failed: Permission denied (errno 13)")
        #expect(e.isPermissionDenied)
        #expect(SystemError("read", path: "/dev/input/event7", code: 19).isDeviceGone)
    }
}

@Suite struct LibinputDescriptionTests {
    /// libinput's touch API carries no pressure and no contact size: the description frames are
    /// assembled against must not promise them.
    @Test func dropsPressureAndSizeAxes() {
        let d = LibinputSource.touchDescription(from: Devices.touchscreen())
        #expect(d.pressureAxis == nil)
        #expect(d.touchMajorAxis == nil)
        #expect(!(d.codes[EventCodes.EV_ABS] ?? []).contains(EventCodes.ABS_MT_PRESSURE))
        #expect(d.absinfo[EventCodes.ABS_MT_POSITION_X] == Devices.touchscreen().absinfo[EventCodes.ABS_MT_POSITION_X])
        #expect(d.slotCount == 10)
    }

    /// A single-touch screen reaches libinput's touch API with slot -1; the events come back
    /// as MT protocol B on slot 0, so the description gains MT axes from ABS_X/Y.
    @Test func singleTouchGainsMultitouchAxes() {
        var single = Devices.touchscreen(pressure: false)
        for code in [EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID, EventCodes.ABS_MT_TOUCH_MAJOR] {
            single.absinfo[code] = nil
        }
        single.codes[EventCodes.EV_ABS] = [EventCodes.ABS_X, EventCodes.ABS_Y]
        let d = LibinputSource.touchDescription(from: single)
        #expect(d.isMultitouch)
        #expect(d.slotCount == 1)
        #expect(d.absinfo[EventCodes.ABS_MT_POSITION_X] == single.absinfo[EventCodes.ABS_X])
        #expect(d.kind == .touchscreen)
    }
}
