import TouchlineConfig
import TouchlineCore

// Recognizer parameters by their documented names: units, and the conversion of a TOML value (a
// number in the parameter's unit or a string with a unit) to the parameter's type. The limits
// are validation's (GraphConfiguration.Limits), asked for each value as it is set.

/// The unit a parameter is declared in.
public enum ParameterUnit: String, Sendable, CaseIterable {
    case count, flag, milliseconds = "ms", millimetres = "mm", millimetresPerSecond = "mm/s", degrees = "deg"
}

extension GraphConfiguration {
    /// Every parameter of every kind, with its unit, in documentation order.
    public static let parameters: [(kind: String, name: String, unit: ParameterUnit)] = [
        ("tap", "fingers", .count), ("tap", "taps", .count), ("tap", "eager", .flag),
        ("tap", "maxDuration", .milliseconds), ("tap", "slop", .millimetres),
        ("tap", "multiTapInterval", .milliseconds), ("tap", "multiTapDistance", .millimetres),
        ("longPress", "fingers", .count), ("longPress", "minimumDuration", .milliseconds), ("longPress", "slop", .millimetres),
        ("pan", "minimumFingers", .count), ("pan", "maximumFingers", .count), ("pan", "slop", .millimetres),
        ("pan", "velocityWindow", .milliseconds),
        ("swipe", "fingers", .count), ("swipe", "minimumDistance", .millimetres), ("swipe", "minimumVelocity", .millimetresPerSecond),
        ("swipe", "maximumAngle", .degrees), ("swipe", "maximumDuration", .milliseconds),
        ("edgeSwipe", "margin", .millimetres), ("edgeSwipe", "slop", .millimetres), ("edgeSwipe", "velocityWindow", .milliseconds),
        ("pinch", "minimumSpanChange", .millimetres), ("pinch", "velocityWindow", .milliseconds),
        ("rotate", "minimumAngle", .degrees), ("rotate", "minimumTravel", .millimetres), ("rotate", "velocityWindow", .milliseconds),
    ]

    /// "300ms" → 300 (ms), "0.3s" → 300, "1cm" → 10 (mm), "0.5rad" → 28.65 (degrees)…
    static func parseQuantity(_ text: String, unit: ParameterUnit) -> Double? {
        let trimmed = text.filter { $0 != " " }
        var split = trimmed.startIndex
        while split < trimmed.endIndex, trimmed[split].isNumber || trimmed[split] == "." || trimmed[split] == "-" || trimmed[split] == "+" || trimmed[split] == "e" {
            split = trimmed.index(after: split)
        }
        guard let number = Double(trimmed[..<split]) else { return nil }
        let suffix = String(trimmed[split...])
        let factor: Double?
        switch unit {
        case .milliseconds: factor = ["ms": 1, "s": 1000, "us": 0.001, "µs": 0.001][suffix]
        case .millimetres: factor = ["mm": 1, "cm": 10, "m": 1000][suffix]
        case .millimetresPerSecond: factor = ["mm/s": 1, "cm/s": 10, "m/s": 1000][suffix]
        case .degrees: factor = ["deg": 1, "°": 1, "rad": 180 / GestureMath.pi][suffix]
        case .count, .flag: factor = nil
        }
        guard let factor else { return nil }
        return number * factor
    }
}

