import TouchlineCore

/// Rotate: two or more contacts turning about their centroid by `minimumAngle`; `rotation` in
/// radians since tracking began, clockwise positive on the screen (y down, as UIKit). Ends when
/// fewer than two contacts remain. Diagram: docs/gestures.md#rotate.
public typealias RotateRecognizer = ContinuousRecognizer<RotateMeasure>

public struct RotateMeasure: ContinuousMeasure {
    /// Sum of the frame-to-frame turns since tracking began, radians.
    public var rotation: Double
    public var velocity: Double
    public var estimator: VelocityEstimator
    /// The span at the last motion, for the travel along the circle.
    public var span: Double

    public static var placeholder: RotateMeasure { RotateMeasure(rotation: 0, velocity: 0, estimator: VelocityEstimator(window: .zero), span: 0) }

    public static func fingers(_ _: RotateParameters) -> ClosedRange<Int> { 2...GestureGraph.contactCapacity }

    public static func begin(_ s: GroupSample, _ parameters: RotateParameters) -> ContinuousStart<RotateMeasure> {
        .tracking(RotateMeasure(rotation: 0, velocity: 0, estimator: VelocityEstimator.starting(at: s.time, 0, window: parameters.velocityWindow), span: s.span))
    }

    public mutating func contactDown(_ s: GroupSample, position: inout Point) {}

    @inline(__always) public mutating func update(_ s: GroupSample) {
        rotation += s.rotationDelta
        velocity = estimator.record(s.time, rotation).0
        span = s.span
    }

    private var degrees: Double { abs(rotation) * GestureMath.degreesPerRadian }

    public func verdict(_ parameters: RotateParameters, fingers: Int) -> ContinuousVerdict {
        let travel = abs(rotation) * span / 2
        if fingers >= 2 && degrees >= parameters.minimumAngle && travel >= parameters.minimumTravel {
            return .claim(.reached("rotation", value: degrees, limit: parameters.minimumAngle, .degrees))
        }
        return .notYet
    }

    public func shortfall(_ parameters: RotateParameters) -> Reason {
        .shortOf("rotation", value: degrees, limit: parameters.minimumAngle, .degrees)
    }

    public mutating func lastLift(at time: Timestamp) {}

    public var detail: GestureDetail { .rotate(rotation: rotation, velocity: velocity) }
}
