import TouchlineConfig
import TouchlineCore
import TouchlineGestures

// `[[action]]` sections of the daemon's configuration (docs/live.md#actions): which gesture
// events run which command. Read here, purely, so that `--check-config` and tests see the same
// errors the daemon does; TouchlineLive's ActionRunner spawns the commands.

/// One `[[action]]`: a filter on gesture events and the command it runs.
public struct ActionSpec: Hashable, Sendable {
    public enum Command: Hashable, Sendable {
        /// Run as is (execve after a PATH search when the first element has no slash): no shell
        /// ever sees the event's fields.
        case argv([String])
        /// `shell = true`: `/bin/sh -c STRING`, written out on purpose.
        case shell(String)
        /// `keys = [...]`: a chord on the daemon's uinput device, pressed in order, released in
        /// reverse (EV_KEY codes, read by their kernel names).
        case keys([UInt16])
        /// `button = "right"`: a click on the daemon's uinput pointer at the gesture's position.
        case button(PointerButton)

        /// Whether it runs in the daemon (uinput) rather than as a child process.
        public var isInput: Bool {
            switch self {
            case .keys, .button: true
            case .argv, .shell: false
            }
        }
    }

    /// The event's `gesture` name (tap, pinch…).
    public var gesture: String
    /// The event's `phase`; nil: `recognized` and `ended` (the moments a gesture is complete),
    /// or `changed` when `repeat` is set.
    public var phase: GesturePhase?
    /// The event's `target`; nil: any of the configuration's own targets (its `[[target]]`s, or
    /// the default graph's "surface", and those of `[[device]] graph` files), never one a client
    /// of the socket registered; `ActionSpec.anyTarget` ("*"): any target, a client's too.
    public var target: String?
    public var device: Int?
    /// Conditions on the event's fields (`fingers = 3`, `edge = "left"`, `scale = [">=", 1.5]`),
    /// all of which hold for the action to run; kept sorted, so that two actions with the same
    /// filters in another order are equal (FieldFilter.swift).
    public var filters: [FieldFilter] {
        didSet { filters.sort() }
    }
    public var command: Command
    /// Killed (SIGTERM, then SIGKILL after `ActionConfiguration.killGrace`) when still running.
    public var timeout: Interval
    /// For continuous gestures: run on `changed` at most once per this interval (event time).
    public var repeatInterval: Interval?
    /// Where the section starts, for messages about it.
    public var line: Int

    public init(gesture: String, phase: GesturePhase? = nil, target: String? = nil, device: Int? = nil, fingers: Int? = nil,
                direction: SwipeDirection? = nil, command: Command, timeout: Interval = ActionConfiguration.defaultTimeout,
                repeatInterval: Interval? = nil, line: Int = 0) {
        self.gesture = gesture
        self.phase = phase
        self.target = target
        self.device = device
        var filters: [FieldFilter] = []
        if let fingers { filters.append(FieldFilter("fingers", .equal, .number(Double(fingers)))) }
        if let direction { filters.append(FieldFilter("direction", .equal, .word(direction.name.description))) }
        self.filters = filters.sorted()
        self.command = command
        self.timeout = timeout
        self.repeatInterval = repeatInterval
        self.line = line
    }

    /// `target = "*"`: the action fires on any target, those clients register included.
    public static let anyTarget = "*"

    /// Whether `event` runs this action (the rate limit of `repeat` aside); `ownTargets` are the
    /// configuration's targets, where an action without `target` fires (ActionConfiguration).
    public func matches(_ event: GestureEvent, ownTargets: Set<String> = ActionConfiguration.defaultOwnTargets) -> Bool {
        guard event.gesture.description == gesture else { return false }
        if let phase {
            guard event.phase == phase else { return false }
        } else if repeatInterval != nil {
            guard event.phase == .changed else { return false }
        } else {
            guard event.phase == .recognized || event.phase == .ended else { return false }
        }
        switch target {
        case nil: if !ownTargets.contains(event.target.description) { return false }
        case Self.anyTarget?: break
        case let target?: if event.target.description != target { return false }
        }
        if let device, event.device != device { return false }
        for filter in filters where !filter.holds(for: event) { return false }
        return true
    }
}

/// The buttons a `button` action clicks (EV_KEY codes BTN_LEFT, BTN_RIGHT, BTN_MIDDLE).
public enum PointerButton: String, CaseIterable, Hashable, Sendable {
    case left, right, middle

    public var code: UInt16 {
        switch self {
        case .left: 0x110
        case .right: 0x111
        case .middle: 0x112
        }
    }
}

