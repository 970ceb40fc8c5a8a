import TouchlineCore

// Recognizers come from a table (docs/gestures.md#adding-a-recognizer-kind). A kind is one file:
// its state machine conforms to `GestureRecognizer`, which asks for everything the rest of the
// pipeline needs to know about the kind — its name, its parameters (config keys, units, limits),
// its event fields — and one line in `RecognizerRegistry.standard` makes it known. The graph,
// the config reader, validation and the event writers ask the kind; none of them switches over
// the kinds.

/// One kind of recognizer: its state machine and everything the pipeline needs to know about
/// the kind. The graph holds each recognizer by value, in place (UnsafeGraphStorage.swift), so
/// a kind must be a plain value (`BitwiseCopyable`: no references, nothing to release). How
/// the graph reaches it there is the graph's own business (`StoredKind`, internal): a kind
/// written in another module implements only the requirements below.
///
/// A recognizer answers each input with an action and never decides another's fate (the arena
/// does, Arena.swift). It reads no clock: time comes in the inputs, and a pending timeout is
/// published as `deadline`.
public protocol GestureRecognizer: BitwiseCopyable, Hashable, Sendable {
    /// The kind's parameters as a config sets them.
    associatedtype Parameters: Hashable, Sendable

    /// The kind's name: `kind = "…"` in a config, `gesture` in its events.
    static var gesture: GestureKind { get }
    /// The parameters' defaults (a config's unset keys).
    static var defaultParameters: Parameters { get }
    /// Every parameter as a config names it, in documentation order, with its unit, how it is
    /// set and its limits.
    static var parameters: [RecognizerParameter<Parameters>] { get }
    /// A problem between parameters that are each within their limits (for example a minimum
    /// above a maximum); nil when there is none.
    static func relationProblem(_ parameters: Parameters) -> ParameterProblem?

    init(parameters: Parameters, surface: Size)

    /// One step of the state machine.
    mutating func handle(_ input: RecognizerInput) -> RecognizerAction
    /// When the recognizer wants `deadlineReached`; nil when it waits for no time.
    var deadline: Timestamp? { get }
    /// The current state's name, for transition logs and explain lines.
    var stateName: StaticString { get }
    /// The per-frame fast path of a continuous gesture (docs/performance.md): when it is
    /// active, the same transition as `handle(.contactsMoved(s))` taken in place, with the
    /// `changed` event's own fields written out; false (and nothing done) otherwise, and the
    /// input then goes through `handle`. A discrete kind keeps the default, false.
    mutating func movedWhileActive(_ s: borrowing GroupSample, fingers: inout Int, position: inout Point, detail: inout GestureDetail) -> Bool
    /// True when the kind implements `movedWhileActive` (the graph asks only those).
    static var continuesInPlace: Bool { get }
    /// True when the kind reads `GroupSample.pressure` or `touchMajor`: the graph keeps them
    /// only when one of its kinds does, so that the others pay nothing for them per frame.
    static var readsForce: Bool { get }
    /// True when the kind reads `GroupSample.rotationDelta`: a frame computes the turn (an
    /// atan2) only when a recognizer of such a kind receives its contacts, or when a contact
    /// lands or lifts; otherwise the sample's `rotationDelta` is 0. The default is true, so
    /// that a kind written elsewhere never reads a 0 it did not ask for; the shipped kinds that
    /// do not read it say so (false), which is what saves the atan2.
    static var readsRotation: Bool { get }

