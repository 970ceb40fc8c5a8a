import Foundation
import Testing

/// Traces from standard input (`-`), pipes and FIFOs: 532b116 opened a getevent trace (and a
/// header-less evemu file) more than once, and took `-` for a file name.
@Suite struct StandardInputTests {
    /// Runs touchline with `input` written into a pipe on its standard input.
    func piped(_ arguments: [String], stdin input: Data) throws -> CLIResult {
        let process = Process()
        process.executableURL = Paths.binary
        process.arguments = arguments
        let inPipe = Pipe(), outPipe = Pipe()
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("touchline-stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? FileManager.default.removeItem(at: errURL) }
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errHandle
        try process.run()
        let writer = Thread {
            try? inPipe.fileHandleForWriting.write(contentsOf: input)
            try? inPipe.fileHandleForWriting.close()
        }
        writer.start()
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errHandle.close()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return CLIResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `cat FILE | touchline replay -` gives the bytes `touchline replay FILE` gives, for each
    /// format (a header-less evemu file with --desc).
    @Test(arguments: [
        ("MonkeyHelper/galaxys-paint.txt", nil),
        ("libinput-record/Atmel maXTouch Touchscreen.2-fingers-touch-release.yml", nil),
        ("evemu-devices/Wacom ISDv4 E6 Finger.2fg-tap.events", "evemu-devices/Wacom ISDv4 E6 Finger.desc"),
    ] as [(String, String?)])
    func standardInputGivesTheSameBytes(_ relative: String, desc: String?) throws {
        let path = Paths.trace(relative)
        let options = desc.map { ["--desc", Paths.trace($0)] } ?? []
        for command in [["replay"], ["replay", "--frames"], ["inspect", "--json"]] {
            let fromFile = try touchline(arguments: command + options + [path])
            let fromPipe = try piped(command + options + ["-"], stdin: try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            #expect(fromPipe.status == 0, "\(fromPipe.stderr)")
            #expect(!fromFile.stdout.isEmpty)
            if command[0] == "inspect" {
                // Only the file's name differs (a getevent device is named after its file).
                let base = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension
                let renamed = fromFile.stdout
                    .replacingOccurrences(of: "\"file\":\"\(path)\"", with: "\"file\":\"<stdin>\"")
                    .replacingOccurrences(of: "\"name\":\"\(base)\"", with: "\"name\":\"stdin\"")
                #expect(fromPipe.stdout == renamed)
            } else {
                #expect(fromPipe.stdout == fromFile.stdout, "\(command)")
            }
        }
    }

    /// A header-less evemu file on standard input has nothing beside it: the error says so.
    @Test func headerlessEvemuOnStandardInputNeedsDesc() throws {
        let path = Paths.trace("evemu-devices/Wacom ISDv4 E6 Finger.2fg-tap.events")
        let result = try piped(["replay", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(result.status == 65)
        // <stdin>:1: event lines without a device description; give --desc FILE.
        expectReport(result.stderr, "replay-stdin-headerless.stderr.txt")
    }

    /// A FIFO is read once, as it must be, whatever the format (the .desc found beside it).
    @Test(arguments: ["MonkeyHelper/galaxys-paint.txt", "evemu-devices/Wacom ISDv4 E6 Finger.2fg-tap.events"])
    func aFIFOReadsLikeTheFile(_ relative: String) throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Paths.trace(relative)
        let name = (relative as NSString).lastPathComponent
        if relative.hasSuffix(".events") {
            try FileManager.default.copyItem(atPath: Paths.trace("evemu-devices/Wacom ISDv4 E6 Finger.desc"), toPath: dir.appendingPathComponent("Wacom ISDv4 E6 Finger.desc").path)
        }
        let fifo = dir.appendingPathComponent(name).path
        #expect(mkfifo(fifo, 0o600) == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                try? handle.write(contentsOf: data)
                try? handle.close()
            }
        }
        writer.start()
        let fromFIFO = try touchline(arguments: ["replay", fifo])
        let fromFile = try touchline(arguments: ["replay", source])
        #expect(fromFIFO.status == 0, "\(fromFIFO.stderr)")
        #expect(fromFIFO.stdout == fromFile.stdout)
        #expect(!fromFile.stdout.isEmpty)
    }

    /// A getevent trace whose last line was cut prints every gesture before it, then the error.
    @Test func aCutLastLinePrintsWhatCameBefore() throws {
        let whole = try String(contentsOfFile: Paths.trace("MonkeyHelper/galaxys-paint.txt"), encoding: .utf8)
        var lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        lines[lines.count - 1] = "[   52100.000000] EV_ABS       ABS_MT_POSITION_X    0000"
        let cut = lines.joined(separator: "\n")
        let result = try piped(["replay", "-"], stdin: Data(cut.utf8))
        #expect(result.status == 65)
        expectReport(result.stderr, "replay-stdin-cut-line.stderr.txt")
        let full = try touchline(arguments: ["replay", Paths.trace("MonkeyHelper/galaxys-paint.txt")])
        // Only the last line (a SYN_REPORT of a lift) is missing: the same strokes come out.
        #expect(result.lines.count > 700)
        #expect(result.lines.count <= full.lines.count + 2)
    }

    /// --range gives an axis its range, per axis; a bad one is a usage error quoting it.
    @Test func rangeOption() throws {
        let path = Paths.trace("MonkeyHelper/galaxys-paint.txt")
        let given = try touchline(arguments: ["inspect", "--json", "--range", "ABS_MT_POSITION_X=0:479", "--range", "abs_mt_position_y=0:799", "--size", "52x86", path])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(!given.stderr.contains("ABS_MT_POSITION_X 0.."), "\(given.stderr)")
        #expect(!given.stderr.contains("ABS_MT_POSITION_Y 0.."), "\(given.stderr)")
        let assumed = try touchline(arguments: ["inspect", "--json", path])
        #expect(assumed.stderr.contains("guessed from the first 4096 events: ABS_MT_POSITION_X 0..1023 (no touch showed its edge: the next power of two), ABS_MT_POSITION_Y 0..1023 (no touch showed its edge: the next power of two)"))
        #expect(assumed.stderr.contains("pass --range AXIS=MIN:MAX"))
        // Usage errors, before any trace is read: no '=', not an ABS axis, MIN not below MAX,
        // not MIN:MAX, an axis given twice (by name and by number).
        let tap = Paths.recordings.appendingPathComponent("tap.yml").path
        try expectErrors(["ABS_MT_POSITION_X", "BTN_TOUCH=0:1", "ABS_X=5:5", "ABS_X=0:99999999999"].map { (["replay", "--range", $0, tap], 64) }
                         + [(["replay", "--range", "ABS_X=0:1", "--range", "0x0=0:2", tap], 64)], "replay-range.stderr.txt")
    }
}
