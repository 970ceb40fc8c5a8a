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

/// A continuous kind: a concrete recognizer type around `ContinuousRecognizer` of its measure,
/// declared in the measure's file in three lines. Concrete on purpose: a conformance of the
/// generic `ContinuousRecognizer` itself would be instantiated at run time, its witnesses
/// generic over the measure, and every frame would run the state machine unspecialized (the
/// replay of the 20 MB trace took 14 % more instructions that way, most of them looking up
/// generic metadata). Each conformance below is specialized for its kind.
public protocol ContinuousKind: GestureRecognizer where Parameters == Measure.KindParameters {
    associatedtype Measure: ContinuousGesture
    /// The shared state machine (docs/gestures.md#pan, #edge-swipe, #pinch, #rotate).
    var machine: ContinuousRecognizer<Measure> { get set }
    init(machine: ContinuousRecognizer<Measure>)
}

extension ContinuousKind {
    public static var gesture: GestureKind { Measure.gesture }
    public static var defaultParameters: Parameters { Measure.defaultParameters }
    public static var parameters: [RecognizerParameter<Parameters>] { Measure.parameterDeclarations }
    public static func relationProblem(_ parameters: Parameters) -> ParameterProblem? { Measure.relationProblem(parameters) }
    public static var continuesInPlace: Bool { true }
    public static var eventFields: [any GestureFields.Type] { [Measure.Fields.self] }
    /// ContinuousRecognizer's: `began`, `changed`…, then `ended` or `cancelled`.
    public static var phases: [GesturePhase] { GesturePhase.continuous }

    public init(parameters: Parameters, surface: Size) {
        self.init(machine: ContinuousRecognizer(parameters: Measure.setup(parameters, surface: surface)))
    }

    /// The state machine's state.
    public var state: ContinuousRecognizer<Measure>.State { machine.state }
    public var stateName: StaticString { machine.phase.name }
    public var deadline: Timestamp? { machine.deadline }

    @inline(__always) public mutating func handle(_ input: RecognizerInput) -> RecognizerAction { machine.handle(input) }

    @inline(__always)
    public mutating func movedWhileActive(_ s: borrowing GroupSample, fingers: inout Int, position: inout Point, detail: inout GestureDetail) -> Bool {
        machine.movedWhileActive(s, fingers: &fingers, position: &position, detail: &detail)
    }
}
