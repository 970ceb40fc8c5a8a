import TouchlineConfig
import TouchlineCore
import TouchlineGestures

// TOML (TouchlineConfig's reader) → GraphConfiguration (docs/config.md). Parameters take a
// number in their declared unit (ms, mm, mm/s, degrees) or a string with a unit ("300ms",
// "0.3s", "3mm", "1cm", "100mm/s", "30deg", "0.5rad"), within GraphConfiguration.Limits. Every error names
// file:line:column, the key, what the file holds there and what was expected.

extension GraphConfiguration {
    /// Parses a graph configuration. Without `[[target]]` sections the whole surface is one
    /// target named "surface"; without `[[recognizer]]` sections the default recognizers run on
    /// the first target. `[defaults]` sets `kind.parameter` for every recognizer of that kind,
    /// the default ones included; a recognizer's own setting wins over it.
    /// `registry`: the kinds a `[[recognizer]]` may name (an application adds its own).
    public static func parse(toml text: String, file: String, registry: RecognizerRegistry = .standard) throws(ConfigError) -> GraphConfiguration {
        try parseWithSource(bytes: Array(text.utf8), file: file, registry: registry).configuration
    }

    public static func parse(bytes: [UInt8], file: String, registry: RecognizerRegistry = .standard) throws(ConfigError) -> GraphConfiguration {
        try parseWithSource(bytes: bytes, file: file, registry: registry).configuration
    }

    /// Parses, and keeps where each target, recognizer and key was written. `allowing`: top-level
    /// sections another reader of the same file owns, skipped here (the daemon's `action` and
    /// `actions`: DaemonConfiguration); any other unknown section is an error.
    public static func parseWithSource(bytes: [UInt8], file: String, registry: RecognizerRegistry = .standard, allowing: Set<String> = []) throws(ConfigError) -> ParsedConfiguration {
        try parseWithSource(document: try ConfigSourceMap.document(bytes, file: file), file: file, registry: registry, allowing: allowing)
    }

    /// The same from a document already read (the daemon's readers share one).
    static func parseWithSource(document: TOMLDocument, file: String, registry: RecognizerRegistry, allowing: Set<String>) throws(ConfigError) -> ParsedConfiguration {
        var parser = ConfigReader(source: ConfigSourceMap(file: file), registry: registry)
        parser.allowing = allowing
        let configuration = try parser.read(document.root)
        return ParsedConfiguration(configuration: configuration, source: parser.source)
    }
}

struct ConfigReader: ConfigSectionReader {
    var source: ConfigSourceMap
    /// The kinds a config may name.
    let registry: RecognizerRegistry
    /// `[defaults]` per kind: (parameter, entry, "kind.parameter").
    var defaults: [GestureKind: [TOMLEntry]] = [:]
    /// `[defaults.pen]` per kind: what a round a pen starts uses (docs/config.md#tools).
    var penDefaults: [GestureKind: [TOMLEntry]] = [:]
    /// Sections another reader owns (see `parseWithSource`).
    var allowing: Set<String> = []

    static let sections = "[defaults], [[target]] or [[recognizer]]"
    /// The sections this file may hold: the graph's and those another reader owns (a daemon's
    /// file: [socket], [[device]], [actions], [[action]]), so that an unknown one's message
    /// lists every section the file could have meant.
    var sectionNames: String {
        let owned = [("socket", "[socket]"), ("device", "[[device]]"), ("actions", "[actions]"), ("action", "[[action]]")]
            .filter { allowing.contains($0.0) }.map(\.1)
        guard !owned.isEmpty else { return ConfigReader.sections }
        return (["[defaults]", "[[target]]", "[[recognizer]]"] + owned.dropLast()).joined(separator: ", ") + " or " + owned.last!
    }
    var kindNames: String { registry.names }


