// The targets clients registered on the event socket (docs/live.md#registered-targets), owned
// by the session: it applies the server's register and unregister messages (and connections
// gone) on its wake (EventSocketServer+Registrations.swift), and merges the targets into each
// device's graph when that device is idle. `generation` tells the session that something changed.
import TouchlineGestures

extension ClientTargetRequest {
    func joins(_ device: Int) -> Bool { devices.isEmpty || devices.contains(device) }
    /// Whether it joins a device that is not open yet (every one when it lists none).
    func joinsADevice(notIn open: Set<Int>) -> Bool { devices.isEmpty || !devices.isSubset(of: open) }
}

public final class ClientTargets {
    public struct Entry: Sendable, Equatable {
        /// The connection that registered it.
        public var owner: UInt64
        public var request: ClientTargetRequest
    }

    /// Targets one connection may hold at once.
    public static let maximumPerClient = 8
    /// Recognizers one connection may hold at once over its targets: a graph has 64 slots, and
    /// one client must not take all those the configuration leaves (issue 24, fairness).
    public static let maximumRecognizersPerClient = 16

    /// In registration order (which, at equal z, puts a later one on top).
    public private(set) var entries: [Entry] = []
    /// Changes with every registration and removal.
    public private(set) var generation = 0
    /// The configuration's graph (the session keeps it current), which a registration is
    /// checked against: its target names are taken, and the merged graph must be valid.
    public var base = GraphConfiguration.default
    /// Per device number, the graph configuration it runs when that is not `base` (a
    /// `[[device]] graph` file; the session keeps it current): a registration joining such a
    /// device is checked against it too, so that it cannot push that graph past its limits and
    /// leave every registered target of the device out.
    public var deviceGraphs: [Int: GraphConfiguration] = [:]
    /// The devices open now (their numbers).
    public var openDevices: Set<Int> = []
    /// Each `[[device]]` section's own graph (`graph` file, by that name): a device that opens
    /// later may match it, so a registration that joins a device not open yet must fit each.
    public var sectionGraphs: [(file: String, graph: GraphConfiguration)] = []
    /// Names the configuration's actions filter on (`[[action]] target`): no client may take
    /// one, or it would choose where those actions fire.
    public var reservedNames: Set<String> = []
    /// `[socket] clientZ`: the z range a registered target may use; nil: registered targets sit
    /// below every target of the graph they join (`merged`). Without a configuration file
    /// (`SessionSettings.clientZFromConfiguration`) any z a target may have.
    public var zRange: ClosedRange<Int>? = ClientTargets.anyZ
    public static let anyZ = -GraphConfiguration.Limits.farthestZ...GraphConfiguration.Limits.farthestZ

    public init() {}

    /// The registered targets a device's graph holds.
    public func specs(forDevice device: Int) -> [ClientTargetSpec] {
        entries.compactMap { $0.request.joins(device) ? $0.request.spec : nil }
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
        if base.targets.contains(where: { $0.name == name }) || deviceGraphs.values.contains(where: { $0.targets.contains { $0.name == name } }) {
            return .failure(ClientMessageError("register: \(quoted) is a target of the daemon's configuration; choose another name"))
        }
        if reservedNames.contains(name) {
            return .failure(ClientMessageError("register: \(quoted) is a target the daemon's configured actions filter on; choose another name"))
        }
        if let zRange, !zRange.contains(request.spec.target.z) {
            return .failure(ClientMessageError("register: z \(request.spec.target.z) is outside the range the daemon's configuration grants clients ([socket] clientZ = [\(zRange.lowerBound), \(zRange.upperBound)])"))
        }
        let held = entries.count(where: { $0.owner == owner })
        if held >= Self.maximumPerClient {
            return .failure(ClientMessageError("register: this connection holds \(held) targets; at most \(Self.maximumPerClient) (unregister one first)"))
        }
        let slots = entries.reduce(request.spec.recognizers.count) { $0 + ($1.owner == owner ? $1.request.spec.recognizers.count : 0) }
        if slots > Self.maximumRecognizersPerClient {
            return .failure(ClientMessageError("register: this connection would hold \(slots) recognizers; at most \(Self.maximumRecognizersPerClient) (unregister a target first)"))
        }
        // The graph every device without a graph of its own would run (a device's own list
        // only narrows it), and each device graph it would join with that device's targets.
        do {
            try merged(base, entries.map(\.request.spec) + [request.spec]).validate()
        } catch {
            return .failure(ClientMessageError("register: \(quoted) does not fit the graph: \(error.message)"))
        }
        for device in deviceGraphs.keys.sorted() where request.joins(device) {
            guard let graph = deviceGraphs[device] else { continue }
            do {
                try merged(graph, specs(forDevice: device) + [request.spec]).validate()
            } catch {
                return .failure(ClientMessageError("register: \(quoted) does not fit device \(device)'s graph ([[device]] graph): \(error.message)"))
            }
        }
        if request.joinsADevice(notIn: openDevices) {
            let future = entries.filter { $0.request.joinsADevice(notIn: openDevices) }.map(\.request.spec) + [request.spec]
            for (file, graph) in sectionGraphs {
                do {
                    try merged(graph, future).validate()
                } catch {
                    return .failure(ClientMessageError("register: \(quoted) does not fit the graph of a device that may open ([[device]] graph \(ClientMessageParser.quoted(file))): \(error.message)"))
                }
            }
        }
        entries.append(Entry(owner: owner, request: request))
        generation += 1
        return .success(())
    }

    /// `graph` with the registered targets `specs` (those a configuration target's name does not
    /// already take). With `zRange` they keep their z and go after the graph's own targets (at
    /// equal z on top). Without it they sit below every target of `graph`: at its lowest z and
    /// before its targets in the list (at equal z the earlier is below), among themselves in
    /// the order their own z and registration give. A client cannot take the configuration's
    /// gestures, only the space the configuration leaves it.
    public func merged(_ graph: GraphConfiguration, _ specs: [ClientTargetSpec]) -> GraphConfiguration {
        let taken = Set(graph.targets.map(\.name))
        let specs = specs.filter { !taken.contains($0.target.name) }
        if zRange != nil || specs.isEmpty { return graph.adding(specs) }
        let floor = graph.targets.map(\.z).min() ?? 0
        let below = specs.enumerated().sorted { ($0.element.target.z, $0.offset) < ($1.element.target.z, $1.offset) }.map {
            var spec = $0.element
            spec.target.z = floor
            return spec
        }
        let clients = GraphConfiguration(targets: [], recognizers: graph.recognizers).adding(below)
        var out = graph
        out.targets = clients.targets + graph.targets
        out.recognizers = clients.recognizers
        return out
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
