// `[[device]]` and `[socket]` in the daemon's configuration: every key as read, the match rules
// (globs, udev properties, first section wins), the transform's arithmetic, and each mistake's
// message with file:line:column, what was found and what was expected.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTestSupport

@Suite struct DeviceConfigTests {
    func parse(_ text: String) throws(ConfigError) -> DaemonConfiguration {
        try DaemonConfiguration.parse(bytes: Array(text.utf8), file: "daemon.toml")
    }

    func error(_ text: String) -> String { errorMessage { try parse(text) } }

    @Test func everyKeyIsRead() throws {
        let config = try parse("""
            [socket]
            group = "input"

            [[device]]
            match.name = "Atmel maXTouch*"
            match.path = "/dev/input/event*"
            match.udev = { ID_INPUT_TOUCHSCREEN = "1", ID_BUS = "i2c" }
            rotation = 90
            calibration = [1.0, 0, 0.02, 0.0, 0.98, 0]
            size = [344.0, 194]
            graph = "kiosk.toml"

            [[device]]
            match.name = "*pen*"
            ignore = true
            """)
        #expect(config.graph == GraphConfiguration.default)
        #expect(config.devices.socketGroup == "input")
        #expect(config.devices.devices == [
            DeviceSpec(name: "Atmel maXTouch*", path: "/dev/input/event*", udev: ["ID_INPUT_TOUCHSCREEN": "1", "ID_BUS": "i2c"],
                       rotation: .quarter, calibration: [1, 0, 0.02, 0, 0.98, 0], size: Size(width: 344, height: 194),
                       graph: "kiosk.toml", line: 4),
            DeviceSpec(name: "*pen*", ignore: true, line: 13),
        ])
        #expect(config.devices.needsUdev)
    }

    @Test func theFirstSectionThatMatchesApplies() throws {
        let config = try parse("""
            [[device]]
            match.udev = { ID_INPUT_TOUCHSCREEN = "1" }
            rotation = 180
            [[device]]
            match.name = "Atmel?maXTouch*"
            match.path = "/dev/input/event1*"
            rotation = 90
            [[device]]
            match.name = "*"
            rotation = 270
            """).devices
        let atmel = "Atmel maXTouch Touchscreen"
        #expect(config.settings(name: atmel, path: "/dev/input/event12", udev: nil)?.rotation == .quarter)
        #expect(config.settings(name: atmel, path: "/dev/input/event12", udev: ["ID_INPUT_TOUCHSCREEN": "1"])?.rotation == .half)
        #expect(config.settings(name: atmel, path: "/dev/input/event2", udev: ["ID_INPUT_TOUCHSCREEN": "0"])?.rotation == .threeQuarters)
        #expect(try parse("").devices.settings(name: atmel, path: "/dev/input/event2", udev: nil) == nil)
    }

    @Test func globs() {
        #expect(Glob.matches("*", ""))
        #expect(Glob.matches("a*b*c", "aXXbYbc"))
        #expect(Glob.matches("event?", "event5"))
        #expect(!Glob.matches("event?", "event12"))
        #expect(!Glob.matches("a*b", "aXXbc"))
        #expect(Glob.matches("*.*", "x.y"))
        #expect(!Glob.matches("Atmel", "Atmel maXTouch"))
    }

    @Test func theTransformTurnsClockwiseAfterTheCalibration() throws {
        #expect(DeviceTransform(rotation: .none, calibration: nil) == nil)
        #expect(DeviceTransform(rotation: .none, calibration: [1, 0, 0, 0, 1, 0]) == nil)
        let native = Size(width: 100, height: 50)
        func turned(_ rotation: Rotation, _ calibration: [Double]? = nil, _ x: Double, _ y: Double) throws -> Point {
            let transform = try #require(DeviceTransform(rotation: rotation, calibration: calibration))
            let surface = transform.surface(native)
            let frame = TouchFrame(time: .zero, contacts: [
                Contact(id: ContactID(1), phase: .began, position: Point(x: x * 100, y: y * 50), normalized: Point(x: x, y: y)),
            ])
            var out = TouchFrame(time: .zero)
            transform.apply(frame, surface: surface, into: &out)
            return out.contacts[0].position
        }
        // Native (x, y) mm on 100 × 50: 90 → (50 - y, x) on 50 × 100; 180 → (100 - x, 50 - y); 270 → (y, 100 - x).
        #expect(try turned(.quarter, nil, 0.2, 0.4) == Point(x: 30, y: 20))
        #expect(try turned(.half, nil, 0.2, 0.4) == Point(x: 80, y: 30))
        #expect(try turned(.threeQuarters, nil, 0.2, 0.4) == Point(x: 20, y: 80))
        // libinput's matrix on normalized coordinates: swap the axes, then turn.
        #expect(try turned(.none, [0, 1, 0, 1, 0, 0], 0.2, 0.4) == Point(x: 40, y: 10))
        #expect(try turned(.quarter, [0, 1, 0, 1, 0, 0], 0.2, 0.4) == Point(x: 40, y: 40))
    }

    @Test func eachMistakeNamesItsPlace() {
        #expect(error("[[device]]\nmatch.name = \"*\"\nrotation = 45\n")
            == "daemon.toml:3:12: found 45 for a device's rotation; expected 0, 90, 180 or 270 (degrees clockwise)")
        #expect(error("[[device]]\nmatch.name = \"*\"\nrotation = \"90\"\n")
            == "daemon.toml:3:12: found \"90\" for a device's rotation; expected 0, 90, 180 or 270 (degrees clockwise)")
        #expect(error("[[device]]\nmatch.name = \"*\"\ncalibration = [1, 0, 0, 0, 1]\n")
            == "daemon.toml:3:15: found an array for a device's calibration; expected six numbers, libinput's calibration matrix [a, b, c, d, e, f]")
        #expect(error("[[device]]\nmatch.name = \"*\"\ncalibration = [1, 0, \"x\", 0, 1, 0]\n")
            == "daemon.toml:3:22: found \"x\" for a device's calibration; expected six numbers, libinput's calibration matrix [a, b, c, d, e, f]")
        #expect(error("[[device]]\nmatch.name = \"*\"\nsize = [0, 100]\n")
            == "daemon.toml:3:8: found an array for a device's size; expected [width, height] in mm, each from 1 to 10000")
        #expect(error("[[device]]\nmatch.name = \"*\"\ngraph = \"\"\n")
            == "daemon.toml:3:9: found \"\" for a device's graph; expected a graph file's path (relative to this configuration)")
        #expect(error("[[device]]\nmatch.name = \"*\"\nignore = 1\n") == "daemon.toml:3:10: found 1 for a device's ignore; expected true or false")
        #expect(error("[[device]]\nmatch.name = \"*\"\nrotate = 90\n")
            == "daemon.toml:3:1: unknown device key 'rotate'; a device has match.name, match.path, match.udev, rotation, calibration, size, graph, ignore and passthrough")
        #expect(error("[[device]]\nmatch.model = \"*\"\n") == "daemon.toml:2:7: unknown match key 'model'; expected name, path or udev")
        #expect(error("[[device]]\nmatch.name = 3\n") == "daemon.toml:2:14: found 3 for match.name; expected a glob on the device's name (* and ?)")
        #expect(error("[[device]]\nmatch.udev = { ID_INPUT = true }\n")
            == "daemon.toml:2:27: found true for match.udev.ID_INPUT; expected a string (udev properties are text)")
        #expect(error("[[device]]\nmatch.udev = \"ID_INPUT=1\"\n")
            == "daemon.toml:2:14: found \"ID_INPUT=1\" for match.udev; expected a table of udev properties, as { ID_INPUT_TOUCHSCREEN = \"1\" }")
        #expect(error("[[device]]\nrotation = 90\n")
            == "daemon.toml:1:1: this [[device]] has no match; write match.name, match.path or match.udev (match.name = \"*\" for every device)")
        #expect(error("device = 1\n") == "daemon.toml:1:10: found 1 for device; expected [[device]] sections (an array of tables)")
        #expect(error("[socket]\ngroup = 0\n") == "daemon.toml:2:9: found 0 for socket.group; expected a group name or number")
        #expect(error("[socket]\nmode = \"0666\"\n") == "daemon.toml:2:1: unknown [socket] key 'mode'; expected group or clientZ")
    }
}