    mutating func read(_ root: TOMLTable) throws(ConfigError) -> GraphConfiguration {
        var targetTables: [TOMLValue] = []
        var recognizerTables: [TOMLValue] = []
        for entry in root.entries {
            switch entry.key {
            case "version":
                guard case .integer(1) = entry.value.kind else { throw wrong(entry.value, "version", "1, the only configuration version there is") }
            case "defaults":
                guard let table = entry.value.table else { throw wrong(entry.value, "defaults", "a [defaults] table of kind.parameter keys") }
                try readDefaults(table)
            case "target", "recognizer":
                let tables = try arrayOfTables(entry)
                if entry.key == "target" { targetTables = tables } else { recognizerTables = tables }
            case _ where allowing.contains(entry.key):
                continue
            case "action", "actions":
                throw fail(entry.value.position, "[[action]] and [actions] are read by `touchline daemon --config` only; this reader takes \(ConfigReader.sections)")
            case "device", "socket":
                // replay's reader (DeviceConfiguration.parseForReplay) allows [[device]] and gets here for [socket] only.
                throw fail(entry.value.position, "[[device]] and [socket] are read by `touchline daemon --config` only; this reader takes \(ConfigReader.sections)")
            default:
                switch entry.value.kind {
                case .table:
                    throw fail(entry.value.position, "unknown section [\(entry.key)]; expected \(sectionNames)")
                case let .array(items) where !items.isEmpty && items.allSatisfy({ $0.table != nil }):
                    throw fail(entry.value.position, "unknown section [[\(entry.key)]]; expected \(sectionNames)")
                default:
                    throw fail(entry.keyPosition, "unknown top-level key '\(entry.key)'; expected 'version' or a \(sectionNames) section")
                }
            }
        }

        var targets: [TargetSpec] = []
        for value in targetTables { targets.append(try readTarget(value)) }
        var recognizers: [RecognizerSpec] = []
        for value in recognizerTables { recognizers.append(try readRecognizer(value)) }

        if targets.isEmpty { targets = [.surface()] }
        var specs: [RecognizerSpec]
        if recognizers.isEmpty {
            specs = []
            for spec in GraphConfiguration.default.recognizers {
                var spec = spec
                spec.target = targets[0].name
                try applyDefaults(to: &spec.kind, except: [])
                spec.penKind = try penKind(for: spec.kind, own: [])
                specs.append(spec)
            }
        } else {
            // A recognizer without a target (none written; "" is refused) attaches to the
            // first one declared.
            specs = recognizers.map { spec in
                var spec = spec
                if spec.target.isEmpty { spec.target = targets[0].name }
                return spec
            }
        }
        let configuration = GraphConfiguration(targets: targets, recognizers: specs)
        do {
            try configuration.validate()
        } catch {
            throw fail(position(of: error, in: configuration, declared: !recognizers.isEmpty), error.message)
        }
        for (table, target) in zip(targetTables, targets) { try refuseUnitSlip(table, target) }
        return configuration
    }

    /// A target whose `units` are not written is in millimetres: one at most 1 × 1 mm is under
    /// a fingertip (about 8 mm across) and cannot be touched on its own, so `rect = [0, 0, 1, 1]`
    /// is a whole surface meant in normalized units (docs/config.md#units). After validation,
    /// so that what is wrong anyway is said first.
    func refuseUnitSlip(_ table: TOMLValue, _ target: TargetSpec) throws(ConfigError) {
        guard let entries = table.table, entries["units"] == nil, let rect = entries["rect"],
              target.rect.width <= 1, target.rect.height <= 1 else { return }
        let size = "\(plain(target.rect.width)) × \(plain(target.rect.height))"
        throw fail(rect.value.position, "target '\(target.name)' has rect = [\([target.rect.x, target.rect.y, target.rect.width, target.rect.height].map(plain).joined(separator: ", "))] read in millimetres (no units written): \(size) mm, too small to be touched; write units = \"normalized\" for \(size) of the surface, or units = \"mm\" if \(size) mm is meant (docs/config.md#units)")
    }

