// A client's message on the event socket: one JSON object per line (docs/live.md#the-event-socket).
// The daemon runs as root and anyone in the socket's group may write, so a line is bounded
// before it is parsed, and every way a message can be wrong is an error value naming it, never
// a trap. TouchlineCore's JSONReader is the parser: bounded nesting, the column of an error.
import TouchlineCore
import TouchlineGestures

/// Which events a client receives; an empty list admits every value of its key.
public struct SubscriptionFilter: Sendable, Equatable {
    public var gestures: Set<String>
    public var targets: Set<String>
    public var devices: Set<Int>
    /// `"view": true` (`touchline view`, docs/view.md): the client also receives each device's
    /// surface and targets, its frames (contacts after the device transform, and as reported),
    /// dropped as events are when it is slow. No client asking: the frame path does nothing more.
    public var view: Bool

    public init(gestures: Set<String> = [], targets: Set<String> = [], devices: Set<Int> = [], view: Bool = false) {
        self.gestures = gestures
        self.targets = targets
        self.devices = devices
        self.view = view
    }

    public func admits(gesture: String, target: String, device: Int) -> Bool {
        (gestures.isEmpty || gestures.contains(gesture))
            && (targets.isEmpty || targets.contains(target))
            && (devices.isEmpty || devices.contains(device))
    }
}

public enum ClientMessage: Sendable, Equatable {
    case subscribe(SubscriptionFilter)
    /// `{"register": …}`: a target of the client's own, with its recognizers.
    case register(ClientTargetRequest)
    /// `{"unregister": "name"}`: removes a target the client registered.
    case unregister(String)
}

/// What was wrong with a message, as the `error` reply says it.
public struct ClientMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

public enum ClientMessageParser {
    /// The longest line a client may send, in bytes (without its newline).
    public static let maximumLineLength = 4096
    /// The longest name (gesture, target) a filter may hold, and how many of each.
    public static let maximumNameLength = 256
    public static let maximumListCount = 256
    /// The largest device number a filter or a registration may name. The daemon numbers
    /// devices from 0 in the order they open (a trace's own numbers are below 128), so a
    /// larger one names no device it will ever have: it is refused rather than echoed back
    /// (issue 24, item 11: 900000000000000000 came back in the reply as if it meant something).
    public static let maximumDeviceNumber = 999_999

    /// The gesture names a filter may name: the shipped recognizers'.
    /// The kinds' names, and `explain` (the lines of a daemon run with `--explain`).
    public static let standardGestures: Set<String> = Set(RecognizerRegistryNames.standard + ["explain"])

    /// Parses one line (without its newline). `gestures`: the names a `gestures` list may hold.
    public static func parse(_ line: ArraySlice<UInt8>, gestures known: Set<String> = standardGestures) -> Result<ClientMessage, ClientMessageError> {
        if line.count > maximumLineLength {
            return .failure(ClientMessageError("message of \(line.count) bytes is longer than the limit of \(maximumLineLength) bytes"))
        }
        let value: JSONValue
        do {
            value = try JSONReader.read(line)
        } catch {
            return .failure(ClientMessageError("not JSON (\(error)): found \(shortened(line)); expected one JSON object per line, such as {\"subscribe\": [\"tap\"]}"))
        }
        guard case .object(let object) = value else {
            return .failure(ClientMessageError("expected a JSON object such as {\"subscribe\": [\"tap\"]}, found \(kind(of: value))"))
        }
        guard object.count == 1, let entry = object.first else {
            let keys = object.map(\.key).sorted().map { quoted($0) }.joined(separator: ", ")
            return .failure(ClientMessageError("expected one key per message (\"subscribe\", \"register\" or \"unregister\"), found \(object.count)\(keys.isEmpty ? "" : ": " + keys)"))
        }
        switch entry.key {
        case "subscribe": return subscription(entry.value, gestures: known).map(ClientMessage.subscribe)
        case "register": return register(entry.value).map(ClientMessage.register)
        case "unregister": return unregister(entry.value).map(ClientMessage.unregister)
        default: return .failure(ClientMessageError("unknown message \(quoted(entry.key)); expected \"subscribe\", \"register\" or \"unregister\""))
        }
    }