    /// The kind carries its contacts across targets once it wins (a drag): it may answer
    /// `locate`, its target is draggable (contacts landing on draggable targets while it
    /// carries are captured for it), and it hears `carried(_:)`. docs/gestures.md#carrying.
    static var carries: Bool { get }
    /// The kind answers a carry hovering over its target (spring-loading) instead of contacts:
    /// it competes in an arena of its own, not its target's, and gets the carried contacts as its inputs
    /// (`contactDown` when the carry enters the target, `contactsMoved`, `contactLifted` when
    /// it leaves or ends). docs/gestures.md#carrying.
    static var hovers: Bool { get }
    /// An input from the carry (a carrier's only: `carries`).
    mutating func carried(_ input: CarryInput) -> RecognizerAction
    /// The fields types of the events the kind says (its `detail`s): what an `[[action]]` on
    /// the kind may filter on besides the common keys (docs/live.md#actions).
    static var eventFields: [any GestureFields.Type] { get }
    /// The phases of the events it says under its own name (`gesture`), as its state machine
    /// emits them: what an `[[action]]`'s `phase` on the kind may be, so that `phase = "began"`
    /// on a tap, which never fires, is refused (docs/live.md#actions). Held to the recordings'
    /// events by FieldNamesTests. Default: every phase (nothing refused).
    static var phases: [GesturePhase] { get }
    /// The earliest the kind can claim, from its parameters: how long after its contacts land
    /// and how far one of them moves at the least (a long press: its `minimumDuration`; a
    /// swipe: its `minimumDistance`). Validation compares it with a consuming recognizer's hold
    /// bound (docs/live.md#pass-through): one that cannot claim before the bound releases its
    /// contacts would never keep a touch from the clone. The default: it may claim at once.
    static func claimFloor(_ parameters: Parameters) -> ClaimFloor
}

/// The earliest a recognizer can claim (`GestureRecognizer.claimFloor`), and with what: how
/// many fingers at the fewest, and where they must land. Pass-through holds a contact only for
/// a consuming recognizer that could take it (docs/live.md#pass-through): one landing outside
/// its `zone`, or alone when it needs fingers landing together, is not held for it.
public struct ClaimFloor: Hashable, Sendable {
    /// After its (first) contact lands.
    public var time: Interval
    /// mm one of its contacts moved from where it landed.
    public var distance: Double
    /// The fewest fingers it claims with (1: any touch may become it).
    public var fingers: Int
    /// Where a contact must land to be one of its own (an edge swipe's watched edges); nil:
    /// anywhere. The graph gives such a recognizer only its own contacts (docs/gestures.md,
    /// "Contacts a recognizer takes").
    public var zone: LandingZone?
    public init(time: Interval = .zero, distance: Double = 0, fingers: Int = 1, zone: LandingZone? = nil) {
        self.time = time
        self.distance = distance
        self.fingers = max(1, fingers)
        self.zone = zone
    }
    public static let immediate = ClaimFloor()
}

/// Where a contact may land to be a recognizer's: within `margin` mm of one of `edges`.
public struct LandingZone: Hashable, Sendable {
    public var edges: ScreenEdges
    public var margin: Double
    public init(edges: ScreenEdges, margin: Double) {
        self.edges = edges
        self.margin = margin
    }

    /// Whether a contact landing at `p` on `surface` lands in the zone (as the edge swipe's
    /// own test: the nearest watched edge within the margin).
    @inline(__always) public func contains(_ p: Point, on surface: Size) -> Bool {
        EdgeSwipeMeasure.nearestEdge(p, on: surface, among: edges).1 <= margin
    }
}

extension GestureRecognizer {
    public static func relationProblem(_ parameters: Parameters) -> ParameterProblem? { nil }
    public static func claimFloor(_ parameters: Parameters) -> ClaimFloor { .immediate }

    public static var continuesInPlace: Bool { false }
    public static var carries: Bool { false }
    public static var hovers: Bool { false }
    public mutating func carried(_ input: CarryInput) -> RecognizerAction { .none }

    public static var readsForce: Bool { false }
    public static var readsRotation: Bool { true }
    public static var phases: [GesturePhase] { GesturePhase.gestures }

    @inline(__always)
    public mutating func movedWhileActive(_ s: borrowing GroupSample, fingers: inout Int, position: inout Point, detail: inout GestureDetail) -> Bool {
        false
    }

    /// The first parameter outside its limits, in declaration order, then a relation between
    /// them: validation's one check, which the config reader also asks after every value it
    /// sets.
    public static func problem(_ parameters: Parameters) -> ParameterProblem? {
        for declared in Self.parameters {
            if let (found, expected) = declared.problem(parameters) {
                return ParameterProblem(key: declared.name, found: found, expected: expected)
            }
        }
        return relationProblem(parameters)
    }
}

