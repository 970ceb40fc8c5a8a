// What the log says when a touchscreen gets no pass-through clone (issue 35): which device, that
// it is not grabbed either, the system's error and the fix for that error. The kernel's side (a
// touchscreen plugged in after the system service's drop, cloned; the same with /dev/uinput
// root's, not grabbed, this line in the journal) is scripts/vm/systemd-checks.sh's, K2.
import Glibc
import Testing
import TouchlineInput
import TouchlineLive

@Suite struct PassThroughRefusalTests {
    /// The system service, dropped to touchline, on a machine where /dev/uinput is still root's:
    /// the rule that gives it to touchline, how to apply it now, and the user unit's rule.
    @Test func aDeniedCloneNamesTheDeviceTheUserAndTheRule() {
        let line = UInputClone.refusal(path: "/dev/input/event7", name: "Atmel maXTouch", error: SystemError("create uinput device", path: "/dev/uinput", code: EACCES), user: "touchline (uid 998)")
        #expect(line == "/dev/input/event7 (Atmel maXTouch): no pass-through clone, so not grabbed (every program reads it as before, consumed gestures included): "
            + "/dev/uinput: create uinput device failed: Permission denied (errno 13); the daemon runs as touchline (uid 998), who may not write /dev/uinput: "
            + "the packaged udev rule 70-touchline.rules makes the user touchline its owner (`ls -l /dev/uinput`; if it is still root's, "
            + "`sudo udevadm trigger --action=change /dev/uinput`, or restart the machine); a daemon in a desktop session needs the opt-in rule "
            + "70-touchline-uinput.rules.disabled (docs/live.md#pass-through); then replug the device")
    }

    /// No uinput at all: the module, not a permission.
    @Test func aMissingUinputNamesTheModule() {
        let line = UInputClone.refusal(path: "/dev/input/event7", name: "Atmel maXTouch", error: SystemError("create uinput device", path: "/dev/uinput", code: ENOENT), user: "root (uid 0)")
        #expect(line == "/dev/input/event7 (Atmel maXTouch): no pass-through clone, so not grabbed (every program reads it as before, consumed gestures included): "
            + "/dev/uinput: create uinput device failed: No such file or directory (errno 2); load the uinput module (sudo modprobe uinput), then replug the device (docs/live.md#pass-through)")
    }
}
