import TouchlineCore

/// Peek and pop (3D Touch; Flutter's ForcePressGestureRecognizer, whose 0.4 and 0.85 are the
/// defaults here): a still press whose force passes `peek` begins a peek, `changed` carries
/// `progress` toward `pop`, passing `pop` gives a discrete `pop`, and the peek ends at the lift.
/// The force is the highest normalized pressure of the contacts, else (`source`) their touch
/// major in mm, else the time held still. Diagram: docs/gestures.md#peek.
///
/// One recognizer, three gesture names: `peek` (continuous), `pop` and `peekActions`
/// (discrete). The name of an event is its fields' (`GestureFields.gesture`), so the graph and
/// the arena see one member whatever it says.
public struct PeekRecognizer: Hashable, Sendable {
    /// No turn is read: the graph skips the atan2 for it (GestureRecognizer.readsRotation).
    public static var readsRotation: Bool { false }
    /// What drives a peek: the `source` field of its events.
    public enum Source: UInt8, BitwiseCopyable, Hashable, Sendable, CustomStringConvertible {
        case pressure, size, time
        public var name: StaticString {
            switch self {
            case .pressure: return "pressure"
            case .size: return "size"
            case .time: return "time"
            }
        }
        public var description: String { name.description }
    }

    /// How a peek that began ended: the `end` field of its `ended` event.
    public enum End: UInt8, BitwiseCopyable, Hashable, Sendable {
        /// Not an `ended` event.
        case none
        /// Lifted before the pop.
        case dismissed
        /// The force fell below `peek` less the hysteresis while the contacts stayed down; a
        /// harder press begins a new peek.
        case released
        /// Lifted after the pop.
        case popped
    }

    public struct Press: BitwiseCopyable, Hashable, Sendable {
        public var start: Timestamp
        public var source: Source
        public var fingers: Int
        public var position: Point
        /// Where the peek began (a swipe up for the actions is measured from here).
        public var anchor: Point
        public var travel: Double
        var pressureLevel: UInt16
        var sizeLevel: UInt16
        /// `peekActions` was sent in this peek.
        public var actions: Bool
    }

    public enum State: BitwiseCopyable, Hashable, Sendable {
        case idle
        /// Down, still, below `peek`.
        case pressing(Press)
        /// `peek` reached, claimed, waiting for the arena.
        case claimed(Press)
        /// Won: `began` sent.
        case peeking(Press)
        /// Won, the peek ended by releasing the force; the contacts are still down.
        case released(Press)
        /// `pop` sent; the peek ends at the lift.
        case popped(Press)

        public var name: StaticString {
            switch self {
            case .idle: return "idle"
            case .pressing: return "pressing"
            case .claimed: return "claimed"
            case .peeking: return "peeking"
            case .released: return "released"
            case .popped: return "popped"
            }
        }
    }

    /// The parameters without their `source` word (a recognizer is a plain value).
    struct Settings: BitwiseCopyable, Hashable, Sendable {
        var peekPressure, popPressure, hysteresis, peekSize, popSize, sizeHysteresis: Double
        var peekDuration, popDuration: Interval
        var slop, actionsDistance: Double
    }
    let parameters: Settings
    let setting: PeekParameters.SourceSetting
    public private(set) var state: State = .idle

    public init(parameters p: PeekParameters) {
        parameters = Settings(peekPressure: p.peekPressure, popPressure: p.popPressure, hysteresis: p.hysteresis, peekSize: p.peekSize,
                              popSize: p.popSize, sizeHysteresis: p.sizeHysteresis, peekDuration: p.peekDuration, popDuration: p.popDuration,
                              slop: p.slop, actionsDistance: p.actionsDistance)
        setting = PeekParameters.SourceSetting(p.source)
    }

    public var deadline: Timestamp? {
        switch state {
        case let .pressing(p) where p.source == .time: return p.start + parameters.peekDuration
        case let .peeking(p) where p.source == .time: return p.start + parameters.popDuration
        case .idle, .pressing, .claimed, .peeking, .released, .popped: return nil
        }
    }

    // MARK: - Force

    /// The source for a press that lands on `s` (auto: pressure, else size, else time); nil
    /// when the one the configuration names is not reported.
    func source(_ s: borrowing GroupSample) -> Source? {
        let pressure = s.pressureLevel != ContactForce.absent, size = s.sizeLevel != ContactForce.absent
        switch setting {
        case .auto: return pressure ? .pressure : size ? .size : .time
        case .pressure: return pressure ? .pressure : nil
        case .size: return size ? .size : nil
        case .time: return .time
        }
    }