    /// `[[name]]` sections, or an array of inline tables.
    func arrayOfTables(_ entry: TOMLEntry) throws(ConfigError) -> [TOMLValue] {
        guard case let .array(items) = entry.value.kind, items.allSatisfy({ $0.table != nil }) else {
            throw wrong(entry.value, entry.key, "[[\(entry.key)]] sections (an array of tables)")
        }
        return items
    }

    mutating func readDefaults(_ table: TOMLTable) throws(ConfigError) {
        for entry in table.entries {
            if entry.key == "pen" {
                guard let kinds = entry.value.table else { throw wrong(entry.value, "defaults.pen", "a [defaults.pen] table of kind.parameter keys") }
                try readPenDefaults(kinds)
                continue
            }
            guard let recognizer = registry.kind(named: entry.key), let parameters = entry.value.table else {
                throw fail(entry.keyPosition, "a [defaults] key is 'kind.parameter' (for example tap.maxDuration), not '\(entry.key)'")
            }
            for parameter in parameters.entries {
                source.defaults["\(entry.key).\(parameter.key)"] = parameter.keyPosition
                // Checked now, so that a typo for a kind no recognizer uses is still caught.
                var probe = RecognizerKind(defaultsOf: recognizer)
                try set(parameter, in: &probe)
            }
            defaults[recognizer.gesture] = parameters.entries
        }
    }

    func applyDefaults(to kind: inout RecognizerKind, except own: Set<String>) throws(ConfigError) {
        for entry in defaults[kind.gesture] ?? [] where !own.contains(entry.key) {
            try set(entry, in: &kind)
        }
    }

    /// `[defaults.pen]`: `kind.parameter` keys, each a distance or a duration of that kind.
    mutating func readPenDefaults(_ table: TOMLTable) throws(ConfigError) {
        for entry in table.entries {
            guard let recognizer = registry.kind(named: entry.key), let parameters = entry.value.table else {
                throw fail(entry.keyPosition, "a [defaults.pen] key is 'kind.parameter' (for example peek.slop), not '\(entry.key)'")
            }
            for parameter in parameters.entries {
                var probe = RecognizerKind(defaultsOf: recognizer)
                try setPen(parameter, in: &probe)
            }
            penDefaults[recognizer.gesture] = parameters.entries
        }
    }

    /// A pen value: only a distance or a duration differs by tool (a slop, a duration limit).
    func setPen(_ entry: TOMLEntry, in kind: inout RecognizerKind) throws(ConfigError) {
        if let unit = kind.parameterNames.first(where: { $0.name == entry.key })?.unit, unit != .millimetres && unit != .milliseconds {
            throw fail(entry.keyPosition, "\(kind.gesture.name).\(entry.key) is the same for every tool; a pen value is for a distance or a duration")
        }
        try set(entry, in: &kind)
    }

    /// What a round a pen starts uses: `kind` (the finger's, with its own keys and [defaults])
    /// with the values the kind ships for pens, then `[defaults.pen]`, then the recognizer's own
    /// `pen.*` keys; nil when the file says nothing of pens (the graph then takes the shipped
    /// values itself, RecognizerSpec.resolvedPenKind).
    func penKind(for kind: RecognizerKind, own: [TOMLEntry]) throws(ConfigError) -> RecognizerKind? {
        let shared = penDefaults[kind.gesture] ?? []
        if shared.isEmpty && own.isEmpty { return nil }
        var pen = kind.withShippedPenValues
        let ownKeys = Set(own.map(\.key))
        for entry in shared where !ownKeys.contains(entry.key) { try setPen(entry, in: &pen) }
        for entry in own { try setPen(entry, in: &pen) }
        return pen
    }