/// A parameter outside its limits: the key, the value as a message shows it, what is allowed.
public struct ParameterProblem: Hashable, Sendable {
    public var key: String
    public var found: String
    public var expected: String
    /// A relation between parameters (minimum above maximum), not one value's range.
    public var isRelation: Bool
    /// A relation's other key (`key` is the one it blames): where a file locates the problem
    /// when it sets only this one.
    public var relatedKey: String?
    public init(key: String, found: String, expected: String, isRelation: Bool = false, relatedKey: String? = nil) {
        self.key = key
        self.found = found
        self.expected = expected
        self.isRelation = isRelation
        self.relatedKey = relatedKey
    }
}

/// The unit a parameter is declared in.
public enum ParameterUnit: String, Sendable, CaseIterable {
    case count, flag, milliseconds = "ms", millimetres = "mm", millimetresPerSecond = "mm/s", degrees = "deg"
    /// A plain number from 0 to 1 (normalized pressure).
    case normalized
    /// One of a few words (peek's `source`); the kind's limits say which.
    case word
    /// A list of one or more of a few words (the edge swipe's `edges = ["left"]`); the kind
    /// declares which (`RecognizerKind.allowedWords(of:)`).
    case words
}

/// A config value converted to a parameter's unit, in the forms a setter takes.
public struct ParameterValue: Sendable {
    /// The value in the parameter's unit (1 or 0 for a flag).
    public var number: Double
    /// A count's value.
    public var count: Int
    /// Milliseconds as an interval; one no Int64 of microseconds holds (or NaN) is past every
    /// limit, for validation to refuse.
    public var interval: Interval { Interval(clampingMilliseconds: number) }
    public var flag: Bool { number != 0 }
    /// A word's value (empty for the other units).
    public var word: String
    /// A list of words' value (empty for the other units).
    public var words: [String]
    public init(number: Double, count: Int = 0, word: String = "", words: [String] = []) {
        self.number = number
        self.count = count
        self.word = word
        self.words = words
    }
}

extension Interval {
    /// Milliseconds, clamped to what an Int64 of microseconds holds (NaN: past every limit).
    init(clampingMilliseconds milliseconds: Double) {
        let us = (milliseconds * 1000).rounded()
        if us.isNaN || us >= 9.2e18 { self.init(microseconds: .max) } else if us <= -9.2e18 { self.init(microseconds: .min) } else {
            self.init(microseconds: Int64(us))
        }
    }
}

/// One parameter of a kind: its config key, its unit, how a value is set and its limits.
public struct RecognizerParameter<Parameters>: Sendable {
    public let name: String
    public let unit: ParameterUnit
    let set: @Sendable (inout Parameters, ParameterValue) -> Void
    /// The value as a message shows it and what is allowed, when it is outside its limits.
    let problem: @Sendable (Parameters) -> (found: String, expected: String)?
    /// The value for a pen's contacts, when the kind ships one (docs/config.md#tools): a round
    /// that a pen starts uses it unless the configuration says otherwise.
    public let pen: ParameterValue?
    /// The value in the parameter's unit, for a number a search may vary (`touchline tune`,
    /// docs/tuning.md); nil for counts, flags and words, which it leaves alone.
    let number: (@Sendable (Parameters) -> Double)?
    /// The words a `.word` or `.words` parameter takes; empty for the other units.
    public let words: [String]

    public init(_ name: String, _ unit: ParameterUnit, set: @escaping @Sendable (inout Parameters, ParameterValue) -> Void,
                problem: @escaping @Sendable (Parameters) -> (found: String, expected: String)?, pen: ParameterValue? = nil,
                number: (@Sendable (Parameters) -> Double)? = nil, words: [String] = []) {
        self.name = name
        self.unit = unit
        self.set = set
        self.problem = problem
        self.pen = pen
        self.number = number
        self.words = words
    }