    static func subscription(_ body: JSONValue, gestures known: Set<String>) -> Result<SubscriptionFilter, ClientMessageError> {
        if case .array = body {
            return names(body, "subscribe", known: known).map { SubscriptionFilter(gestures: $0) }
        }
        guard case .object(let object) = body else {
            return .failure(ClientMessageError("subscribe: expected a list of gesture names or an object with \"gestures\", \"targets\", \"devices\", \"view\", found \(kind(of: body))"))
        }
        var filter = SubscriptionFilter()
        for (key, value) in object.sorted(by: { $0.key < $1.key }).map({ ($0.key, $0.value) }) {
            switch key {
            case "gestures":
                switch names(value, "subscribe.gestures", known: known) {
                case .success(let set): filter.gestures = set
                case .failure(let error): return .failure(error)
                }
            case "targets":
                switch names(value, "subscribe.targets", known: nil) {
                case .success(let set): filter.targets = set
                case .failure(let error): return .failure(error)
                }
            case "devices":
                switch devices(value) {
                case .success(let set): filter.devices = set
                case .failure(let error): return .failure(error)
                }
            case "view":
                guard case .bool(let on) = value else {
                    return .failure(ClientMessageError("subscribe.view: expected true or false, found \(kind(of: value))"))
                }
                filter.view = on
            default:
                return .failure(ClientMessageError("subscribe: unknown key \(quoted(key)); expected \"gestures\", \"targets\", \"devices\" or \"view\""))
            }
        }
        return .success(filter)
    }

    static func names(_ value: JSONValue, _ what: String, known: Set<String>?) -> Result<Set<String>, ClientMessageError> {
        guard case .array(let list) = value else {
            return .failure(ClientMessageError("\(what): expected a list of names, found \(kind(of: value))"))
        }
        if list.count > maximumListCount {
            return .failure(ClientMessageError("\(what): \(list.count) names; at most \(maximumListCount)"))
        }
        var set: Set<String> = []
        for (i, element) in list.enumerated() {
            guard case .string(let name) = element else {
                return .failure(ClientMessageError("\(what)[\(i)]: expected a name (a string), found \(kind(of: element))"))
            }
            if name.utf8.count > maximumNameLength {
                return .failure(ClientMessageError("\(what)[\(i)]: a name of \(name.utf8.count) bytes; at most \(maximumNameLength)"))
            }
            if let known, !known.contains(name) {
                return .failure(ClientMessageError("\(what)[\(i)]: unknown gesture \(quoted(name)); expected one of \(known.sorted().joined(separator: ", "))"))
            }
            set.insert(name)
        }
        return .success(set)
    }

    static func devices(_ value: JSONValue) -> Result<Set<Int>, ClientMessageError> {
        guard case .array(let list) = value else {
            return .failure(ClientMessageError("subscribe.devices: expected a list of device numbers (the events' \"device\"), found \(kind(of: value))"))
        }
        if list.count > maximumListCount {
            return .failure(ClientMessageError("subscribe.devices: \(list.count) numbers; at most \(maximumListCount)"))
        }
        var set: Set<Int> = []
        for (i, element) in list.enumerated() {
            guard let number = integer(element), number >= 0 else {
                return .failure(ClientMessageError("subscribe.devices[\(i)]: expected a device number (0, 1, …, as events' \"device\"), found \(kind(of: element))"))
            }
            guard number <= maximumDeviceNumber else {
                return .failure(ClientMessageError("subscribe.devices[\(i)]: expected a device number from 0 to \(maximumDeviceNumber) (as events' \"device\"), found \(number)"))
            }
            set.insert(number)
        }
        return .success(set)
    }

    /// A whole JSON number written without fraction or exponent (not 1.5, not 1e3).
    static func integer(_ value: JSONValue) -> Int? {
        guard case .integer(let n) = value else { return nil }
        return Int(exactly: n)
    }

    /// What a value is, for a message: its JSON type, and the value when short.
    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .string(let s): return "the string \(quoted(s))"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let n): return "the number \(n)"
        case .number(let n): return "the number \(n)"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    static func quoted(_ s: String) -> String {
        let short = s.utf8.count > 40 ? String(decoding: s.utf8.prefix(40), as: UTF8.self) + "…" : s
        var out = "\""
        for scalar in short.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A line as found, shortened (invalid UTF-8 replaced), for a message.
    static func shortened(_ line: ArraySlice<UInt8>) -> String {
        let prefix = line.prefix(60)
        let text = String(decoding: prefix, as: UTF8.self)
        return text.isEmpty ? "an empty line" : quoted(text) + (line.count > prefix.count ? " (\(line.count) bytes)" : "")
    }
}

/// The shipped gesture names, as strings.
enum RecognizerRegistryNames {
    static var standard: [String] { TouchlineGestures.RecognizerRegistry.standard.kinds.map { $0.gesture.description } }
}
