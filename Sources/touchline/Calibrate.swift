// `touchline calibrate`: the calibration that puts touches where the finger is (docs/calibrate.md).
// --from fits a recording's taps against the points they aimed at; --corners asks a live
// touchscreen for its four corners. The fit and every text it writes are TouchlineCalibration's;
// the touches are the default graph's taps, as `replay` finds them.
import ArgumentParser
import TouchlineCalibration
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineLive
import TouchlineSettings
import TouchlineTrace
import TouchlineTuning

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fit the calibration that puts touches where the finger is; write it for libinput (a udev rule), Touchline and X11.",
        discussion: """
            --from RECORDING --points "X,Y X,Y …": the recording's taps (the default graph's \
            one-finger taps, or a press held still), paired in order with the points they aimed \
            at, fitted by least squares to libinput's LIBINPUT_CALIBRATION_MATRIX. Prints each \
            point's residual in mm, the worst, a point far off the others (left out), what was \
            found (rotation, flips, swap, scale, offset), then the udev rule, the [[device]] \
            section and the xinput command. Exit status 1 when the points disagree by more than \
            --tolerance (touch them again; no rule is written).

            DEVICE alone: serves a page (as `touchline view`, 127.0.0.1 unless --host) to open \
            full screen on the touchscreen: --count crosshairs one at a time, each answered by \
            the device's raw touch (never the browser's), a point far off asked again, then the \
            same report and outputs as --from, on the page and here. trace:FILE answers it with \
            a recording's touches instead.

            --labels RECORDING.labels.json: a `record --guided` recording, its tap attempts \
            paired with the points their prompts name ("… at X,Y"), or with --points.

            --check DEVICE: one touch at a random point (its seed printed; --seed N repeats it), \
            its error in mm under --matrix, the device's udev property, or none.

            --check --page DEVICE: the same point as a crosshair on the page, its error shown there \
            and printed here.

            --daemon (instead of DEVICE, for the page, --check and --corners): the touches come \
            from the running daemon's raw frames through its socket (--socket, default as \
            `touchline listen`), for a touchscreen the daemon holds (pass-through grabs it); \
            --device N picks one of several. The daemon's [[device]] settings do not apply: the \
            fit is of the device's own coordinates, as on DEVICE.

            --corners DEVICE: asks on standard error for the four corners of the screen in turn, \
            read from the touchscreen DEVICE (/dev/input/eventN; trace:FILE plays a recording \
            instead), and gives its orientation (rotation, flips, swap) and extent. See \
            docs/calibrate.md.
            """)

    @Argument(help: ArgumentHelp("The touchscreen's event node (the page, or --corners), or trace:FILE.", valueName: "DEVICE"))
    var node: String?

    @Option(help: ArgumentHelp("A recording of taps at --points, in order (libinput record YAML, evemu, getevent -lt).", valueName: "RECORDING"))
    var from: String?

    @Option(help: ArgumentHelp("A labels file of `record --guided` (RECORDING.labels.json): its tap attempts are the taps, each aiming at the point its prompt names (\"… at X,Y\") or at --points. The recording is the one it names, or --from.", valueName: "LABELS"))
    var labels: String?

    @Option(help: ArgumentHelp("The points the taps aimed at, in order: X,Y pairs separated by spaces, normalized (0 to 1 of the screen's width and height from its top-left corner), or pixels with --screen.", valueName: "X,Y X,Y …"))
    var points: String?

    @Option(help: ArgumentHelp("The screen's size in pixels: --points are then pixels from its top-left corner (a browser's clientX, clientY).", valueName: "WxH"))
    var screen: String?

    @Option(help: ArgumentHelp("The device of a recording with taps on several (numbered as `touchline inspect` lists them), or with --daemon, of the daemon's (its events' \"device\"; default: the first it describes).", valueName: "N"))
    var device: Int?

    @Option(help: ArgumentHelp("mm on the panel beyond which a point is off the fit (default 4).", valueName: "MM"))
    var tolerance: Double = Calibration.defaultTolerance

    @Option(name: .customLong("udev-rule"), help: ArgumentHelp("Also write the udev rule to this file (docs/calibrate.md: how to install and apply it).", valueName: "PATH"))
    var udevRule: String?

    @Flag(help: "Ask for the four corners on a live touchscreen: its orientation and extent.")
    var corners = false

    @Flag(help: "Check the calibration in force: one touch at a random point (printed, from --seed), its error in mm.")
    var check = false

    @Flag(name: .customLong("page"), help: "With --check: show the point as a crosshair on the page (as the calibration's), its error there too.")
    var onPage = false

    @Flag(help: "Take the touches from the running daemon's raw frames (its socket) instead of DEVICE: for a touchscreen the daemon holds (pass-through grabs it).")
    var daemon = false

    @Option(help: ArgumentHelp("With --daemon: the event socket's path. Default: as `touchline listen`'s.", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("With --check: the seed of the point (printed by every check, to ask for the same point again).", valueName: "N"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("With --check: the calibration to check, six numbers as LIBINPUT_CALIBRATION_MATRIX takes them. Default: the device's udev property, or none.", valueName: "\"a b c d e f\""))
    var matrix: String?

    @Option(help: ArgumentHelp("The page: how many crosshairs, 4 to 9 (corners inset, the centre, the middles of the edges).", valueName: "N"))
    var count = 9

    @Option(help: ArgumentHelp("The page: the address to listen on. Anything but loopback needs --token (as `touchline view`).", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The page: the port to listen on; 0, a free one (printed).", valueName: "n"))
    var port = 0

    @Option(help: ArgumentHelp("The page: the token every request must carry (?token=…), 16 or more of A-Z a-z 0-9 - _.", valueName: "token"))
    var token: String?

    @OptionGroup var input: InputOptions

    func validate() throws {
        if daemon && node != nil { throw ValidationError("--daemon reads the device the daemon holds; it goes without DEVICE") }
        if daemon && (from != nil || labels != nil) { throw ValidationError("--daemon reads live touches; a recording is --from RECORDING (or --labels)") }
        if socket != nil && !daemon { throw ValidationError("--socket goes with --daemon") }
        if onPage && !check { throw ValidationError("--page goes with --check (the calibration's page is `calibrate DEVICE` itself)") }
        if check && (corners || from != nil || (node == nil && !daemon)) {
            throw ValidationError("--check DEVICE checks the calibration in force on DEVICE; it goes without --from and --corners")
        }
        if !check && (seed != nil || matrix != nil) { throw ValidationError("--seed and --matrix go with --check") }
        if let matrix, UdevCalibration.parse(matrix) == nil {
            throw ValidationError("--matrix takes six finite numbers separated by spaces, as LIBINPUT_CALIBRATION_MATRIX: got '\(matrix)'")
        }
        if labels != nil && (corners || check || node != nil) {
            throw ValidationError("--labels fits a guided recording's taps; it goes without DEVICE, --corners and --check")
        }
        if corners && from != nil || from == nil && labels == nil && node == nil && !daemon {
            throw ValidationError("give DEVICE (the page), --daemon, --from RECORDING --points \"X,Y …\", or --corners DEVICE")
        }
        if from != nil && labels == nil && points == nil { throw ValidationError("--from needs --points: the points its taps aimed at, in order (or --labels of a guided recording)") }
        if from == nil && labels == nil && (points != nil || screen != nil || (device != nil && !daemon)) {
            throw ValidationError("--points, --screen and --device go with --from RECORDING or --labels")
        }
        if corners && node == nil && !daemon { throw ValidationError("--corners needs DEVICE: the touchscreen's event node (see `touchline devices`), or trace:FILE") }
        if from != nil && node != nil { throw ValidationError("DEVICE is the page's or --corners'; a recording is --from RECORDING") }
        if !CalibrationLayout.counts.contains(count) { throw ValidationError("--count takes 4 to 9 crosshairs; got \(count)") }
        if !(0...65535 ~= port) { throw ValidationError("--port takes 0 to 65535, found \(port).") }
        if let screen, CalibrationTargets.parseScreen(screen) == nil {
            throw ValidationError("--screen takes WIDTHxHEIGHT in pixels (for example 1920x1080); got '\(screen)'")
        }
        if let points, case let .failure(error) = CalibrationTargets.parse(points, screen: screen.flatMap(CalibrationTargets.parseScreen)) {
            throw ValidationError(error.description)
        }
        if !(tolerance.isFinite && tolerance > 0) { throw ValidationError("--tolerance takes mm, more than 0; got \(tolerance)") }
        if let device, device < 0 { throw ValidationError("--device takes a device number, 0 or more; got \(device)") }
    }

    func run() throws {
        try reportingErrors {
            if let labels {
                try fitLabels(labels)
            } else if let from {
                try fit(from)
            } else if corners {
                try cornersOf(node)
            } else if check {
                try checkOne(node)
            } else {
                try page(node)
            }
        }
    }

    // MARK: --from

    /// `labelled`: the labels of the recording, from `record --guided` (--labels): each tap
    /// attempt's window picks its tap, its prompt (or --points) the point it aimed at.
    func fit(_ path: String, labelled: (labels: [Label], file: String)? = nil) throws {
        let screenSize = screen.flatMap(CalibrationTargets.parseScreen)
        var targets: [Point] = []
        var given: [String] = []
        if let points {
            guard case let .success(parsed) = CalibrationTargets.parse(points, screen: screenSize) else { return }
            targets = parsed
            given = points.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        }
        let found = try Self.touches(path, input: input)
        let name = TraceFile.displayName(path)
        let index: Int
        if let device {
            guard found.devices.indices.contains(device) else {
                throw CLIError.usage("\(name): --device \(device): the recording describes \(counted(found.devices.count, "device"))")
            }
            index = device
        } else {
            let touched = found.touches.keys.sorted()
            guard let only = touched.first else {
                throw CLIError.data("\(name): no taps: expected one tap (or a press held still) per point, each by one finger moving less than 3 mm")
            }
            guard touched.count == 1 else {
                throw CLIError.usage("\(name): taps on devices \(touched.map(String.init).joined(separator: ", ")): choose one with --device N")
            }
            index = only
        }
        var taps = found.touches[index] ?? []
        if let labelled { (taps, targets, given) = try attempts(labelled.labels, file: labelled.file, taps: taps, targets: targets, given: given) }
        guard taps.count == targets.count else {
            let times = taps.prefix(12).map { formatFixed($0.time, decimals: 2) + " s" }.joined(separator: ", ")
            throw CLIError.data("\(name): \(counted(taps.count, "tap")) on device \(index)\(taps.isEmpty ? "" : " (at \(times)\(taps.count > 12 ? ", …" : ""))") "
                + "but --points gives \(counted(targets.count, "point")): expected one tap per point, in order")
        }
        let sensor = found.sensors[index]!
        let calibrationPoints = zip(taps, targets).map { tap, target in
            CalibrationPoint(touched: Point(x: tap.position.x / sensor.width, y: tap.position.y / sensor.height), target: target)
        }
        let calibration: Calibration
        do {
            calibration = try Calibration.fit(calibrationPoints, sensor: sensor, tolerance: tolerance)
        } catch {
            throw CLIError.data("\(name): device \(index): \(error)")
        }
        let calibrated = CalibratedDevice(found.devices[index], sensor: sensor)
        try write(calibration, calibrated, report: calibration.report(calibrated, points: calibrationPoints, targets: given))
        if !calibration.agrees { throw ExitCode(ExitStatus.labelsMissed) }
    }

    /// --labels: the recording it names (or --from), its tap attempts fitted.
    func fitLabels(_ path: String) throws {
        let bytes = try readSmallFile(path, limit: LabelSet.maximumBytes + 1, what: "a labels file")
        if bytes.count > LabelSet.maximumBytes { throw CLIError.data("\(path): a labels file is at most \(LabelSet.maximumBytes >> 20) MiB") }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let set: LabelSet
        do {
            set = try LabelSet.parse(bytes, file: path, directory: path.hasPrefix("/") && directory.isEmpty ? "/" : directory)
        } catch {
            throw CLIError.data(error.description)
        }
        let recordings = set.recordings.filter { from == nil || $0.path == from || $0.file == from }
        guard recordings.count == 1, let recording = recordings.first else {
            throw CLIError.data("\(path): \(counted(recordings.count, "recording")) \(from.map { "named \($0)" } ?? "in it"): expected one (choose with --from)")
        }
        try fit(from ?? recording.path, labelled: (recording.labels, path))
    }

    /// The taps of a guided recording's tap attempts, in the labels' order (the first tap in
    /// each `has tap` (or `longPress`) label's window; an attempt without one is left out, said on
    /// standard error), each with the point its prompt names ("… at X,Y"), or the point of
    /// --points in the same place when given.
    func attempts(_ labels: [Label], file: String, taps: [(time: Double, position: Point)], targets: [Point], given: [String]) throws
        -> ([(time: Double, position: Point)], [Point], [String]) {
        let attempts = labels.filter { $0.kind == .has && ($0.gestures.contains("tap") || $0.gestures.contains("longPress")) }
        guard !attempts.isEmpty else { throw CLIError.data("\(file): no tap attempts (\"has\": \"tap\" labels), as `record --guided` writes them") }
        if points != nil && attempts.count != targets.count {
            throw CLIError.data("\(file): \(counted(attempts.count, "tap attempt")) but --points gives \(counted(targets.count, "point")): expected one point per attempt, in order")
        }
        let screenSize = screen.flatMap(CalibrationTargets.parseScreen)
        var out: ([(time: Double, position: Point)], [Point], [String]) = ([], [], [])
        for (i, label) in attempts.enumerated() {
            let from = label.from ?? -.infinity, to = label.to ?? .infinity
            guard let tap = taps.first(where: { from <= $0.time && $0.time <= to }) else {
                warn("\(file): attempt \(i + 1) (\(label)) has no tap in its window: left out")
                continue
            }
            if points != nil {
                out.1.append(targets[i])
                out.2.append(given[i])
            } else {
                guard let (word, point) = label.why.flatMap({ CalibrationTargets.aimedAt($0, screen: screenSize) }) else {
                    throw CLIError.data("\(file): attempt \(i + 1) (\(label)) names no point: its prompt ends in \"at X,Y\" (a plan step like `tap 1 touch the cross at 0.1,0.1`), or give --points")
                }
                out.1.append(point)
                out.2.append(word)
            }
            out.0.append(tap)
        }
        return out
    }

    /// A recording's touches per device (time in s from its first event, position in mm),
    /// found by the default graph as `replay` runs it, with no `[[device]]` settings: the fit
    /// is of the raw device.
    static func touches(_ path: String, input: InputOptions) throws -> (touches: [Int: [(time: Double, position: Point)]], sensors: [Int: Size], devices: [DeviceDescription]) {
        var source = TraceInput(trace: try TraceFile.open(path, input: input), devices: TraceDevices(DeviceConfiguration(), configPath: nil))
        // The trace's own times (its loop never shifted them, though it asked for relative
        // time: the taps it names are at the recording's times, which the tests pin).
        var pipeline = GesturePipeline(configuration: .default, assemblerOptions: input.assemblerOptions)
        var found = CalibrationInput()
        try pipeline.run(&source, into: &found)
        return (found.touches, found.sensors, source.trace.devices)
    }

    /// The report, then the three outputs on standard output; the rule to --udev-rule too, when
    /// the points agree. Returns them, for the page.
    @discardableResult
    func write(_ calibration: Calibration, _ device: CalibratedDevice, report: String) throws -> CalibrationRun.Done {
        let rule = calibration.udevRule(device)
        var text = report + "\n"
        if let udevRule, calibration.agrees {
            let sink = try FileByteSink(path: udevRule, inputs: [from, node].compactMap { $0 })
            var writer = sink
            try writer.write(Array(rule.utf8))
            try sink.commit()
            text += "# udev rule, written to \(udevRule):\n"
        } else {
            text += "# udev rule (--udev-rule PATH writes it to a file):\n"
        }
        text += rule + "\n"
        text += "# Touchline's [[device]] section (instead of the rule, where udev is not used):\n"
        text += calibration.deviceSection(device) + "\n"
        text += "# X11, when the touchscreen's monitor is the whole X screen (docs/calibrate.md), without the rule:\n"
        text += calibration.xinputCommand(device) + "\n"
        var out = OutputStream(fd: 1)
        out.write(text)
        out.flush()
        if !calibration.agrees {
            warn("the points disagree by more than \(formatFixed(tolerance, decimals: 1)) mm: touch them again\(udevRule == nil ? "" : "; \(udevRule!) was not written")")
        }
        return CalibrationRun.Done(report: report, rule: rule, section: calibration.deviceSection(device), xinput: calibration.xinputCommand(device),
                                   written: calibration.agrees ? udevRule : nil)
    }

    // MARK: the page

    /// The page (docs/calibrate.md#the-page): served by view's server, its crosshairs answered
    /// by touches read raw from DEVICE (the evdev source, no grab, the default graph's taps), from
    /// the daemon's raw frames (--daemon), or by a recording's touches (trace:FILE, found as
    /// --from finds them), one played each time the page says a crosshair is shown. The fit,
    /// the re-asks and the page's lines are CalibrationRun's; the server and the page
    /// TouchlineView's; this only wires them.
    func page(_ node: String?) throws {
        var targets: [Point] = []
        let (run, device, keep, answers) = try servePage(node) { sensor in
            let run = CalibrationRun(targets: CalibrationLayout.points(count), sensor: sensor, tolerance: tolerance)
            targets = run.targets
            return run
        }
        defer { answers.host.closeInput(); _ = answers.host.wait() }
        guard let outcome = run.outcome else { throw CLIError.data("\(source): the input ended before the page was done") }
        var done: CalibrationRun.Done?
        if case .fitted(let calibration, let points) = outcome {
            done = try write(calibration, device, report: calibration.report(device, points: points, targets: CalibrationLayout.text(targets).split(separator: " ").map(String.init)))
        }
        try keep(run.line(device: device, done: done))
        try answers.awaitShown(run.shownAtEnd)
        guard case .fitted(let calibration, _) = outcome else {
            if case .failed(let reason) = outcome { throw CLIError.data("\(source): \(reason)") }
            return
        }
        if !calibration.agrees { throw ExitCode(ExitStatus.labelsMissed) }
    }

    /// What the touches come from, for messages: DEVICE, or the daemon's socket.
    var source: String { daemon ? "the daemon (\(daemonSocket))" : node ?? "" }
    var daemonSocket: String { socket ?? Listen.defaultSocket(environment: Environment.all()) }

    /// The page's answers from its server (`touchline-view calibrate`'s `answer QUERY` lines).
    struct PageAnswers {
        let host: PageHost
        /// The answers that arrive within `milliseconds` (0: those already there).
        func within(_ milliseconds: Int32) throws -> [String] {
            guard let lines = host.lines(within: milliseconds) else { try View.ended(host); return [] }
            return lines.compactMap { line in
                line.starts(with: Array("answer ".utf8)) ? String(decoding: line.dropFirst(7), as: UTF8.self) : nil
            }
        }
        /// Served until the page says it shows the outcome (`shown=N`), or 30 s, so that it
        /// gets its line.
        func awaitShown(_ n: Int) throws {
            var waited = 0
            while try waited < 30 && !within(1000).contains(where: { CalibrationRun.Answer.parse(Substring($0)) == .shown(n) }) { waited += 1 }
        }
    }

    /// Serves the page and answers `make`'s run (made once the device's panel is known) with
    /// touches from DEVICE, a recording (trace:FILE) or the daemon (--daemon), until the run is
    /// over. Returns the run, the device, how to send the page a line, and the page's answers
    /// (the server stays up for the outcome's line).
    func servePage<Run: PageRun>(_ node: String?, make: (Size) -> Run) throws -> (Run, CalibratedDevice, ([UInt8]) throws -> Void, PageAnswers) {
        TemporaryCleanup.install(unblock: true)
        // The daemon first: without one, the error comes before any page is offered.
        let feed = daemon ? try DaemonTouchFeed(socket: daemonSocket, device: self.device) : nil
        // The server is `touchline-view calibrate` (docs/view.md "Two executables"): it checks
        // the address and the token first, serves the page, and writes each answer the page's
        // rules accepted as an `answer QUERY` line, which `answers` reads here.
        var arguments = ["calibrate", "--host", host, "--port", String(port)]
        if let token { arguments += ["--token", token] }
        let server = try View.startHost(arguments)
        let answers = PageAnswers(host: server)
        do {
            try View.started(server, stream: true, label: "touchline calibrate")
        } catch {
            server.closeInput()
            _ = server.wait()
            throw error
        }
        /// A line to the page, kept for one that opens later.
        func keep(_ line: [UInt8]) throws {
            try View.send(server, Array("keep 0 ".utf8) + line + [0x0A])
        }
        var run: Run?
        var device: CalibratedDevice?
        var shown: [UInt8] = []
        /// The page's answers so far, then (when a point is shown and `touch` has one) a touch.
        func step(_ answered: [String], touch: Point? = nil) throws {
            guard var current = run, let device else { return }
            var changed = false
            for text in answered { if let a = CalibrationRun.Answer.parse(Substring(text)) { changed = current.answer(a) || changed } }
            if let touch { changed = current.touch(touch) || changed }
            run = current
            // Only what the page would show differently (being armed is not); the outcome's
            // line, with its outputs, once they are written.
            if changed, !current.isOver, case let line = current.pageLine(device: device), line != shown {
                shown = line
                try keep(line)
            }
        }
        func begin(_ calibrated: CalibratedDevice) throws {
            device = calibrated
            run = make(calibrated.sensor)
            shown = run!.pageLine(device: calibrated)
            try keep(shown)
        }
        do {
            if let feed {
                try begin(try feed.waitForDevice())
                while run?.isOver == false {
                    guard let touches = try feed.touches(within: 20) else { throw CLIError.data("\(source): the daemon closed the connection before the page was done") }
                    try step(answers.within(0))
                    for touch in touches { try step([], touch: touch) }
                }
            } else if let node, node.hasPrefix("trace:") {
                let path = String(node.dropFirst("trace:".count))
                let found = try Self.touches(path, input: input)
                guard let index = found.touches.keys.sorted().first, let sensor = found.sensors[index] else {
                    throw CLIError.data("\(node): no touches to answer the page with")
                }
                try begin(CalibratedDevice(found.devices[index], sensor: sensor))
                var taps = found.touches[index]![...]
                while run?.isOver == false {
                    try step(answers.within(1000))
                    guard run?.armed == true else { continue }
                    guard let tap = taps.popFirst() else { throw CLIError.data("\(node): the recording ended before the page was done") }
                    try step([], touch: Point(x: tap.position.x / sensor.width, y: tap.position.y / sensor.height))
                }
            } else if let node {
                var source = try EvdevLiveSource(paths: [node], grab: false)
                let sink = PageTouches()
                var session = RecordSession(options: input.assemblerOptions, configuration: .default, warn: { warn($0) })
                session.gestures = sink
                session.frames = sink
                try session.start(&source)
                guard let description = session.descriptions.first else { throw CLIError.data("\(node): no touchscreen opened") }
                try begin(CalibratedDevice(description, sensor: FrameAssembler(device: description, options: input.assemblerOptions).geometry.size))
                // A failure to reach the page ends the run (the sink's closures cannot throw): kept
                // and thrown once the session returns.
                var failure: (any Error)?
                func stepOrStop(_ touch: Point?) {
                    guard failure == nil else { return }
                    do { try step(answers.within(0), touch: touch) } catch { failure = error }
                }
                sink.onFrame = { stepOrStop(nil) }
                sink.onTouch = { stepOrStop(Point(x: $0.x / device!.sensor.width, y: $0.y / device!.sensor.height)) }
                session.isDone = { run?.isOver == true || failure != nil }
                try session.run(&source) { _, _ in }
                if let failure { throw failure }
            }
        } catch {
            server.closeInput()
            _ = server.wait()
            throw error
        }
        guard let run, let device else {
            server.closeInput()
            _ = server.wait()
            throw CLIError.data("\(source): the input ended before the page was done")
        }
        return (run, device, keep, answers)
    }

    /// --check --page: the check's point as a crosshair on the page, its error there and here.
    func checkOnPage(_ node: String?, seed: UInt64) throws {
        let (run, device, keep, answers) = try servePage(node) { _ in CheckRun(seed: seed) }
        defer { answers.host.closeInput(); _ = answers.host.wait() }
        guard let touched = run.touched else { throw CLIError.data("\(source): the input ended before the check's touch") }
        let (map, origin) = calibrationInForce(device)
        let result = CalibrationCheck(target: run.target, touched: touched, map: map, sensor: device.sensor)
        var out = OutputStream(fd: 1)
        out.write(result.report(seed: seed, calibration: origin, tolerance: tolerance))
        out.flush()
        try keep(CheckRun.line(result, seed: seed, calibration: origin, tolerance: tolerance, device: device))
        try answers.awaitShown(run.shownAtEnd)
        if !(result.error <= tolerance) { throw ExitCode(ExitStatus.labelsMissed) }
    }

    // MARK: --check

    /// One touch at a point from the seed, and how far the calibration in force (--matrix, the
    /// device's udev property, or none) puts it from there; with --page, asked on the page.
    func checkOne(_ node: String?) throws {
        var generator = SystemRandomNumberGenerator()
        // Six digits: short enough to type again.
        let seed = self.seed ?? UInt64.random(in: 0...999_999, using: &generator)
        let target = CalibrationCheck.point(seed: seed)
        StandardError.write(CalibrationCheck.prompt(target, seed: seed) + "\n")
        if onPage { return try checkOnPage(node, seed: seed) }
        let (touch, device) = try firstTouch(node)
        let (map, origin) = calibrationInForce(device)
        let result = CalibrationCheck(target: target, touched: touch, map: map, sensor: device.sensor)
        var out = OutputStream(fd: 1)
        out.write(result.report(seed: seed, calibration: origin, tolerance: tolerance))
        out.flush()
        if !(result.error <= tolerance) { throw ExitCode(ExitStatus.labelsMissed) }
    }

    /// The calibration --check measures (on Touchline's normalization) and where it comes from:
    /// --matrix, the device's udev property (of DEVICE: with --daemon there is no node to ask
    /// udev about, so only --matrix), or none.
    func calibrationInForce(_ device: CalibratedDevice) -> (AffineMap, String) {
        let property = daemon || node?.hasPrefix("trace:") != false ? nil : UdevDatabase.properties(ofNode: node!)?[UdevCalibration.property]
        if let text = matrix ?? property, let numbers = UdevCalibration.parse(text), let given = AffineMap(numbers) {
            return (given.fromLibinputAxes(xSpan: device.xSpan, ySpan: device.ySpan), matrix != nil ? "--matrix" : "the udev property \(UdevCalibration.property)")
        }
        return (.identity, daemon ? "no calibration (the device's own coordinates; with --daemon give --matrix, the udev property's numbers)"
            : "no calibration (the device's own coordinates)")
    }

    /// The first touch of DEVICE or the daemon (normalized), as --corners reads its touches.
    func firstTouch(_ node: String?) throws -> (Point, CalibratedDevice) {
        if daemon {
            let feed = try DaemonTouchFeed(socket: daemonSocket, device: device)
            let calibrated = try feed.waitForDevice()
            while true {
                guard let touches = try feed.touches(within: 1000) else { throw CLIError.data("\(source): the daemon closed the connection before a touch") }
                if let touch = touches.first { return (touch, calibrated) }
            }
        }
        guard let node else { throw CLIError.usage("give DEVICE or --daemon") }
        if node.hasPrefix("trace:") {
            let found = try Self.touches(String(node.dropFirst("trace:".count)), input: input)
            guard let index = found.touches.keys.sorted().first, let tap = found.touches[index]?.first, let sensor = found.sensors[index] else {
                throw CLIError.data("\(node): no touch")
            }
            return (Point(x: tap.position.x / sensor.width, y: tap.position.y / sensor.height), CalibratedDevice(found.devices[index], sensor: sensor))
        }
        var source = try EvdevLiveSource(paths: [node], grab: false)
        let sink = CornerTouches()
        var session = RecordSession(options: input.assemblerOptions, configuration: .default, warn: { warn($0) })
        session.gestures = sink
        try session.start(&source)
        session.isDone = { !sink.touches.isEmpty }
        try session.run(&source) { _, _ in }
        guard let touch = sink.touches.first, let index = sink.device, session.descriptions.indices.contains(index) else {
            throw CLIError.data("\(node): the input ended before a touch")
        }
        let description = session.descriptions[index]
        let sensor = FrameAssembler(device: description, options: input.assemblerOptions).geometry.size
        return (Point(x: touch.x / sensor.width, y: touch.y / sensor.height), CalibratedDevice(description, sensor: sensor))
    }

    // MARK: --corners

    func cornersOf(_ node: String?) throws {
        if daemon {
            let feed = try DaemonTouchFeed(socket: daemonSocket, device: device)
            let calibrated = try feed.waitForDevice()
            var touches: [Point] = []
            StandardError.write(CornerTouches.prompt(0) + "\n")
            while touches.count < CornerCheck.names.count {
                guard let found = try feed.touches(within: 1000) else {
                    throw CLIError.data("\(source): the input ended after \(counted(touches.count, "corner")) of 4")
                }
                for touch in found where touches.count < CornerCheck.names.count {
                    touches.append(touch)
                    StandardError.write((touches.count < CornerCheck.names.count ? CornerTouches.prompt(touches.count) : "done") + "\n")
                }
            }
            return try reportCorners(normalized: touches, device: calibrated)
        }
        guard let node else { throw CLIError.usage("give DEVICE or --daemon") }
        if node.hasPrefix("trace:") {
            // A recording answers the prompts with its first four touches, found as --from finds
            // them (a record session takes only the devices open at its start, which a trace
            // source adds at their first event).
            let path = String(node.dropFirst("trace:".count))
            let found = try Self.touches(path, input: input)
            guard let index = found.touches.keys.sorted().first, let taps = found.touches[index], let sensor = found.sensors[index] else {
                throw CLIError.data("\(node): the input ended after 0 corners of 4")
            }
            for k in 0..<min(taps.count + 1, CornerCheck.names.count) {
                StandardError.write(CornerTouches.prompt(k) + "\n")
            }
            guard taps.count >= 4 else { throw CLIError.data("\(node): the input ended after \(counted(taps.count, "corner")) of 4") }
            try reportCorners(taps.prefix(4).map(\.position), description: found.devices[index], sensor: sensor)
        } else {
            var source = try EvdevLiveSource(paths: [node], grab: false)
            try askCorners(&source)
        }
    }

    func askCorners(_ source: inout some LiveSource) throws {
        let sink = CornerTouches()
        var session = RecordSession(options: input.assemblerOptions, configuration: .default, warn: { warn($0) })
        session.gestures = sink
        try session.start(&source)
        StandardError.write(sink.prompt + "\n")
        session.isDone = { sink.touches.count >= CornerCheck.names.count }
        sink.onTouch = { StandardError.write(($0 < CornerCheck.names.count ? sink.prompt : "done") + "\n") }
        try session.run(&source) { _, _ in }
        guard sink.touches.count >= 4 else {
            throw CLIError.data("\(node ?? ""): the input ended after \(counted(sink.touches.count, "corner")) of 4")
        }
        guard let index = sink.device, session.descriptions.indices.contains(index) else {
            throw CLIError.data("\(node ?? ""): touches of a device the session did not open")
        }
        let description = session.descriptions[index]
        let sensor = FrameAssembler(device: description, options: input.assemblerOptions).geometry.size
        try reportCorners(Array(sink.touches.prefix(4)), description: description, sensor: sensor)
    }

    /// The four corners' touches (mm on the panel) as orientation and extent, and its outputs.
    func reportCorners(_ touches: [Point], description: DeviceDescription, sensor: Size) throws {
        try reportCorners(normalized: touches.map { Point(x: $0.x / sensor.width, y: $0.y / sensor.height) }, device: CalibratedDevice(description, sensor: sensor))
    }

    func reportCorners(normalized touches: [Point], device: CalibratedDevice) throws {
        let check: CornerCheck
        do {
            check = try CornerCheck(touches, sensor: device.sensor)
        } catch {
            throw CLIError.data("\(source): the corners: \(error)")
        }
        try write(check.orientationOnly, device, report: check.report(device))
    }
}

/// The corners' touches, one per prompt, from the first device that is touched.
final class CornerTouches: LiveSink {
    var touches: [Point] = []
    var device: Int?
    var onTouch: (Int) -> Void = { _ in }

    var prompt: String { Self.prompt(touches.count) }

    static func prompt(_ done: Int) -> String {
        "touch the \(CornerCheck.names[min(done, CornerCheck.names.count - 1)]) corner of the screen, as near to it as you can (\(done + 1) of 4)"
    }

    func gesture(_ event: GestureEvent) throws {
        guard touches.count < CornerCheck.names.count, let position = CalibrationTouches.position(of: event),
              device == nil || device == event.device else { return }
        device = event.device
        touches.append(position)
        onTouch(touches.count)
    }

    func frame(_ frame: TouchFrame, device: Int) throws {}
    func rawEvent(_ event: InputEvent, deviceName: String) throws {}
    func warn(_ message: String) { StandardError.warn(message) }
}

/// The page's touches (the default graph's taps on the device) and every frame, by which the
/// loop reads the page's answers between touches.
final class PageTouches: LiveSink {
    var onTouch: (Point) -> Void = { _ in }
    var onFrame: () -> Void = {}

    func gesture(_ event: GestureEvent) throws {
        onFrame()
        if let position = CalibrationTouches.position(of: event) { onTouch(position) }
    }

    func frame(_ frame: TouchFrame, device: Int) throws { onFrame() }
    func rawEvent(_ event: InputEvent, deviceName: String) throws {}
    func warn(_ message: String) { StandardError.warn(message) }
}

/// Calibrate's part of the pipeline's outputs: each device's sensor size as it starts, and the
/// touches the default graph finds (time in s, position in mm).
struct CalibrationInput: PipelineSink {
    var touches: [Int: [(time: Double, position: Point)]] = [:]
    var sensors: [Int: Size] = [:]

    mutating func started(device: Int, _ pipeline: GesturePipeline) { sensors[device] = pipeline.assembler(of: device)?.geometry.size }

    mutating func event(_ event: GestureEvent) {
        guard let position = CalibrationTouches.position(of: event) else { return }
        touches[event.device, default: []].append((Double(event.time.microseconds) / 1_000_000, position))
    }
}
