// Pass-through on the evdev source (docs/live.md#pass-through): a device the daemon's
// `[[device]] passthrough = true` names is grabbed (EVIOCGRAB) once no contact is down on it,
// and a uinput clone of it is made; the session then writes the clone. The kernel drops the
// grab and destroys the clone when their descriptors close, so a daemon that dies (even by
// SIGKILL) leaves the device to its other readers.
import TouchlineCore
import TouchlineInput

extension EvdevLiveSource {
    /// Device `token` was opened: pass it through if asked, now or once idle.
    mutating func passThroughIfAsked(_ token: UInt64, path: String, _ device: EvdevDevice, _ deliver: (SourceEvent) throws -> Void) throws {
        // A clone is never passed through again (a loop of clones), whatever the sections say.
        guard let passThrough, !PassThroughClonePhys.isClone(device.phys), passThrough(path, device.description) else { return }
        awaitingGrab.insert(token)
        try takeWhenIdle(token, deliver)
    }

    /// Grabs device `token` and makes its clone when no contact is down on it (a device cannot
    /// be grabbed mid-touch: its reader would never see the lift); else waits for a later read.
    mutating func takeWhenIdle(_ token: UInt64, _ deliver: (SourceEvent) throws -> Void) throws {
        guard awaitingGrab.contains(token), let device = open[token] else { return }
        do {
            guard try device.grabWhenIdle() else { return }
        } catch {
            awaitingGrab.remove(token)
            try deliver(.notice("\(device.path): not passed through, the device stays as it is: \(error)"))
            return
        }
        awaitingGrab.remove(token)
        do {
            let clone = try UInputClone(cloning: device.description, of: device.path)
            clones[token] = clone
            try deliver(.cloned(device: Int(token), clone: clone))
        } catch let error as SystemError {
            device.ungrab()
            try deliver(.notice("\(device.path): not passed through, the device stays as it is: \(error) (load the uinput module, and give the daemon write access to /dev/uinput)"))
        }
    }

    /// Device `token` is gone: forget its clone (the session closed it).
    mutating func forgetPassThrough(_ token: UInt64) {
        awaitingGrab.remove(token)
        clones[token] = nil
    }
}
