// The evdev backend: libevdev on each node, one EventLoop (epoll, one timerfd, a signalfd).
// Without named nodes: every touchscreen now and the ones plugged in later (an inotify watch on
// /dev/input; udev is not needed), waiting, not exiting, while there is none.
import TouchlineCore
import TouchlineInput

public struct EvdevLiveSource: LiveSource {
    let loop: EventLoop
    let paths: [String]
    let grab: Bool
    let clock: any LiveClock
    /// Open devices by their epoll token (which is also the session's device number).
    var open: [UInt64: EvdevDevice] = [:]
    var nextToken: UInt64 = 0
    let watcher: DeviceDirectoryWatcher?
    static let watcherToken: UInt64 = 1 << 40
    static let serviceToken: UInt64 = 1 << 41
    /// Another descriptor the loop watches (the event socket's), and what to do when it is ready.
    /// Watched descriptors' callbacks (the socket, the actions' runner), by token - serviceToken.
    var services: [() throws -> Void] = []
    /// Devices to pass through once no contact is down on them, those to release once none is,
    /// and the clones made (EvdevLiveSource+PassThrough.swift: the session asks).
    var awaitingGrab: Set<UInt64> = []
    var awaitingRelease: Set<UInt64> = []
    var clones: [UInt64: UInputClone] = [:]

    /// `paths` empty: every touchscreen, with hotplug.
    public init(paths: [String], grab: Bool, clock: any LiveClock = MonotonicClock()) throws {
        loop = try EventLoop()
        self.paths = paths
        self.grab = grab
        self.clock = clock
        watcher = paths.isEmpty ? try DeviceDirectoryWatcher() : nil
        if let watcher { try loop.watch(watcher.fileDescriptor, token: Self.watcherToken) }
    }

    var explicit: Bool { !paths.isEmpty }

    /// Watches `fd` beside the devices (one thread, one wait): `onReadable` runs when it is
    /// ready, between frames. The daemon's event socket is served this way.
    public mutating func watch(_ fd: Int32, onReadable: @escaping () throws -> Void) throws {
        // Each its own token: one shared token would call the last callback for every fd.
        try loop.watch(fd, token: Self.serviceToken + UInt64(services.count))
        services.append(onReadable)
    }

    mutating func add(_ path: String, _ device: EvdevDevice, _ deliver: (SourceEvent) throws -> Void) throws {
        let token = nextToken
        nextToken += 1
        open[token] = device
        try loop.watch(device.fileDescriptor, token: token)
        try deliver(.added(device: Int(token), path: path, description: device.description))
    }

    public mutating func start(_ deliver: (SourceEvent) throws -> Void) throws {
        if explicit {
            for path in paths {
                let device = try EvdevDevice(path: path, grab: grab)
                let verdict = DeviceVerdict(for: device.description)
                if verdict != .used {
                    try deliver(.notice("warning: \(path) (\(device.description.name)) is \(verdict); using it as asked"))
                }
                try add(path, device, deliver)
            }
        } else {
            for path in DeviceDirectory.eventNodes() where DeviceProbe.probe(path: path).verdict.isUsed {
                try add(path, try EvdevDevice(path: path, grab: grab), deliver)
            }
            if open.isEmpty { try deliver(.notice("no touchscreen yet (see `touchline devices`); waiting for one to be plugged in")) }
        }
    }

    public mutating func wait(deadline: Timestamp?, _ deliver: (SourceEvent) throws -> Void) throws -> SourceWake {
        if explicit && open.isEmpty { return .exhausted }
        try loop.setDeadline(deadline)
        switch try loop.wait() {
        case .readable(Self.watcherToken):
            try hotplug(deliver)
        case .readable(let token) where token >= Self.serviceToken:
            let index = Int(token - Self.serviceToken)
            if index < services.count { try services[index]() }
        case .readable(let token):
            try drain(token, deliver)
        case .deadline(let fired):
            // Events already read are processed before a deadline at or after their time fires.
            for token in open.keys.sorted() { try drain(token, deliver) }
            return .deadline(fired)
        case .signal(let signo):
            return signo == 1 ? .hangup : .stop
        }
        return .input
    }

    /// A node that appeared (or whose permissions udev just changed): used when it is a
    /// touchscreen that is not open yet.
    mutating func hotplug(_ deliver: (SourceEvent) throws -> Void) throws {
        guard let watcher else { return }
        for path in Set(try watcher.changedNodes()).sorted() {
            if open.values.contains(where: { $0.path == path }) { continue }
            // A clone of ours is never read (its phys says so too; this holds without it).
            if clones.values.contains(where: { $0.node == path }) { continue }
            guard DeviceProbe.probe(path: path).verdict.isUsed else { continue }
            do {
                try add(path, try EvdevDevice(path: path, grab: grab), deliver)
                try deliver(.notice("using \(path) (hotplug)"))
            } catch let error as SystemError {
                // Gone again, or not yet readable: udev's IN_ATTRIB brings it back.
                try deliver(.notice("\(error)"))
            }
        }
    }

    mutating func drain(_ token: UInt64, _ deliver: (SourceEvent) throws -> Void) throws {
        guard let device = open[token] else { return }
        let id = Int(token)
        var failure: Error?
        let status = try device.readAvailable { event in
            if failure != nil { return }
            do { try deliver(.input(device: id, event)) } catch { failure = error }
        }
        if let failure { throw failure }
        if status == .open && !awaitingGrab.isEmpty { try takeWhenIdle(token, deliver) }
        if status == .open && !awaitingRelease.isEmpty { try releaseWhenIdle(token, deliver) }
        if status == .gone {
            if let notice = Self.dropNotice(device) { try deliver(.notice(notice)) }
            loop.unwatch(device.fileDescriptor)
            open[token] = nil
            try deliver(.removed(device: id, at: clock.now()))
            forgetPassThrough(token)
        }
    }

    /// What the devices still open lost to the kernel's buffer (a removed device's count came
    /// with its removal): said once the reading is over (`record`'s end).
    public var dropNotices: [String] { open.keys.sorted().compactMap { Self.dropNotice(open[$0]!) } }

    static func dropNotice(_ device: EvdevDevice) -> String? {
        guard device.droppedCount > 0 else { return nil }
        return "\(device.path): the kernel dropped events \(device.droppedCount == 1 ? "once" : "\(device.droppedCount) times") (SYN_DROPPED: this reader fell behind); libevdev resynced"
    }
}
