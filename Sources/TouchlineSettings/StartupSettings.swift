import TouchlineCore

// Settings the daemon applies once, as it starts, and a reload cannot change: the socket's group
// (the file is made, and its group set, before privileges drop) and the uinput device's keys and
// buttons (the device is made with them, before the drop too). SIGHUP compares the reloaded
// file's with the running ones and says which would need a restart, with where the file writes
// them, instead of "reloaded" alone (docs/live.md#reload). A setting that cannot be applied at
// reload is declared here, once, with how it changes.

/// One setting applied only at start, as a file gives it.
public struct StartupSetting: Hashable, Sendable {
    /// Which changes a running daemon cannot apply.
    public enum Restart: Hashable, Sendable {
        /// Any change (the socket's group).
        case anyChange
        /// Only a value the running one lacks (a key the uinput device was not made with; one
        /// no action writes any more is harmless).
        case additions
    }

    /// As a message names it: "[socket] group".
    public var name: String
    public var restart: Restart
    /// Each value, with the line that writes it first.
    public var values: [String: Int]
    /// What the daemon keeps when a reload would change this, said after the change.
    public var kept: String

    public init(name: String, restart: Restart, values: [String: Int], kept: String) {
        self.name = name
        self.restart = restart
        self.values = values
        self.kept = kept
    }

    /// What `next`, this setting as a reloaded `file` gives it, changes that only a restart
    /// would apply, as a phrase for the reload's line; nil when it changes nothing of that.
    public func restartNeeded(by next: StartupSetting, file: String) -> String? {
        func place(_ lines: some Sequence<Int>) -> String {
            guard let line = lines.min() else { return "(\(file))" }
            return "(\(file):\(line))"
        }
        switch restart {
        case .anyChange:
            guard Set(values.keys) != Set(next.values.keys) else { return nil }
            return "\(name) \(next.values.isEmpty ? "removal" : "change") needs a restart \(place(next.values.values)); \(kept)"
        case .additions:
            let missing = next.values.filter { values[$0.key] == nil }
            guard !missing.isEmpty else { return nil }
            let names = missing.keys.sorted().joined(separator: ", ")
            return "\(name) \(names) \(missing.count == 1 ? "needs" : "need") a restart \(place(missing.values)); \(kept)"
        }
    }
}

extension DaemonConfiguration {
    /// The settings of this file that the daemon applies only at start.
    public var startupSettings: [StartupSetting] {
        var group: [String: Int] = [:]
        if let name = devices.socketGroup { group[name] = devices.socketGroupPosition?.line ?? 0 }
        let socket = StartupSetting(
            name: "[socket] group", restart: .anyChange, values: group,
            kept: devices.socketGroup.map { "the socket keeps group \"\($0)\"" } ?? "the socket keeps the daemon's group")
        // As InputActions.description makes the device: each key of a chord by its kernel
        // name, and for any click a pointer ("button", as the file writes it).
        var input: [String: Int] = [:]
        func add(_ name: String, _ line: Int) { input[name] = min(input[name] ?? line, line) }
        for action in actions.actions {
            switch action.command {
            case let .keys(codes):
                for code in codes { add(EventCodes.codeName(type: EventCodes.EV_KEY, code: code) ?? "key \(code)", action.line) }
            case .button: add("button", action.line)
            case .argv, .shell: continue
            }
        }
        let uinput = StartupSetting(
            name: "[[action]]", restart: .additions, values: input,
            kept: "the uinput device has the keys and buttons of the actions the daemon started with")
        return [socket, uinput]
    }
}
