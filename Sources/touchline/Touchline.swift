import ArgumentParser
import TouchlineInput

@main
struct Touchline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchline",
        abstract: "Touch gesture recognition for Linux touchscreens.",
        discussion: """
            Reads touch input from recorded traces (libinput record YAML, evemu, Android \
            getevent -lt) or live devices, assembles frames of contacts and recognizes gestures, \
            printing JSON Lines (schema v1, docs/events.md).

            \(ExitStatus.table)
            """,
        version: "0.1.0",
        subcommands: [Inspect.self, Replay.self, Plot.self, Convert.self, Devices.self, Run.self, Record.self, Play.self, Daemon.self, Listen.self, View.self, Score.self, Tune.self, Calibrate.self]
    )

    static func main() {
        ProcessStart.ignoreBrokenPipe()
        ProcessStart.reserveStandardDescriptors()
        Self.main(nil)
    }

    /// A bare `touchline` is a usage error: the help goes to standard error and the status says
    /// nothing was done, so a script that forgot its subcommand does not pass.
    func run() throws {
        // Not through warn(), which escapes newlines: the help is several lines on purpose.
        StandardError.write("touchline: missing a subcommand\n\n" + Self.helpMessage() + "\n")
        throw ExitCode(ExitStatus.usage)
    }
}
