import TouchlineCore

/// A continuous gesture as a recognizer kind: its measure (`ContinuousMeasure`) and what the
/// table needs to know about the kind (RecognizerKind.swift), declared in the measure's file.
/// Every `ContinuousRecognizer` of such a measure is a `GestureRecognizer`.
public protocol ContinuousGesture: ContinuousMeasure {
    /// The parameters a config sets; the measure's own `Parameters` are made from them and the
    /// sensor's size (`setup`), the same type unless the measure needs the size.
    associatedtype KindParameters: Hashable, Sendable = Parameters
    associatedtype Fields: GestureFields

    static var gesture: GestureKind { get }
    static var defaultParameters: KindParameters { get }
    static var parameterDeclarations: [RecognizerParameter<KindParameters>] { get }
    static func relationProblem(_ parameters: KindParameters) -> ParameterProblem?
    static func setup(_ parameters: KindParameters, surface: Size) -> Parameters
    /// The event's own fields now.
    var fields: Fields { get }
}

extension ContinuousGesture {
    public static func relationProblem(_ parameters: KindParameters) -> ParameterProblem? { nil }
    @inline(__always) public var detail: GestureDetail { GestureDetail(fields) }
}

extension ContinuousGesture where KindParameters == Parameters {
    public static func setup(_ parameters: Parameters, surface: Size) -> Parameters { parameters }
}

extension ContinuousRecognizer: GestureRecognizer where Measure: ContinuousGesture {
    public static var gesture: GestureKind { Measure.gesture }
    public static var defaultParameters: Measure.KindParameters { Measure.defaultParameters }
    public static var parameters: [RecognizerParameter<Measure.KindParameters>] { Measure.parameterDeclarations }
    public static func relationProblem(_ parameters: Measure.KindParameters) -> ParameterProblem? { Measure.relationProblem(parameters) }
    public init(parameters: Measure.KindParameters, surface: Size) { self.init(parameters: Measure.setup(parameters, surface: surface)) }
    public var stateName: StaticString { phase.name }
    public static var continuesInPlace: Bool { true }
}