    /// The force now, in the source's unit (normalized pressure, mm), and its thresholds.
    func force(_ p: Press) -> Double {
        switch p.source {
        case .pressure: return ContactForce.pressure(p.pressureLevel) ?? 0
        case .size: return ContactForce.size(p.sizeLevel) ?? 0
        case .time: return 0
        }
    }
    func thresholds(_ source: Source) -> (peek: Double, pop: Double, release: Double, unit: ReasonUnit) {
        switch source {
        case .pressure: return (parameters.peekPressure, parameters.popPressure, parameters.peekPressure - parameters.hysteresis, .normalized)
        case .size: return (parameters.peekSize, parameters.popSize, parameters.peekSize - parameters.sizeHysteresis, .millimetres)
        case .time: return (parameters.peekDuration.milliseconds, parameters.popDuration.milliseconds, -1, .milliseconds)
        }
    }
    static func quantity(_ source: Source) -> StaticString {
        switch source {
        case .pressure: return "pressure"
        case .size: return "touch major"
        case .time: return "held"
        }
    }

    /// 0 at `peek`, 1 at `pop`.
    func progress(_ p: Press, at time: Timestamp) -> Double {
        let t = thresholds(p.source)
        let value = p.source == .time ? (time - p.start).milliseconds : force(p)
        return min(max((value - t.peek) / (t.pop - t.peek), 0), 1)
    }

    // MARK: - Events

    private func fields(_ p: Press, at time: Timestamp, end: End = .none) -> PeekFields {
        PeekFields(source: p.source, pressureLevel: p.pressureLevel, sizeLevel: p.sizeLevel, progress: progress(p, at: time), end: end)
    }
    private func peek(_ phase: GesturePhase, _ p: Press, at time: Timestamp, end: End = .none) -> Emission {
        Emission(phase, fingers: p.fingers, position: p.position, detail: GestureDetail(fields(p, at: time, end: end)))
    }
    private func pop(_ p: Press) -> Emission {
        Emission(.recognized, fingers: p.fingers, position: p.position,
                 detail: GestureDetail(PopFields(source: p.source, pressureLevel: p.pressureLevel, sizeLevel: p.sizeLevel)))
    }
    private func actions(_ p: Press) -> Emission {
        Emission(.recognized, fingers: p.fingers, position: p.position,
                 detail: GestureDetail(PeekActionsFields(source: p.source, pressureLevel: p.pressureLevel, sizeLevel: p.sizeLevel)))
    }

    /// The press after sample `s`.
    private static func following(_ p: Press, _ s: borrowing GroupSample) -> Press {
        var p = p
        p.fingers = max(p.fingers, s.present)
        p.position = s.centroid
        p.travel = max(p.travel, s.maxTravel)
        p.pressureLevel = s.pressureLevel
        p.sizeLevel = s.sizeLevel
        return p
    }

    /// Pressing, after an input: fails when it moved past `slop`, claims when the force
    /// reached `peek`.
    private mutating func pressing(_ p: Press) -> RecognizerAction {
        if p.travel > parameters.slop {
            state = .idle
            return .fail(.exceeded("movement", value: p.travel, limit: parameters.slop, .millimetres))
        }
        let t = thresholds(p.source)
        if p.source != .time && force(p) >= t.peek {
            state = .claimed(p)
            return .claim(.reached(PeekRecognizer.quantity(p.source), value: force(p), limit: t.peek, t.unit))
        }
        state = .pressing(p)
        return .none
    }

