import Foundation
import Testing

/// Every command on a libinput record file with two devices, as `libinput record --all` writes
/// it. On 532b116, `replay`, `replay --frames` and `inspect` died of SIGILL (an index past the
/// devices known at the start) and `convert` exited 1 with a `.touchline-partial` file.
@Suite struct MultiDeviceCLITests {
    static let atmel = "libinput-record/Atmel maXTouch Touchscreen.1-finger-fast-taps.yml"
    static let ep = "libinput-record/EP0430M09.2-finger-scroll-down.yml"

    /// The two shared recordings as one: the first with `ndevices: 2`, then the second's
    /// device section. Built at run time; the shared traces stay out of the repo.
    static func writeTwoDeviceRecording(in dir: URL) throws -> String {
        let a = try String(contentsOfFile: Paths.trace(atmel), encoding: .utf8)
        let b = try String(contentsOfFile: Paths.trace(ep), encoding: .utf8)
        let node = try #require(b.range(of: "\n- node:"))
        let text = a.replacingOccurrences(of: "\nndevices: 1\n", with: "\nndevices: 2\n")
            + String(b[b.index(after: node.lowerBound)...]).replacingOccurrences(of: "/dev/input/event1", with: "/dev/input/event2")
        let path = dir.appendingPathComponent("two-devices.yml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The lines of `output` whose device is `device`, with the device field set to `as`.
    func lines(_ output: CLIResult, device: Int, as new: Int) -> [String] {
        output.lines.filter { $0.contains("\"device\":\(device),") }.map {
            $0.replacingOccurrences(of: "\"device\":\(device),", with: "\"device\":\(new),")
        }
    }

    func times(_ output: CLIResult) -> [Double] {
        output.lines.compactMap { line in
            guard let start = line.range(of: "\"time\":") else { return nil }
            return Double(line[start.upperBound...].prefix { $0 != "," })
        }
    }

    /// Each device replays exactly as its own file does, and the two are merged by time.
    @Test(arguments: [false, true])
    func replayInterleavesTheDevicesByTime(frames: Bool) throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.writeTwoDeviceRecording(in: dir)
        let flag = frames ? ["--frames"] : []
        let both = try touchline(arguments: ["replay"] + flag + [path])
        #expect(both.status == 0, "\(both.stderr)")
        let first = try touchline(arguments: ["replay"] + flag + [Paths.trace(Self.atmel)])
        let second = try touchline(arguments: ["replay"] + flag + [Paths.trace(Self.ep)])
        #expect(!first.lines.isEmpty && !second.lines.isEmpty)
        #expect(lines(both, device: 0, as: 0) == first.lines.map(String.init))
        #expect(lines(both, device: 1, as: 0) == second.lines.map(String.init))
        #expect(both.lines.count == first.lines.count + second.lines.count, "every line names device 0 or 1")
        let t = times(both)
        #expect(t.count == both.lines.count)
        #expect(t == t.sorted(), "in time order, as if recorded live together")
        #expect(both.stdout == (try touchline(arguments: ["replay"] + flag + [path])).stdout, "the same bytes every run")
    }

    @Test func inspectListsEachDevice() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.writeTwoDeviceRecording(in: dir)
        // A summary per device: device 0 the Atmel, device 1 the EP0430M09.
        try touchline(in: dir, "inspect", "two-devices.yml").expect(status: 0, stdout: "inspect-two-devices.txt", stderr: "inspect-two-devices.stderr.txt")
        let json = try touchline("inspect", "--json", path)
        #expect(json.status == 0, "\(json.stderr)")
        let objects = try json.lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["device"] as? Int } == [0, 1])
        #expect(objects.map { $0["name"] as? String } == ["Atmel maXTouch Touchscreen", "EP0430M09"])
        // The same counts as each file alone.
        for (i, single) in [Self.atmel, Self.ep].enumerated() {
            let alone = try touchline("inspect", "--json", Paths.trace(single))
            let object = try #require(JSONSerialization.jsonObject(with: Data(alone.stdout.utf8)) as? [String: Any])
            #expect(objects[i]["events"] as? Int == object["events"] as? Int)
            #expect(objects[i]["frames"] as? Int == object["frames"] as? Int)
        }
    }

    /// A getevent trace listing 50,000 devices of which one sends: inspect summarizes all of
    /// them within 300 MB of address space. After 4ceb273 it built two assemblers per listed
    /// device (a padding loop, then one per summary) and peaked at 680 MB: aborted so.
    @Test func inspectOfManyListedDevicesBuildsNoAssemblerForThem() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = ""
        for i in 0..<50_000 { text += "add device \(i + 1): /dev/input/event\(i)\n" }
        for t in 0..<3 {
            text += "[   \(t).000000] /dev/input/event0: EV_ABS       ABS_MT_TRACKING_ID   00000001\n"
            text += "[   \(t).000000] /dev/input/event0: EV_ABS       ABS_MT_POSITION_X    00000010\n"
            text += "[   \(t).000000] /dev/input/event0: EV_SYN       SYN_REPORT           00000000\n"
        }
        let path = dir.appendingPathComponent("listed.getevent").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        // Under AddressSanitizer (scripts/asan.sh sets ASAN_OPTIONS) the shadow memory alone
        // reserves terabytes of address space, so the budget applies to normal builds only;
        // that run is for memory safety, this one for memory use.
        let sanitized = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
        let limit = sanitized ? "" : "ulimit -v 300000 && "
        let result = try run("/bin/sh", ["-c", limit + "exec \"$0\" inspect --json \"$1\"", Paths.binary.path, path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 50_000)
        #expect(result.lines.first?.contains("\"events\":9,") == true, "\(result.lines.first ?? "")")
        #expect(result.lines.last?.contains("\"device\":49999,") == true)
        #expect(result.lines.last?.contains("\"events\":0,") == true)
    }

    /// All devices written, device by device, in a file libinput's tools accept and that
    /// replays to the same frames.
    @Test func convertWritesEveryDevice() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.writeTwoDeviceRecording(in: dir)
        let out = dir.appendingPathComponent("converted.yml").path
        let convert = try touchline("convert", path, "-o", out)
        #expect(convert.status == 0, "\(convert.stderr)")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written.contains("\nndevices: 2\n"))
        #expect(written.components(separatedBy: "\n- node: ").count == 3)
        let original = try touchline("replay", "--frames", path)
        let converted = try touchline("replay", "--frames", out)
        #expect(converted.status == 0)
        #expect(original.stdout == converted.stdout, "the recording starts at 0 already, so no shift")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.contains("partial") }))

        let analyze = try libinput("analyze", "per-slot-delta", out)
        #expect(analyze.status == 0, "libinput analyze per-slot-delta: \(analyze.stderr.suffix(800))")
        // libinput replay's own file check (it then needs root and uinput to replay).
        let check = """
            import importlib.machinery, importlib.util, sys, yaml
            loader = importlib.machinery.SourceFileLoader("replay", "/usr/libexec/libinput/libinput-replay")
            spec = importlib.util.spec_from_loader("replay", loader)
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            recording = yaml.safe_load(open(sys.argv[1]))
            module.check_file(recording)
            print(len(recording["devices"]), [len(d["events"]) for d in recording["devices"]])
            """
        let replayCheck = try run("/usr/bin/python3", ["-c", check, out])
        #expect(replayCheck.status == 0, "\(replayCheck.stderr.suffix(800))")
        #expect(replayCheck.stdout.hasPrefix("2 "), "\(replayCheck.stdout)")
        #expect(replayCheck.stderr.isEmpty, "libinput replay warns: \(replayCheck.stderr)")
    }

    /// evemu describes one device: without --device it is a usage error before any output;
    /// with it, that device alone.
    @Test func evemuNeedsADeviceChoice() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.writeTwoDeviceRecording(in: dir)
        let out = dir.appendingPathComponent("one.evemu").path
        // The devices listed (0 'Atmel maXTouch Touchscreen', 1 'EP0430M09') and --device N;
        // --device 2 expects 0 to 1.
        try expectErrors([(["convert", "--format", "evemu", path, "-o", out], 64), (["convert", "--device", "2", path, "-o", out], 64)],
                         "convert-device-choice.stderr.txt", scratch: dir.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["two-devices.yml"])

        let chosen = try touchline("convert", "--format", "evemu", "--device", "1", path, "-o", out)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        let frames = try touchline("replay", "--frames", out)
        let alone = try touchline("replay", "--frames", Paths.trace(Self.ep))
        #expect(!frames.lines.isEmpty)
        #expect(frames.stdout == alone.stdout)

    }
}

