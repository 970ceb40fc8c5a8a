// The targets clients registered on the event socket (docs/live.md#registered-targets), shared
// by the server, which adds and removes them as messages come and connections go, and the
// session, which merges them into each device's graph when that device is idle. Everything runs
// on the daemon's one thread; `generation` tells the session that something changed.
import TouchlineGestures

public final class ClientTargets {
    public struct Entry: Sendable, Equatable {
        /// The connection that registered it.
        public var owner: UInt64
        public var request: ClientTargetRequest
    }

    /// Targets one connection may hold at once.
    public static let maximumPerClient = 8
    /// Distinct names (targets and recognizers) registered over the daemon's life: a graph's
    /// names are interned for the life of the process (GestureName), so a client registering
    /// ever new names must not grow it without end.
    public static let maximumDistinctNames = 4096

    /// In registration order (which, at equal z, puts a later one on top).
    public private(set) var entries: [Entry] = []
    /// Changes with every registration and removal.
    public private(set) var generation = 0
    /// The configuration's graph (the session keeps it current), which a registration is
    /// checked against: its target names are taken, and the merged graph must be valid.
    public var base = GraphConfiguration.default
    var names: Set<String> = []

    public init() {}

    /// The registered targets a device's graph holds.
    public func specs(forDevice device: Int) -> [ClientTargetSpec] {
        entries.compactMap { $0.request.devices.isEmpty || $0.request.devices.contains(device) ? $0.request.spec : nil }
    }

    /// Adds `request` for connection `owner`, or says why not (the reply's error).
    public func register(_ request: ClientTargetRequest, owner: UInt64) -> Result<Void, ClientMessageError> {
        let name = request.name
        let quoted = ClientMessageParser.quoted(name)
        if let existing = entries.first(where: { $0.request.name == name }) {
            return .failure(ClientMessageError(existing.owner == owner
                ? "register: this connection already registered \(quoted); unregister it first"
                : "register: another client registered a target named \(quoted); choose another name"))
        }
        if base.targets.contains(where: { $0.name == name }) {
            return .failure(ClientMessageError("register: \(quoted) is a target of the daemon's configuration; choose another name"))
        }
        let held = entries.count(where: { $0.owner == owner })
        if held >= Self.maximumPerClient {
            return .failure(ClientMessageError("register: this connection holds \(held) targets; at most \(Self.maximumPerClient) (unregister one first)"))
        }
        let fresh = Set([name] + request.spec.recognizers.map(\.name)).subtracting(names)
        if names.count + fresh.count > Self.maximumDistinctNames {
            return .failure(ClientMessageError("register: the daemon has taken \(names.count) distinct names since it started; at most \(Self.maximumDistinctNames) (reuse a name, or restart the daemon)"))
        }
        // The graph every device would run (a device's own list only narrows it).
        let merged = base.adding(entries.map(\.request.spec) + [request.spec])
        do {
            try merged.validate()
        } catch {
            return .failure(ClientMessageError("register: \(quoted) does not fit the graph: \(error.message)"))
        }
        names.formUnion(fresh)
        entries.append(Entry(owner: owner, request: request))
        generation += 1
        return .success(())
    }

    /// Removes the target `name` of connection `owner`; false if it holds none by that name.
    public func unregister(_ name: String, owner: UInt64) -> Bool {
        guard let i = entries.firstIndex(where: { $0.owner == owner && $0.request.name == name }) else { return false }
        entries.remove(at: i)
        generation += 1
        return true
    }

    /// The connection is gone: its targets go with it.
    public func removeAll(owner: UInt64) {
        let before = entries.count
        entries.removeAll { $0.owner == owner }
        if entries.count != before { generation += 1 }
    }
}