/// Every `[[action]]`, and `[actions]`' global settings.
public struct ActionConfiguration: Hashable, Sendable {
    public static let defaultTimeout = Interval(microseconds: 5_000_000)
    public static let defaultMaxRunning = 8
    /// Between SIGTERM and SIGKILL for an action past its timeout.
    public static let killGrace = Interval(microseconds: 500_000)

    public var actions: [ActionSpec]
    /// At most this many commands at once; an action matched while the cap is reached is skipped
    /// (with a warning), not queued: a late volume step or workspace switch is a wrong one.
    public var maxRunning: Int
    /// The configuration's own targets: an action without `target` fires on these only, so that
    /// a client's registered target never chooses where it fires (issue 35). Set from the graph
    /// and the `[[device]] graph` files (`DaemonConfiguration.resolveActionTargets`).
    public var ownTargets: Set<String>
    /// The default graph's ("surface").
    public static let defaultOwnTargets = Set(GraphConfiguration.default.targets.map(\.name))

    public init(actions: [ActionSpec] = [], maxRunning: Int = ActionConfiguration.defaultMaxRunning,
                ownTargets: Set<String> = ActionConfiguration.defaultOwnTargets) {
        self.actions = actions
        self.maxRunning = maxRunning
        self.ownTargets = ownTargets
    }

    /// Whether `event` runs `action` (the rate limit of `repeat` aside).
    public func runs(_ action: ActionSpec, for event: GestureEvent) -> Bool {
        action.matches(event, ownTargets: ownTargets)
    }

    /// The targets actions filter on by name (`target`): no client of the socket may register one.
    public var targets: Set<String> { Set(actions.compactMap(\.target).filter { $0 != ActionSpec.anyTarget }) }

    /// The actions that write to the daemon's uinput device (keys, button).
    public var inputActions: [ActionSpec] { actions.filter { $0.command.isInput } }
}

/// What `touchline daemon --config` reads: the graph (as `replay --config`) and the actions.
public struct DaemonConfiguration: Hashable, Sendable {
    public var graph: GraphConfiguration
    public var actions: ActionConfiguration
    /// `[[device]]` and `[socket]` (DeviceConfiguration.swift).
    public var devices = DeviceConfiguration()

    public static let sections: Set<String> = ["action", "actions", "device", "socket"]

    public init(graph: GraphConfiguration = .default, actions: ActionConfiguration = ActionConfiguration(), devices: DeviceConfiguration = DeviceConfiguration()) {
        self.graph = graph
        self.actions = actions
        self.devices = devices
    }

    public static func parse(bytes: [UInt8], file: String, registry: RecognizerRegistry = .standard) throws(ConfigError) -> DaemonConfiguration {
        try parse(document: try ConfigSourceMap.document(bytes, file: file), file: file, registry: registry)
    }

    /// The same from a document already read: read once for the graph's reader (as replay
    /// has it) and the daemon's sections.
    static func parse(document: TOMLDocument, file: String, registry: RecognizerRegistry) throws(ConfigError) -> DaemonConfiguration {
        let graph = try GraphConfiguration.parseWithSource(document: document, file: file, registry: registry, allowing: sections).configuration
        let reader = ActionReader(source: ConfigSourceMap(file: file), registry: registry)
        var configuration = DaemonConfiguration(graph: graph, actions: try reader.read(document.root))
        configuration.devices = try DeviceConfiguration.read(document.root, file: file)
        configuration.actions.ownTargets = configuration.declaredTargets
        return configuration
    }
}

extension DaemonConfiguration {
    /// The targets of the graph and of the `[[device]] graph` files read so far.
    public var declaredTargets: Set<String> {
        var declared = Set(graph.targets.map(\.name))
        for device in devices.devices { declared.formUnion(device.graphConfiguration?.targets.map(\.name) ?? []) }
        return declared
    }

    /// Once the `[[device]] graph` files are read (Daemon.loadConfiguration): actions without
    /// `target` fire on the targets they declare too, and every action's `target` must name one
    /// of them (or be "*"): an undeclared one would match only a target some client of the
    /// socket registers under that name, which would then choose where the action fires.
    public mutating func resolveActionTargets(file: String) throws(ConfigError) {
        let declared = declaredTargets
        actions.ownTargets = declared
        for action in actions.actions {
            guard let target = action.target, target != ActionSpec.anyTarget, !declared.contains(target) else { continue }
            let known = declared.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw ConfigError(file: file, line: action.line, message: "this action's target \"\(target)\" is not a declared target (declared: \(known)); declare it with [[target]], or a client of the socket could register it and choose where the action fires (target = \"*\" fires on any target, clients' too)")
        }
    }
}

