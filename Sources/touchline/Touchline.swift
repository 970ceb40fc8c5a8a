import ArgumentParser

@main
struct Touchline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchline",
        abstract: "Touch gesture recognition for Linux touchscreens.",
        discussion: """
            Reads touch input from recorded traces (libinput record YAML, evemu, Android \
            getevent -lt) or live devices, assembles frames of contacts and recognizes gestures, \
            printing JSON Lines (schema v1, docs/events.md).
            """,
        version: "0.1.0",
        subcommands: []
    )
}
