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
