import TouchlineCore

/// Edge swipe: a pan whose first contact lands within `margin` of a sensor edge it watches
/// (`edges`, all four by default) and whose first `slop` of motion points inward (more inward
/// than along the edge). Continuous, like a pan, with the `edge` it came from. Diagram:
/// docs/gestures.md#edge-swipe.
public struct EdgeSwipeRecognizer: ContinuousKind {
    /// No turn is read: the graph skips the atan2 for it (GestureRecognizer.readsRotation).
    public static var readsRotation: Bool { false }
    public var machine: ContinuousRecognizer<EdgeSwipeMeasure>
    public init(machine: ContinuousRecognizer<EdgeSwipeMeasure>) { self.machine = machine }

    public var surface: Size { machine.parameters.surface }
    /// It claims once its contacts moved `slop` inward, and takes only contacts landing within
    /// `margin` of an edge it watches: a finger landing mid-screen during an edge swipe is not
    /// its own (not adopted, not held for it: docs/live.md#pass-through).
    public static func claimFloor(_ p: EdgeSwipeParameters) -> ClaimFloor {
        ClaimFloor(distance: p.slop, zone: LandingZone(edges: p.edges, margin: p.margin))
    }
}

/// The edge the first contact landed near, and the pan's motion from there.
public struct EdgeSwipeMeasure: ContinuousGesture {
    /// The edges are the sensor's, so the recognizer needs its size.
    public struct Setup: BitwiseCopyable, Hashable, Sendable {
        public var parameters: EdgeSwipeParameters
        public var surface: Size
    }

    public var edge: ScreenEdge
    public var motion: PanMeasure

    public static var placeholder: EdgeSwipeMeasure { EdgeSwipeMeasure(edge: .left, motion: .placeholder) }

    public static func fingers(_ _: Setup) -> ClosedRange<Int> { 1...GestureGraph.contactCapacity }

    /// A contact landing away from every watched edge is refused at its first frame: an edge
    /// swipe of `edges = ["left"]` never holds a touch near the top (docs/live.md#pass-through).
    public static func begin(_ s: GroupSample, _ setup: Setup) -> ContinuousStart<EdgeSwipeMeasure> {
        let edges = setup.parameters.edges
        let (edge, distance) = nearestEdge(s.centroid, on: setup.surface, among: edges)
        if distance > setup.parameters.margin {
            return .refused(.exceeded(edges == .all ? "distance from the nearest edge" : "distance from the nearest watched edge",
                                      value: distance, limit: setup.parameters.margin, .millimetres))
        }
        return .tracking(EdgeSwipeMeasure(edge: edge, motion: PanMeasure(at: s.time, window: setup.parameters.velocityWindow)))
    }

    /// The nearest of `edges` to `p` and the distance to it; ties in the order left, right,
    /// top, bottom. A corner is the nearer edge's, or the one watched: with only `left`
    /// watched, a touch 1 mm from the top and 2 mm from the left is a left one.
    static func nearestEdge(_ p: Point, on surface: Size, among edges: ScreenEdges = .all) -> (ScreenEdge, Double) {
        // Validation refuses an empty set; a library caller's empty one watches nothing.
        var best = (ScreenEdge.left, Double.infinity)
        func consider(_ edge: ScreenEdge, _ distance: Double) {
            if edges.contains(edge) && distance < best.1 { best = (edge, distance) }
        }
        consider(.left, p.x)
        consider(.right, surface.width - p.x)
        consider(.top, p.y)
        consider(.bottom, surface.height - p.y)
        return (best.0, max(0, best.1))
    }

    /// Motion into the surface from `edge`, and along it.
    static func components(_ v: Vector, from edge: ScreenEdge) -> (inward: Double, along: Double) {
        switch edge {
        case .left: return (v.dx, abs(v.dy))
        case .right: return (-v.dx, abs(v.dy))
        case .top: return (v.dy, abs(v.dx))
        case .bottom: return (-v.dy, abs(v.dx))
        }
    }

    /// Unlike a pan, the position stays where the contacts last moved.
    public mutating func contactDown(_ s: GroupSample, position: inout Point) {}

