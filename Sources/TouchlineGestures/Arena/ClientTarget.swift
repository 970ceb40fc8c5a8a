import TouchlineCore

// A target an application registers while it runs (the daemon's event socket,
// docs/live.md#registered-targets), as the graph takes it. TouchlineSettings reads one
// (`GraphConfiguration.readClientTarget`) with the configuration's own reader.

/// A registered target and its recognizers, ready to join a graph (`GraphConfiguration.adding`).
public struct ClientTargetSpec: Hashable, Sendable {
    public var target: TargetSpec
    /// Named "TARGET.NAME" in the graph and in events (NAME: the recognizer's own name, else its
    /// kind), so that two clients' `tap`s, and the configuration's, never clash; attached to
    /// `target`. Relations name this target's own recognizers only.
    public var recognizers: [RecognizerSpec]

    public init(target: TargetSpec, recognizers: [RecognizerSpec]) {
        self.target = target
        self.recognizers = recognizers
    }
}

extension GraphConfiguration {
    /// This configuration with registered targets after its own (so that, at equal z, they are
    /// on top) and their recognizers after its own.
    public func adding(_ clients: [ClientTargetSpec]) -> GraphConfiguration {
        var out = self
        for client in clients {
            out.targets.append(client.target)
            out.recognizers.append(contentsOf: client.recognizers)
        }
        return out
    }
}
