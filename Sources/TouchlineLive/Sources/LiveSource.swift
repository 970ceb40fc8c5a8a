// Where a live session's input comes from. Production: evdev nodes (EvdevLiveSource) or a
// libinput context (LibinputLiveSource), each waiting on one EventLoop. Tests and embedders:
// a script of events with their own timestamps (ScriptedSource) on a virtual clock, so that a
// whole session, deadlines included, runs on the host without devices and without sleeping.
import TouchlineCore

/// What a source hands the session, in the order it happened.
public enum SourceEvent {
    /// A device was opened: `device` is the source's own number for it, used by the events
    /// that follow (the session numbers devices in the output itself, in opening order, unless
    /// the source `numbersDevices`).
    case added(device: Int, path: String, description: DeviceDescription)
    /// One raw evdev event from a device that was added and not removed.
    case input(device: Int, InputEvent)
    /// The device went away (unplugged, read error): its contacts end as cancelled.
    case removed(device: Int, at: Timestamp)
    /// A line for the user (hotplug, a device's drop count); not an error.
    case notice(String)
    /// The source grabbed an added device and made its pass-through clone
    /// (docs/live.md#pass-through): from now on the session writes to `clone` every touch no
    /// `consume = true` recognizer keeps, and closes it when the device ends.
    case cloned(device: Int, clone: any PassThroughClone)
    /// A device the session asked to release (`SourceRequest.release`) has no contact down
    /// now and the source forgot its clone: the session closes the clone, which gives the
    /// device back to its other readers (`PassThroughClone.close`).
    case releasable(device: Int)
}

/// What the session asks of its source about a device, by the source's number: the session
/// decides pass-through from the `[[device]]` sections it runs (at open and on every reload),
/// the source does what only it can (grab, clone, close) when the device allows it.
public enum SourceRequest: Equatable, Sendable {
    /// Pass the device through: once no contact is down, grab it and make its clone, delivered
    /// as `.cloned` (a clone of Touchline's own is never passed through; a failure is a notice).
    case passThrough(device: Int)
    /// Stop passing it through: a pending grab is dropped; a clone, once no contact is down,
    /// is handed back as `.releasable` (never mid-touch: the other readers would see a finger
    /// move that never landed).
    case release(device: Int)
    /// Stop reading the device (its section says `ignore = true` now): the source closes it and
    /// delivers `.removed`. The session closed its clone first.
    case close(device: Int)
}

/// Why a source's wait returned (after delivering what it read).
public enum SourceWake: Equatable, Sendable {
    /// Input was delivered (or nothing that concerns the session happened).
    case input
    /// The deadline the session asked for was reached, on the source's clock. Everything the
    /// source had read up to it was delivered first, as replay orders frames before deadlines.
    case deadline(Timestamp)
    /// SIGHUP: reload (the daemon's; `run` has nothing to reload and goes on).
    case hangup
    /// SIGINT/SIGTERM (or a script's stop): gestures in flight end as cancelled, then the run ends.
    case stop
    /// Nothing more will come: every device named explicitly is gone, or a script is over.
    case exhausted
}

/// A source of live input. `wait` is the session's one blocking point: it returns when input
/// was delivered, the deadline passed, a signal came, or the input is exhausted.
public protocol LiveSource {
    /// Opens the devices present now and delivers `.added` for each (before the readiness
    /// signal, so that a script waiting for it finds the devices open).
    mutating func start(_ deliver: (SourceEvent) throws -> Void) throws
    /// Blocks until input, `deadline` (nil: none pending, never wake for time) or a signal;
    /// delivers what it read, in order, then says why it woke.
    mutating func wait(deadline: Timestamp?, _ deliver: (SourceEvent) throws -> Void) throws -> SourceWake
    /// Whether the source's device numbers are the output's: a trace's, which `touchline
    /// replay` prints, so that `daemon --source trace:` numbers the devices as replay does
    /// whichever sends first. False (the default): the session numbers devices in opening order.
    var numbersDevices: Bool { get }
    /// Whether the source can grab a device and give the system its clone (pass-through): the
    /// evdev source. False (the default): the session asks it for none.
    var grabs: Bool { get }
    /// Does what the session asks (`SourceRequest`), delivering what follows from it now (a
    /// clone made, a device closed) and the rest from a later `wait`.
    mutating func request(_ request: SourceRequest, _ deliver: (SourceEvent) throws -> Void) throws
}

extension LiveSource {
    public var numbersDevices: Bool { false }
    public var grabs: Bool { false }

    /// A source that cannot grab (libinput, a trace) makes no clone; a clone it gave
    /// otherwise (a dry run's preview) is handed back at once, as nothing of a device is held.
    public mutating func request(_ request: SourceRequest, _ deliver: (SourceEvent) throws -> Void) throws {
        if case .release(let device) = request { try deliver(.releasable(device: device)) }
    }
}

/// An error of the session for the user; the executable turns `kind` into its exit status.
public struct LiveError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A configuration the graph refuses.
        case data
        /// No input to read (libinput found no touch device among those named).
        case noInput
    }
    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}
