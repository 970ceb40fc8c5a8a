import TouchlineCore

/// Pinch: two or more contacts whose span (2 × mean distance from their centroid, the distance
/// between two fingers) changes by `minimumSpanChange`; `scale` is relative to the span when
/// tracking began. No minimum span. Ends when fewer than two contacts remain.
/// Diagram: docs/gestures.md#pinch.
public struct PinchRecognizer: ContinuousKind {
    /// No turn is read: the graph skips the atan2 for it (GestureRecognizer.readsRotation).
    public static var readsRotation: Bool { false }
    public var machine: ContinuousRecognizer<PinchMeasure>
    public init(machine: ContinuousRecognizer<PinchMeasure>) { self.machine = machine }
    /// Two fingers at the fewest.
    public static func claimFloor(_ p: PinchParameters) -> ClaimFloor { ClaimFloor(fingers: 2) }
}

public struct PinchMeasure: ContinuousGesture {
    /// Product of the frame-to-frame span ratios since tracking began.
    public var scale: Double
    /// Sum of the frame-to-frame span changes, mm.
    public var spanChange: Double
    public var velocity: Double
    public var estimator: VelocityEstimator
    public var span: Double

    public static var placeholder: PinchMeasure { PinchMeasure(scale: 1, spanChange: 0, velocity: 0, estimator: VelocityEstimator(window: .zero), span: 0) }

    public static func fingers(_ _: PinchParameters) -> ClosedRange<Int> { 2...GestureGraph.contactCapacity }

    public static func begin(_ s: GroupSample, _ parameters: PinchParameters) -> ContinuousStart<PinchMeasure> {
        .tracking(PinchMeasure(scale: 1, spanChange: 0, velocity: 0, estimator: VelocityEstimator.starting(at: s.time, 1, window: parameters.velocityWindow), span: s.span))
    }

    /// The reported span follows the contacts as they go down; the scale only moves with them.
    public mutating func contactDown(_ s: GroupSample, position: inout Point) {
        span = s.span
    }

    @inline(__always) public mutating func update(_ s: GroupSample) {
        scale *= s.spanRatio
        spanChange += s.spanDelta
        velocity = estimator.record(s.time, scale).0
        span = s.span
    }

    public func verdict(_ parameters: PinchParameters, fingers: Int) -> ContinuousVerdict {
        if fingers >= 2 && abs(spanChange) >= parameters.minimumSpanChange {
            return .claim(.reached("span change", value: abs(spanChange), limit: parameters.minimumSpanChange, .millimetres))
        }
        return .notYet
    }

    public func shortfall(_ parameters: PinchParameters) -> Reason {
        .shortOf("span change", value: abs(spanChange), limit: parameters.minimumSpanChange, .millimetres)
    }

    public mutating func lastLift(at time: Timestamp) {}

}

// MARK: - The kind: parameters, registration, event fields

public struct PinchParameters: BitwiseCopyable, Hashable, Sendable {
    public var minimumSpanChange = Thresholds.pinchMinSpanChange
    public var velocityWindow = Thresholds.velocityWindow
    public init() {}
}

extension PinchMeasure {
    public static let gesture = GestureKind("pinch")
    public static var defaultParameters: PinchParameters { PinchParameters() }
    public static let parameterDeclarations: [RecognizerParameter<PinchParameters>] = [
        .distance("minimumSpanChange", \.minimumSpanChange),
        .duration("velocityWindow", \.velocityWindow),
    ]
    public var fields: PinchFields { PinchFields(scale: scale, velocity: velocity, span: span) }
}

extension GestureKind {
    public static let pinch = PinchMeasure.gesture
}

extension RecognizerKind {
    public static func pinch(_ parameters: PinchParameters = PinchParameters()) -> RecognizerKind { RecognizerKind(PinchRecognizer.self, parameters) }
}

/// A pinch's fields: `scale`, span now / span at the first down (1 = unchanged);
/// `scaleVelocity`, scale per second; `span`, 2 × mean distance of the contacts from their
/// centroid (the distance between two fingers), mm.
public struct PinchFields: GestureFields {
    public static var fieldNames: [StaticString] { ["scale", "scaleVelocity", "span"] }
    public var scale: Double
    public var velocity: Double
    public var span: Double
    public init(scale: Double, velocity: Double, span: Double) {
        self.scale = scale
        self.velocity = velocity
        self.span = span
    }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) {
        body("scale", .number(scale, decimals: 4))
        body("scaleVelocity", .number(velocity, decimals: 4))
        body("span", .number(span, decimals: 2))
    }
    public var summary: String { " scale=\(formatFixed(scale, decimals: 4)) span=\(formatFixed(span, decimals: 2))" }
}

extension GestureDetail {
    @inline(__always) public static func pinch(scale: Double, velocity: Double, span: Double) -> GestureDetail {
        GestureDetail(PinchFields(scale: scale, velocity: velocity, span: span))
    }
}
