// `[[device]]` settings in a live session: a scripted swipe right on a panel mounted at 90° is
// reported as a swipe down, a calibration matrix moves positions, a size overrides the
// resolution's, an ignored device produces nothing, and SIGHUP re-matches open devices and
// hands the new actions on.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineLive

@Suite struct DeviceSettingsTests {
    func session(_ devices: String, sink: LogSink, clock: VirtualClock) throws -> LiveSession {
        var session = LiveSession(sink: sink, clock: clock)
        session.settings.deviceConfiguration = try DaemonConfiguration.parse(bytes: Array(devices.utf8), file: "daemon.toml").devices
        return session
    }

    func run(_ devices: String, _ script: ScriptedSource) throws -> LogSink {
        var source = script
        let sink = LogSink(clock: source.clock)
        var session = try session(devices, sink: sink, clock: source.clock)
        try session.start(&source)
        try session.run(&source)
        return sink
    }

    /// A quick one-finger swipe right along the panel's native x axis, at y = 20 mm.
    func swipeRight() -> ScriptedSource {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        var finger = Finger()
        finger.down(at: ms(1000), x: 20, y: 20)
        for step in 1...6 { finger.move(at: ms(1000 + 12 * Int64(step)), x: 20 + 10 * Double(step), y: 20) }
        finger.up(at: ms(1080))
        source.events(0, finger.events)
        return source
    }

    func tap(at x: Double, _ y: Double) -> ScriptedSource {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        var finger = Finger()
        finger.down(at: ms(1000), x: x, y: y)
        finger.up(at: ms(1050))
        source.events(0, finger.events)
        return source
    }

    @Test func withoutSettingsASwipeRightIsASwipeRight() throws {
        let sink = try run("", swipeRight())
        expectLog(sink.log, [
            "1.012000 pan began f1 (30.00,20.00) d=(10.00,0.00)",
            "1.024000 pan changed f1 (40.00,20.00) d=(20.00,0.00)",
            "1.036000 pan changed f1 (50.00,20.00) d=(30.00,0.00)",
            "1.048000 pan changed f1 (60.00,20.00) d=(40.00,0.00)",
            "1.060000 pan changed f1 (70.00,20.00) d=(50.00,0.00)",
            "1.072000 pan changed f1 (80.00,20.00) d=(60.00,0.00)",
            "1.080000 swipe recognized f1 (80.00,20.00) right d=(60.00,0.00) v=(750,0)",
            "1.080000 pan ended f1 (80.00,20.00) d=(60.00,0.00)",
        ])
    }

    @Test func rotation90TurnsASwipeRightIntoASwipeDown() throws {
        // On the 50 × 100 mm rotated surface, native (x, y) is at (50 - y, x).
        let sink = try run("[[device]]\nmatch.name = \"scripted *\"\nrotation = 90\n", swipeRight())
        expectLog(sink.log, [
            "1.012000 pan began f1 (30.00,30.00) d=(0.00,10.00)",
            "1.024000 pan changed f1 (30.00,40.00) d=(0.00,20.00)",
            "1.036000 pan changed f1 (30.00,50.00) d=(0.00,30.00)",
            "1.048000 pan changed f1 (30.00,60.00) d=(0.00,40.00)",
            "1.060000 pan changed f1 (30.00,70.00) d=(0.00,50.00)",
            "1.072000 pan changed f1 (30.00,80.00) d=(0.00,60.00)",
            "1.080000 swipe recognized f1 (30.00,80.00) down d=(0.00,60.00) v=(0,750)",
            "1.080000 pan ended f1 (30.00,80.00) d=(0.00,60.00)",
        ])
    }

    @Test func rotation270TurnsItIntoASwipeUp() throws {
        let sink = try run("[[device]]\nmatch.path = \"/dev/input/event?\"\nrotation = 270\n", swipeRight())
        #expect(sink.log.contains { $0.hasPrefix("1.080000 swipe recognized f1 (20.00,20.00) up") }, "\(sink.log)")
    }

    @Test func aSectionThatDoesNotMatchChangesNothing() throws {
        let sink = try run("[[device]]\nmatch.name = \"Atmel*\"\nrotation = 90\n[[device]]\nmatch.udev = { ID_INPUT_TOUCHSCREEN = \"1\" }\nrotation = 90\n", swipeRight())
        #expect(sink.log == (try run("", swipeRight())).log)
    }

    @Test func calibrationMovesPositionsInNormalizedCoordinates() throws {
        // c = 0.1: a tenth of the 100 mm width to the right.
        let sink = try run("[[device]]\nmatch.name = \"*\"\ncalibration = [1, 0, 0.1, 0, 1, 0]\n", tap(at: 20, 20))
        expectLog(sink.log, ["1.050000 tap recognized f1 (30.00,20.00) count=1"])
    }

    @Test func sizeOverridesTheResolution() throws {
        // 1000 × 500 units on 200 × 100 mm: the tap at 200, 200 units is at 40, 40 mm.
        let sink = try run("[[device]]\nmatch.name = \"*\"\nsize = [200, 100]\n", tap(at: 20, 20))
        expectLog(sink.log, ["1.050000 tap recognized f1 (40.00,40.00) count=1"])
    }

    @Test func anIgnoredDeviceGivesNothing() throws {
        let sink = try run("[[device]]\nmatch.name = \"scripted screen\"\nignore = true\n", swipeRight())
        #expect(sink.log.isEmpty)
        #expect(sink.warnings == ["/dev/input/event5 (scripted screen): ignored ([[device]] at line 1)"])
    }

    @Test func sighupRematchesOpenDevicesAndReplacesTheActions() throws {
        var source = tap(at: 20, 20)
        source.hangup(at: ms(1100))
        var swipe = Finger(trackingID: 2)
        swipe.down(at: ms(1200), x: 20, y: 20)
        for step in 1...6 { swipe.move(at: ms(1200 + 12 * Int64(step)), x: 20 + 10 * Double(step), y: 20) }
        swipe.up(at: ms(1280))
        source.events(0, swipe.events)
        let sink = LogSink(clock: source.clock)
        var session = try session("", sink: sink, clock: source.clock)
        session.settings.configPath = "daemon.toml"
        let reloaded = """
            [[device]]
            match.name = "scripted screen"
            rotation = 90

            [[action]]
            gesture = "swipe"
            argv = ["true"]
            """
        session.hooks.reloadConfiguration = { try DaemonConfiguration.parse(bytes: Array(reloaded.utf8), file: "daemon.toml") }
        var actions: [ActionSpec] = []
        session.hooks.reloadActions = { actions = $0.actions }
        try session.start(&source)
        try session.run(&source)
        #expect(sink.log.contains { $0.contains("tap recognized") && $0.contains("(20.00,20.00)") }, "\(sink.log)")
        #expect(sink.log.contains { $0.contains("swipe recognized f1 (30.00,80.00) down") }, "\(sink.log)")
        #expect(actions.map(\.gesture) == ["swipe"])
        #expect(sink.warnings == ["reload: daemon.toml: reloaded"])
    }
}
