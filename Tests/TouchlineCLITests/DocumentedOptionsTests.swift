import Foundation
import Testing

/// Every option the README's command table names for a command is one that command's `--help`
/// lists. On 532b116 the table gave `run --frames`, which `run` does not have (it is
/// `--output frames`).
@Suite struct DocumentedOptionsTests {
    /// (command, options) for each row of the table: the first cell names the command, and
    /// the row's backticked `--options` (alone or in a `touchline …` line) are its own.
    static func documentedOptions() throws -> [(command: String, options: Set<String>)] {
        let readme = try String(contentsOf: Paths.root.appendingPathComponent("README.md"), encoding: .utf8)
        var rows: [(String, Set<String>)] = []
        for line in readme.split(separator: "\n") where line.hasPrefix("| `touchline ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: true)
            guard let first = cells.first, let command = first.split(separator: " ").dropFirst().first else { continue }
            let name = command.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            var options = Set<String>()
            // Spans that are this command or its options (not another tool's, such as
            // `libinput record --all`).
            for span in line.matches(of: /`([^`]*)`/) where span.output.1.hasPrefix("--") || span.output.1.hasPrefix("touchline ") {
                for flag in span.output.1.matches(of: /--[a-z][a-z-]*/) { options.insert(String(flag.output)) }
            }
            rows.append((name, options))
        }
        return rows
    }

    @Test func everyDocumentedOptionExists() throws {
        let rows = try Self.documentedOptions()
        #expect(rows.count >= 7, "the README's command table was not found")
        for (command, options) in rows {
            let help = try touchline(command, "--help")
            #expect(help.status == 0, "touchline \(command) --help: \(help.stderr)")
            for option in options {
                #expect(help.stdout.contains(option), "README names `touchline \(command) … \(option)`, which `touchline \(command) --help` does not list")
            }
        }
    }
}
