// The session's state in parts, each with one owner and one job (issue 32, item 3): what its
// owner configures (`SessionSettings`, `SessionHooks`), what it measures (`SessionLatency`),
// the devices it runs (`DeviceTable`) and what the event socket shares with it
// (`SessionClients`). Nothing re-derives itself when assigned: what follows from a change is
// an explicit call at the place that makes it (`SessionClients.share`).
import TouchlineCore
import TouchlineInput
import TouchlineGestures
import TouchlineSettings

/// What the session runs with, as its owner sets it before `start` (the daemon from its
/// file, `touchline run` from its options); a reload replaces the graph, the device sections
/// and the action targets.
public struct SessionSettings {
    public var graphConfiguration = GraphConfiguration.default
    /// `[[device]]` sections: per-device settings, matched when a device opens (and on reload).
    public var deviceConfiguration = DeviceConfiguration()
    /// The targets the configuration's actions filter on, which no client may register (the
    /// daemon sets them, and a reload).
    public var actionTargets: Set<String> = []
    /// Whether the configuration places registered targets (`[socket] clientZ`, else below its
    /// own targets): the daemon with a configuration file. Without one (false) they keep the z
    /// they ask for, as nothing configured is there to protect.
    public var clientZFromConfiguration = false
    /// Whether a device's udev property LIBINPUT_CALIBRATION_MATRIX calibrates it when no
    /// `[[device]]` section gives a calibration (docs/calibrate.md): the evdev source's
    /// sessions, so that one udev rule serves libinput and Touchline; not libinput's, which has
    /// applied it already.
    public var honoursUdevCalibration = false
    /// The settings applied at start that a reload cannot change (the socket's group, the
    /// uinput device's keys), as they run: a reload says which of them its file would change.
    public var startupSettings: [StartupSetting] = []
    public var explain = false
    /// The configuration's file, for messages.
    public var configPath: String?

    public init() {}
}

/// What the session asks its owner for: it reads no file and no database itself.
public struct SessionHooks {
    /// SIGHUP's new configuration (the daemon reads `--config` again); a thrown error is
    /// reported and the running configuration stays. nil: SIGHUP changes nothing.
    public var reloadConfiguration: (() throws -> DaemonConfiguration)?
    /// Called with the new actions when a reload succeeds (the daemon's ActionRunner).
    public var reloadActions: ((ActionConfiguration) -> Void)?
    /// A device node's udev properties (TouchlineInput's UdevDatabase in production), read only
    /// when a section matches on them.
    public var udevProperties: ((String) -> [String: String]?)?
    /// Parts on the session's clock whose deadlines join its one wait (the daemon's
    /// ActionRunner: action timeouts, group checks, skip counts).
    public var timers: [any SessionTimer] = []

    public init() {}
}

/// A part on the session's clock whose deadline joins the session's one wait: it counts in
/// `LiveSession.nextDeadline`, and `service()` is called once the wait reaches it. The part
/// reads the same clock as the session (a virtual one in tests), so no second timer exists.
public protocol SessionTimer: AnyObject {
    /// The earliest time the part must act, on the session's clock; nil: none. Read on every
    /// wake: kept, not computed.
    var nextDeadline: Timestamp? { get }
    /// Does what is due (never blocks).
    func service()
}

/// What the session measures of its own latency, when asked (`run --latency`, `daemon --measure`).
public struct SessionLatency {
    /// Per SYN_REPORT, the time from its event time to its output written (µs), when asked.
    public var measures = false
    public internal(set) var latencies: [Int64] = []
    /// `daemon --measure`: a frame's first event read to its events written (LatencyProbe.swift).
    public var probe: LatencyProbe?
    /// `--measure` with pass-through: from a frame's first event read to its frame written to the
    /// clone (a held frame's write counts when it is released within its own frame's step;
    /// frames released later by a deadline belong to no frame and are not counted).
    public var passThroughProbe: LatencyProbe?

    public init() {}