    mutating func readTarget(_ value: TOMLValue) throws(ConfigError) -> TargetSpec {
        let table = value.table ?? TOMLTable()
        var name: String?
        var rect: Rect?
        var units = TargetSpec.Units.millimetres
        var z = 0
        var keys: [String: ConfigPosition] = [:]
        for entry in table.entries {
            keys[entry.key] = entry.keyPosition
            let v = entry.value
            switch entry.key {
            case "name":
                guard case let .string(s) = v.kind, !s.isEmpty else { throw wrong(v, "a target's name", "a non-empty string") }
                // An action's `target = "*"` means any target.
                guard s != ActionSpec.anyTarget else { throw wrong(v, "a target's name", "a name other than \"*\" (an action's word for any target)") }
                name = s
            case "rect":
                rect = try readRect(v)
            case "units":
                guard case let .string(s) = v.kind, let u = TargetSpec.Units(rawValue: s) else { throw wrong(v, "a target's units", "\"mm\" or \"normalized\"") }
                units = u
            case "z":
                // Checked here, with validation's limits, so that the message quotes the value.
                guard case let .integer(n) = v.kind, GraphConfiguration.zAllowed(n) else {
                    throw wrong(v, "a target's z", GraphConfiguration.zExpected)
                }
                z = Int(n)
            default:
                throw fail(entry.keyPosition, "unknown target key '\(entry.key)'; a target has name, rect, units and z")
            }
        }
        source.targets.append(ConfigSourceMap.Table(name: name ?? "", position: value.position, keys: keys))
        guard let name else { throw fail(value.position, "this [[target]] has no name") }
        guard let rect else { throw fail(value.position, "target '\(name)' has no rect = [x, y, width, height]") }
        return TargetSpec(name: name, rect: rect, units: units, z: z)
    }

