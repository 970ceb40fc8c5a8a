import TouchlineGestures

extension GraphConfiguration {
    /// The default graph with one recognizer of every other registered kind added on the same
    /// target, named after its kind, with its default parameters: what a graph with every kind
    /// attached costs per frame beside the default one (docs/performance.md). Kinds added to
    /// `RecognizerRegistry.standard` join it without a change here.
    public static var everyKind: GraphConfiguration {
        var graph = GraphConfiguration.default
        let present = Set(graph.recognizers.map { $0.kind.gesture })
        for kind in RecognizerRegistry.standard.kinds where !present.contains(kind.gesture) {
            graph.recognizers.append(RecognizerSpec(name: kind.gesture.description, kind: RecognizerKind(defaultsOf: kind)))
        }
        return graph
    }
}

extension GraphConfiguration {
    /// The default graph with its long press taking any number of fingers (`fingers = 0`), as
    /// the default was before issue 23: fingers that rest while the probe's ring is made become
    /// one long press that follows them. The workload of the per-frame figures measured before
    /// that change, kept so they can be compared (docs/performance.md).
    public static var defaultWithHeldLongPress: GraphConfiguration {
        var graph = GraphConfiguration.default
        for i in graph.recognizers.indices {
            guard var parameters = graph.recognizers[i].kind.parameters(of: LongPressRecognizer.self) else { continue }
            parameters.fingers = 0
            graph.recognizers[i].kind = RecognizerKind(LongPressRecognizer.self, parameters)
        }
        return graph
    }
}
