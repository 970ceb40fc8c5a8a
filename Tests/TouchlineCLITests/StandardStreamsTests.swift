import Foundation
import Testing

/// Standard output and standard error that fail: a full disk, a closed stream, a reader that
/// went away. Each run goes through /bin/sh for the redirection it needs.
@Suite struct StandardStreamsTests {
    let atmel = Paths.trace(MultiDeviceCLITests.atmel)

    /// `sh -c SCRIPT` with the touchline binary as $0 and `arguments` as $1….
    func shell(_ script: String, _ arguments: String...) throws -> CLIResult {
        try run("/bin/sh", ["-c", script, Paths.binary.path] + arguments)
    }

    /// 29b73eb exited 74 without a word when standard output could not be written.
    @Test func aFullStandardOutputSaysSo() throws {
        let result = try shell("exec \"$0\" replay \"$1\" > /dev/full", atmel)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("touchline: standard output: cannot write: No space left on device"), "\(result.stderr)")
    }

    /// A warning (this device reports no resolution) with standard error closed: 29b73eb's
    /// warn shared the output's flush and exited 74 on its EBADF, before any gesture.
    @Test func aClosedStandardErrorLosesOnlyTheWarnings() throws {
        let expected = try touchline("replay", atmel)
        #expect(expected.status == 0)
        #expect(expected.stderr.contains("reports no resolution"))
        let result = try shell("exec \"$0\" replay \"$1\" 2>&-", atmel)
        #expect(result.status == 0)
        #expect(result.stdout == expected.stdout)
        #expect(!result.stdout.isEmpty)
    }

    /// `convert -o - | head` ends quietly with 0, as `replay | head` does; 29b73eb said
    /// "-: cannot write: Broken pipe" and exited 74. The output (1.3 MB of YAML) is far larger
    /// than a pipe's buffer, so the write after head exits fails.
    @Test func convertToAClosedPipeEndsQuietly() throws {
        let big = Paths.trace("libinput-record/Wacom DTH2242 Finger.yml")
        for command in ["convert \"$1\" -o -", "replay --frames \"$1\""] {
            let result = try shell("(\"$0\" \(command); echo \"status $?\" >&2) | head -c 10", big)
            #expect(result.stdout.count == 10)
            #expect(result.stderr.hasSuffix("status 0\n"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("cannot write"), "\(command): \(result.stderr)")
        }
    }
}
