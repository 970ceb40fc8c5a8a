import TouchlineCore

// TOML → GraphConfiguration (docs/config.md). Parameters take a number in their declared unit
// (ms, mm, mm/s, degrees) or a string with a unit ("300ms", "0.3s", "3mm", "1cm", "100mm/s",
// "30deg", "0.5rad").

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

    /// Parses a graph configuration. Without `[[target]]` sections the whole surface is one
    /// target named "surface"; without `[[recognizer]]` sections the default recognizers run on
    /// the first target. `[defaults]` sets `kind.parameter` for every recognizer of that kind,
    /// the default ones included.
    public static func parse(toml text: String, file: String) throws(ConfigError) -> GraphConfiguration {
        let document = try TOMLDocument.parse(text, file: file)
        var targets: [TargetSpec] = []
        var targetLines: [Int] = []
        var recognizers: [(spec: RecognizerSpec, line: Int)] = []
        var defaults: [(kind: String, name: String, value: TOMLValue, line: Int)] = []

        func fail(_ line: Int, _ message: String) -> ConfigError { ConfigError(file: file, line: line, message: message) }

        for section in document.sections {
            switch (section.name, section.isArrayElement) {
            case ("", false):
                for entry in section.entries {
                    guard entry.key == "version" else {
                        throw fail(entry.line, "unknown top-level key '\(entry.key)'; expected 'version' or a [defaults], [[target]] or [[recognizer]] section")
                    }
                    guard case .integer(1) = entry.value.kind else { throw fail(entry.line, "version must be 1, the only configuration version there is") }
                }
            case ("defaults", false):
                for entry in section.entries {
                    let parts = entry.key.split(separator: ".", maxSplits: 1).map(String.init)
                    guard parts.count == 2, GestureKind(name: parts[0]) != nil else {
                        throw fail(entry.line, "a [defaults] key is 'kind.parameter' (for example tap.maxDuration), not '\(entry.key)'")
                    }
                    defaults.append((parts[0], parts[1], entry.value, entry.line))
                }
            case ("target", true):
                targets.append(try parseTarget(section, file: file))
                targetLines.append(section.line)
            case ("recognizer", true):
                recognizers.append((try parseRecognizer(section, file: file), section.line))
            case let (name, isArray):
                let header = isArray ? "[[\(name)]]" : "[\(name)]"
                throw fail(section.line, "unknown section \(header); expected [defaults], [[target]] or [[recognizer]]")
            }
        }

        if targets.isEmpty { targets = [.surface()] }
        var specs: [RecognizerSpec]
        if recognizers.isEmpty {
            specs = GraphConfiguration.default.recognizers.map { spec in
                var spec = spec
                spec.target = targets[0].name
                return spec
            }
        } else {
            // A recognizer without a target attaches to the first one declared.
            specs = recognizers.map { item in
                var spec = item.spec
                if spec.target.isEmpty { spec.target = targets[0].name }
                return spec
            }
        }
        for d in defaults {
            var applied = false
            for k in specs.indices where specs[k].kind.gesture.name.description == d.kind {
                try set(d.name, d.value, line: d.line, in: &specs[k].kind, file: file)
                applied = true
            }
            if !applied {
                // Still check the parameter's name and value, so that a typo is caught.
                var probe = RecognizerKind.defaults(for: GestureKind(name: d.kind)!)
                try set(d.name, d.value, line: d.line, in: &probe, file: file)
            }
        }

        // References, with the line of the recognizer that makes them.
        let targetNames = targets.map(\.name)
        var seenTargets = Set<String>()
        for (k, t) in targets.enumerated() where !seenTargets.insert(t.name).inserted {
            throw fail(k < targetLines.count ? targetLines[k] : 0, "target '\(t.name)' is declared twice; give each a unique name")
        }
        let names = specs.map(\.name)
        for (k, spec) in specs.enumerated() {
            let line = k < recognizers.count ? recognizers[k].line : 0
            if names.firstIndex(of: spec.name) != k { throw fail(line, "recognizer '\(spec.name)' is declared twice; give each a unique name") }
            if !targetNames.contains(spec.target) {
                throw fail(line, "recognizer '\(spec.name)' names target '\(spec.target)', which is not declared; targets: \(targetNames.joined(separator: ", "))")
            }
            for other in spec.simultaneousWith + spec.requiresFailureOf where !names.contains(other) {
                throw fail(line, "recognizer '\(spec.name)' names recognizer '\(other)', which is not declared; recognizers: \(names.joined(separator: ", "))")
            }
            if spec.requiresFailureOf.contains(spec.name) { throw fail(line, "recognizer '\(spec.name)' cannot require its own failure") }
        }
        if specs.count > GraphConfiguration.maximumRecognizers {
            throw fail(recognizers.last?.line ?? 0, "a graph holds at most \(GraphConfiguration.maximumRecognizers) recognizers, this one has \(specs.count)")
        }
        return try GraphConfiguration(targets: targets, recognizers: specs).validated(file: file, targetLines: targetLines, recognizerLines: recognizers.map(\.line))
    }

    static func parseTarget(_ section: TOMLSection, file: String) throws(ConfigError) -> TargetSpec {
        func fail(_ line: Int, _ message: String) -> ConfigError { ConfigError(file: file, line: line, message: message) }
        var name: String?
        var rect: Rect?
        var units = TargetSpec.Units.millimetres
        var z = 0
        for entry in section.entries {
            switch entry.key {
            case "name":
                guard case let .string(s) = entry.value.kind, !s.isEmpty else { throw fail(entry.line, "a target's name is a non-empty string") }
                name = s
            case "rect":
                guard case let .array(items) = entry.value.kind, items.count == 4 else {
                    throw fail(entry.line, "a target's rect is [x, y, width, height], four numbers")
                }
                var numbers: [Double] = []
                for item in items {
                    switch item.kind {
                    case let .integer(n): numbers.append(Double(n))
                    case let .float(d): numbers.append(d)
                    case .string, .bool, .array: throw fail(entry.line, "a target's rect is [x, y, width, height], four numbers; found \(item.typeName)")
                    }
                }
                guard numbers[2] > 0, numbers[3] > 0 else { throw fail(entry.line, "a target's rect needs a positive width and height") }
                rect = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            case "units":
                guard case let .string(s) = entry.value.kind, let u = TargetSpec.Units(rawValue: s) else {
                    throw fail(entry.line, "a target's units are \"mm\" or \"normalized\"")
                }
                units = u
            case "z":
                guard case let .integer(n) = entry.value.kind else { throw fail(entry.line, "a target's z is an integer (higher is on top)") }
                z = Int(n)
            default:
                throw fail(entry.line, "unknown target key '\(entry.key)'; a target has name, rect, units and z")
            }
        }
        guard let name else { throw fail(section.line, "this [[target]] has no name") }
        guard let rect else { throw fail(section.line, "target '\(name)' has no rect = [x, y, width, height]") }
        return TargetSpec(name: name, rect: rect, units: units, z: z)
    }

    static func parseRecognizer(_ section: TOMLSection, file: String) throws(ConfigError) -> RecognizerSpec {
        func fail(_ line: Int, _ message: String) -> ConfigError { ConfigError(file: file, line: line, message: message) }
        guard let kindEntry = section.entries.first(where: { $0.key == "kind" }) else {
            throw fail(section.line, "this [[recognizer]] has no kind; kinds: \(GestureKind.allCases.filter { $0 != .explain }.map(\.description).joined(separator: ", "))")
        }
        guard case let .string(kindName) = kindEntry.value.kind, let gesture = GestureKind(name: kindName) else {
            throw fail(kindEntry.line, "unknown recognizer kind \(kindEntry.value); kinds: \(GestureKind.allCases.filter { $0 != .explain }.map(\.description).joined(separator: ", "))")
        }
        var kind = RecognizerKind.defaults(for: gesture)
        var spec = RecognizerSpec(name: kindName, kind: kind, target: "")
        func strings(_ entry: (key: String, value: TOMLValue, line: Int)) throws(ConfigError) -> [String] {
            if case let .string(s) = entry.value.kind { return [s] }
            guard case let .array(items) = entry.value.kind else { throw fail(entry.line, "\(entry.key) is a recognizer name or an array of them") }
            var out: [String] = []
            for item in items {
                guard case let .string(s) = item.kind else { throw fail(entry.line, "\(entry.key) is an array of recognizer names (strings)") }
                out.append(s)
            }
            return out
        }
        for entry in section.entries {
            switch entry.key {
            case "kind": continue
            case "name":
                guard case let .string(s) = entry.value.kind, !s.isEmpty else { throw fail(entry.line, "a recognizer's name is a non-empty string") }
                spec.name = s
            case "target":
                guard case let .string(s) = entry.value.kind else { throw fail(entry.line, "a recognizer's target is a target's name (a string)") }
                spec.target = s
            case "simultaneousWith": spec.simultaneousWith = try strings(entry)
            case "requiresFailureOf": spec.requiresFailureOf = try strings(entry)
            default:
                try set(entry.key, entry.value, line: entry.line, in: &kind, file: file)
            }
        }
        spec.kind = kind
        return spec
    }

    /// Sets one parameter by its documented name, converting the value from its unit.
    static func set(_ name: String, _ value: TOMLValue, line: Int, in kind: inout RecognizerKind, file: String) throws(ConfigError) {
        let kindName = kind.gesture.name.description
        guard let declared = parameters.first(where: { $0.kind == kindName && $0.name == name }) else {
            let known = parameters.filter { $0.kind == kindName }.map(\.name).joined(separator: ", ")
            throw ConfigError(file: file, line: line, message: "\(kindName) has no parameter '\(name)'; its parameters: \(known)")
        }
        let number = try convert(value, to: declared.unit, name: "\(kindName).\(name)", line: line, file: file)
        let interval = Interval(microseconds: Int64((number * 1000).rounded()))
        let count = Int(number)
        switch (kind, name) {
        case (.tap(var p), "fingers"): p.fingers = count; kind = .tap(p)
        case (.tap(var p), "taps"): p.taps = max(1, count); kind = .tap(p)
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
            throw ConfigError(file: file, line: line, message: "\(kindName).\(name) is declared but not settable (a Touchline bug)")
        }
    }

    /// A value in the parameter's declared unit.
    static func convert(_ value: TOMLValue, to unit: ParameterUnit, name: String, line: Int, file: String) throws(ConfigError) -> Double {
        func fail(_ message: String) -> ConfigError { ConfigError(file: file, line: line, message: message) }
        switch unit {
        case .flag:
            guard case let .bool(b) = value.kind else { throw fail("\(name) is true or false, not \(value.typeName)") }
            return b ? 1 : 0
        case .count:
            guard case let .integer(n) = value.kind, n >= 0, n <= 64 else { throw fail("\(name) is a whole number from 0 to 64") }
            return Double(n)
        case .milliseconds, .millimetres, .millimetresPerSecond, .degrees:
            let number: Double
            switch value.kind {
            case let .integer(n): number = Double(n)
            case let .float(d): number = d
            case let .string(text):
                guard let n = parseQuantity(text, unit: unit) else {
                    throw fail("\(name) is a number of \(unit.rawValue) or a string with a unit (\(examples(unit))), not \"\(text)\"")
                }
                number = n
            case .bool, .array:
                throw fail("\(name) is a number of \(unit.rawValue) or a string with a unit (\(examples(unit))), not \(value.typeName)")
            }
            guard number >= 0, number.isFinite else { throw fail("\(name) cannot be negative") }
            return number
        }
    }

    static func examples(_ unit: ParameterUnit) -> String {
        switch unit {
        case .milliseconds: return "\"300ms\", \"0.3s\""
        case .millimetres: return "\"3mm\", \"0.5cm\""
        case .millimetresPerSecond: return "\"100mm/s\", \"0.1m/s\""
        case .degrees: return "\"30deg\", \"0.5rad\""
        case .count, .flag: return ""
        }
    }

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