@Suite struct ReplayDeviceConfigTests {
    /// `replay --config` reads a daemon's file whole (issue 26: previewing the daemon's graph
    /// needed a second file): the graph and [[device]] apply; [[action]], [actions] and
    /// [socket] are checked as the daemon checks them and named as left out.
    @Test func replayReadsADaemonsFileAndNamesWhatItLeavesOut() throws {
        let (graph, devices, leftOut) = try DeviceConfiguration.parseForReplay(bytes: Array("[[device]]\nmatch.name = \"*\"\nrotation = 180\n".utf8), file: "r.toml")
        #expect(graph == GraphConfiguration.default)
        #expect(devices.devices == [DeviceSpec(name: "*", rotation: .half, line: 1)])
        #expect(leftOut.isEmpty)
        let daemon = try DeviceConfiguration.parseForReplay(bytes: Array("[socket]\ngroup = \"input\"\n\n[actions]\nmaxRunning = 2\n\n[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\n".utf8), file: "r.toml")
        #expect(daemon.graph == GraphConfiguration.default)
        #expect(daemon.leftOut == ["[[action]]", "[actions]", "[socket]"])
        // Checked as the daemon checks it: a broken action is the daemon's error, with its line.
        do {
            _ = try DeviceConfiguration.parseForReplay(bytes: Array("[[action]]\ngesture = \"tap\"\n".utf8), file: "r.toml")
            Issue.record("an action without a command was taken")
        } catch {
            #expect(error.description.hasPrefix("r.toml:1:1: this [[action]] has no command"))
        }
    }

    @Test func theGraphReaderRefusesDeviceSectionsAndSaysWhoReadsThem() {
        do {
            _ = try GraphConfiguration.parse(toml: "[[device]]\nmatch.name = \"*\"\nrotation = 90\n", file: "graph.toml")
            Issue.record("replay's reader accepted [[device]]")
        } catch {
            #expect(error.description == "graph.toml:1:1: [[device]] and [socket] are read by `touchline daemon --config` only; this reader takes [defaults], [[target]] or [[recognizer]]")
        }
    }
}