    /// Peeking, after motion or a change of force: the pop, a release, the actions, or a
    /// `changed`, in that order.
    private mutating func peeking(_ p: Press, at time: Timestamp) -> RecognizerAction {
        var p = p
        let t = thresholds(p.source)
        if p.source != .time && force(p) >= t.pop {
            state = .popped(p)
            return .emit(pop(p))
        }
        if p.source != .time && force(p) < t.release {
            state = .released(p)
            return .emit(peek(.ended, p, at: time, end: .released))
        }
        let up = p.anchor.y - p.position.y
        if !p.actions && up >= parameters.actionsDistance && abs(p.position.x - p.anchor.x) < up {
            p.actions = true
            state = .peeking(p)
            return .emit(actions(p))
        }
        state = .peeking(p)
        return .emit(peek(.changed, p, at: time))
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerAction {
        switch (state, input) {
        case let (.idle, .contactDown(s)):
            guard let source = source(s) else {
                state = .idle
                return .fail(.note(setting == .pressure ? "the device reports no pressure" : "the device reports no touch size"))
            }
            let p = Press(start: s.time, source: source, fingers: s.present, position: s.centroid, anchor: s.centroid, travel: s.maxTravel,
                          pressureLevel: s.pressureLevel, sizeLevel: s.sizeLevel, actions: false)
            return pressing(p)

        case let (.pressing(p), .contactDown(s)), let (.pressing(p), .contactsMoved(s)):
            return pressing(PeekRecognizer.following(p, s))

        case let (.pressing(p), .contactLifted(s)):
            if s.remaining > 0 { return pressing(PeekRecognizer.following(p, s)) }
            state = .idle
            let t = thresholds(p.source)
            let value = p.source == .time ? (s.time - p.start).milliseconds : force(p)
            return .fail(.shortOf(PeekRecognizer.quantity(p.source), value: value, limit: t.peek, t.unit))

        case (.pressing, .contactCancelled), (.claimed, .contactCancelled), (.released, .contactCancelled):
            state = .idle
            return .fail(.note("a contact was cancelled"))

        case let (.pressing(p), .deadlineReached(time)):
            // Only the time source publishes a deadline while pressing.
            state = .claimed(p)
            return .claim(.reached("held", value: (time - p.start).milliseconds, limit: parameters.peekDuration.milliseconds, .milliseconds))

        case let (.claimed(p), .contactDown(s)), let (.claimed(p), .contactsMoved(s)):
            // Not won yet: a press that starts to move is a drag, not a peek.
            let q = PeekRecognizer.following(p, s)
            if q.travel > parameters.slop {
                state = .idle
                return .fail(.exceeded("movement", value: q.travel, limit: parameters.slop, .millimetres))
            }
            state = .claimed(q)
            return .none

        case let (.claimed(p), .contactLifted(s)):
            // A press lifted before its claim stood (a hard tap, where a tap waits first) is
            // no peek: nothing was shown.
            if s.remaining > 0 {
                state = .claimed(PeekRecognizer.following(p, s))
                return .none
            }
            state = .idle
            return .fail(.note("lifted before its claim stood"))

        case (.claimed(var p), .accepted(let time)):
            p.anchor = p.position
            state = .peeking(p)
            return .emit(peek(.began, p, at: time))

        case let (.peeking(p), .contactDown(s)), let (.popped(p), .contactDown(s)), let (.released(p), .contactDown(s)):
            // Any number of fingers: the force is the hardest one's.
            let q = PeekRecognizer.following(p, s)
            switch state {
            case .peeking: state = .peeking(q)
            case .popped: state = .popped(q)
            default: state = .released(q)
            }
            return .none

        case let (.peeking(p), .contactsMoved(s)):
            return peeking(PeekRecognizer.following(p, s), at: s.time)

        case let (.peeking(p), .contactLifted(s)):
            let q = PeekRecognizer.following(p, s)
            if s.remaining > 0 {
                state = .peeking(q)
                return .none
            }
            state = .idle
            return .finish(peek(.ended, q, at: s.time, end: .dismissed), alsoEnded: false)

        case let (.peeking(p), .contactCancelled(s)):
            state = .idle
            return .finish(peek(.cancelled, p, at: s.time), alsoEnded: false)

        case let (.peeking(p), .deadlineReached):
            // The time source: held still to `popDuration`.
            state = .popped(p)
            return .emit(pop(p))

        case let (.released(p), .contactsMoved(s)):
            var q = PeekRecognizer.following(p, s)
            if force(q) >= thresholds(q.source).peek {
                q.anchor = q.position
                q.actions = false
                state = .peeking(q)
                return .emit(peek(.began, q, at: s.time))
            }
            state = .released(q)
            return .none

        case let (.released(p), .contactLifted(s)):
            if s.remaining > 0 {
                state = .released(PeekRecognizer.following(p, s))
                return .none
            }
            // Its peek already ended; nothing more to say, and the arena is done with it.
            state = .idle
            return .fail(.note("lifted after its peek was released"))

        case let (.popped(p), .contactsMoved(s)):
            state = .popped(PeekRecognizer.following(p, s))
            return .none

        case let (.popped(p), .contactLifted(s)):
            let q = PeekRecognizer.following(p, s)
            if s.remaining > 0 {
                state = .popped(q)
                return .none
            }
            state = .idle
            return .finish(peek(.ended, q, at: s.time, end: .popped), alsoEnded: false)

        case let (.popped(p), .contactCancelled(s)):
            state = .idle
            return .finish(peek(.cancelled, p, at: s.time), alsoEnded: false)

        case (_, .rejected):
            state = .idle
            return .none

        case (.idle, .contactsMoved), (.idle, .contactLifted), (.idle, .contactCancelled), (.idle, .deadlineReached),
             (.idle, .accepted), (.pressing, .accepted), (.claimed, .deadlineReached), (.peeking, .accepted),
             (.released, .deadlineReached), (.released, .accepted), (.popped, .deadlineReached), (.popped, .accepted):
            let name = state.name
            state = .idle
            return .impossible(state: name, input: input.name)
        }
    }
}

// MARK: - The kind: parameters, registration, event fields

public struct PeekParameters: Hashable, Sendable {
    /// `"auto"` (pressure where the device reports it, else touch size, else time),
    /// `"pressure"`, `"size"` or `"time"`.
    public var source = "auto"
    public var peekPressure = Thresholds.peekPressure
    public var popPressure = Thresholds.popPressure
    public var hysteresis = Thresholds.peekHysteresis
    public var peekSize = Thresholds.peekSize
    public var popSize = Thresholds.popSize
    public var sizeHysteresis = Thresholds.peekSizeHysteresis
    public var peekDuration = Thresholds.longPressDuration
    public var popDuration = Thresholds.popDuration
    public var slop = Thresholds.longPressSlop
    public var actionsDistance = Thresholds.peekActionsDistance
    public init() {}

