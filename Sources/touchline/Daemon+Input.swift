// The daemon's one virtual uinput device, made only when the configuration has input actions
// (`keys`, `button`; docs/live.md#input-actions).
import TouchlineGestures
import TouchlineSettings
import TouchlineInput
import TouchlineLive

extension Daemon {
    /// The uinput device `actions` need, or nil when they have no input action. A kernel without
    /// uinput, or no permission on /dev/uinput, is an unusable output (exit 73), named by the
    /// first input action's line.
    /// With `--dry-run`, no device: each frame an input action would write is a line on
    /// stderr (`log`), and the configuration runs on any machine.
    static func inputDevice(for actions: ActionConfiguration, config: String?, dryRun: Bool, log: @escaping (String) -> Void) throws -> (any InputEventWriter)? {
        guard let description = InputActions.description(for: actions), let first = actions.inputActions.first else { return nil }
        if dryRun { return InputEventLog(line: log) }
        do {
            return try UInputDevice(description: description)
        } catch {
            let kind = if case .button = first.command { "button" } else { "keys" }
            throw CLIError.output("\(config ?? "the configuration"):\(first.line): this [[action]] (\(kind)) writes through uinput, which is not usable: \(error); \(InputActions.fix(for: error))")
        }
    }
}
