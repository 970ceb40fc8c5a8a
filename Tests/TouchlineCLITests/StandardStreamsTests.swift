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

    /// With standard error closed, the next open(2) takes fd 2: in 29b73eb `convert - -o OUT
    /// 2>&-` created its temporary there, and a warning in the middle of the trace (a getevent
    /// value past the assumed range) was written into OUT.
    @Test func aClosedStandardErrorNeverReceivesTheOutput() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 2,000 frames within 0..255 (past the 4,096-event look-ahead), then x = 5000.
        var lines = ["[  100.000000] EV_ABS       ABS_MT_TRACKING_ID   00000001"]
        var time = 100.0
        func event(_ type: String, _ code: String, _ value: Int) {
            let padded = type.padding(toLength: 12, withPad: " ", startingAt: 0) + " " + code.padding(toLength: 20, withPad: " ", startingAt: 0)
            lines.append(String(format: "[%12.6f] %@ %08x", time, padded, value))
        }
        for i in 0..<2000 {
            time += 0.01
            event("EV_ABS", "ABS_MT_POSITION_X", 100 + i % 50)
            event("EV_ABS", "ABS_MT_POSITION_Y", 200)
            event("EV_SYN", "SYN_REPORT", 0)
        }
        time += 0.01
        event("EV_ABS", "ABS_MT_POSITION_X", 5000)
        event("EV_SYN", "SYN_REPORT", 0)
        let trace = dir.appendingPathComponent("late.txt").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        let withErrors = dir.appendingPathComponent("with.yml").path
        let without = dir.appendingPathComponent("without.yml").path
        let reference = try shell("exec \"$0\" convert - -o \"$1\" < \"$2\"", withErrors, trace)
        #expect(reference.status == 0, "\(reference.stderr)")
        // The ranges guessed, then ABS_MT_POSITION_X 5000 beyond the assumed range.
        expectReport(reference.stderr, "convert-stdin-beyond-range.stderr.txt")
        let closed = try shell("exec \"$0\" convert - -o \"$1\" < \"$2\" 2>&-", without, trace)
        #expect(closed.status == 0)
        let a = try String(contentsOfFile: withErrors, encoding: .utf8)
        let b = try String(contentsOfFile: without, encoding: .utf8)
        #expect(!b.contains("touchline:"))
        #expect(a == b)
    }
}

/// `convert - -o -` in a terminal: standard input and output are the same character device,
/// as in every interactive shell. 29b73eb refused it as "the same file as the input -" (64).
@Suite struct TerminalTests {
    @Test func standardInputAndOutputOnOneTerminal() throws {
        // posix_openpt, unlockpt and ptsname as Linux implements them (Glibc's module lacks them).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        // TIOCSPTLCK and TIOCGPTN (_IOW/_IOR('T', 0x31/0x30, int)): function-like macros that
        // Swift does not import; these are their values on x86_64 and arm64.
        var unlock: Int32 = 0, number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0)
        try #require(ioctl(master, 0x8004_5430, &number) == 0)
        let slavePath = "/dev/pts/\(number)"
        let slave = try #require(FileHandle(forUpdatingAtPath: slavePath))
        // No echo and no "\n" -> "\r\n": the master then reads exactly what convert wrote.
        var mode = termios()
        tcgetattr(slave.fileDescriptor, &mode)
        mode.c_lflag &= ~tcflag_t(ECHO)
        mode.c_oflag &= ~tcflag_t(OPOST)
        tcsetattr(slave.fileDescriptor, TCSANOW, &mode)
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("touchline-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let process = Process()
        process.executableURL = Paths.binary
        process.arguments = ["convert", "-", "-o", "-"]
        process.standardInput = slave
        process.standardOutput = slave
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        try slave.close()
        // What a user would type: the trace, then Ctrl-D at the start of a line.
        let trace = try Data(contentsOf: Paths.recordings.appendingPathComponent("double-tap.yml"))
        // The master is read while convert writes, so that a full terminal never blocks it.
        final class Collected: @unchecked Sendable {
            var bytes = Data()
            let done = DispatchSemaphore(value: 0)
        }
        let collected = Collected()
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(master, &buffer, buffer.count)
                if n <= 0 { break }  // EIO once the last holder of the terminal is gone
                collected.bytes.append(contentsOf: buffer[..<n])
            }
            collected.done.signal()
        }
        reader.start()
        for line in trace.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
            _ = (Array(line) + [UInt8(ascii: "\n")]).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
        _ = [UInt8(4)].withUnsafeBytes { write(master, $0.baseAddress, 1) }
        // Waited for (bounded), not polled: a convert that never ends fails the test.
        if !ended(process) {
            Issue.record("convert still running after 10 s")
            process.terminate()
            process.waitUntilExit()
        }
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(!stderr.contains("same file"), "\(stderr)")
        #expect(collected.done.wait(timeout: .now() + 10) == .success)
        #expect(String(decoding: collected.bytes, as: UTF8.self).hasPrefix("# libinput record"))
    }

    /// /dev/null as both is no input to protect: the empty trace is what fails (65).
    @Test func devNullAsInputAndOutput() throws {
        let result = try run("/bin/sh", ["-c", "exec \"$0\" convert - -o - < /dev/null > /dev/null", Paths.binary.path])
        #expect(result.status == 65, "\(result.stderr)")
        expectReport(result.stderr, "convert-stdin-empty.stderr.txt")
    }
}