    public static let sources = ["auto", "pressure", "size", "time"]

    enum SourceSetting: UInt8, BitwiseCopyable, Hashable, Sendable {
        case auto, pressure, size, time
        init(_ word: String) {
            switch word {
            case "pressure": self = .pressure
            case "size": self = .size
            case "time": self = .time
            default: self = .auto
            }
        }
    }
}

extension PeekRecognizer: GestureRecognizer {
    public static let gesture = GestureKind("peek")
    public static var eventFields: [any GestureFields.Type] { [PeekFields.self, PopFields.self, PeekActionsFields.self] }
    /// A peek's own events (`pop` and `peekActions` are `recognized`).
    public static var phases: [GesturePhase] { GesturePhase.continuous }
    public static var defaultParameters: PeekParameters { PeekParameters() }
    public static let parameters: [RecognizerParameter<PeekParameters>] = [
        .word("source", \.source, PeekParameters.sources),
        .level("peekPressure", \.peekPressure),
        .level("popPressure", \.popPressure),
        .level("hysteresis", \.hysteresis),
        .distance("peekSize", \.peekSize),
        .distance("popSize", \.popSize),
        .distance("sizeHysteresis", \.sizeHysteresis),
        .duration("peekDuration", \.peekDuration),
        .duration("popDuration", \.popDuration),
        .distance("slop", \.slop, pen: Thresholds.penPressSlop),
        .distance("actionsDistance", \.actionsDistance),
    ]

    public static func relationProblem(_ p: PeekParameters) -> ParameterProblem? {
        func n(_ v: Double) -> String { GraphConfiguration.number(v) }
        func ms(_ d: Interval) -> String { GraphConfiguration.milliseconds(d) }
        func problem(_ key: String, _ related: String, _ found: String, _ expected: String) -> ParameterProblem {
            ParameterProblem(key: key, found: found, expected: expected, isRelation: true, relatedKey: related)
        }
        if p.peekPressure >= p.popPressure {
            return problem("popPressure", "peekPressure", "popPressure \(n(p.popPressure)) is not more than peekPressure \(n(p.peekPressure))", "peekPressure < popPressure")
        }
        if p.hysteresis > p.peekPressure {
            return problem("hysteresis", "peekPressure", "hysteresis \(n(p.hysteresis)) is more than peekPressure \(n(p.peekPressure))", "hysteresis ≤ peekPressure")
        }
        if p.peekSize >= p.popSize {
            return problem("popSize", "peekSize", "popSize \(n(p.popSize)) mm is not more than peekSize \(n(p.peekSize)) mm", "peekSize < popSize")
        }
        if p.sizeHysteresis > p.peekSize {
            return problem("sizeHysteresis", "peekSize", "sizeHysteresis \(n(p.sizeHysteresis)) mm is more than peekSize \(n(p.peekSize)) mm", "sizeHysteresis ≤ peekSize")
        }
        if p.peekDuration >= p.popDuration {
            return problem("popDuration", "peekDuration", "popDuration \(ms(p.popDuration)) is not more than peekDuration \(ms(p.peekDuration))", "peekDuration < popDuration")
        }
        return nil
    }

