import TouchlineCore

/// Pan (drag): the contacts' centroid moves `slop` with `minimumFingers…maximumFingers` down;
/// `changed` with translation and velocity on motion, `ended` at the last lift.
/// Diagram: docs/gestures.md#pan.
public typealias PanRecognizer = ContinuousRecognizer<PanMeasure>

/// The centroid's translation since the first contact down and its velocity; the edge swipe
/// tracks its motion with it too.
public struct PanMeasure: ContinuousMeasure {
    public var translation: Vector
    public var velocity: Vector
    public var estimator: VelocityEstimator

    init(at time: Timestamp, window: Interval) {
        translation = .zero
        velocity = .zero
        estimator = VelocityEstimator.starting(at: time, window: window)
    }

    public static var placeholder: PanMeasure { PanMeasure(at: .zero, window: .zero) }

    /// A configuration with the minimum above the maximum does not validate; built in code,
    /// it takes the minimum only rather than trap.
    public static func fingers(_ parameters: PanParameters) -> ClosedRange<Int> {
        parameters.minimumFingers...max(parameters.minimumFingers, parameters.maximumFingers)
    }

    public static func begin(_ s: GroupSample, _ parameters: PanParameters) -> ContinuousStart<PanMeasure> {
        .tracking(PanMeasure(at: s.time, window: parameters.velocityWindow))
    }

    /// A pan's position follows its contacts as they go down (the other continuous gestures
    /// keep theirs until the next motion).
    public mutating func contactDown(_ s: GroupSample, position: inout Point) {
        position = s.centroid
    }

    @inline(__always) public mutating func update(_ s: GroupSample) {
        translation = translation + s.translationDelta
        measureVelocity(at: s.time)
    }

    public func verdict(_ parameters: PanParameters, fingers: Int) -> ContinuousVerdict {
        let distance = translation.length
        if distance >= parameters.slop && fingers >= parameters.minimumFingers && fingers <= parameters.maximumFingers {
            return .claim(.reached("translation", value: distance, limit: parameters.slop, .millimetres))
        }
        return .notYet
    }

    public func shortfall(_ parameters: PanParameters) -> Reason { .note("lifted before moving the slop") }

    /// A finger that rested before lifting ends at the velocity of the lift's time.
    public mutating func lastLift(at time: Timestamp) { measureVelocity(at: time) }

    public var detail: GestureDetail { .pan(translation: translation, velocity: velocity) }

    @inline(__always) private mutating func measureVelocity(at time: Timestamp) {
        let (vx, vy) = estimator.record(time, translation.dx, translation.dy)
        velocity = Vector(dx: vx, dy: vy)
    }
}
