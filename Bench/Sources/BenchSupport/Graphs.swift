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
