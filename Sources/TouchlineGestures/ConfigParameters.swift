import TouchlineConfig
import TouchlineCore

// Recognizer parameters by their documented names: units, limits, and the conversion of a TOML
// value (a number in the parameter's unit or a string with a unit) to the parameter's type.

/// The unit a parameter is declared in.
public enum ParameterUnit: String, Sendable, CaseIterable {
    case count, flag, milliseconds = "ms", millimetres = "mm", millimetresPerSecond = "mm/s", degrees = "deg"
}

/// What a configuration may set, in each unit. A value outside is an error naming the limits,
/// never a trap in a later conversion (durations become Int64 microseconds).
public enum ConfigLimits {
    /// ms: a touch that lasts a minute is no gesture; 60,000 ms is 6e10 µs, far inside Int64.
    public static let duration = 0.0...60_000.0
    /// mm: 10 m, past any touch surface.
    public static let length = 0.0...10_000.0
    /// mm/s: 100 m/s, past any finger.
    public static let speed = 0.0...100_000.0
    /// degrees: one turn.
    public static let angle = 0.0...360.0
    /// Fingers (0: any): a graph's arena is a 64-bit set, and panels report at most tens.
    public static let fingers: ClosedRange<Int64> = 0...64
    /// Taps in a series: at least one.
    public static let taps: ClosedRange<Int64> = 1...64
    /// A target's rect, in mm or normalized units.
    public static let coordinate = -10_000.0...10_000.0
    /// A target's z.
    public static let z: ClosedRange<Int64> = -1_000_000...1_000_000
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
        let number = try convert(entry.value, to: declared.unit, key: key, taps: name == "taps")
        // In range (ConfigLimits.duration), so the product is far inside Int64.
        let interval = Interval(microseconds: Int64((number * 1000).rounded()))
        let count = Int(number)
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
    }

    /// A value in the parameter's declared unit, within its limits.
    func convert(_ value: TOMLValue, to unit: ParameterUnit, key: String, taps: Bool) throws(ConfigError) -> Double {
        switch unit {
        case .flag:
            guard case let .bool(b) = value.kind else { throw wrong(value, key, "true or false") }
            return b ? 1 : 0
        case .count:
            let limits = taps ? ConfigLimits.taps : ConfigLimits.fingers
            guard case let .integer(n) = value.kind, limits.contains(n) else {
                throw wrong(value, key, "a whole number from \(limits.lowerBound) to \(limits.upperBound)")
            }
            return Double(n)
        case .milliseconds, .millimetres, .millimetresPerSecond, .degrees:
            let limits: ClosedRange<Double>
            switch unit {
            case .milliseconds: limits = ConfigLimits.duration
            case .millimetres: limits = ConfigLimits.length
            case .millimetresPerSecond: limits = ConfigLimits.speed
            default: limits = ConfigLimits.angle
            }
            let expected = "a number of \(unit.rawValue) or a string with a unit (\(examples(unit))) from \(format(limits.lowerBound)) to \(format(limits.upperBound)) \(unit.rawValue)"
            let number: Double
            switch value.kind {
            case let .integer(n): number = Double(n)
            case let .float(d): number = d
            case let .string(text):
                guard let n = GraphConfiguration.parseQuantity(text, unit: unit) else { throw wrong(value, key, expected) }
                number = n
            default:
                throw wrong(value, key, expected)
            }
            // NaN fails `contains` as well.
            guard limits.contains(number) else { throw wrong(value, key, expected) }
            return number
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

    func format(_ d: Double) -> String { d == d.rounded() ? String(Int64(d)) : String(d) }
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
