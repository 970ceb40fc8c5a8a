// `[[action]]` in the daemon's configuration: what is read, and each mistake's message with
// file:line:column, what was found and what was expected.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineTestSupport

@Suite struct ActionConfigTests {
    func parse(_ text: String) throws(ConfigError) -> DaemonConfiguration {
        try DaemonConfiguration.parse(bytes: Array(text.utf8), file: "daemon.toml")
    }

    func error(_ text: String) -> String { errorMessage { try parse(text) } }

    @Test func aFileWithOnlyActionsKeepsTheDefaultGraph() throws {
        let config = try parse("""
            [actions]
            maxRunning = 3

            [[action]]
            gesture = "swipe"
            direction = "left"
            fingers = 3
            argv = ["wmctrl", "-s", "1"]

            [[action]]
            gesture = "pinch"
            repeat = "50ms"
            timeout = 1000
            target = "surface"
            device = 0
            shell = true
            argv = "pactl set-sink-volume @DEFAULT_SINK@ +1%"
            """)
        #expect(config.graph == GraphConfiguration.default)
        #expect(config.actions.maxRunning == 3)
        #expect(config.actions.actions == [
            ActionSpec(gesture: "swipe", fingers: 3, direction: .left, command: .argv(["wmctrl", "-s", "1"]), line: 4),
            ActionSpec(gesture: "pinch", target: "surface", device: 0, command: .shell("pactl set-sink-volume @DEFAULT_SINK@ +1%"),
                       timeout: Interval(microseconds: 1_000_000), repeatInterval: Interval(microseconds: 50_000), line: 10),
        ])
    }

    @Test func replayStillRefusesActionsAndSaysWhoReadsThem() {
        let text = "[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\n"
        do {
            _ = try GraphConfiguration.parse(toml: text, file: "graph.toml")
            Issue.record("replay's reader accepted [[action]]")
        } catch {
            #expect(error.description == "graph.toml:1:1: [[action]] and [actions] are read by `touchline daemon --config` only; this reader takes [defaults], [[target]] or [[recognizer]]")
        }
    }

    @Test func eachMistakeNamesItsPlace() {
        #expect(error("[[action]]\ngesture = \"tapp\"\nargv = [\"true\"]\n")
            .hasPrefix("daemon.toml:2:11: found \"tapp\" for an action's gesture; expected one of tap, "))
        #expect(error("[[action]]\ngesture = \"tap\"\nargv = \"touch x; rm y\"\n")
            == "daemon.toml:3:8: found \"touch x; rm y\" for an action's argv; expected a non-empty list of strings (program, arguments…), run without a shell; write shell = true to run one string with /bin/sh -c")
        #expect(error("[[action]]\ngesture = \"tap\"\nshell = true\nargv = [\"a\", \"b\"]\n")
            == "daemon.toml:4:8: found an array for an action's argv with shell = true; expected one non-empty string, the command for /bin/sh -c")
        #expect(error("[[action]]\ngesture = \"tap\"\n") == "daemon.toml:1:1: this [[action]] has no command; expected exactly one of argv (a list of strings: the program and its arguments), keys (a key chord) or button (a click)")
        #expect(error("[[action]]\nargv = [\"true\"]\n").hasPrefix("daemon.toml:1:1: this [[action]] has no gesture; gestures: tap, "))
        #expect(error("[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\ntimeout = -5\n")
            == "daemon.toml:4:11: found -5 for an action's timeout; expected a duration from 1 ms to 1 day: milliseconds, or a string with a unit (\"500ms\", \"2s\")")
        #expect(error("[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\nphase = \"won\"\n")
            == "daemon.toml:4:9: found \"won\" for an action's phase; expected one of recognized, began, changed, ended, cancelled")
        #expect(error("[[action]]\ngesture = \"pinch\"\nargv = [\"true\"]\nrepeat = 50\nphase = \"ended\"\n")
            == "daemon.toml:1:1: this [[action]] has repeat and phase = \"ended\"; repeat applies to changed events (leave phase out, or write phase = \"changed\")")
        #expect(error("[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\ncommand = \"x\"\n")
            == "daemon.toml:4:1: unknown action key 'command': tap events have no field 'command'; an action has gesture, phase, target, device, argv, shell, keys, button, timeout and repeat, and filters on the fields of tap events: fingers, x, y, tool, count, duration (a value, or [\"OP\", value] with OP one of ==, !=, <, <=, >, >=, abs>=, abs<=)")
        #expect(error("[actions]\nmaxRunning = 0\n") == "daemon.toml:2:14: found 0 for actions.maxRunning; expected an integer from 1 to 256")
        #expect(error("action = 3\n") == "daemon.toml:1:10: found 3 for action; expected [[action]] sections (an array of tables)")
        // In the daemon's file an unknown section's message lists every section the file may
        // hold (issue 26: it listed only the graph's).
        #expect(error("[[bogus]]\nx = 1\n") == "daemon.toml:1:1: unknown section [[bogus]]; expected [defaults], [[target]], [[recognizer]], [socket], [[device]], [actions] or [[action]]")
        #expect(error("sockets = 1\n") == "daemon.toml:1:1: unknown top-level key 'sockets'; expected 'version' or a [defaults], [[target]], [[recognizer]], [socket], [[device]], [actions] or [[action]] section")
    }

    @Test func inputActionsReadKernelKeyNamesAndAButton() throws {
        let config = try parse("""
            [[action]]
            gesture = "swipe"
            direction = "up"
            fingers = 3
            keys = ["KEY_LEFTMETA", "KEY_S"]

            [[action]]
            gesture = "longPress"
            phase = "began"
            button = "right"

            [[action]]
            gesture = "pan"
            repeat = 100
            keys = ["BTN_MIDDLE"]
            """)
        #expect(config.actions.actions == [
            ActionSpec(gesture: "swipe", fingers: 3, direction: .up, command: .keys([125, 31]), line: 1),
            ActionSpec(gesture: "longPress", phase: .began, command: .button(.right), line: 7),
            ActionSpec(gesture: "pan", command: .keys([0x112]), repeatInterval: Interval(microseconds: 100_000), line: 12),
        ])
        #expect(config.actions.inputActions.count == 3)
        #expect(config.actions.actions.allSatisfy { $0.command.isInput })
    }

    @Test func inputActionMistakesNameTheirPlace() {
        let tap = "[[action]]\ngesture = \"tap\"\n"
        #expect(error(tap + "keys = [\"KEY_LEFTMETA\", \"KEY_SS\"]\n")
            == "daemon.toml:3:25: found \"KEY_SS\" for an action's keys; expected a key name as the kernel spells them (KEY_A, KEY_LEFTMETA, BTN_LEFT…; linux/input-event-codes.h)")
        // A name of another event type is not a key.
        #expect(error(tap + "keys = [\"ABS_X\"]\n").hasPrefix("daemon.toml:3:9: found \"ABS_X\" for an action's keys; expected a key name"))
        #expect(error(tap + "keys = []\n")
            == "daemon.toml:3:8: found an array for an action's keys; expected a non-empty list of at most 8 key names as the kernel spells them, such as [\"KEY_LEFTMETA\", \"KEY_S\"]")
        #expect(error(tap + "keys = \"KEY_A\"\n").hasPrefix("daemon.toml:3:8: found \"KEY_A\" for an action's keys; expected a non-empty list"))
        #expect(error(tap + "keys = [\"KEY_A\", \"KEY_A\"]\n") == "daemon.toml:3:18: found \"KEY_A\" for an action's keys; expected each key once in a chord")
        #expect(error(tap + "button = \"back\"\n") == "daemon.toml:3:10: found \"back\" for an action's button; expected one of \"left\", \"right\", \"middle\"")
        #expect(error(tap + "button = \"right\"\nargv = [\"true\"]\n")
            == "daemon.toml:4:8: this [[action]] has more than one of argv, keys and button; expected exactly one")
        #expect(error(tap + "keys = [\"KEY_A\"]\nbutton = \"left\"\n")
            == "daemon.toml:4:10: this [[action]] has more than one of argv, keys and button; expected exactly one")
        #expect(error(tap + "shell = true\nbutton = \"left\"\n")
            == "daemon.toml:3:9: shell applies to argv; keys and button run in the daemon, not in a shell")
    }

    func edgeSwipe(_ edge: ScreenEdge, fingers: Int = 1) -> GestureEvent {
        GestureEvent(seq: 0, time: Timestamp(microseconds: 1000), device: 0, gesture: EdgeSwipeRecognizer.gesture, phase: .recognized,
                     target: "surface", recognizer: "edgeSwipe", fingers: fingers, position: Point(x: 1, y: 50), contacts: ContactList(),
                     detail: .edgeSwipe(edge: edge, translation: Vector(dx: 20, dy: 0), velocity: Vector(dx: 200, dy: 0)))
    }

    func pinch(scale: Double) -> GestureEvent {
        GestureEvent(seq: 0, time: Timestamp(microseconds: 1000), device: 0, gesture: PinchRecognizer.gesture, phase: .ended,
                     target: "surface", recognizer: "pinch", fingers: 2, position: Point(x: 50, y: 50), contacts: ContactList(),
                     detail: .pinch(scale: scale, velocity: 0, span: 40))
    }

    /// Issue 26: an action filters on any field its gesture's events carry, with a comparison
    /// where it makes sense; the left edge only is `edge = "left"`.
    @Test func actionsFilterOnTheEventsOwnFields() throws {
        let config = try parse("""
            [[action]]
            gesture = "edgeSwipe"
            edge = "left"
            argv = ["menu"]

            [[action]]
            gesture = "pinch"
            scale = ["<=", 0.8]
            fingers = [">=", 2]
            argv = ["zoom-out"]

            [[action]]
            gesture = "tap"
            count = 2
            duration = ["<", 0.2]
            tool = "pen"
            argv = ["pen-double-tap"]
            """)
        let actions = config.actions.actions
        #expect(actions.map { $0.filters.map(\.description) } == [
            ["edge == \"left\""],
            ["fingers >= 2.0", "scale <= 0.8"],
            ["count == 2.0", "duration < 0.2", "tool == \"pen\""],
        ])
        #expect(actions[0].matches(edgeSwipe(.left)))
        #expect(!actions[0].matches(edgeSwipe(.right)))
        #expect(!actions[0].matches(edgeSwipe(.top)))
        #expect(actions[1].matches(pinch(scale: 0.5)))
        #expect(actions[1].matches(pinch(scale: 0.8)))
        #expect(!actions[1].matches(pinch(scale: 1.5)))
        // The same filters in another order are the same action.
        let reordered = try parse("[[action]]\ngesture = \"pinch\"\nfingers = [\">=\", 2]\nscale = [\"<=\", 0.8]\nargv = [\"zoom-out\"]\n")
        #expect(reordered.actions.actions[0].filters == actions[1].filters)
    }

    @Test func aFilterMustNameAFieldOfItsGestureAndAValueItCanTake() {
        #expect(error("[[action]]\ngesture = \"edgeSwipe\"\ndirection = \"left\"\nargv = [\"true\"]\n")
            == "daemon.toml:3:1: unknown action key 'direction': edgeSwipe events have no field 'direction'; an action has gesture, phase, target, device, argv, shell, keys, button, timeout and repeat, and filters on the fields of edgeSwipe events: fingers, x, y, tool, edge, dx, dy, vx, vy (a value, or [\"OP\", value] with OP one of ==, !=, <, <=, >, >=, abs>=, abs<=)")
        // The gesture may come after its filters.
        #expect(error("[[action]]\nedge = \"lef\"\ngesture = \"edgeSwipe\"\nargv = [\"true\"]\n")
            == "daemon.toml:2:8: found \"lef\" for an action's edge; expected one of left, right, top, bottom")
        #expect(error("[[action]]\ngesture = \"pinch\"\nscale = [\"~\", 1]\nargv = [\"true\"]\n")
            .hasPrefix("daemon.toml:3:10: found \"~\" for an action's filter on scale; expected a value (scale = 3, scale = \"left\") or a comparison [\"OP\", value]"))
        #expect(error("[[action]]\ngesture = \"swipe\"\ndirection = [\">\", \"left\"]\nargv = [\"true\"]\n")
            .hasPrefix("daemon.toml:3:14: found \">\" for an action's filter on direction; expected a value"))
    }
    /// Issue 35: an action without `target` fires on the configuration's own targets only; a
    /// tap on a target a client registered ("all", over the whole screen) runs only the action
    /// that says `target = "*"` (on 9b4ee5b both ran: a client chose where the action fired).
    @Test func anActionWithoutTargetFiresOnTheConfigurationsTargetsOnly() throws {
        var config = try parse("""
            [[target]]
            name = "corner"
            rect = [0, 0, 10, 10]

            [[action]]
            gesture = "tap"
            argv = ["mine"]

            [[action]]
            gesture = "tap"
            target = "*"
            argv = ["anywhere"]
            """)
        try config.resolveActionTargets(file: "daemon.toml")
        func tap(on target: GestureName) -> GestureEvent {
            GestureEvent(seq: 0, time: Timestamp(microseconds: 1000), device: 0, gesture: TapRecognizer.gesture, phase: .recognized,
                         target: target, recognizer: "tap", fingers: 1, position: Point(x: 5, y: 5), contacts: ContactList(),
                         detail: .tap(count: 1, duration: .milliseconds(80)))
        }
        func run(_ event: GestureEvent) -> [ActionSpec.Command] {
            config.actions.actions.filter { config.actions.runs($0, for: event) }.map(\.command)
        }
        #expect(config.actions.ownTargets == ["corner"])
        #expect(run(tap(on: "corner")) == [.argv(["mine"]), .argv(["anywhere"])])
        #expect(run(tap(on: "all")) == [.argv(["anywhere"])])
        // "*" names no target: no client is kept from registering it, and no file may declare it.
        #expect(config.actions.targets.isEmpty)
        #expect(error("[[target]]\nname = \"*\"\nrect = [0, 0, 1, 1]\n")
            == "daemon.toml:2:8: found \"*\" for a target's name; expected a name other than \"*\" (an action's word for any target)")
    }
    /// Issue 35: a filter no event can pass is refused at its value, with file:line:column (on
    /// 9b4ee5b each passed `--check-config` and the action never fired; `"200ms"` was blamed on
    /// its operator). The phases come from the kind's own declaration (`GestureRecognizer.phases`).
    @Test func aFilterNoEventCanPassIsRefusedAtItsValue() {
        func error(_ line: String, gesture: String = "tap") -> String {
            self.error("[[action]]\ngesture = \"\(gesture)\"\n\(line)\nargv = [\"true\"]\n")
        }
        let count = "expected a whole number from 1 to \(GraphConfiguration.Limits.mostFingers), as tap events' fingers is"
        #expect(error(#"fingers = "1""#) == #"daemon.toml:3:11: found "1" for an action's filter on fingers; expected a number without quotes: tap events write fingers as a number (what `touchline listen` prints)"#)
        #expect(error("fingers = 0") == "daemon.toml:3:11: found 0 for an action's filter on fingers; " + count)
        #expect(error("fingers = -3") == "daemon.toml:3:11: found -3 for an action's filter on fingers; " + count)
        #expect(error("fingers = 2.5") == "daemon.toml:3:11: found 2.5 for an action's filter on fingers; " + count)
        #expect(error(#"fingers = [">=", 0.5]"#) == "daemon.toml:3:18: found 0.5 for an action's filter on fingers; " + count)
        #expect(error("count = 1e300") == "daemon.toml:3:9: found 1e300 for an action's filter on count; expected a whole number from 1 to 2147483647, as tap events' count is")
        #expect(error(#"duration = ["<", "200ms"]"#) == #"daemon.toml:3:18: found "200ms" for an action's filter on duration; expected a number without quotes: tap events write duration as a number of seconds (0.2 for 200 ms) (what `touchline listen` prints)"#)
        #expect(error("direction = 3", gesture: "swipe") == "daemon.toml:3:13: found 3 for an action's filter on direction; expected a word in quotes: swipe events write direction as a word (one of left, right, up, down)")
        #expect(error(#"phase = "began""#) == #"daemon.toml:3:9: found "began" for an action's phase on tap; expected one of the phases tap events have: recognized"#)
        #expect(error(#"phase = "changed""#, gesture: "spring") == #"daemon.toml:3:9: found "changed" for an action's phase on spring; expected one of the phases spring events have: began, ended, cancelled"#)
        #expect(error("repeat = 100") == "daemon.toml:3:10: repeat applies to changed events, and tap events have none (their phases: recognized); leave repeat out")
        // What events do carry still passes.
        #expect(error(#"fingers = [">=", 2]"#) == "no error")
        #expect(error(#"count = 2"#) == "no error")
        #expect(error(#"duration = ["<", 0.2]"#) == "no error")
        #expect(error(#"phase = "began""#, gesture: "longPress") == "no error")
    }
}
