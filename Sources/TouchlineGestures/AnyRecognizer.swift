import TouchlineCore

/// Any recognizer as a concrete value in one enum (no existentials, principle 10), for code that
/// handles one recognizer of any kind (the state machine walks in the tests). The graph itself
/// keeps one array per kind (`GraphStore`): `handle` here copies the recognizer out of the
/// enum and back, too costly on the per-frame path.
public enum AnyRecognizer: Hashable, Sendable {
    case tap(TapRecognizer)
    case longPress(LongPressRecognizer)
    case pan(PanRecognizer)
    case swipe(SwipeRecognizer)
    case edgeSwipe(EdgeSwipeRecognizer)
    case pinch(PinchRecognizer)
    case rotate(RotateRecognizer)

    public init(_ kind: RecognizerKind, surface: Size) {
        switch kind {
        case let .tap(p): self = .tap(TapRecognizer(parameters: p))
        case let .longPress(p): self = .longPress(LongPressRecognizer(parameters: p))
        case let .pan(p): self = .pan(PanRecognizer(parameters: p))
        case let .swipe(p): self = .swipe(SwipeRecognizer(parameters: p))
        case let .edgeSwipe(p): self = .edgeSwipe(EdgeSwipeRecognizer(parameters: p, surface: surface))
        case let .pinch(p): self = .pinch(PinchRecognizer(parameters: p))
        case let .rotate(p): self = .rotate(RotateRecognizer(parameters: p))
        }
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch self {
        case var .tap(r): let a = r.handle(input); self = .tap(r); return a
        case var .longPress(r): let a = r.handle(input); self = .longPress(r); return a
        case var .pan(r): let a = r.handle(input); self = .pan(r); return a
        case var .swipe(r): let a = r.handle(input); self = .swipe(r); return a
        case var .edgeSwipe(r): let a = r.handle(input); self = .edgeSwipe(r); return a
        case var .pinch(r): let a = r.handle(input); self = .pinch(r); return a
        case var .rotate(r): let a = r.handle(input); self = .rotate(r); return a
        }
    }

    public var deadline: Timestamp? {
        switch self {
        case let .tap(r): return r.deadline
        case let .longPress(r): return r.deadline
        case let .pan(r): return r.deadline
        case let .swipe(r): return r.deadline
        case let .edgeSwipe(r): return r.deadline
        case let .pinch(r): return r.deadline
        case let .rotate(r): return r.deadline
        }
    }

    /// The current state's name, for transition logs and explain lines.
    public var stateName: StaticString {
        switch self {
        case let .tap(r): return r.state.name
        case let .longPress(r): return r.state.name
        case let .pan(r): return r.state.name
        case let .swipe(r): return r.state.name
        case let .edgeSwipe(r): return r.state.name
        case let .pinch(r): return r.state.name
        case let .rotate(r): return r.state.name
        }
    }
}