extension ConfigReader {
    /// Sets one parameter by its documented name, converting the value from its unit.
    func set(_ entry: TOMLEntry, in kind: inout RecognizerKind) throws(ConfigError) {
        let kindName = kind.gesture.name.description
        let name = entry.key
        guard let declared = GraphConfiguration.parameters.first(where: { $0.kind == kindName && $0.name == name }) else {
            let known = GraphConfiguration.parameters.filter { $0.kind == kindName }.map(\.name).joined(separator: ", ")
            throw fail(entry.keyPosition, "\(kindName) has no parameter '\(name)'; its parameters: \(known)")
        }
        let key = "\(kindName).\(name)"
        let (number, count) = try convert(entry.value, to: declared.unit, key: key)
        let interval = Self.interval(milliseconds: number)
        switch (kind, name) {
        case (.tap(var p), "fingers"): p.fingers = count; kind = .tap(p)
        case (.tap(var p), "taps"): p.taps = count; kind = .tap(p)
        case (.tap(var p), "eager"): p.eager = number != 0; kind = .tap(p)
        case (.tap(var p), "maxDuration"): p.maxDuration = interval; kind = .tap(p)
        case (.tap(var p), "slop"): p.slop = number; kind = .tap(p)
        case (.tap(var p), "multiTapInterval"): p.multiTapInterval = interval; kind = .tap(p)
        case (.tap(var p), "multiTapDistance"): p.multiTapDistance = number; kind = .tap(p)
        case (.longPress(var p), "fingers"): p.fingers = count; kind = .longPress(p)
        case (.longPress(var p), "minimumDuration"): p.minimumDuration = interval; kind = .longPress(p)
        case (.longPress(var p), "slop"): p.slop = number; kind = .longPress(p)
        case (.pan(var p), "minimumFingers"): p.minimumFingers = count; kind = .pan(p)
        case (.pan(var p), "maximumFingers"): p.maximumFingers = count; kind = .pan(p)
        case (.pan(var p), "slop"): p.slop = number; kind = .pan(p)
        case (.pan(var p), "velocityWindow"): p.velocityWindow = interval; kind = .pan(p)
        case (.swipe(var p), "fingers"): p.fingers = count; kind = .swipe(p)
        case (.swipe(var p), "minimumDistance"): p.minimumDistance = number; kind = .swipe(p)
        case (.swipe(var p), "minimumVelocity"): p.minimumVelocity = number; kind = .swipe(p)
        case (.swipe(var p), "maximumAngle"): p.maximumAngle = number; kind = .swipe(p)
        case (.swipe(var p), "maximumDuration"): p.maximumDuration = interval; kind = .swipe(p)
        case (.edgeSwipe(var p), "margin"): p.margin = number; kind = .edgeSwipe(p)
        case (.edgeSwipe(var p), "slop"): p.slop = number; kind = .edgeSwipe(p)
        case (.edgeSwipe(var p), "velocityWindow"): p.velocityWindow = interval; kind = .edgeSwipe(p)
        case (.pinch(var p), "minimumSpanChange"): p.minimumSpanChange = number; kind = .pinch(p)
        case (.pinch(var p), "velocityWindow"): p.velocityWindow = interval; kind = .pinch(p)
        case (.rotate(var p), "minimumAngle"): p.minimumAngle = number; kind = .rotate(p)
        case (.rotate(var p), "minimumTravel"): p.minimumTravel = number; kind = .rotate(p)
        case (.rotate(var p), "velocityWindow"): p.velocityWindow = interval; kind = .rotate(p)
        default:
            // The table above and `parameters` list the same names; a miss is our bug.
            throw fail(entry.keyPosition, "\(key) is declared but not settable (a Touchline bug)")
        }
        // Every other parameter of `kind` is a default or was checked when it was set, so a
        // problem with this key is this value's.
        if let problem = GraphConfiguration.parameterProblem(kind), problem.key == name {
            throw wrong(entry.value, key, problem.expected)
        }
    }

    /// Milliseconds as an interval; a value no Int64 of microseconds holds (or NaN) becomes one
    /// past every limit, for validation to refuse.
    static func interval(milliseconds: Double) -> Interval {
        let us = (milliseconds * 1000).rounded()
        if us.isNaN || us >= 9.2e18 { return Interval(microseconds: .max) }
        if us <= -9.2e18 { return Interval(microseconds: .min) }
        return Interval(microseconds: Int64(us))
    }

    /// A value in the parameter's declared unit, and as a count; its limits are checked once it
    /// is set, so only what cannot be converted is refused here.
    func convert(_ value: TOMLValue, to unit: ParameterUnit, key: String) throws(ConfigError) -> (Double, count: Int) {
        switch unit {
        case .flag:
            guard case let .bool(b) = value.kind else { throw wrong(value, key, "true or false") }
            return (b ? 1 : 0, 0)
        case .count:
            guard case let .integer(n) = value.kind else { throw wrong(value, key, "a whole number") }
            return (Double(n), Int(clamping: n))
        case .milliseconds, .millimetres, .millimetresPerSecond, .degrees:
            let expected = "a number of \(unit.rawValue) or a string with a unit (\(examples(unit)))"
            switch value.kind {
            case let .integer(n): return (Double(n), 0)
            case let .float(d): return (d, 0)
            case let .string(text):
                guard let n = GraphConfiguration.parseQuantity(text, unit: unit) else { throw wrong(value, key, expected) }
                return (n, 0)
            default:
                throw wrong(value, key, expected)
            }
        }
    }

    func examples(_ unit: ParameterUnit) -> String {
        switch unit {
        case .milliseconds: return "\"300ms\", \"0.3s\""
        case .millimetres: return "\"3mm\", \"0.5cm\""
        case .millimetresPerSecond: return "\"100mm/s\", \"0.1m/s\""
        case .degrees: return "\"30deg\", \"0.5rad\""
        case .count, .flag: return ""
        }
    }

}

extension RecognizerKind {
    /// A kind with its default parameters.
    public static func defaults(for gesture: GestureKind) -> RecognizerKind {
        switch gesture {
        case .tap: return .tap(TapParameters())
        case .longPress: return .longPress(LongPressParameters())
        case .pan: return .pan(PanParameters())
        case .swipe: return .swipe(SwipeParameters())
        case .edgeSwipe: return .edgeSwipe(EdgeSwipeParameters())
        case .pinch: return .pinch(PinchParameters())
        case .rotate: return .rotate(RotateParameters())
        case .explain: return .tap(TapParameters())
        }
    }
}
