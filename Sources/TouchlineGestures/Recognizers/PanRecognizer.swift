import TouchlineCore

/// Pan (drag): the contacts' centroid moves `slop` with `minimumFingers…maximumFingers` down;
/// `changed` with translation and velocity on motion, `ended` at the last lift.
/// Diagram: docs/gestures.md#pan.
public struct PanRecognizer: ContinuousKind {
    /// No turn is read: the graph skips the atan2 for it (GestureRecognizer.readsRotation).
    public static var readsRotation: Bool { false }
    public var machine: ContinuousRecognizer<PanMeasure>
    public init(machine: ContinuousRecognizer<PanMeasure>) { self.machine = machine }
    /// It claims once its contacts' centroid moved `slop`.
    public static func claimFloor(_ p: PanParameters) -> ClaimFloor { ClaimFloor(distance: p.slop, fingers: p.minimumFingers) }
}

/// The centroid's translation since the first contact down and its velocity; the edge swipe
/// tracks its motion with it too.
public struct PanMeasure: ContinuousGesture {
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


    @inline(__always) private mutating func measureVelocity(at time: Timestamp) {
        let (vx, vy) = estimator.record(time, translation.dx, translation.dy)
        velocity = Vector(dx: vx, dy: vy)
    }
}

// MARK: - The kind: parameters, registration, event fields

public struct PanParameters: BitwiseCopyable, Hashable, Sendable {
    public var minimumFingers = 1
    public var maximumFingers = 10
    public var slop = Thresholds.panSlop
    public var velocityWindow = Thresholds.velocityWindow
    public init() {}
}

extension PanMeasure {
    public static let gesture = GestureKind("pan")
    public static var defaultParameters: PanParameters { PanParameters() }
    public static let parameterDeclarations: [RecognizerParameter<PanParameters>] = [
        .fingers("minimumFingers", anyAllowed: false, \.minimumFingers),
        .fingers("maximumFingers", anyAllowed: false, \.maximumFingers),
        .distance("slop", \.slop),
        .duration("velocityWindow", \.velocityWindow),
    ]
    public static func relationProblem(_ p: PanParameters) -> ParameterProblem? {
        p.minimumFingers <= p.maximumFingers ? nil : ParameterProblem(
            key: "minimumFingers", found: "minimumFingers \(p.minimumFingers) is more than maximumFingers \(p.maximumFingers)",
            expected: "minimumFingers ≤ maximumFingers", isRelation: true, relatedKey: "maximumFingers")
    }
    public var fields: PanFields { PanFields(translation: translation, velocity: velocity) }
}

extension GestureKind {
    public static let pan = PanMeasure.gesture
}

extension RecognizerKind {
    public static func pan(_ parameters: PanParameters = PanParameters()) -> RecognizerKind { RecognizerKind(PanRecognizer.self, parameters) }
}

/// A pan's fields: `dx`, `dy`, the translation in mm since the first contact went down; `vx`,
/// `vy`, its velocity in mm/s.
public struct PanFields: GestureFields {
    public static var fieldNames: [StaticString] { Vector.fieldNames }
    public var translation: Vector
    public var velocity: Vector
    public init(translation: Vector, velocity: Vector) {
        self.translation = translation
        self.velocity = velocity
    }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) { Vector.fields(translation, velocity, body) }
    public var summary: String { " d=\(translation.text(decimals: 2))" }
}

extension GestureDetail {
    @inline(__always) public static func pan(translation: Vector, velocity: Vector) -> GestureDetail { GestureDetail(PanFields(translation: translation, velocity: velocity)) }
}

extension Vector {
    /// A translation and a velocity as the pan-like events write them: `dx`, `dy` (mm, 2
    /// decimals), `vx`, `vy` (mm/s, 1 decimal).
    /// The keys `fields` gives.
    static var fieldNames: [StaticString] { ["dx", "dy", "vx", "vy"] }
    @inline(__always) static func fields(_ translation: Vector, _ velocity: Vector, _ body: (StaticString, FieldValue) -> Void) {
        body("dx", .number(translation.dx, decimals: 2))
        body("dy", .number(translation.dy, decimals: 2))
        body("vx", .number(velocity.dx, decimals: 1))
        body("vy", .number(velocity.dy, decimals: 1))
    }

    /// "(dx,dy)" for log lines.
    func text(decimals: Int) -> String { "(\(formatFixed(dx, decimals: decimals)),\(formatFixed(dy, decimals: decimals)))" }
}
