import ArgumentParser
import TouchlineCore

@main
struct Touchline: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Touch gesture recognition for Linux touchscreens.",
        subcommands: [Devices.self, Run.self, Play.self])
}