    /// A count of fingers (0: any when `anyAllowed`).
    public static func fingers(_ name: String, anyAllowed: Bool, _ key: WritableKeyPath<Parameters, Int> & Sendable) -> Self {
        Self(name, .count, set: { $0[keyPath: key] = $1.count }, problem: { ParameterLimits.fingers($0[keyPath: key], anyAllowed: anyAllowed) })
    }
    /// A duration, more than 0 and at most the longest allowed.
    public static func duration(_ name: String, _ key: WritableKeyPath<Parameters, Interval> & Sendable) -> Self {
        Self(name, .milliseconds, set: { $0[keyPath: key] = $1.interval }, problem: { ParameterLimits.duration($0[keyPath: key]) },
             number: { Double($0[keyPath: key].microseconds) / 1000 })
    }
    /// A distance in mm, 0 or more; `pen`, the kind's value for a pen's contacts, if it ships one.
    public static func distance(_ name: String, _ key: WritableKeyPath<Parameters, Double> & Sendable, pen: Double? = nil) -> Self {
        Self(name, .millimetres, set: { $0[keyPath: key] = $1.number }, problem: { ParameterLimits.distance($0[keyPath: key]) },
             pen: pen.map { ParameterValue(number: $0) }, number: { $0[keyPath: key] })
    }
    /// A normalized level, 0…1.
    public static func level(_ name: String, _ key: WritableKeyPath<Parameters, Double> & Sendable) -> Self {
        Self(name, .normalized, set: { $0[keyPath: key] = $1.number }, problem: { ParameterLimits.level($0[keyPath: key]) },
             number: { $0[keyPath: key] })
    }
    /// One of `words`.
    public static func word(_ name: String, _ key: WritableKeyPath<Parameters, String> & Sendable, _ words: [String]) -> Self {
        Self(name, .word, set: { $0[keyPath: key] = $1.word }, problem: { ParameterLimits.word($0[keyPath: key], words) }, words: words)
    }
    /// A set of `words` written as a list (`edges = ["left", "top"]`), kept as a mask (bit i:
    /// `words[i]`, at most 7 words): at least one. A word not among them sets the top bit, which
    /// validation refuses (the config reader names the word and its place before it gets here).
    public static func wordSet(_ name: String, _ key: WritableKeyPath<Parameters, UInt8> & Sendable, _ words: [String]) -> Self {
        precondition(words.count <= 7, "a word set holds at most 7 words")
        return Self(name, .words, set: { p, value in
            var mask: UInt8 = 0
            for w in value.words { mask |= words.firstIndex(of: w).map { 1 << UInt8($0) } ?? ParameterLimits.unknownWord }
            p[keyPath: key] = mask
        }, problem: { ParameterLimits.wordSet($0[keyPath: key], words) }, words: words)
    }
    public static func flag(_ name: String, _ key: WritableKeyPath<Parameters, Bool> & Sendable) -> Self {
        Self(name, .flag, set: { $0[keyPath: key] = $1.flag }, problem: { _ in nil })
    }
}

/// The limits every parameter of its unit shares (GraphConfiguration.Limits), as
/// `RecognizerParameter`'s checks give them.
public enum ParameterLimits {
    typealias Limits = GraphConfiguration.Limits

