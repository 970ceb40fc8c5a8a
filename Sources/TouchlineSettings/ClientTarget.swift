import TouchlineConfig
import TouchlineCore
import TouchlineGestures

// A target an application registers while it runs (the daemon's event socket,
// docs/live.md#registered-targets): the keys of a `[[target]]` and a list of `[[recognizer]]`
// tables, read by the configuration's own reader (ConfigReader) into a ClientTargetSpec
// (TouchlineGestures), so that a registered recognizer takes exactly the parameters, units and
// limits a file's does.

extension GraphConfiguration {
    /// Bytes of a registered target's name and of its recognizers' own names: together, with
    /// the dot, within a graph name's limit (`Limits.nameBytes`).
    public static let maximumClientTargetName = 31
    public static let maximumClientRecognizerName = 32
    /// Recognizers one registered target may hold.
    public static let maximumClientRecognizers = 8

    /// Reads a registered target: `target` holds a `[[target]]`'s keys (name, rect, units, z),
    /// `recognizers` `[[recognizer]]` tables without `target`. Errors carry no file (the caller
    /// says where the message came from); a recognizer's start with "recognizers[i]".
    public static func readClientTarget(_ target: TOMLTable, recognizers tables: [TOMLValue], registry: RecognizerRegistry = .standard) throws(ConfigError) -> ClientTargetSpec {
        var reader = ConfigReader(source: ConfigSourceMap(file: ""), registry: registry)
        let position = ConfigPosition(line: 0, column: 0)
        let spec = try reader.readTarget(TOMLValue(kind: .table(target), position: position))
        if spec.name.utf8.count > maximumClientTargetName {
            throw ConfigError(file: "", line: 0, message: "name: \(GraphConfigurationError.quoted(spec.name)) is \(spec.name.utf8.count) bytes; a registered target's name is at most \(maximumClientTargetName)")
        }
        if tables.isEmpty || tables.count > maximumClientRecognizers {
            throw ConfigError(file: "", line: 0, message: "recognizers: found \(tables.count); expected 1 to \(maximumClientRecognizers) recognizers, such as [{\"kind\": \"tap\"}]")
        }
        func at(_ i: Int, _ error: ConfigError) -> ConfigError {
            ConfigError(file: "", line: 0, message: "recognizers[\(i)]: \(error.message)")
        }
        var specs: [RecognizerSpec] = []
        for (i, value) in tables.enumerated() {
            guard let table = value.table else {
                throw at(i, ConfigError(file: "", line: 0, message: "found \(value.found); expected an object such as {\"kind\": \"tap\"}"))
            }
            if table["target"] != nil {
                throw at(i, ConfigError(file: "", line: 0, message: "a registered target's recognizer takes no 'target': it is \(GraphConfigurationError.quoted(spec.name))"))
            }
            // Pass-through (docs/live.md#pass-through): a client must not keep other
            // applications' touches from them.
            if table["consume"] != nil {
                throw at(i, ConfigError(file: "", line: 0, message: "a registered target's recognizer takes no 'consume': only the daemon's configuration decides which touches the applications do not receive"))
            }
            var recognizer: RecognizerSpec
            do { recognizer = try reader.readRecognizer(value) } catch { throw at(i, error) }
            if recognizer.name.utf8.count > maximumClientRecognizerName {
                throw at(i, ConfigError(file: "", line: 0, message: "name: \(GraphConfigurationError.quoted(recognizer.name)) is \(recognizer.name.utf8.count) bytes; a registered recognizer's name is at most \(maximumClientRecognizerName)"))
            }
            recognizer.target = spec.name
            specs.append(recognizer)
        }
        // Relations name the target's own recognizers, by their own names; in the graph they
        // are qualified like the names.
        let own = Set(specs.map(\.name))
        for i in specs.indices {
            for (key, names) in [("simultaneousWith", specs[i].simultaneousWith), ("requiresFailureOf", specs[i].requiresFailureOf)] {
                if let stranger = names.first(where: { !own.contains($0) }) {
                    throw at(i, ConfigError(file: "", line: 0, message: "\(key): \(GraphConfigurationError.quoted(stranger)) is not a recognizer of this target; expected one of \(own.sorted().joined(separator: ", "))"))
                }
            }
            specs[i].simultaneousWith = specs[i].simultaneousWith.map { spec.name + "." + $0 }
            specs[i].requiresFailureOf = specs[i].requiresFailureOf.map { spec.name + "." + $0 }
        }
        for i in specs.indices { specs[i].name = spec.name + "." + specs[i].name }
        let client = ClientTargetSpec(target: spec, recognizers: specs)
        // On its own first (names, rect, parameters, relations), so that its faults are named
        // as its own and not as a conflict with a graph.
        do {
            try GraphConfiguration(targets: [spec], recognizers: specs).validate()
        } catch {
            throw ConfigError(file: "", line: 0, message: error.message)
        }
        return client
    }
}
