import Foundation
import Testing

// Reports compared whole (issue 32): what `touchline` prints for a person (a score, a tune
// report, an inspection, a calibration, an error message, a command's help) is compared byte for
// byte with a file in Tests/TouchlineCLITests/Expected/, through TouchlineTestSupport's
// `Expected.difference`: a test never rewrites it, a missing file fails, and on a difference
// what the test got is left under .build/actual/ for scripts/update-goldens.sh to copy over after
// a deliberate change (then the change is a diff a reviewer reads). A check of one line inside a
// report (`.contains(`) stays only where the rest of the output cannot be the same twice
// (timing, a process id, a temporary path), and says so.

enum Report {
    static let directory = Paths.root.appendingPathComponent("Tests/TouchlineCLITests/Expected")

    /// Tests/TouchlineCLITests/Expected/NAME.
    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A path that differs with the checkout or the run, as a name that does not: the
    /// recordings as Recordings, a test's scratch folder (`scratch`) as $TMP.
    static func normalized(_ text: String, scratch: String? = nil) -> String {
        let text = scratch.map { text.replacingOccurrences(of: $0, with: "$TMP") } ?? text
        return text.replacingOccurrences(of: Paths.recordings.path, with: "Recordings")
    }

    /// Several short reports in one file, each under a line that says what produced it
    /// ("== WHAT"), each whole: a table of inputs and the error each gets, read at once.
    static func table(_ rows: [(String, String)]) -> String {
        rows.map { "== \($0.0)\n\($0.1)" }.joined()
    }
}

/// Expects `text` to be, byte for byte, Tests/TouchlineCLITests/Expected/NAME.
func expectReport(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if let difference = Expected.difference(text, file: Report.path(name)) {
        Issue.record("\(name): \(difference)", sourceLocation: sourceLocation)
    }
}

/// Runs `touchline ARGUMENTS` of each case, expects its status and nothing on standard output,
/// and compares what each said on standard error, whole, under its command line and status, in
/// the one golden NAME (paths normalized as `Report.normalized` says).
func expectErrors(_ cases: [([String], Int32)], _ name: String, scratch: String? = nil,
                  sourceLocation: SourceLocation = #_sourceLocation) throws {
    var rows: [(String, String)] = []
    for (arguments, status) in cases {
        let result = try touchline(arguments: arguments)
        let command = "touchline " + arguments.joined(separator: " ")
        #expect(result.status == status, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(command): \(result.stdout)", sourceLocation: sourceLocation)
        rows.append((Report.normalized("\(command): \(result.status)", scratch: scratch), Report.normalized(result.stderr, scratch: scratch)))
    }
    expectReport(Report.table(rows), name, sourceLocation: sourceLocation)
}

/// `touchline daemon --check-config NAME` on a file of `text`, in its scratch folder: an error
/// names the file as given, so that it is compared whole.
func checkConfig(_ text: String, name: String = "daemon.toml") throws -> CLIResult {
    let dir = try ScratchDirectory()
    defer { dir.remove() }
    _ = try dir.write(name, text)
    return try touchline(in: URL(fileURLWithPath: dir.path), "daemon", "--check-config", name)
}

extension CLIResult {
    /// Expects the exit status, and each stream whole: `stdout`, `stderr` name goldens in
    /// Tests/TouchlineCLITests/Expected/; a stream without one must be empty.
    func expect(status expected: Int32, stdout: String? = nil, stderr: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == expected, "status \(status); stderr: \(self.stderr)", sourceLocation: sourceLocation)
        if let stdout { expectReport(self.stdout, stdout, sourceLocation: sourceLocation) } else {
            #expect(self.stdout.isEmpty, "stdout: \(self.stdout)", sourceLocation: sourceLocation)
        }
        if let stderr { expectReport(self.stderr, stderr, sourceLocation: sourceLocation) } else {
            #expect(self.stderr.isEmpty, "stderr: \(self.stderr)", sourceLocation: sourceLocation)
        }
    }
}
