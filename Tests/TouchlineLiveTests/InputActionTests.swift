// Input actions (`keys`, `button`) on the host: the device the daemon would create and the
// events each action writes, through the real ActionRunner into a recorder that keeps every
// write(2)'s frame. The kernel's side (a real uinput device, read back) is scripts/vm/e2e.sh's.
import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineInput
import TouchlineLive

/// Keeps each frame as it would have gone to write(2), one entry per write.
final class FrameRecorder: InputEventWriter {
    var writes: [[InputEvent]] = []
    func write(_ events: [InputEvent]) throws(SystemError) { writes.append(events) }

    /// The frames as "TYPE CODE VALUE" lines, a "--" line after each SYN_REPORT.
    var lines: [String] {
        writes.flatMap { frame in
            frame.map { e in
                e.type == E.EV_SYN ? "--" : "\(EventCodes.codeName(type: e.type, code: e.code) ?? "?") \(e.value)"
            }
        }
    }
}

func inputRunner(_ toml: String) throws -> (ActionRunner, FrameRecorder, WarningBox) {
    let configuration = try DaemonConfiguration.parse(bytes: Array(toml.utf8), file: "daemon.toml")
    let recorder = FrameRecorder()
    let box = WarningBox()
    let runner = try ActionRunner(configuration.actions, input: recorder, warn: { box.lines.append($0) }, clock: VirtualClock())
    return (runner, recorder, box)
}

func swipe(_ direction: SwipeDirection, _ phase: GesturePhase = .recognized, fingers: Int = 3) -> GestureEvent {
    GestureEvent(
        seq: 0, time: ms(100), device: 0, gesture: SwipeRecognizer.gesture, phase: phase, target: "surface",
        recognizer: "swipe", fingers: fingers, position: Point(x: 50, y: 25), contacts: ContactList(),
        detail: .swipe(direction: direction, translation: Vector(dx: 0, dy: -40), velocity: Vector(dx: 0, dy: -300), duration: .milliseconds(120)))
}

