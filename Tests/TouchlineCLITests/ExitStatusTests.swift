import Foundation
import Testing

/// Every command ends with a status from one table (README "Exit status", `touchline --help`):
/// 0 ok, 64 usage, 65 bad data, 66 an input that cannot be opened, 70 internal error, 73 the
/// output cannot be created, 74 an I/O error. The live commands are checked where no device is
/// needed (usage, a missing input); scripts/vm/e2e.sh checks them with devices.
@Suite struct ExitStatusTests {
    let dir = Paths.temporaryDirectory()
    let tap = Paths.recordings.appendingPathComponent("tap.yml").path

    func write(_ name: String, _ content: String) -> String {
        let url = dir.appendingPathComponent(name)
        try! Data(content.utf8).write(to: url)
        return url.path
    }

    var missing: String { dir.appendingPathComponent("missing.yml").path }
    /// A path through a regular file: ENOTDIR, an input that cannot be opened even as root
    /// (which ignores permission bits).
    var throughAFile: String { tap + "/x" }
    var badData: String { write("bad.evemu", "# EVEMU 1.3\nN: Screen\nE: nonsense\n") }

    /// What each command of a test said on standard error, compared whole at its end
    /// (`compare`): the error of every status, not only the status.
    final class Errors { var rows: [(String, String)] = [] }
    let errors = Errors()

    /// The scratch folder and the recordings as $TMP and Recordings (Report.normalized): the one
    /// differs each run, the other with the checkout.
    func normalized(_ text: String) -> String { Report.normalized(text, scratch: dir.path) }

    func expect(_ arguments: [String], _ status: Int32, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try touchline(arguments: arguments)
        #expect(result.status == status, "touchline \(arguments.joined(separator: " ")): \(result.stderr)", sourceLocation: sourceLocation)
        errors.rows.append((normalized("touchline " + arguments.joined(separator: " ") + ": \(result.status)"), normalized(result.stderr)))
    }

    /// The errors of the test's commands, whole, against Expected/exit-status-NAME.stderr.txt.
    func compare(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectReport(Report.table(errors.rows), "exit-status-\(name).stderr.txt", sourceLocation: sourceLocation)
    }

    // A bare `touchline` and `touchline --help`, with the table: HelpTests, whole.

    @Test func replay() throws {
        try expect(["replay", tap], 0)
        try expect(["replay"], 64)
        try expect(["replay", "--frames", "--explain", tap], 64)
        try expect(["replay", badData], 65)
        try expect(["replay", missing], 66)
        try expect(["replay", throughAFile], 66)
        try expect(["replay", "--config", missing, tap], 66)
        try expect(["replay", "--config", write("bad.toml", "[tap\n"), tap], 65)
        // /proc/self/mem opens but fails at read(2) with EIO: an I/O error, not bad data.
        try expect(["replay", "/proc/self/mem"], 74)
        compare("replay")
    }

    /// 532b116 read a directory as a trace and exited 65 (bad data) with "could not read".
    @Test func aDirectoryIsAnInputThatCannotBeOpened() throws {
        for command in ["replay", "inspect", "play"] {
            try expect([command, dir.path], 66)
        }
        try expect(["convert", dir.path, "-o", dir.appendingPathComponent("out.yml").path], 66)
        try expect(["replay", "--config", dir.path, tap], 66)
        compare("directory")
    }

    @Test func inspect() throws {
        try expect(["inspect", tap], 0)
        try expect(["inspect"], 64)
        try expect(["inspect", badData], 65)
        try expect(["inspect", missing], 66)
        try expect(["inspect", tap, missing], 66)
        compare("inspect")
    }

    @Test func convert() throws {
        let out = dir.appendingPathComponent("out.yml").path
        try expect(["convert", tap, "-o", out], 0)
        try expect(["convert", tap], 64)
        try expect(["convert", "--format", "svg", tap, "-o", out], 64)
        try expect(["convert", tap, "-o", tap], 64)
        try expect(["convert", badData, "-o", out], 65)
        try expect(["convert", missing, "-o", out], 66)
        try expect(["convert", tap, "-o", dir.path], 73)
        try expect(["convert", tap, "-o", "/dev/full"], 74)
        compare("convert")
    }

    /// 532b116 printed the verdict for a missing node and exited 0.
    @Test func devices() throws {
        try expect(["devices", "--bogus"], 64)
        try expect(["devices", "/dev/input/no-such-node"], 66)
        try expect(["devices", "--json", "/dev/input/no-such-node"], 66)
        // A file that is not an input device cannot be read as one.
        try expect(["devices", tap], 66)
        compare("devices")
    }

    @Test func run() throws {
        try expect(["run", "--backend", "libinput", "--grab"], 64)
        try expect(["run", "--output", "frames", "--explain"], 64)
        try expect(["run", "--size", "wide"], 64)
        try expect(["run", "/dev/input/no-such-node"], 66)
        try expect(["run", "--config", missing, "/dev/input/no-such-node"], 66)
        try expect(["run", "--config", write("bad.toml", "[tap\n"), "/dev/input/no-such-node"], 65)
        compare("run")
    }

    @Test func record() throws {
        let out = dir.appendingPathComponent("rec.yml").path
        try expect(["record", "-o", out], 64)
        try expect(["record", "/dev/input/no-such-node"], 64)
        try expect(["record", "/dev/input/no-such-node", "-o", out], 66)
        #expect(!FileManager.default.fileExists(atPath: out))
        compare("record")
    }

    @Test func play() throws {
        try expect(["play"], 64)
        try expect(["play", "--hold", "-1", tap], 64)
        try expect(["play", missing], 66)
        try expect(["play", badData], 65)
        // The node written to is play's output: one that cannot be opened is EX_CANTCREAT.
        try expect(["play", "--device", "/dev/input/no-such-node", "--start-delay", "0", tap], 73)
        compare("play")
    }
}
