// The libinput backend: one libinput context (the udev seat, with hotplug, or the named
// nodes), its descriptor and, for the path backend, a uevent monitor on one EventLoop.
import TouchlineCore
import TouchlineInput

public struct LibinputLiveSource: LiveSource {
    let loop: EventLoop
    let source: LibinputSource
    let paths: [String]
    /// Devices added and not removed (libinput's ids).
    var live: Set<Int> = []
    var sawDevice = false
    /// Reused between dispatches: no allocation per wake.
    var batch: [LibinputSource.Event] = []
    /// Other descriptors the loop watches (the daemon's socket, its actions' runner), each
    /// with its own token from `serviceToken` on.
    static let serviceToken: UInt64 = 2
    var services: [() throws -> Void] = []

    /// `paths` empty: the udev `seat`, with hotplug.
    public init(paths: [String], seat: String) throws {
        loop = try EventLoop()
        source = paths.isEmpty ? try LibinputSource(seat: seat) : try LibinputSource(paths: paths)
        self.paths = paths
        try loop.watch(source.fileDescriptor, token: 0)
        if source.monitorDescriptor >= 0 { try loop.watch(source.monitorDescriptor, token: 1) }
    }

    /// Watches `fd` beside libinput's descriptor (one thread, one wait): `onReadable` runs when
    /// it is ready, between frames (as EvdevLiveSource.watch).
    public mutating func watch(_ fd: Int32, onReadable: @escaping () throws -> Void) throws {
        try loop.watch(fd, token: Self.serviceToken + UInt64(services.count))
        services.append(onReadable)
    }

    mutating func pump(_ deliver: (SourceEvent) throws -> Void) throws {
        batch.removeAll(keepingCapacity: true)
        try source.dispatch { batch.append($0) }
        for event in batch {
            switch event {
            case .added(let id, let path, let description):
                sawDevice = true
                live.insert(id)
                try deliver(.added(device: id, path: path, description: description))
                try deliver(.notice("using \(path) (\(description.name)) through libinput"))
            case .removed(let id, let time):
                if live.remove(id) != nil { try deliver(.removed(device: id, at: time)) }
            case .input(let id, let event):
                try deliver(.input(device: id, event))
            }
        }
    }

    public mutating func start(_ deliver: (SourceEvent) throws -> Void) throws {
        try pump(deliver)
        if !paths.isEmpty && live.isEmpty {
            throw LiveError(.noInput, "libinput found no touch device in \(paths.joined(separator: " "))")
        }
    }

    public mutating func wait(deadline: Timestamp?, _ deliver: (SourceEvent) throws -> Void) throws -> SourceWake {
        // Explicit devices: the run ends with the last of them. The seat: it waits for hotplug.
        if !paths.isEmpty && sawDevice && live.isEmpty { return .exhausted }
        try loop.setDeadline(deadline)
        switch try loop.wait() {
        case .readable(let token) where token >= Self.serviceToken:
            if token - Self.serviceToken < UInt64(services.count) { try services[Int(token - Self.serviceToken)]() }
            return .input
        case .readable:
            try pump(deliver)
            return .input
        case .deadline(let fired):
            try pump(deliver)
            return .deadline(fired)
        case .signal(let signo):
            return signo == 1 ? .hangup : .stop
        }
    }
}