@Suite struct InputActionTests {
    @Test func aKeyChordIsPressedInOrderAndReleasedInReverseOneFrameEach() throws {
        let (runner, recorder, box) = try inputRunner("""
            [[action]]
            gesture = "swipe"
            direction = "up"
            fingers = 3
            keys = ["KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_T"]
            """)
        // Another direction, then too few fingers: the filters hold for input actions too.
        runner.handle(swipe(.down))
        runner.handle(swipe(.up, fingers: 2))
        #expect(recorder.writes.isEmpty)
        runner.handle(swipe(.up))
        #expect(recorder.lines == [
            "KEY_LEFTCTRL 1", "--", "KEY_LEFTALT 1", "--", "KEY_T 1", "--",
            "KEY_T 0", "--", "KEY_LEFTALT 0", "--", "KEY_LEFTCTRL 0", "--",
        ])
        // Each frame in its own write, ending with its SYN_REPORT.
        #expect(recorder.writes.count == 6)
        #expect(recorder.writes.allSatisfy { $0.count == 2 && $0.last?.type == E.EV_SYN })
        // In-process: no child, nothing running.
        #expect(runner.running == 0)
        #expect(runner.started == 1)
        #expect(box.lines.isEmpty)
    }

    @Test func aClickMovesThePointerToTheGesturesPositionThenPressesAndReleases() throws {
        let (runner, recorder, _) = try inputRunner("""
            [[action]]
            gesture = "longPress"
            phase = "began"
            button = "right"
            """)
        runner.deviceOpened(0, surface: Size(width: 200, height: 100))
        let press = GestureEvent(
            seq: 0, time: ms(500), device: 0, gesture: LongPressRecognizer.gesture, phase: .began, target: "surface",
            recognizer: "longPress", fingers: 1, position: Point(x: 150, y: 25), contacts: ContactList(),
            detail: .longPress(duration: .milliseconds(500)))
        var ended = press
        ended.phase = .ended
        runner.handle(ended)
        #expect(recorder.writes.isEmpty)
        runner.handle(press)
        // 150/200 and 25/100 of the pointer's range, 0...32767.
        #expect(recorder.lines == ["ABS_X 24575", "ABS_Y 8192", "--", "BTN_RIGHT 1", "--", "BTN_RIGHT 0", "--"])
        // On a device the runner has not heard of, the pointer's middle rather than a guess.
        recorder.writes = []
        var elsewhere = press
        elsewhere.device = 3
        runner.handle(elsewhere)
        #expect(recorder.lines.prefix(2) == ["ABS_X 16383", "ABS_Y 16383"])
    }

    @Test func aRepeatedInputActionIsRateLimitedByEventTime() throws {
        let (runner, recorder, _) = try inputRunner("""
            [[action]]
            gesture = "pan"
            repeat = 100
            keys = ["KEY_VOLUMEUP"]
            """)
        for t in stride(from: Int64(0), through: 350, by: 50) {
            let event = GestureEvent(
                seq: 0, time: ms(t), device: 0, gesture: PanRecognizer.gesture, phase: .changed, target: "surface",
                recognizer: "pan", fingers: 2, position: Point(x: 10, y: 10), contacts: ContactList(),
                detail: .pan(translation: Vector(dx: 0, dy: Double(t) / 10), velocity: Vector(dx: 0, dy: 100)))
            runner.handle(event)
        }
        // At 0, 100, 200 and 300 ms: four chords of one key, two frames each.
        #expect(recorder.writes.count == 8)
        #expect(runner.started == 4)
    }

    @Test func theDeviceIsAPointerAndKeysNotATouchscreen() throws {
        let keysOnly = try DaemonConfiguration.parse(bytes: Array("""
            [[action]]
            gesture = "tap"
            keys = ["KEY_LEFTMETA", "KEY_S"]
            """.utf8), file: "daemon.toml").actions
        let keyboard = try #require(InputActions.description(for: keysOnly))
        #expect(keyboard.codes == [E.EV_KEY: [31, 125]])
        #expect(keyboard.absinfo.isEmpty)

        let both = try DaemonConfiguration.parse(bytes: Array("""
            [[action]]
            gesture = "tap"
            keys = ["KEY_A"]

            [[action]]
            gesture = "longPress"
            button = "right"
            """.utf8), file: "daemon.toml").actions
        let pointer = try #require(InputActions.description(for: both))
        #expect(pointer.codes[E.EV_KEY] == [30, 0x110, 0x111, 0x112])
        #expect(pointer.codes[E.EV_ABS] == [E.ABS_X, E.ABS_Y])
        #expect(pointer.absinfo[E.ABS_X] == AbsInfo(minimum: 0, maximum: 32767))
        // No INPUT_PROP_DIRECT and no BTN_TOUCH: the desktop sees a mouse (an absolute one) and
        // the daemon's own source does not take it for a touchscreen.
        #expect(pointer.properties.isEmpty)
        #expect(pointer.kind != .touchscreen)
        #expect(!pointer.has(type: E.EV_KEY, code: E.BTN_TOUCH))

        // Argv actions alone: no device at all.
        let argvOnly = try DaemonConfiguration.parse(bytes: Array("[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\n".utf8), file: "daemon.toml").actions
        #expect(InputActions.description(for: argvOnly) == nil)
    }

    /// The bytes a chord and a click become: written through TouchlineInput's frame writer (the
    /// one UInputDevice uses) into a file and read back as kernel `input_event`s (x86_64 / arm64:
    /// 16 bytes of time, then type, code, value), so the encoding is checked without a kernel.
    @Test func theFramesWrittenAreKernelInputEventsInOrder() throws {
        let dir = try SocketDirectory()
        let path = dir.path + "/events"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let injector = try EvdevInjector(path: path)
        let frames = InputActions.chord([125, 31])
            + InputActions.click(.right, at: Point(x: 50, y: 75), surface: Size(width: 100, height: 100))
        for frame in frames { try injector.write(frame) }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count == 15 * 24)
        func field<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            (0..<MemoryLayout<T>.size).reduce(T.zero) { $0 | T(truncatingIfNeeded: bytes[offset + $1]) << (8 * $1) }
        }
        let read = stride(from: 0, to: bytes.count, by: 24).map { at in
            "\(field(at + 16, UInt16.self)) \(field(at + 18, UInt16.self)) \(field(at + 20, Int32.self))"
        }
        #expect(read == [
            "1 125 1", "0 0 0", "1 31 1", "0 0 0", "1 31 0", "0 0 0", "1 125 0", "0 0 0",
            "3 0 16384", "3 1 24575", "0 0 0", "1 273 1", "0 0 0", "1 273 0", "0 0 0",
        ])
    }
    /// Issue 35: the daemon's exit 73 names the fix for what went wrong (on 9b4ee5b: "give the
    /// daemon write access to /dev/uinput", and the docs stopped there): without permission,
    /// the opt-in rule and its risk (PackagingTests checks that install.sh puts it in place,
    /// inactive); without the node, the module.
    @Test func anUnusableUinputNamesItsFix() {
        let denied = InputActions.fix(for: SystemError("create uinput device", path: "/dev/uinput", code: EACCES))
        #expect(denied == "this user may not write /dev/uinput. The system service (touchline.service) opens it as root before it drops; for the daemon in a desktop session, enable the opt-in udev rule installed beside 70-touchline.rules: copy 70-touchline-uinput.rules.disabled to /etc/udev/rules.d/70-touchline-uinput.rules and restart the machine (any program of the seat's user can then inject input: docs/live.md#input-actions). --dry-run prints the actions instead")
        #expect(InputActions.fix(for: SystemError("create uinput device", path: "/dev/uinput", code: ENOENT))
            == "load the uinput module (sudo modprobe uinput; docs/live.md#input-actions). --dry-run prints the actions instead")
    }
}
