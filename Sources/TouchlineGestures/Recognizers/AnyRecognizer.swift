import TouchlineCore

/// Any recognizer of any kind as one value, for code that handles one recognizer at a time
/// outside a graph (the state machine walks in the tests). The graph itself holds every
/// recognizer in place (UnsafeGraphStorage.swift); going through this existential box copies
/// the recognizer on every input, too costly on the per-frame path.
public struct AnyRecognizer: Hashable, Sendable {
    public private(set) var recognizer: any GestureRecognizer

    public init(_ kind: RecognizerKind, surface: Size) {
        func make<R: GestureRecognizer>(_ r: R.Type) -> any GestureRecognizer {
            R(parameters: kind.parameters(of: r) ?? r.defaultParameters, surface: surface)
        }
        recognizer = make(kind.recognizer)
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        let (next, action) = recognizer.stepped(by: .input(input))
        recognizer = next
        return action
    }

    /// An answer of the carry (a carrier's: `GestureRecognizer.carries`).
    public mutating func carried(_ input: CarryInput) -> RecognizerAction {
        let (next, action) = recognizer.stepped(by: .carried(input))
        recognizer = next
        return action
    }

    public var deadline: Timestamp? { recognizer.deadline }

    /// The current state's name, for transition logs and explain lines.
    public var stateName: StaticString { recognizer.stateName }

    public static func == (a: AnyRecognizer, b: AnyRecognizer) -> Bool { AnyHashable(a.recognizer) == AnyHashable(b.recognizer) }
    public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(recognizer)) }
}

/// One step of a recognizer held as `any GestureRecognizer` (opened by the call).
private enum Step {
    case input(RecognizerInput)
    case carried(CarryInput)
}

extension GestureRecognizer {
    fileprivate func stepped(by step: Step) -> (any GestureRecognizer, RecognizerAction) {
        var r = self
        let action: RecognizerAction
        switch step {
        case let .input(input): action = r.handle(input)
        case let .carried(input): action = r.carried(input)
        }
        return (r, action)
    }
}