    /// Four numbers; their limits depend on `units`, which may come after, so validation checks
    /// them (at the `rect` key).
    func readRect(_ v: TOMLValue) throws(ConfigError) -> Rect {
        let expected = "[x, y, width, height], four numbers"
        guard case let .array(items) = v.kind, items.count == 4 else { throw wrong(v, "a target's rect", expected) }
        var numbers: [Double] = []
        for item in items {
            switch item.kind {
            case let .integer(i): numbers.append(Double(i))
            case let .float(d): numbers.append(d)
            default: throw wrong(item, "a target's rect", expected)
            }
        }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    mutating func readRecognizer(_ value: TOMLValue) throws(ConfigError) -> RecognizerSpec {
        let table = value.table ?? TOMLTable()
        var keys: [String: ConfigPosition] = [:]
        for entry in table.entries { keys[entry.key] = entry.keyPosition }
        guard let kindEntry = table["kind"] else {
            source.recognizers.append(ConfigSourceMap.Table(name: "", position: value.position, keys: keys))
            throw fail(value.position, "this [[recognizer]] has no kind; kinds: \(kindNames)")
        }
        guard case let .string(kindName) = kindEntry.value.kind, let recognizer = registry.kind(named: kindName) else {
            throw wrong(kindEntry.value, "kind", "a recognizer kind: \(kindNames)")
        }
        var kind = RecognizerKind(defaultsOf: recognizer)
        var spec = RecognizerSpec(name: kindName, kind: kind, target: "")
        func strings(_ entry: TOMLEntry, of what: String = "recognizer") throws(ConfigError) -> [String] {
            if case let .string(s) = entry.value.kind { return [s] }
            guard case let .array(items) = entry.value.kind else { throw wrong(entry.value, entry.key, "a \(what) name or an array of them") }
            var out: [String] = []
            for item in items {
                guard case let .string(s) = item.kind else { throw wrong(item, entry.key, "an array of \(what) names (strings)") }
                out.append(s)
            }
            return out
        }
        var own: Set<String> = []
        var pen: [TOMLEntry] = []
        var holdKey: TOMLEntry?
        for entry in table.entries {
            switch entry.key {
            case "kind": continue
            case "pen":
                // `pen.slop = "8mm"`: this recognizer's values for a pen's round (docs/config.md#tools).
                guard let values = entry.value.table else { throw wrong(entry.value, "pen", "a table of this kind's distances and durations (pen.slop = \"8mm\")") }
                pen = values.entries
            case "name":
                guard case let .string(s) = entry.value.kind, !s.isEmpty else { throw wrong(entry.value, "a recognizer's name", "a non-empty string") }
                spec.name = s
            case "target":
                // An empty one is refused like any empty name: empty below means "not written".
                guard case let .string(s) = entry.value.kind, !s.isEmpty else { throw wrong(entry.value, "a recognizer's target", "a target's name (a non-empty string)") }
                spec.target = s
            case "simultaneousWith": spec.simultaneousWith = try strings(entry)
            case "requiresFailureOf": spec.requiresFailureOf = try strings(entry)
            case "dropTargets": spec.dropTargets = try strings(entry, of: "target")
            case "consume":
                guard case let .bool(b) = entry.value.kind else { throw wrong(entry.value, "consume", "true or false (whether the contacts it wins are kept from a pass-through clone)") }
                spec.consume = b
            case "hold", "holdDistance":
                // How long a consuming recognizer may keep a contact from the clone while it
                // decides (docs/live.md#pass-through): up to 2 s and 300 mm.
                let time = entry.key == "hold"
                let (n, _) = try convert(entry.value, to: time ? .milliseconds : .millimetres, key: entry.key)
                guard n > 0 && n <= (time ? 2000 : 300) else {
                    throw wrong(entry.value, entry.key, time ? "a duration above 0 and at most 2 s (\"500ms\")" : "a distance above 0 and at most 300 mm (\"80mm\")")
                }
                var bound = spec.hold ?? .standard
                if time { bound.time = Interval(microseconds: Int64(n * 1000)) } else { bound.distance = n }
                spec.hold = bound
                holdKey = entry
            default:
                try set(entry, in: &kind)
                own.insert(entry.key)
            }
        }
        if let holdKey, !spec.consume {
            throw fail(holdKey.keyPosition, "\(holdKey.key) applies to a recognizer with consume = true (how long it may keep a contact from a pass-through clone)")
        }
        try applyDefaults(to: &kind, except: own)
        spec.kind = kind
        spec.penKind = try penKind(for: kind, own: pen)
        source.recognizers.append(ConfigSourceMap.Table(name: spec.name, position: value.position, keys: keys))
        return spec
    }

    /// The reference checks the parser has always made, at the line of the key that refers.
    /// Where the file says what validation refused: the key of the declaration at fault, else
    /// the declaration itself; a parameter set through `[defaults]`, that key. The default
    /// recognizers (no `[[recognizer]]` in the file) were declared nowhere but in `[defaults]`.
    func position(of error: GraphConfigurationError, in configuration: GraphConfiguration, declared: Bool) -> ConfigPosition {
        let nowhere = ConfigPosition(line: 0, column: 0)
        let k = error.subject.index
        let table: ConfigSourceMap.Table?
        switch error.subject.kind {
        case .graph: table = nil
        case .target: table = k >= 0 && k < source.targets.count ? source.targets[k] : nil
        case .recognizer: table = declared && k >= 0 && k < source.recognizers.count ? source.recognizers[k] : nil
        }
        // A relation's keys: the one it blames, else the other where only that one is written
        // (the blamed one kept its default), in the table, then in [defaults].
        let keys = [error.key, error.relatedKey].compactMap { $0 }
        if let table, let at = keys.lazy.compactMap({ table.keys[$0] }).first { return at }
        if error.subject.kind == .recognizer, k >= 0, k < configuration.recognizers.count,
           let at = keys.lazy.compactMap({ source.defaults["\(configuration.recognizers[k].kind.gesture.name).\($0)"] }).first {
            return at
        }
        if let table { return table.position }
        return source.recognizers.last?.position ?? source.targets.last?.position ?? nowhere
    }
}
