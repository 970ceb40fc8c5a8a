import TouchlineCore

/// Pinch: two or more contacts whose span (2 × mean distance from their centroid, the distance
/// between two fingers) changes by `minimumSpanChange`; `scale` is relative to the span when
/// tracking began. No minimum span. Ends when fewer than two contacts remain.
/// Diagram: docs/gestures.md#pinch.
public typealias PinchRecognizer = ContinuousRecognizer<PinchMeasure>

public struct PinchMeasure: ContinuousMeasure {
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

    public var detail: GestureDetail { .pinch(scale: scale, velocity: velocity, span: span) }
}
