// The evdev source honours the udev property libinput calibrates from
// (LIBINPUT_CALIBRATION_MATRIX, docs/calibrate.md): a scripted tap moves as the property says,
// a `[[device]]` calibration replaces it, a rotation composes with it, and a session that does
// not honour it (libinput's, which applied it already) or a value libinput would not read
// leaves the tap where it was.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineLive
import TouchlineSettings

@Suite struct UdevCalibrationTests {
    /// A tap at (20, 20) mm on the 100 × 50 mm scripted screen, whose node has `property`.
    func tap(_ devices: String = "", property: String?, honours: Bool = true) throws -> LogSink {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        var finger = Finger()
        finger.down(at: ms(1000), x: 20, y: 20)
        finger.up(at: ms(1050))
        source.events(0, finger.events)
        let sink = LogSink(clock: source.clock)
        var session = LiveSession(sink: sink, clock: source.clock)
        session.settings.deviceConfiguration = try DaemonConfiguration.parse(bytes: Array(devices.utf8), file: "daemon.toml").devices
        session.settings.honoursUdevCalibration = honours
        session.hooks.udevProperties = { path in
            path == "/dev/input/event5" ? ["ID_INPUT_TOUCHSCREEN": "1"].merging(property.map { [UdevCalibration.property: $0] } ?? [:]) { a, _ in a } : nil
        }
        try session.start(&source)
        try session.run(&source)
        return sink
    }

    @Test func thePropertyMovesATapAsLibinputWould() throws {
        // c = 0.1: a tenth of the 100 mm width to the right.
        expectLog(try tap(property: "1 0 0.1 0 1 0").log, ["1.050000 tap recognized f1 (30.00,20.00) count=1"])
    }

    @Test func aSectionsCalibrationReplacesTheProperty() throws {
        let sink = try tap("[[device]]\nmatch.name = \"*\"\ncalibration = [1, 0, 0, 0, 1, 0.2]\n", property: "1 0 0.1 0 1 0")
        expectLog(sink.log, ["1.050000 tap recognized f1 (20.00,30.00) count=1"])
    }

    @Test func aSectionsRotationComposesWithIt() throws {
        // Normalized (0.2, 0.4), calibrated to (0.3, 0.4), turned 90° to (0.6, 0.3) of 50 × 100 mm.
        let sink = try tap("[[device]]\nmatch.udev = { ID_INPUT_TOUCHSCREEN = \"1\" }\nrotation = 90\n", property: "1 0 0.1 0 1 0")
        expectLog(sink.log, ["1.050000 tap recognized f1 (30.00,30.00) count=1"])
    }

    @Test func libinputsSessionAndAnUnreadableValueLeaveTheTapAlone() throws {
        let unmoved = ["1.050000 tap recognized f1 (20.00,20.00) count=1"]
        expectLog(try tap(property: "1 0 0.1 0 1 0", honours: false).log, unmoved)
        expectLog(try tap(property: "1 0 0,1 0 1 0").log, unmoved)
        expectLog(try tap(property: nil).log, unmoved)
    }

    @Test func theValueIsReadAsLibinputReadsIt() {
        #expect(UdevCalibration.parse("0 -1 1 1 0 0") == [0, -1, 1, 1, 0, 0])
        #expect(UdevCalibration.parse("  1.5   0 -0.25 0 1e-1 0 ignored after six") == [1.5, 0, -0.25, 0, 0.1, 0])
        #expect(UdevCalibration.parse("1 0 0 0 1") == nil)
        #expect(UdevCalibration.parse("1 0 0 0 1 nan") == nil)
        #expect(UdevCalibration.parse("1 0 0 0 1 1e300") == nil)
        #expect(UdevCalibration.parse("1 0 0 0 1 0x") == nil)
        #expect(UdevCalibration.parse("") == nil)
    }
}
