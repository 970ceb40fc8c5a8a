// `--format json|text`, `--color` and `--relative-time` for the commands that print gesture
// events (replay, run, listen, daemon --stdout). JSON Lines stay the default and their bytes do
// not change; text is for a person at a terminal (docs/events.md#text).
import ArgumentParser
import TouchlineInput

enum EventFormat: String, ExpressibleByArgument, CaseIterable {
    case json, text
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

struct FormatOptions: ParsableArguments {
    @Option(help: "How events are printed: json (JSON Lines, schema v1) or text (one aligned line per event, as libinput debug-events prints).")
    var format: EventFormat = .json

    @Option(help: "With --format text: colours by phase (auto: only when standard output is a terminal).")
    var color: ColorChoice = .auto

    // Off by default: times stay those of the input, so an event can be found in its trace by
    // its time and the output of a file does not change. libinput record files (and `touchline
    // record`'s) hold times from the first event already; evemu traces hold the kernel's
    // absolute times, getevent -lt the seconds since boot (docs/traces.md#times).
    @Flag(help: "Times from the first event (the first is 0.000000), in every format. Default: times as the input holds them (libinput record: from the first event already; evemu, getevent and live devices: the kernel's clock).")
    var relativeTime = false

    var isText: Bool { format == .text }

    /// Whether text on standard output gets colours.
    var colorsStandardOutput: Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto: return Terminal.isTerminal(1)
        }
    }
}