    public init(parameters: PeekParameters, surface: Size) { self.init(parameters: parameters) }

    /// The source `auto` gives a device's touches (what `touchline inspect` says): pressure
    /// when the frame assembler normalizes one for it (ABS_MT_PRESSURE on a multitouch device,
    /// ABS_PRESSURE on a single-touch one), else touch size (ABS_MT_TOUCH_MAJOR), else time.
    /// Through libinput, whose touch API has neither, a device gets time.
    public static func autoSource(of device: DeviceDescription) -> Source {
        let pressure = device.isMultitouch ? device.absinfo[EventCodes.ABS_MT_PRESSURE] : device.absinfo[EventCodes.ABS_PRESSURE]
        if pressure != nil { return .pressure }
        return device.touchMajorAxis != nil ? .size : .time
    }
    public var stateName: StaticString { state.name }
    public static var readsForce: Bool { true }
}

extension GestureKind {
    public static let peek = PeekRecognizer.gesture
    /// The discrete pop of a peek recognizer.
    public static let pop = GestureKind("pop")
    /// The quick actions of a peek recognizer (a swipe up while peeking).
    public static let peekActions = GestureKind("peekActions")
}

extension RecognizerKind {
    public static func peek(_ parameters: PeekParameters = PeekParameters()) -> RecognizerKind {
        RecognizerKind(PeekRecognizer.self, parameters)
    }
}

/// The fields every peek, pop and peekActions event shares: `source`, then `pressure`
/// (normalized) and `touchMajor` (mm) where the contacts report them.
/// The keys `forEachForceField` may give.
private let forceFieldNames: [StaticString] = ["source", "pressure", "touchMajor"]

private func forEachForceField(_ source: PeekRecognizer.Source, _ pressure: UInt16, _ size: UInt16, _ body: (StaticString, FieldValue) -> Void) {
    body("source", .word(source.name))
    if let p = ContactForce.pressure(pressure) { body("pressure", .number(p, decimals: 3)) }
    if let m = ContactForce.size(size) { body("touchMajor", .number(m, decimals: 2)) }
}

/// A peek's fields: `source`, `pressure`, `touchMajor`, `progress` (0 at the peek threshold,
/// 1 at the pop threshold) and, on `ended`, `end` (`dismissed`, `released`, `popped`).
public struct PeekFields: GestureFields {
    public static var fieldNames: [StaticString] { forceFieldNames + ["progress", "end"] }
    public static var wordFieldNames: [StaticString] { ["source", "end"] }
    public var source: PeekRecognizer.Source
    var pressureLevel: UInt16
    var sizeLevel: UInt16
    public var progress: Double
    public var end: PeekRecognizer.End
    public var pressure: Double? { ContactForce.pressure(pressureLevel) }
    public var touchMajor: Double? { ContactForce.size(sizeLevel) }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) {
        forEachForceField(source, pressureLevel, sizeLevel, body)
        body("progress", .number(progress, decimals: 3))
        switch end {
        case .none: break
        case .dismissed: body("end", .word("dismissed"))
        case .released: body("end", .word("released"))
        case .popped: body("end", .word("popped"))
        }
    }
}

/// A pop's fields (gesture `pop`): `source`, `pressure`, `touchMajor`.
public struct PopFields: GestureFields {
    public static var fieldNames: [StaticString] { forceFieldNames }
    public static var wordFieldNames: [StaticString] { ["source"] }
    public var source: PeekRecognizer.Source
    var pressureLevel: UInt16
    var sizeLevel: UInt16
    public static var gesture: GestureKind? { .pop }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) { forEachForceField(source, pressureLevel, sizeLevel, body) }
}

/// The quick actions' fields (gesture `peekActions`): `source`, `pressure`, `touchMajor`.
public struct PeekActionsFields: GestureFields {
    public static var fieldNames: [StaticString] { forceFieldNames }
    public static var wordFieldNames: [StaticString] { ["source"] }
    public var source: PeekRecognizer.Source
    var pressureLevel: UInt16
    var sizeLevel: UInt16
    public static var gesture: GestureKind? { .peekActions }
    public func forEachField(_ body: (StaticString, FieldValue) -> Void) { forEachForceField(source, pressureLevel, sizeLevel, body) }
}
