// Pass-through on the evdev source (docs/live.md#pass-through): the session decides which
// devices are passed through (`[[device]] passthrough = true`, at open and on every reload)
// and asks (`SourceRequest`); the source grabs a device (EVIOCGRAB) and makes its uinput clone
// once no contact is down on it, and hands a clone back once no contact is down. The grab is
// the clone's (UInputClone): taken after it is made, given back before it goes. The kernel
// drops the grab and destroys the clone when their descriptors close, so a daemon that dies
// (even by SIGKILL) leaves the device to its other readers.
import TouchlineCore
import TouchlineInput

extension EvdevLiveSource {
    public var grabs: Bool { true }

    public mutating func request(_ request: SourceRequest, _ deliver: (SourceEvent) throws -> Void) throws {
        switch request {
        case .passThrough(let id):
            let token = UInt64(id)
            guard let device = open[token] else { return }
            if awaitingRelease.remove(token) != nil || clones[token] != nil { return }
            // A clone is never passed through again (a loop of clones), whatever the sections say.
            guard !PassThroughClonePhys.isClone(device.phys) else { return }
            awaitingGrab.insert(token)
            try takeWhenIdle(token, deliver)
        case .release(let id):
            let token = UInt64(id)
            awaitingGrab.remove(token)
            guard clones[token] != nil else { return }
            awaitingRelease.insert(token)
            try releaseWhenIdle(token, deliver)
        case .close(let id):
            let token = UInt64(id)
            guard let device = open[token] else { return }
            forgetPassThrough(token)
            loop.unwatch(device.fileDescriptor)
            open[token] = nil
            try deliver(.removed(device: id, at: clock.now()))
        }
    }

    /// Grabs device `token` and makes its clone when no contact is down on it (a device cannot
    /// be grabbed mid-touch: its reader would never see the lift); else waits for a later read.
    mutating func takeWhenIdle(_ token: UInt64, _ deliver: (SourceEvent) throws -> Void) throws {
        guard awaitingGrab.contains(token), let device = open[token] else { return }
        let clone: UInputClone?
        do {
            clone = try UInputClone.grabbing(device)
        } catch {
            awaitingGrab.remove(token)
            let ids = IdentityCalls.system.ids()
            let user = IdentityCalls.system.userWithID(ids.euid).map { "\($0.name) (uid \(ids.euid))" } ?? "uid \(ids.euid)"
            try deliver(.notice(UInputClone.refusal(path: device.path, name: device.description.name, error: error, user: user)))
            return
        }
        guard let clone else { return }
        awaitingGrab.remove(token)
        clones[token] = clone
        try deliver(.cloned(device: Int(token), clone: clone))
    }

    /// Hands device `token`'s clone back when no contact is down on it: the session closes it
    /// (ungrab, then the clone goes) between two of the device's frames, not mid-touch.
    mutating func releaseWhenIdle(_ token: UInt64, _ deliver: (SourceEvent) throws -> Void) throws {
        guard awaitingRelease.contains(token), let device = open[token], !device.hasContactDown else { return }
        awaitingRelease.remove(token)
        clones[token] = nil
        try deliver(.releasable(device: Int(token)))
    }

    /// Device `token` is gone: forget its clone (the session closed it).
    mutating func forgetPassThrough(_ token: UInt64) {
        awaitingGrab.remove(token)
        awaitingRelease.remove(token)
        clones[token] = nil
    }
}
