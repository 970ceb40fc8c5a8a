import TouchlineCore

/// Rotate: two or more contacts turning about their centroid by `minimumAngle`; `rotation` in
/// radians since tracking began, clockwise positive on the screen (y down, as UIKit). Ends when
/// fewer than two contacts remain. Diagram: docs/gestures.md#rotate.
public struct RotateRecognizer: ContinuousKind {
    public var machine: ContinuousRecognizer<RotateMeasure>
    public init(machine: ContinuousRecognizer<RotateMeasure>) { self.machine = machine }
    /// The only kind that reads `rotationDelta`: the other kinds' frames skip its atan2.
    public static var readsRotation: Bool { true }
    /// Two fingers at the fewest.
    public static func claimFloor(_ p: RotateParameters) -> ClaimFloor { ClaimFloor(fingers: 2) }
}

public struct RotateMeasure: ContinuousGesture {
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

}

// MARK: - The kind: parameters, registration, event fields

public struct RotateParameters: BitwiseCopyable, Hashable, Sendable {
    /// Degrees.
    public var minimumAngle = Thresholds.rotateMinAngle
    /// How far the turn must carry the fingers along their circle (rotation × span / 2), mm.
    public var minimumTravel = Thresholds.rotateMinTravel
    public var velocityWindow = Thresholds.velocityWindow
    public init() {}
}

extension RotateMeasure {
    public static let gesture = GestureKind("rotate")
    public static var defaultParameters: RotateParameters { RotateParameters() }
    public static let parameterDeclarations: [RecognizerParameter<RotateParameters>] = [
        RecognizerParameter("minimumAngle", .degrees, set: { $0.minimumAngle = $1.number }, problem: {
            ParameterLimits.angle($0.minimumAngle, highest: GraphConfiguration.Limits.widestRotateAngle, lowestExcluded: false)
        }, number: { $0.minimumAngle }),
        .distance("minimumTravel", \.minimumTravel),
        .duration("velocityWindow", \.velocityWindow),
    ]
    public var fields: RotateFields { RotateFields(rotation: rotation, velocity: velocity) }
}

extension GestureKind {
    public static let rotate = RotateMeasure.gesture
}

extension RecognizerKind {
    public static func rotate(_ parameters: RotateParameters = RotateParameters()) -> RecognizerKind { RecognizerKind(RotateRecognizer.self, parameters) }
}

/// A rotation's fields: `rotation`, radians since the first down, clockwise positive (y down,
/// as UIKit); `rotationVelocity`, radians per second.
public struct RotateFields: GestureFields {
    public static var fieldNames: [StaticString] { ["rotation", "rotationVelocity"] }
    public var rotation: Double
    public var velocity: Double
    public init(rotation: Double, velocity: Double) {
        self.rotation = rotation
        self.velocity = velocity
    }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) {
        body("rotation", .number(rotation, decimals: 4))
        body("rotationVelocity", .number(velocity, decimals: 4))
    }
    public var summary: String { " rotation=\(formatFixed(rotation, decimals: 4))" }
}

extension GestureDetail {
    @inline(__always) public static func rotate(rotation: Double, velocity: Double) -> GestureDetail { GestureDetail(RotateFields(rotation: rotation, velocity: velocity)) }
}