/// `-` redirected from a regular file (`touchline replay - < FILE`): 29b73eb took standard
/// input for a file it could open again per device section, every section shared fd 0's one
/// offset, and the first section to finish closed fd 0 (replay exit 74, "Bad file descriptor";
/// convert exit 0 with the first device only).
@Suite struct StandardInputFileTests {
    @Test func aTwoDeviceFileOnStandardInputReadsAsTheFile() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try MultiDeviceCLITests.writeTwoDeviceRecording(in: dir)
        for command in [["replay"], ["replay", "--frames"], ["inspect", "--json"]] {
            let fromFile = try touchline(arguments: command + [path])
            let fromStdin = try touchline(arguments: command + ["-"], standardInput: path)
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            #expect(fromStdin.status == 0, "\(command): \(fromStdin.stderr)")
            #expect(!fromFile.stdout.isEmpty)
            let expected = command[0] == "inspect"
                ? fromFile.stdout.replacingOccurrences(of: "\"file\":\"\(path)\"", with: "\"file\":\"<stdin>\"")
                : fromFile.stdout
            #expect(fromStdin.stdout == expected, "\(command)")
        }
        let fromFile = dir.appendingPathComponent("from-file.yml").path
        let fromStdin = dir.appendingPathComponent("from-stdin.yml").path
        #expect(try touchline("convert", path, "-o", fromFile).status == 0)
        let converted = try touchline(arguments: ["convert", "-", "-o", fromStdin], standardInput: path)
        #expect(converted.status == 0, "\(converted.stderr)")
        let a = try String(contentsOfFile: fromFile, encoding: .utf8)
        let b = try String(contentsOfFile: fromStdin, encoding: .utf8)
        #expect(a.contains("\nndevices: 2\n"))
        #expect(a == b)
    }

    /// `--desc -` leaves fd 0 open: on 29b73eb it was closed after the description was read,
    /// the trace took fd 0, and `-o` onto the description given on standard input was no
    /// longer seen as an input (exit 0, the description overwritten).
    @Test func aDescriptionOnStandardInputStaysAnInput() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Paths.trace("evemu-devices/Wacom ISDv4 E6 Finger.2fg-tap.events")
        let desc = dir.appendingPathComponent("wacom.desc").path
        try FileManager.default.copyItem(atPath: Paths.trace("evemu-devices/Wacom ISDv4 E6 Finger.desc"), toPath: desc)
        let original = try String(contentsOfFile: desc, encoding: .utf8)
        let expected = try touchline("replay", "--desc", desc, events)
        let replayed = try touchline(arguments: ["replay", "--desc", "-", events], standardInput: desc)
        #expect(expected.status == 0, "\(expected.stderr)")
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == expected.stdout)
        let refused = try touchline(arguments: ["convert", "--desc", "-", events, "-o", desc], standardInput: desc)
        #expect(refused.status == 64, "\(refused.stderr)")
        expectReport(Report.normalized(refused.stderr, scratch: dir.path), "convert-desc-stdin.stderr.txt")
        #expect(try String(contentsOfFile: desc, encoding: .utf8) == original)
    }
}
