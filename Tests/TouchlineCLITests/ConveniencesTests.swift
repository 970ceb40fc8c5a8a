// The small conveniences of issue 16: --relative-time on every trace format and output, the
// progress line (a terminal's only), `inspect --json`'s keys, singular counts, `record
// --config`, evemu output as evemu writes it, and a getevent trace that libinput's
// touch-down-state reads once converted.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ConveniencesTests {
    /// One trace of each format: libinput record (times from 0 already), evemu (the kernel's
    /// absolute times), getevent -lt (seconds since boot).
    static let traces = [
        "libinput-record/Atmel maXTouch Touchscreen.4-finger-drag-down.yml",
        "evemu-devices/Wacom ISDv4 E6 Finger.double-center-circle.events",
        "MonkeyHelper/tablet-two-finger-drag.txt",
    ]

    /// The time of a JSON line in µs, and the line without it.
    static func split(_ line: Substring) throws -> (Int64, String) {
        let match = try #require(line.firstMatch(of: /"time":(-?[0-9]+)\.([0-9]{6})/), "no time in \(line)")
        let micros = Int64(match.output.1)! * 1_000_000 + Int64(match.output.2)!
        return (micros, line.replacingCharacters(in: match.range, with: "\"time\":T"))
    }

    /// Every format, gestures and frames: --relative-time moves every time by one constant,
    /// the first event's time, so the first frame comes within a second of 0 and nothing else
    /// changes; text rows say what the relative JSON says.
    @Test(arguments: traces)
    func relativeTimeOnEveryFormat(_ trace: String) throws {
        let path = Paths.trace(trace)
        let frames = try touchline("replay", "--frames", path)
        let relativeFrames = try touchline("replay", "--frames", "--relative-time", path)
        let gestures = try touchline("replay", path)
        let relative = try touchline("replay", "--relative-time", path)
        let text = try touchline("replay", "--relative-time", "--format", "text", path)
        for result in [frames, relativeFrames, gestures, relative, text] { #expect(result.status == 0, "\(result.stderr)") }
        try #require(!frames.lines.isEmpty && !gestures.lines.isEmpty && !relativeFrames.lines.isEmpty)
        let (first, _) = try Self.split(frames.lines[0])
        let (firstRelative, _) = try Self.split(relativeFrames.lines[0])
        #expect(firstRelative >= 0 && firstRelative < 1_000_000, "\(trace): first frame at \(firstRelative) µs")
        let shift = first - firstRelative
        for (a, b) in zip(frames.lines + gestures.lines, relativeFrames.lines + relative.lines) {
            let (t, rest) = try Self.split(a)
            let (u, restRelative) = try Self.split(b)
            #expect(t - u == shift && rest == restRelative, "\(trace): \(a) vs \(b)")
        }
        #expect(relative.lines.count == gestures.lines.count)
        try TextFormatTests.expectRowsMatch(text.lines, relative.lines, trace)
        if trace.hasSuffix(".yml") {
            #expect(frames.stdout == relativeFrames.stdout, "a libinput recording's first event is at 0 already")
        } else {
            #expect(shift > 1_000_000, "\(trace): evemu and getevent traces print absolute times by default")
        }
    }

    /// The daemon's --stdout and `listen` count from the first event they print; the socket
    /// keeps the trace's (kernel's) times.
    @Test func daemonAndListenRelativeTime() throws {
        let recording = Paths.trace("evemu-devices/Wacom ISDv4 E6 Finger.2fg-tap.events")
        let replayed = try touchline("replay", recording).lines
        try #require(!replayed.isEmpty)
        let (origin, _) = try Self.split(replayed[0])
        let expected = try replayed.map { line in
            let (t, rest) = try Self.split(line)
            let d = t - origin
            return rest.replacingOccurrences(of: "\"time\":T", with: "\"time\":\(d / 1_000_000).\(String(format: "%06d", d % 1_000_000))")
        }
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let socketPath = dir.path + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--stdout", "--relative-time", "--source", "trace:" + recording, "--speed", "100", "--start-delay", "1.5", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir.path))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        let client = try DaemonClient(path: socketPath)
        let listen = try CleanProcess(Paths.binary.path, ["listen", "--relative-time", "--socket", socketPath], outputIn: URL(fileURLWithPath: dir.path))
        defer { if !ended { kill(listen.pid, SIGKILL); _ = listen.wait() } }
        try client.send("{\"subscribe\": []}\n")
        var received: [String] = []
        while received.count < replayed.count + 1, let line = try client.line() { received.append(line) }
        #expect(received.dropFirst().elementsEqual(replayed.map(String.init)), "the socket keeps the trace's times")
        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait()?.status == 0)
        let end = listen.wait()
        ended = true
        #expect(end?.status == 0, "listen: \(listen.output)")
        #expect(listen.output.split(separator: "\n").map(String.init) == expected)
        let stdout = daemon.output.split(separator: "\n").filter { !$0.hasPrefix("touchline:") }.map(String.init)
        #expect(stdout == expected)
        let tap = Paths.recordings.appendingPathComponent("tap.yml").path
        try expectErrors([(["daemon", "--relative-time", "--source", "trace:" + tap], 64)], "daemon-relative-time.stderr.txt")
    }

    /// With standard error on a terminal (util-linux `script` gives the command a
    /// pseudo-terminal; standard output goes to a file) a replay shows a progress line,
    /// rewritten in place and erased at the end; standard output is unchanged. The line's 2 s
    /// delay is set to 0 so that the test needs no long trace.
    @Test func progressLineOnATerminalOnly() throws {
        let path = Paths.trace("libinput-record/Wacom DTH2242 Finger.yml")
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let quote = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = "TOUCHLINE_PROGRESS_AFTER=0 \(quote(Paths.binary.path)) replay \(quote(path)) > \(quote(dir.path + "/out.jsonl"))"
        let terminal = try run("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(terminal.status == 0, "\(terminal.stderr)")
        // The terminal turns \n into \r\n; the line has none.
        let shown = terminal.stdout
        #expect(shown.contains("\r\u{1b}[Ktouchline: \(path): 4096 events read, at "), "\(shown.prefix(300))")
        #expect(shown.hasSuffix("\r\u{1b}[K"), "the line is erased at the end: \(shown.suffix(100))")
        let piped = try touchline(arguments: ["replay", path])
        #expect(try String(contentsOfFile: dir.path + "/out.jsonl", encoding: .utf8) == piped.stdout)
        #expect(!piped.stderr.contains("events read"), "never in a pipe or a file")
    }

    /// inspect --json: camelCase keys as the events', the sequences' contact ids as the
    /// frames name them; and "1 touch sequence" in the text.
    @Test func inspectJSONKeysAndContactIDs() throws {
        let path = Paths.recordings.appendingPathComponent("pinch.yml").path
        let result = try touchline(in: Paths.recordings, "inspect", "--json", "pinch.yml")
        result.expect(status: 0, stdout: "inspect-pinch.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for key in object.keys { #expect(!key.contains("_"), "\(key) is not camelCase") }
        for key in ["width", "height", "sizeSource", "pressureRange", "touchMajorRange", "peekSource", "maxContacts", "openSequences", "timeWentBackwards", "contacts"] {
            #expect(object[key] != nil, "inspect --json lacks \(key)")
        }
        let contacts = try #require(object["contacts"] as? [Int])
        #expect(contacts.count == object["sequences"] as? Int)
        var began: [Int] = []
        for line in try touchline("replay", "--frames", path).lines {
            let frame = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for contact in frame["contacts"] as? [[String: Any]] ?? [] where contact["phase"] as? String == "began" {
                began.append(contact["id"] as? Int ?? -1)
            }
        }
        #expect(contacts == began)
        // "1 touch sequence," (not "sequences").
        try touchline(in: Paths.recordings, "inspect", "tap.yml").expect(status: 0, stdout: "inspect-tap.txt")
    }

    /// record --config: the graph of --gestures-output, so alone it is a usage error, and a
    /// bad file stops the command (naming its line) before any device is opened.
    @Test func recordConfig() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let bad = try dir.write("bad.toml", "[[recognizer]]\nkind = \"tap\"\nname = \n")
        // --config alone is a usage error; bad.toml:3 is named. (--config in record's help: HelpTests.)
        try expectErrors([
            (["record", "--config", dir.path + "/graph.toml", "-o", dir.path + "/out.yml", "/dev/input/no-such-node"], 64),
            (["record", "--config", bad, "--gestures-output", dir.path + "/g.jsonl", "-o", dir.path + "/out.yml", "/dev/input/no-such-node"], 65),
        ], "record-config.stderr.txt", scratch: dir.path)
    }

    /// evemu output as evemu 1.3 writes it: after the timestamps, the E: lines of a real evemu
    /// file and of its conversion are the same bytes (%04d values, "-001", the tab and comment,
    /// the SYN_REPORT's whole milliseconds), and the header has evemu's comments and masks.
    @Test func evemuWriterWritesAsEvemuDoes() throws {
        let original = Paths.trace("evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events")
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let out = dir.path + "/converted.events"
        let convert = try touchline("convert", "--format", "evemu", original, "-o", out)
        #expect(convert.status == 0, "\(convert.stderr)")
        let written = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        let real = try String(contentsOfFile: original, encoding: .utf8).split(separator: "\n")
        func events(_ lines: [Substring]) -> [String] {
            lines.filter { $0.hasPrefix("E: ") }.map { String($0.split(separator: " ", maxSplits: 2)[2]) }
        }
        #expect(events(written) == events(real))
        #expect(events(written).contains("0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1"))
        func masks(_ lines: [Substring]) -> [Substring] { lines.filter { $0.hasPrefix("B: ") || $0.hasPrefix("A: ") || $0.hasPrefix("I: ") } }
        #expect(masks(written) == masks(real))
        for line in ["# EVEMU 1.3", "# Input device ID: bus 0x18 vendor 0000 product 0000 version 0000", "# Supported events:",
                     "#   Event type 3 (EV_ABS)", "#     Event code 53 (ABS_MT_POSITION_X)", "#       Min        0", "#       Max      799",
                     "#       Fuzz       0", "#       Resolution 0", "#   Property  type 1 (INPUT_PROP_DIRECT)", "#      Waiting for events      #"] {
            #expect(written.contains(Substring(line)), "no '\(line)'")
        }
    }

    /// A getevent trace (slot-0 protocol B, as the Galaxy S paint trace is) converted to
    /// libinput record carries BTN_TOUCH and ABS_MT_SLOT, and `libinput analyze
    /// touch-down-state` reads it: one row per finger down and per lift, 34 strokes. The
    /// frames stay those of the trace.
    @Test func touchDownStateReadsAConvertedGeteventTrace() throws {
        let trace = Paths.trace("MonkeyHelper/galaxys-paint.txt")
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let out = dir.path + "/converted.yml"
        let convert = try touchline("convert", trace, "-o", out)
        #expect(convert.status == 0, "\(convert.stderr)")
        let yaml = try String(contentsOfFile: out, encoding: .utf8)
        #expect(yaml.contains("      1: [330] # EV_KEY"))
        #expect(yaml.contains("      47: [0, 0, 0, 0, 0]"))
        #expect(yaml.contains("   1, 330,       1] # EV_KEY / BTN_TOUCH"))
        let analyze = try libinput("analyze", "touch-down-state", out)
        #expect(analyze.status == 0, "\(analyze.stderr.suffix(600))")
        let rows = analyze.lines.dropFirst(2)
        #expect(analyze.lines.first?.hasPrefix("Timestamp | Rel time |") == true)
        #expect(rows.count == 68, "34 downs and 34 lifts: \(analyze.stdout.prefix(400))")
        #expect(rows.filter { $0.hasSuffix("| +") }.count == 34)
        #expect(try touchline("replay", "--frames", "--relative-time", trace).stdout == touchline("replay", "--frames", out).stdout)
        // Protocol A (SYN_MT_REPORT): BTN_TOUCH too, and the frames unchanged.
        let tablet = Paths.trace("MonkeyHelper/tablet-two-finger-drag.txt")
        let tabletOut = dir.path + "/tablet.yml"
        #expect(try touchline("convert", tablet, "-o", tabletOut).status == 0)
        let tabletYAML = try String(contentsOfFile: tabletOut, encoding: .utf8)
        #expect(tabletYAML.contains("   1, 330,       1] # EV_KEY / BTN_TOUCH") && tabletYAML.contains("   1, 330,       0] # EV_KEY / BTN_TOUCH"))
        #expect(!tabletYAML.contains("      47: ["), "protocol A has no slots")
        #expect(try touchline("replay", "--frames", "--relative-time", tablet).stdout == touchline("replay", "--frames", tabletOut).stdout)
    }

    /// Issue 26: `daemon --explain` publishes replay --explain's lines on the socket; `listen`
    /// leaves the explain lines out unless `--explain` (on 8d7af8f neither option existed: 64).
    @Test func daemonAndListenExplain() throws {
        let recording = Paths.recordings.appendingPathComponent("tap.yml").path
        let explained = try touchline("replay", "--explain", recording).lines.map(String.init)
        let plain = explained.filter { !$0.contains(#""gesture":"explain""#) }
        try #require(explained.count > plain.count && !plain.isEmpty)
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let socketPath = dir.path + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--explain", "--source", "trace:" + recording, "--speed", "100", "--start-delay", "2", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir.path))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        let client = try DaemonClient(path: socketPath)
        let listen = try CleanProcess(Paths.binary.path, ["listen", "--socket", socketPath], outputIn: URL(fileURLWithPath: dir.path))
        let listenExplain = try CleanProcess(Paths.binary.path, ["listen", "--explain", "--socket", socketPath], outputIn: URL(fileURLWithPath: dir.path))
        defer { if !ended { kill(listen.pid, SIGKILL); _ = listen.wait(); kill(listenExplain.pid, SIGKILL); _ = listenExplain.wait() } }
        try client.send("{\"subscribe\": []}\n")
        var received: [String] = []
        while received.count < explained.count + 1, let line = try client.line() { received.append(line) }
        #expect(Array(received.dropFirst()) == explained, "the socket carries replay --explain's lines")
        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait()?.status == 0)
        _ = listen.wait()
        _ = listenExplain.wait()
        ended = true
        #expect(listen.output.split(separator: "\n").map(String.init) == plain)
        #expect(listenExplain.output.split(separator: "\n").map(String.init) == explained)
        #expect(daemon.output.contains("; explain on"), "\(daemon.output)")
    }
}