struct ActionReader: ConfigSectionReader {
    let source: ConfigSourceMap
    let registry: RecognizerRegistry


    func read(_ root: TOMLTable) throws(ConfigError) -> ActionConfiguration {
        var configuration = ActionConfiguration()
        if let entry = root["actions"] {
            guard let table = entry.value.table else { throw wrong(entry.value, "actions", "an [actions] table (maxRunning)") }
            for setting in table.entries {
                guard setting.key == "maxRunning" else {
                    throw fail(setting.keyPosition, "unknown [actions] key '\(setting.key)'; expected maxRunning")
                }
                guard case let .integer(n) = setting.value.kind, (1...256).contains(n) else {
                    throw wrong(setting.value, "actions.maxRunning", "an integer from 1 to 256")
                }
                configuration.maxRunning = Int(n)
            }
        }
        if let entry = root["action"] {
            guard case let .array(items) = entry.value.kind, items.allSatisfy({ $0.table != nil }) else {
                throw wrong(entry.value, "action", "[[action]] sections (an array of tables)")
            }
            for item in items { configuration.actions.append(try readAction(item)) }
        }
        return configuration
    }

    func string(_ v: TOMLValue, _ key: String) throws(ConfigError) -> String {
        guard case let .string(s) = v.kind, !s.isEmpty else { throw wrong(v, key, "a non-empty string") }
        return s
    }

    /// Milliseconds: a number, or a string with a unit ("500ms", "2s").
    func milliseconds(_ v: TOMLValue, _ key: String) throws(ConfigError) -> Interval {
        let expected = "a duration from 1 ms to 1 day: milliseconds, or a string with a unit (\"500ms\", \"2s\")"
        let ms: Double?
        try refuseUnitSlip(v, String(key.split(separator: " ").last ?? Substring(key)), .milliseconds)
        switch v.kind {
        case let .integer(n): ms = Double(n)
        case let .float(d): ms = d
        case let .string(s): ms = GraphConfiguration.parseQuantity(s, unit: .milliseconds)
        default: ms = nil
        }
        guard let ms, ms >= 1, ms <= 86_400_000 else { throw wrong(v, key, expected) }
        return Interval(microseconds: Int64(ms * 1000))
    }