    /// An event of a device read: a frame's clock starts at its first event (one clock read
    /// for both probes, only for a frame's first event, none when neither measures: a read per
    /// event would add to what is measured).
    func eventRead() {
        guard probe?.waitsForFrameStart == true || passThroughProbe?.waitsForFrameStart == true else { return }
        let now = MonotonicNanoseconds.now()
        probe?.eventRead(at: now)
        passThroughProbe?.eventRead(at: now)
    }

    func frameRead() {
        probe?.frameRead()
        passThroughProbe?.frameRead()
    }

    /// A frame's output is written; `clock` is read only when latencies are kept.
    mutating func frameDone(since kernelTime: Timestamp, clock: any LiveClock) {
        probe?.frameDone()
        passThroughProbe?.frameDone()
        guard measures else { return }
        latencies.append((clock.now() - kernelTime).microseconds)
    }
}

/// What the session has of the event socket: the targets its clients registered (owned here,
/// merged into the graphs, LiveSession+Clients.swift) and its count of `touchline view` clients.
public struct SessionClients {
    /// Targets clients registered on the event socket; nil: none. The session is their one
    /// writer: it applies the socket's messages (`socket`), and a test's script may register.
    public var targets: ClientTargets?
    /// The event socket whose register and unregister messages the session applies to
    /// `targets` on each wake (EventSocketServer+Registrations.swift).
    public var socket: EventSocketServer?
    /// The event socket's count of `touchline view` clients (docs/view.md): while it is 0 the
    /// frame path sends no frame anywhere; nil (no socket): never.
    public var viewTap: ViewTap?
    /// Per output index, the `targets.generation` its graph was built with.
    var generations: [Int: Int] = [:]
    /// Whether the graphs explain for the viewers alone (the session's own `explain` off).
    var explainsForViewers = false

    public init() {}

    /// Tells the registered targets what a registration is checked against: the configuration's
    /// graph, the names its actions reserve, the z range it grants, and which devices run a
    /// graph of their own (ClientTargets.register). Called where any of those changes: at the
    /// start, when a device opens or ends, on reload; never per frame.
    func share(_ settings: SessionSettings, setups: [Int: LiveSession.DeviceSetup]) {
        guard let targets else { return }
        targets.base = settings.graphConfiguration
        targets.reservedNames = settings.actionTargets
        targets.zRange = settings.clientZFromConfiguration ? settings.deviceConfiguration.clientZ : ClientTargets.anyZ
        targets.deviceGraphs = setups.compactMapValues { $0.settings?.graphConfiguration }
        targets.openDevices = Set(setups.keys)
        targets.sectionGraphs = settings.deviceConfiguration.devices.compactMap { section in
            section.graphConfiguration.map { (section.graph ?? "", $0) }
        }
    }
}

extension LiveSession {
    /// The devices the session runs: by the source's number, and per output index what each
    /// graph was built from and the names it holds; how the next device is numbered.
    struct DeviceTable {
        /// How a device's frames are assembled (a `[[device]] size` adds its own).
        let options: FrameAssembler.Options
        /// Open devices by the source's number.
        var devices: [Int: Device] = [:]
        /// What each device's graph was built from (a registered target rebuilds it from this).
        var setups: [Int: DeviceSetup] = [:]
        /// Per device, the names of the graph it runs, kept while that graph runs: its events
        /// carry them (GestureName). Replaced after the graph is (its last events written), so a
        /// registered name no graph has any more is freed.
        var nameHolds: [Int: InternedString.Hold] = [:]
        var nextIndex = 0
        /// The source's numbers are the output's (LiveSource.numbersDevices).
        var sourceNumbersDevices = false
        /// The source can pass a device through (LiveSource.grabs).
        var sourceGrabs = false

        /// The output index of the device the source numbers `number`: the source's own when
        /// it has the output's (a trace's index: device 1 of a recording is device 1 however
        /// late it sends) and it is free; else the next, in opening order.
        mutating func index(for number: Int, isStarted: (Int) -> Bool) -> Int {
            let index = sourceNumbersDevices && number >= 0 && !isStarted(number) ? number : nextIndex
            nextIndex = max(nextIndex, index) + 1
            return index
        }
    }
}
