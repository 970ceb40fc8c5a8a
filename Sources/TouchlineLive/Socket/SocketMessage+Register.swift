// `{"register": {...}}` and `{"unregister": "name"}` on the event socket
// (docs/live.md#registered-targets). The JSON becomes the TOML tables a configuration file would
// hold, and the configuration's own reader reads them (GraphConfiguration.readClientTarget): a
// registered recognizer's parameter names, units and limits are the file's, with one validator.
import TouchlineConfig
import TouchlineCore
import TouchlineGestures
import TouchlineSettings

/// A target a client registers, with the devices it joins (empty: every device).
public struct ClientTargetRequest: Sendable, Equatable {
    public var spec: ClientTargetSpec
    public var devices: Set<Int>
    public init(spec: ClientTargetSpec, devices: Set<Int> = []) {
        self.spec = spec
        self.devices = devices
    }
    public var name: String { spec.target.name }
}

extension ClientMessageParser {
    /// JSON nesting a register message may hold (object, recognizers list, recognizer, a list in it).
    static let maximumDepth = 8

    static func register(_ body: JSONValue, registry: RecognizerRegistry = .standard) -> Result<ClientTargetRequest, ClientMessageError> {
        guard case .object(let object) = body else {
            return .failure(ClientMessageError("register: expected an object such as {\"name\": \"zone\", \"rect\": [0, 0, 0.5, 0.5], \"units\": \"normalized\", \"recognizers\": [{\"kind\": \"tap\"}]}, found \(kind(of: body))"))
        }
        var targetEntries: [TOMLEntry] = []
        var recognizers: [TOMLValue]?
        var devices: Set<Int> = []
        for (key, value) in object.sorted(by: { $0.key < $1.key }).map({ ($0.key, $0.value) }) {
            switch key {
            case "recognizers":
                guard case .array(let list) = value else {
                    return .failure(ClientMessageError("register.recognizers: expected a list of recognizers such as [{\"kind\": \"tap\"}], found \(kind(of: value))"))
                }
                if list.count > GraphConfiguration.maximumClientRecognizers {
                    return .failure(ClientMessageError("register.recognizers: found \(list.count) recognizers; at most \(GraphConfiguration.maximumClientRecognizers) per target"))
                }
                var values: [TOMLValue] = []
                for element in list {
                    switch toml(element, depth: 2) {
                    case .success(let v): values.append(v)
                    case .failure(let error): return .failure(ClientMessageError("register.recognizers: \(error.message)"))
                    }
                }
                recognizers = values
            case "devices":
                switch self.devices(value) {
                case .success(let set): devices = set
                case .failure(let error): return .failure(ClientMessageError(renamed(error.message, from: "subscribe.devices", to: "register.devices")))
                }
            case "name", "rect", "units", "z":
                switch toml(value, depth: 1) {
                case .success(let v): targetEntries.append(TOMLEntry(key: key, keyPosition: nowhere, value: v))
                case .failure(let error): return .failure(ClientMessageError("register.\(key): \(error.message)"))
                }
            default:
                return .failure(ClientMessageError("register: unknown key \(quoted(key)); expected \"name\", \"rect\", \"units\", \"z\", \"recognizers\" or \"devices\""))
            }
        }
        guard let recognizers else {
            return .failure(ClientMessageError("register: no \"recognizers\"; expected a list such as [{\"kind\": \"tap\"}]"))
        }
        do {
            let spec = try GraphConfiguration.readClientTarget(TOMLTable(entries: targetEntries), recognizers: recognizers, registry: registry)
            return .success(ClientTargetRequest(spec: spec, devices: devices))
        } catch {
            return .failure(ClientMessageError("register: \(error.message)"))
        }
    }

    static func unregister(_ body: JSONValue) -> Result<String, ClientMessageError> {
        guard case .string(let name) = body, !name.isEmpty, name.utf8.count <= maximumNameLength else {
            return .failure(ClientMessageError("unregister: expected the name of a target this connection registered (a string), found \(kind(of: body))"))
        }
        return .success(name)
    }

    static let nowhere = TOMLPosition(line: 0, column: 0)

    /// A JSON value as the TOML value a file would hold; its `source` is the JSON text, which
    /// the reader's "found …" quotes. Null has no TOML form.
    static func toml(_ value: JSONValue, depth: Int) -> Result<TOMLValue, ClientMessageError> {
        if depth > maximumDepth {
            return .failure(ClientMessageError("nested deeper than \(maximumDepth) levels"))
        }
        switch value {
        case .string(let s):
            return .success(TOMLValue(kind: .string(s), position: nowhere, source: quoted(s)))
        case .bool(let b):
            return .success(TOMLValue(kind: .bool(b), position: nowhere, source: b ? "true" : "false"))
        case .integer(let n):
            return .success(TOMLValue(kind: .integer(n), position: nowhere, source: String(n)))
        case .number(let n):
            return .success(TOMLValue(kind: .float(n), position: nowhere, source: "\(n)"))
        case .array(let list):
            if list.count > maximumListCount {
                return .failure(ClientMessageError("a list of \(list.count) values; at most \(maximumListCount)"))
            }
            var items: [TOMLValue] = []
            for element in list {
                switch toml(element, depth: depth + 1) {
                case .success(let v): items.append(v)
                case .failure(let error): return .failure(error)
                }
            }
            return .success(TOMLValue(kind: .array(items), position: nowhere))
        case .object(let object):
            var entries: [TOMLEntry] = []
            for (key, element) in object.sorted(by: { $0.key < $1.key }).map({ ($0.key, $0.value) }) {
                switch toml(element, depth: depth + 1) {
                case .success(let v): entries.append(TOMLEntry(key: key, keyPosition: nowhere, value: v))
                case .failure(let error): return .failure(error)
                }
            }
            return .success(TOMLValue(kind: .table(TOMLTable(entries: entries)), position: nowhere))
        case .null:
            return .failure(ClientMessageError("found \(kind(of: value)); expected a string, a number, true, false, a list or an object"))
        }
    }

    /// `message` with each `old` replaced by `new` (Foundation's replacingOccurrences, which
    /// this module does without).
    static func renamed(_ message: String, from old: String, to new: String) -> String {
        var result = ""
        var rest = Substring(message)
        while let range = rest.firstRange(of: old) {
            result += rest[..<range.lowerBound]
            result += new
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