    func readAction(_ value: TOMLValue) throws(ConfigError) -> ActionSpec {
        let table = value.table ?? TOMLTable()
        var gesture: String?
        var spec = ActionSpec(gesture: "", command: .argv([]), line: value.position.line)
        var argv: TOMLValue?
        var fieldKeys: [(key: String, value: TOMLValue, position: ConfigPosition)] = []
        var shell: TOMLValue?
        var keys: TOMLValue?
        var button: TOMLValue?
        var phase: TOMLValue?
        var repeatValue: TOMLValue?
        for entry in table.entries {
            let v = entry.value
            switch entry.key {
            case "gesture":
                guard case let .string(s) = v.kind, registry.kind(named: s) != nil else {
                    throw wrong(v, "an action's gesture", "one of \(registry.names)")
                }
                gesture = s
            case "phase":
                let phases = GesturePhase.gestures
                guard case let .string(s) = v.kind, let found = phases.first(where: { $0.name.description == s }) else {
                    throw wrong(v, "an action's phase", "one of \(phases.map { $0.name.description }.joined(separator: ", "))")
                }
                spec.phase = found
                phase = v
            case "target":
                spec.target = try string(v, "an action's target")
            case "device":
                guard case let .integer(n) = v.kind, (0...1023).contains(n) else { throw wrong(v, "an action's device", "a device number (0, 1, …, as events' \"device\")") }
                spec.device = Int(n)
            case "argv":
                argv = v
            case "shell":
                guard case .bool = v.kind else { throw wrong(v, "an action's shell", "true or false") }
                shell = v
            case "keys":
                keys = v
            case "button":
                button = v
            case "timeout":
                spec.timeout = try milliseconds(v, "an action's timeout")
            case "repeat":
                spec.repeatInterval = try milliseconds(v, "an action's repeat")
                repeatValue = v
            default:
                // A filter on one of the gesture's fields, checked once the gesture is known
                // (the key may come first).
                fieldKeys.append((entry.key, v, entry.keyPosition))
            }
        }
        guard let gesture, let kind = registry.kind(named: gesture) else { throw fail(value.position, "this [[action]] has no gesture; gestures: \(registry.names)") }
        spec.gesture = gesture
        // The phases the kind's state machine emits (GestureRecognizer.phases): `phase =
        // "began"` on a tap, or `repeat` on a gesture without `changed`, would never fire.
        let emitted = kind.phases.map { $0.name.description }.joined(separator: ", ")
        if let phase, let found = spec.phase, !kind.phases.contains(found) {
            throw wrong(phase, "an action's phase on \(gesture)", "one of the phases \(gesture) events have: \(emitted)")
        }
        if let repeatValue, !kind.phases.contains(.changed) {
            throw fail(repeatValue.position, "repeat applies to changed events, and \(gesture) events have none (their phases: \(emitted)); leave repeat out")
        }
        for (key, v, position) in fieldKeys { spec.filters.append(try filter(key, v, position: position, kind: kind)) }
        let commands = [argv, keys, button].compactMap { $0 }.sorted { $0.position < $1.position }
        guard commands.count == 1 else {
            if commands.isEmpty {
                throw fail(value.position, "this [[action]] has no command; expected exactly one of argv (a list of strings: the program and its arguments), keys (a key chord) or button (a click)")
            }
            throw fail(commands[1].position, "this [[action]] has more than one of argv, keys and button; expected exactly one")
        }
        if let shell, argv == nil {
            throw fail(shell.position, "shell applies to argv; keys and button run in the daemon, not in a shell")
        }
        if let keys {
            spec.command = .keys(try keyChord(keys))
        } else if let button {
            let expected = "one of \(PointerButton.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"
            guard case let .string(s) = button.kind, let b = PointerButton(rawValue: s) else { throw wrong(button, "an action's button", expected) }
            spec.command = .button(b)
        } else if let argv {
            spec.command = try command(argv, shell: shell.map { $0.kind == .bool(true) } ?? false)
        }
        if spec.repeatInterval != nil, let phase = spec.phase, phase != .changed {
            throw fail(value.position, "this [[action]] has repeat and phase = \"\(phase)\"; repeat applies to changed events (leave phase out, or write phase = \"changed\")")
        }
        return spec
    }

    /// Key names as the kernel spells them (KEY_LEFTMETA, BTN_LEFT…), EV_KEY codes only.
    func keyChord(_ value: TOMLValue) throws(ConfigError) -> [UInt16] {
        let expected = "a non-empty list of at most 8 key names as the kernel spells them, such as [\"KEY_LEFTMETA\", \"KEY_S\"]"
        guard case let .array(items) = value.kind, !items.isEmpty, items.count <= 8 else { throw wrong(value, "an action's keys", expected) }
        var codes: [UInt16] = []
        for item in items {
            guard case let .string(s) = item.kind else { throw wrong(item, "an action's keys", expected) }
            guard let (type, code) = EventCodes.code(named: s), type == EventCodes.EV_KEY else {
                throw wrong(item, "an action's keys", "a key name as the kernel spells them (KEY_A, KEY_LEFTMETA, BTN_LEFT…; linux/input-event-codes.h)")
            }
            guard !codes.contains(code) else { throw wrong(item, "an action's keys", "each key once in a chord") }
            codes.append(code)
        }
        return codes
    }

    func command(_ argv: TOMLValue, shell: Bool) throws(ConfigError) -> ActionSpec.Command {
        if shell {
            guard case let .string(s) = argv.kind, !s.isEmpty else {
                throw wrong(argv, "an action's argv with shell = true", "one non-empty string, the command for /bin/sh -c")
            }
            // The command reaches sh as a C string: a NUL ("\u0000") would cut it there, and
            // sh would run only the part before it.
            guard !s.utf8.contains(0) else {
                throw wrong(argv, "an action's argv with shell = true", "a command without NUL characters (/bin/sh -c would run it cut at the first)")
            }
            return .shell(s)
        } else {
            let expected = "a non-empty list of strings (program, arguments…), run without a shell; write shell = true to run one string with /bin/sh -c"
            guard case let .array(items) = argv.kind, !items.isEmpty else { throw wrong(argv, "an action's argv", expected) }
            var words: [String] = []
            for item in items {
                guard case let .string(s) = item.kind else { throw wrong(item, "an action's argv", expected) }
                guard !s.utf8.contains(0) else { throw wrong(item, "an action's argv", "strings without NUL characters") }
                words.append(s)
            }
            guard !words[0].isEmpty else { throw wrong(items[0], "an action's argv", "a program name or path first") }
            return .argv(words)
        }
    }
}
