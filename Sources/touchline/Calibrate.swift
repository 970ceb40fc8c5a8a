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

            --corners DEVICE: asks on standard error for the four corners of the screen in turn, \
            read from the touchscreen DEVICE (/dev/input/eventN; trace:FILE plays a recording \
            instead), and gives its orientation (rotation, flips, swap) and extent. See \
            docs/calibrate.md.
            """)

    @Argument(help: ArgumentHelp("With --corners: the touchscreen's event node, or trace:FILE.", valueName: "DEVICE"))
    var node: String?

    @Option(help: ArgumentHelp("A recording of taps at --points, in order (libinput record YAML, evemu, getevent -lt).", valueName: "RECORDING"))
    var from: String?

    @Option(help: ArgumentHelp("The points the taps aimed at, in order: X,Y pairs separated by spaces, normalized (0 to 1 of the screen's width and height from its top-left corner), or pixels with --screen.", valueName: "X,Y X,Y …"))
    var points: String?

    @Option(help: ArgumentHelp("The screen's size in pixels: --points are then pixels from its top-left corner (a browser's clientX, clientY).", valueName: "WxH"))
    var screen: String?

    @Option(help: ArgumentHelp("The device of a recording with taps on several (numbered as `touchline inspect` lists them).", valueName: "N"))
    var device: Int?

    @Option(help: ArgumentHelp("mm on the panel beyond which a point is off the fit (default 4).", valueName: "MM"))
    var tolerance: Double = Calibration.defaultTolerance

    @Option(name: .customLong("udev-rule"), help: ArgumentHelp("Also write the udev rule to this file (docs/calibrate.md: how to install and apply it).", valueName: "PATH"))
    var udevRule: String?

    @Flag(help: "Ask for the four corners on a live touchscreen: its orientation and extent.")
    var corners = false

    @OptionGroup var input: InputOptions

    func validate() throws {
        if corners == (from != nil) {
            throw ValidationError("give either --from RECORDING --points \"X,Y …\" or --corners DEVICE")
        }
        if from != nil && points == nil { throw ValidationError("--from needs --points: the points its taps aimed at, in order") }
        if from == nil && (points != nil || screen != nil || device != nil) {
            throw ValidationError("--points, --screen and --device go with --from RECORDING")
        }
        if corners && node == nil { throw ValidationError("--corners needs DEVICE: the touchscreen's event node (see `touchline devices`), or trace:FILE") }
        if !corners && node != nil { throw ValidationError("DEVICE goes with --corners; a recording is --from RECORDING") }
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
            if let from { try fit(from) } else if let node { try cornersOf(node) }
        }
    }

    // MARK: --from

    func fit(_ path: String) throws {
        let screenSize = screen.flatMap(CalibrationTargets.parseScreen)
        guard let points, case let .success(targets) = CalibrationTargets.parse(points, screen: screenSize) else { return }
        let found = try Self.touches(path, input: input)
        let name = TraceFile.displayName(path)
        let index: Int
        if let device {
            guard found.devices.indices.contains(device) else {
                throw CLIError.usage("\(name): --device \(device): the recording describes \(found.devices.count) device(s)")
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
        let taps = found.touches[index] ?? []
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
        let given = points.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        try write(calibration, calibrated, report: calibration.report(calibrated, points: calibrationPoints, targets: given))
        if !calibration.agrees { throw ExitCode(ExitStatus.labelsMissed) }
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
    /// the points agree.
    func write(_ calibration: Calibration, _ device: CalibratedDevice, report: String) throws {
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
    }

    // MARK: --corners

    func cornersOf(_ node: String) throws {
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
        let check: CornerCheck
        do {
            check = try CornerCheck(touches.map { Point(x: $0.x / sensor.width, y: $0.y / sensor.height) }, sensor: sensor)
        } catch {
            throw CLIError.data("\(node ?? ""): the corners: \(error)")
        }
        let device = CalibratedDevice(description, sensor: sensor)
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