    public static func duration(_ d: Interval) -> (found: String, expected: String)? {
        d.microseconds > 0 && d <= Limits.longestDuration
            ? nil : (GraphConfiguration.milliseconds(d), "more than 0 ms and at most \(GraphConfiguration.milliseconds(Limits.longestDuration))")
    }
    public static func distance(_ d: Double) -> (found: String, expected: String)? {
        d.isFinite && d >= 0 && d <= Limits.longestDistance
            ? nil : ("\(GraphConfiguration.number(d)) mm", "0…\(GraphConfiguration.number(Limits.longestDistance)) mm")
    }
    public static func fingers(_ n: Int, anyAllowed: Bool) -> (found: String, expected: String)? {
        let lowest = anyAllowed ? 0 : 1
        return n >= lowest && n <= Limits.mostFingers ? nil : ("\(n)", "\(lowest)…\(Limits.mostFingers)\(anyAllowed ? " (0: any number)" : "")")
    }
    public static func speed(_ v: Double) -> (found: String, expected: String)? {
        v.isFinite && v >= 0 && v <= Limits.highestSpeed
            ? nil : ("\(GraphConfiguration.number(v)) mm/s", "0…\(GraphConfiguration.number(Limits.highestSpeed)) mm/s")
    }
    /// An angle in degrees, from `lowest` (excluded when `lowestExcluded`) to `highest`.
    public static func angle(_ a: Double, highest: Double, lowestExcluded: Bool, meaning: String = "") -> (found: String, expected: String)? {
        let fine = a.isFinite && (lowestExcluded ? a > 0 : a >= 0) && a <= highest
        let range = lowestExcluded ? "more than 0° and at most \(GraphConfiguration.number(highest))°" : "0…\(GraphConfiguration.number(highest))°"
        return fine ? nil : ("\(GraphConfiguration.number(a))°", range + meaning)
    }
    public static func level(_ v: Double) -> (found: String, expected: String)? {
        v.isFinite && v >= 0 && v <= 1 ? nil : (GraphConfiguration.number(v), "0…1 (normalized)")
    }
    public static func word(_ w: String, _ words: [String]) -> (found: String, expected: String)? {
        guard !words.contains(w) else { return nil }
        let quoted = words.map { "\"\($0)\"" }
        let list = quoted.count > 1 ? quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1] : quoted.joined()
        return ("\"\(w.count > 40 ? String(w.prefix(40)) + "…" : w)\"", list)
    }
    /// The bit a word set's mask has for a word it does not know.
    static let unknownWord: UInt8 = 0x80
    /// A word set's mask: one or more of `words`, none unknown.
    public static func wordSet(_ mask: UInt8, _ words: [String]) -> (found: String, expected: String)? {
        let quoted = words.map { "\"\($0)\"" }
        let list = quoted.count > 1 ? quoted.dropLast().joined(separator: ", ") + " and " + quoted[quoted.count - 1] : quoted.joined()
        if mask & unknownWord != 0 { return ("a name not among them", "a list of one or more of \(list)") }
        if mask == 0 { return ("[]", "a list of one or more of \(list)") }
        return nil
    }
    public static func count(_ n: Int, _ lowest: Int, _ highest: Int) -> (found: String, expected: String)? {
        n >= lowest && n <= highest ? nil : ("\(n)", "\(lowest)…\(highest)")
    }
}

/// A recognizer's kind with its parameters, as a configuration holds it.
public struct RecognizerKind: Hashable, Sendable {
    /// The kind's state machine.
    public let recognizer: any GestureRecognizer.Type
    /// The kind's `Parameters` (an existential: a configuration is not on the per-frame path).
    var storedParameters: any Hashable & Sendable

    public init<R: GestureRecognizer>(_ recognizer: R.Type, _ parameters: R.Parameters) {
        self.recognizer = recognizer
        storedParameters = parameters
    }

    /// The kind with its default parameters.
    public init(defaultsOf recognizer: any GestureRecognizer.Type) {
        func make<R: GestureRecognizer>(_ r: R.Type) -> RecognizerKind { RecognizerKind(r, r.defaultParameters) }
        self = make(recognizer)
    }

    public var gesture: GestureKind { recognizer.gesture }

    /// The parameters, when the kind is `R`'s.
    public func parameters<R: GestureRecognizer>(of _: R.Type) -> R.Parameters? {
        recognizer == R.self ? storedParameters as? R.Parameters : nil
    }

    /// The parameter declarations, without their type: name and unit, in documentation order.
    public var parameterNames: [(name: String, unit: ParameterUnit)] {
        func names<R: GestureRecognizer>(_ r: R.Type) -> [(name: String, unit: ParameterUnit)] { r.parameters.map { ($0.name, $0.unit) } }
        return names(recognizer)
    }

    /// The words parameter `name` takes (a `.word` or `.words` parameter); nil for the others.
    public func allowedWords(of name: String) -> [String]? {
        func words<R: GestureRecognizer>(_ r: R.Type) -> [String]? {
            guard let declared = r.parameters.first(where: { $0.name == name }), declared.unit == .word || declared.unit == .words else { return nil }
            return declared.words
        }
        return words(recognizer)
    }

    /// The kind as a pen's contacts use it when the configuration says nothing of pens: each
    /// parameter the kind ships a pen value for takes it (docs/config.md#tools).
    public var withShippedPenValues: RecognizerKind {
        func pen<R: GestureRecognizer>(_ r: R.Type) -> RecognizerKind {
            guard var p = storedParameters as? R.Parameters else { return self }
            for declared in r.parameters { if let value = declared.pen { declared.set(&p, value) } }
            return RecognizerKind(r, p)
        }
        return pen(recognizer)
    }