    public mutating func update(_ s: GroupSample) { motion.update(s) }

    /// Any number of fingers; the direction of the first `slop` decides.
    public func verdict(_ setup: Setup, fingers: Int) -> ContinuousVerdict {
        let distance = motion.translation.length
        guard distance >= setup.parameters.slop else { return .notYet }
        let (inward, along) = EdgeSwipeMeasure.components(motion.translation, from: edge)
        if inward <= along { return .fail(.note("moved along or away from the edge")) }
        return .claim(.reached("inward movement", value: distance, limit: setup.parameters.slop, .millimetres))
    }

    public func shortfall(_ setup: Setup) -> Reason { .note("lifted before moving the slop") }

    public mutating func lastLift(at time: Timestamp) { motion.lastLift(at: time) }

}

// MARK: - The kind: parameters, registration, event fields

public struct EdgeSwipeParameters: BitwiseCopyable, Hashable, Sendable {
    /// The edges it watches, holds and consumes (`edges = ["left"]`); all four by default.
    /// The others' touches it refuses when they land, so a consuming left edge swipe leaves a
    /// browser's pull-to-refresh and its right sidebar to the app.
    public var edges = ScreenEdges.all
    public var margin = Thresholds.edgeMargin
    public var slop = Thresholds.edgeSlop
    public var velocityWindow = Thresholds.velocityWindow
    public init() {}
}

/// A set of screen edges (bit i: `ScreenEdge(rawValue: i)`).
public struct ScreenEdges: OptionSet, BitwiseCopyable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ edges: [ScreenEdge]) {
        rawValue = 0
        for e in edges { insert(ScreenEdges(rawValue: 1 << e.rawValue)) }
    }
    public func contains(_ edge: ScreenEdge) -> Bool { rawValue & (1 << edge.rawValue) != 0 }
    public static let all = ScreenEdges(ScreenEdge.allCases)
}

extension EdgeSwipeMeasure {
    public static let gesture = GestureKind("edgeSwipe")
    public static var defaultParameters: EdgeSwipeParameters { EdgeSwipeParameters() }
    public static let parameterDeclarations: [RecognizerParameter<EdgeSwipeParameters>] = [
        .wordSet("edges", \.edges.rawValue, ScreenEdge.allCases.map { $0.name.description }),
        .distance("margin", \.margin),
        .distance("slop", \.slop),
        .duration("velocityWindow", \.velocityWindow),
    ]
    public static func setup(_ parameters: EdgeSwipeParameters, surface: Size) -> Setup { Setup(parameters: parameters, surface: surface) }
    public var fields: EdgeSwipeFields { EdgeSwipeFields(edge: edge, translation: motion.translation, velocity: motion.velocity) }
}

extension GestureKind {
    public static let edgeSwipe = EdgeSwipeMeasure.gesture
}

extension RecognizerKind {
    public static func edgeSwipe(_ parameters: EdgeSwipeParameters = EdgeSwipeParameters()) -> RecognizerKind {
        RecognizerKind(EdgeSwipeRecognizer.self, parameters)
    }
}

/// An edge swipe's fields: the `edge` it came from, then a pan's.
public struct EdgeSwipeFields: GestureFields {
    public static var fieldNames: [StaticString] { ["edge"] + Vector.fieldNames }
    public static var wordFieldNames: [StaticString] { ["edge"] }
    public var edge: ScreenEdge
    public var translation: Vector
    public var velocity: Vector
    public init(edge: ScreenEdge, translation: Vector, velocity: Vector) {
        self.edge = edge
        self.translation = translation
        self.velocity = velocity
    }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) {
        body("edge", .word(edge.name))
        Vector.fields(translation, velocity, body)
    }
    public var summary: String { " \(edge) d=\(translation.text(decimals: 2))" }
}

extension GestureDetail {
    @inline(__always) public static func edgeSwipe(edge: ScreenEdge, translation: Vector, velocity: Vector) -> GestureDetail {
        GestureDetail(EdgeSwipeFields(edge: edge, translation: translation, velocity: velocity))
    }
}
