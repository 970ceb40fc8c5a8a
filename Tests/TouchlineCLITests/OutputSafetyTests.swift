import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `touchline convert -o OUT`: OUT is replaced only when the conversion is complete and only if
/// it is a regular file (or absent); a FIFO or a device is written in place; no input is ever
/// written over, under any name; no temporary is left behind, signals included.
@Suite struct OutputSafetyTests {
    let dir = Paths.temporaryDirectory()
    let tap = Paths.recordings.appendingPathComponent("tap.yml").path

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Names in the folder other than the ones the test made.
    func leftovers(except expected: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !expected.contains($0) }.sorted()
    }

    func fileType(_ path: String) -> mode_t {
        var st = stat()
        guard lstat(path, &st) == 0 else { return 0 }
        return st.st_mode & S_IFMT
    }

    func digest(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// What `result` said on standard error, whole, against the golden NAME (the scratch
    /// folder as $TMP).
    func expectError(_ result: CLIResult, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectReport(Report.normalized(result.stderr, scratch: dir.path), name, sourceLocation: sourceLocation)
    }

    /// A copy of an evemu description and a header-less events file beside it, which finds it.
    func evemuPair() throws -> (events: String, desc: String) {
        let shared = Paths.traces.appendingPathComponent("evemu-devices")
        let desc = path("Screen.desc")
        let events = path("Screen.taps.events")
        try FileManager.default.copyItem(atPath: shared.appendingPathComponent("N-Trig MultiTouch.desc").path, toPath: desc)
        let name = try FileManager.default.contentsOfDirectory(atPath: shared.path)
            .filter { $0.hasPrefix("N-Trig MultiTouch.") && $0.hasSuffix(".events") }.sorted()[0]
        try FileManager.default.copyItem(atPath: shared.appendingPathComponent(name).path, toPath: events)
        return (events, desc)
    }

    /// 532b116 opened NAME.touchline-partial with O_CREAT and renamed it over a FIFO: the reader
    /// got nothing and the FIFO became a regular file.
    @Test func aFIFOIsWrittenInPlaceAndStaysAFIFO() throws {
        let fifo = path("out.fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        // The reader: a second process, so that opening the FIFO for writing does not block
        // the test.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let pipe = Pipe()
        reader.standardOutput = pipe
        try reader.run()
        let result = try touchline("convert", tap, "-o", fifo)
        let received = pipe.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(fifo) == S_IFIFO, "the FIFO was replaced")
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("# libinput record"))
        #expect(try leftovers(except: ["out.fifo"]).isEmpty)
    }

    @Test func aCharacterDeviceIsWrittenInPlace() throws {
        let result = try touchline("convert", tap, "-o", "/dev/null")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType("/dev/null") == S_IFCHR)
        // A device that refuses the bytes is an I/O error, and stays a device.
        let full = try touchline("convert", tap, "-o", "/dev/full")
        #expect(full.status == 74, "\(full.stderr)")
        expectError(full, "convert-dev-full.stderr.txt")
        #expect(fileType("/dev/full") == S_IFCHR)
    }

    @Test func dashIsStandardOutput() throws {
        let result = try touchline("convert", tap, "-o", "-")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("# libinput record"))
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    /// 532b116 wrote the libinput record over the `.desc` the events were read with.
    @Test func refusesItsOwnDescription() throws {
        let (events, desc) = try evemuPair()
        let before = try digest(desc)
        let result = try touchline("convert", events, "-o", desc)
        #expect(result.status == 64, "\(result.stderr)")
        expectError(result, "convert-own-description.stderr.txt")
        #expect(try digest(desc) == before, "the input was changed")
        #expect(try leftovers(except: ["Screen.desc", "Screen.taps.events"]).isEmpty)
        // Named with --desc, too.
        let given = try touchline("convert", "--desc", desc, events, "-o", desc)
        #expect(given.status == 64)
        #expect(try digest(desc) == before)
    }

    @Test func refusesAnInputUnderAnotherName() throws {
        let (events, desc) = try evemuPair()
        let before = (try digest(events), try digest(desc))
        #expect(link(desc, path("hard-link")) == 0)
        #expect(symlink(events, path("sym-link")) == 0)
        let hard = try touchline("convert", events, "-o", path("hard-link"))
        #expect(hard.status == 64, "\(hard.stderr)")
        expectError(hard, "convert-hard-link.stderr.txt")
        let sym = try touchline("convert", events, "-o", path("sym-link"))
        #expect(sym.status == 64, "\(sym.stderr)")
        #expect(try digest(events) == before.0 && digest(desc) == before.1)
        #expect(fileType(path("sym-link")) == S_IFLNK)
        #expect(try leftovers(except: ["Screen.desc", "Screen.taps.events", "hard-link", "sym-link"]).isEmpty)
    }

    /// 532b116 exited 73 but left OUT.touchline-partial beside the directory.
    @Test func aDirectoryIsRefusedAndNothingIsLeft() throws {
        let out = path("folder")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let result = try touchline("convert", tap, "-o", out)
        #expect(result.status == 73, "\(result.stderr)")
        expectError(result, "convert-directory.stderr.txt")
        #expect(try leftovers(except: ["folder"]).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }

    @Test func aRegularFileIsReplacedWholeKeepingItsMode() throws {
        let out = path("out.yml")
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        #expect(chmod(out, 0o640) == 0)
        let result = try touchline("convert", tap, "-o", out)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: try digest(out), as: UTF8.self).hasPrefix("# libinput record"))
        var st = stat()
        #expect(stat(out, &st) == 0 && st.st_mode & 0o777 == 0o640)
        #expect(try leftovers(except: ["out.yml"]).isEmpty)
    }

    @Test func aSymlinkToAnOutputStaysALink() throws {
        let real = path("real.yml")
        try Data("old".utf8).write(to: URL(fileURLWithPath: real))
        #expect(symlink(real, path("link.yml")) == 0)
        let result = try touchline("convert", tap, "-o", path("link.yml"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(path("link.yml")) == S_IFLNK)
        #expect(String(decoding: try digest(real), as: UTF8.self).hasPrefix("# libinput record"))
        #expect(try leftovers(except: ["real.yml", "link.yml"]).isEmpty)
    }

    /// A bad line: the output is not touched, the events before it are in OUT.partial and no
    /// temporary remains.
    @Test func aBadInputLeavesTheOutputAndNoTemporary() throws {
        let text = try String(contentsOfFile: tap, encoding: .utf8)
        let bad = path("bad.yml")
        try Data((text + "    - [  9,  0,   3,  53, oops]\n").utf8).write(to: URL(fileURLWithPath: bad))
        let out = path("out.yml")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: out))
        let result = try touchline("convert", bad, "-o", out)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(try digest(out) == Data("keep me".utf8))
        #expect(try leftovers(except: ["bad.yml", "out.yml", "out.yml.partial"]).isEmpty)
        // The output's last write fails too (/dev/full): 29b73eb reported only that (74),
        // and the bad line, the cause, was lost.
        let full = try touchline("convert", bad, "-o", "/dev/full")
        #expect(full.status == 65, "\(full.stderr)")
        // The bad line, then /dev/full: cannot write.
        expectError(full, "convert-bad-line-dev-full.stderr.txt")
        // OUT.partial cannot be made (a 250-byte name: 258 with the suffix): the warning gives
        // rename(2)'s reason; 29b73eb guessed "not a regular file, or an input".
        let long = String(repeating: "o", count: 250)
        let named = try touchline("convert", bad, "-o", path(long))
        #expect(named.status == 65, "\(named.stderr)")
        expectError(named, "convert-bad-line-long-name.stderr.txt")
        #expect(try leftovers(except: ["bad.yml", "out.yml", "out.yml.partial"]).isEmpty)
        let directory = path("folder.yml.partial")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let occupied = try touchline("convert", bad, "-o", path("folder.yml"))
        expectError(occupied, "convert-bad-line-occupied.stderr.txt")
        // A folder that does not exist: nothing is created, the status says so.
        let missing = try touchline("convert", tap, "-o", path("no/such/folder/out.yml"))
        #expect(missing.status == 73, "\(missing.stderr)")
    }

    /// A signal while writing (the input is a FIFO that stays open, so convert waits in the
    /// middle of its output) removes the temporary and ends the process by that signal.
    /// 29b73eb left the temporary on SIGQUIT (Ctrl-\\) and died of it.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func aSignalRemovesTheTemporary(_ signo: Int32) throws {
        let input = path("in.yml")
        #expect(mkfifo(input, 0o644) == 0)
        let out = path("out.yml")
        let logs = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        // Through a shell that forbids a core file: SIGQUIT's default action dumps one.
        let process = try CleanProcess("/bin/sh", ["-c", "ulimit -c 0; exec \"$0\" \"$@\"", Paths.binary.path, "convert", input, "-o", out], outputIn: logs)
        // Opening blocks until convert opens its end; the handle stays open, so no end of file.
        let writer = try #require(FileHandle(forWritingAtPath: input))
        writer.write(try digest(tap))
        // Wait (bounded) for the temporary: convert has created it once the header is read.
        let expected: Set<String> = ["in.yml"]
        let temporary = try whenChanged(dir.path) { () -> [String]? in
            let found = try leftovers(except: expected)
            return found.isEmpty ? nil : found
        } ?? []
        #expect(temporary.count == 1 && temporary[0].hasPrefix(".out.yml.touchline-"), "\(temporary)")
        kill(process.pid, signo)
        let ended = process.wait()
        try writer.close()
        #expect(ended != nil, "convert still running 10 s after signal \(signo)")
        #expect(ended?.signal == signo, "\(String(describing: ended)): \(process.output)")
        #expect(try leftovers(except: expected).isEmpty, "left behind after signal \(signo)")
    }

    /// A file-size limit (`ulimit -f`) reached while writing: write(2) fails with EFBIG, so
    /// convert says so, exits 74 and removes the temporary. 29b73eb was killed by SIGXFSZ and
    /// left the temporary behind.
    @Test func aFileSizeLimitRemovesTheTemporary() throws {
        let out = path("out.yml")
        let logs = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        // 16 blocks (8 KiB in dash, 16 KiB in bash): far less than the conversion writes.
        let process = try CleanProcess("/bin/sh", ["-c", "ulimit -c 0; ulimit -f 16; exec \"$0\" \"$@\"", Paths.binary.path,
                                                   "convert", Paths.trace(MultiDeviceCLITests.ep), "-o", out], outputIn: logs)
        let ended = process.wait()
        #expect(ended?.status == 74, "\(String(describing: ended)): \(process.output)")
        #expect(process.output.contains("out.yml: cannot write: File too large"), "\(process.output)")
        #expect(try leftovers(except: []).isEmpty)
    }
}