    /// The parameters a search may vary (distances, durations, speeds, angles, levels: not
    /// counts, flags or words) with their values now, in documentation order.
    public var numericParameters: [(name: String, unit: ParameterUnit, value: Double)] {
        func values<R: GestureRecognizer>(_ r: R.Type) -> [(name: String, unit: ParameterUnit, value: Double)] {
            guard let p = storedParameters as? R.Parameters else { return [] }
            return r.parameters.compactMap { declared in declared.number.map { (declared.name, declared.unit, $0(p)) } }
        }
        return values(recognizer)
    }

    /// Sets parameter `name` (declared: see `parameterNames`); false when the kind has none.
    public mutating func set(_ name: String, _ value: ParameterValue) -> Bool {
        func set<R: GestureRecognizer>(_ r: R.Type) -> Bool {
            guard var p = storedParameters as? R.Parameters, let declared = r.parameters.first(where: { $0.name == name }) else { return false }
            declared.set(&p, value)
            storedParameters = p
            return true
        }
        return set(recognizer)
    }

    /// The earliest a recognizer of this kind and these parameters can claim.
    public var claimFloor: ClaimFloor {
        func floor<R: GestureRecognizer>(_ r: R.Type) -> ClaimFloor {
            guard let p = storedParameters as? R.Parameters else { return .immediate }
            return r.claimFloor(p)
        }
        return floor(recognizer)
    }

    /// The first parameter outside its limits (or a relation between them); nil when all are
    /// fine.
    public var problem: ParameterProblem? {
        func problem<R: GestureRecognizer>(_ r: R.Type) -> ParameterProblem? {
            guard let p = storedParameters as? R.Parameters else { return nil }
            return r.problem(p)
        }
        return problem(recognizer)
    }

    public static func == (a: RecognizerKind, b: RecognizerKind) -> Bool {
        a.recognizer == b.recognizer && AnyHashable(a.storedParameters) == AnyHashable(b.storedParameters)
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(recognizer))
        hasher.combine(AnyHashable(storedParameters))
    }
}

/// The recognizer kinds a config may name, in documentation order. Adding a kind: its file,
/// and one line in `standard`.
public struct RecognizerRegistry: Sendable {
    public private(set) var kinds: [any GestureRecognizer.Type]

    /// The kinds Touchline ships.
    public static let standard = RecognizerRegistry([
        TapRecognizer.self,
        LongPressRecognizer.self,
        PanRecognizer.self,
        SwipeRecognizer.self,
        EdgeSwipeRecognizer.self,
        PinchRecognizer.self,
        RotateRecognizer.self,
        PeekRecognizer.self,
        DragRecognizer.self,
        SpringRecognizer.self,
    ])

    /// Kinds by name; a later kind with a name already taken replaces the earlier.
    public init(_ kinds: [any GestureRecognizer.Type]) {
        self.kinds = []
        for kind in kinds { add(kind) }
    }

    /// Adds a kind (for example one of an application's own); one with the same name is
    /// replaced.
    public mutating func add(_ kind: any GestureRecognizer.Type) {
        if let i = kinds.firstIndex(where: { $0.gesture == kind.gesture }) { kinds[i] = kind } else { kinds.append(kind) }
    }

    /// This registry and `kind`.
    public func adding(_ kind: any GestureRecognizer.Type) -> RecognizerRegistry {
        var r = self
        r.add(kind)
        return r
    }

    /// The kind a config names.
    public func kind(named name: String) -> (any GestureRecognizer.Type)? {
        kinds.first { $0.gesture.name.description == name }
    }

    /// The kinds' names, as a message lists them.
    public var names: String { kinds.map { $0.gesture.name.description }.joined(separator: ", ") }

    /// Every parameter of every kind, with its unit, in documentation order.
    public var parameters: [(kind: String, name: String, unit: ParameterUnit)] {
        kinds.flatMap { kind in RecognizerKind(defaultsOf: kind).parameterNames.map { (kind.gesture.name.description, $0.name, $0.unit) } }
    }
}
