import Foundation
import Testing

/// Every command's help, whole (Tests/TouchlineCLITests/Expected/help/): an option added, renamed
/// or explained differently is a diff a reviewer reads. The help is wrapped at the terminal's
/// width, which ArgumentParser takes from COLUMNS before the terminal: the test sets 80, so a
/// test runner's own terminal does not change it.
@Suite struct HelpTests {
    static let subcommands = [
        "inspect", "replay", "plot", "convert", "devices", "run", "record", "play", "daemon", "listen", "view", "score", "tune",
        "calibrate",
    ]

    static func help(_ arguments: [String]) throws -> CLIResult {
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        return try run(Paths.binary.path, arguments, environment: environment)
    }

    @Test func touchlineHelp() throws {
        try Self.help(["--help"]).expect(status: 0, stdout: "help/touchline.txt")
    }

    @Test(arguments: subcommands)
    func subcommandHelp(_ command: String) throws {
        try Self.help([command, "--help"]).expect(status: 0, stdout: "help/\(command).txt")
    }

    @Test func version() throws {
        try Self.help(["--version"]).expect(status: 0, stdout: "touchline-version.txt")
    }

    /// The table of exit statuses is in the whole help (touchline.txt); a bare `touchline` is a
    /// usage error (532b116 printed the help and exited 0): the same help, on standard error,
    /// after what is missing.
    @Test func bareTouchlineIsAUsageError() throws {
        try Self.help([]).expect(status: 64, stderr: "touchline-bare.stderr.txt")
    }
}
