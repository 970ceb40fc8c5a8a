// `touchline play FILE`: a trace into a new uinput device in real time. This is how the
// end-to-end tests drive a real kernel; it also reproduces a user's bug report on a desk.
import ArgumentParser
import TouchlineCore
import TouchlineInput

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a trace into a new uinput device in real time.",
        discussion: """
            Creates a device with the trace's description (needs write access to /dev/uinput), \
            prints its node (/dev/input/eventN) on the first line of standard output, then writes \
            each SYN_REPORT frame in one write at its original offset from the first event. The \
            kernel stamps events with its own time and drops repeated axis values.
            """)

    @Argument(help: "A trace file (libinput record YAML, evemu, getevent -lt).")
    var file: String

    @OptionGroup var input: InputOptions

    @Option(help: "Inject into this existing event node instead of creating a uinput device.")
    var device: String?

    @Option(help: "Seconds between creating the device and the first frame, so readers can open it.")
    var startDelay: Double = 1.0

    @Option(help: "Seconds to keep the device after the last frame, so readers drain it before it goes.")
    var hold: Double = 0.5

    @Option(help: "Wait until this file exists before the start delay begins (a reader's --ready-file); repeatable.")
    var waitFor: [String] = []

    @Option(help: "Remove the device this many seconds after the first event (an unplug, maybe mid-gesture).")
    var unplugAt: Double?

    func validate() throws {
        // As the daemon's --start-delay: a day at most, so that seconds in microseconds never
        // leave Int64 (issue 24, item 11: on 8d7af8f `--start-delay 1e300` trapped, and NaN
        // passed the sign check).
        for (name, value) in [("--start-delay", startDelay), ("--hold", hold), ("--unplug-at", unplugAt)] {
            guard let value, !(Daemon.startDelayRange ~= value) else { continue }
            throw ValidationError("\(name) must be between 0 and \(Int(Daemon.startDelayRange.upperBound)) seconds (a day), found \(value)")
        }
        if device != nil && unplugAt != nil { throw ValidationError("--unplug-at needs a uinput device; drop --device") }
    }

    func run() throws {
        try reportingErrors { try play() }
    }

    func play() throws {
        var trace = try TraceFile.open(file, input: input)
        // One device per trace device (a libinput recording may hold several), or the node given.
        var writers: [(ArraySlice<InputEvent>) throws -> Void] = []
        var created: [UInputDevice] = []
        if let device {
            let injector = try EvdevInjector(path: device)
            writers = trace.devices.map { _ in { try injector.write($0) } }
            try FileOutput.standardOutput.write(device + "\n")
        } else {
            for description in trace.devices {
                let uinput = try UInputDevice(description: description)
                created.append(uinput)
                writers.append { try uinput.write($0) }
                try FileOutput.standardOutput.write(uinput.devnode + "\n")
            }
        }
        // A test handshake, not the hot path: each reader says it is ready by creating a file.
        for path in waitFor {
            while !fileExists(path) { RealTime.wait(until: RealTime.now() + .milliseconds(10)) }
        }
        let start = RealTime.now() + Interval(microseconds: Int64(startDelay * 1_000_000))
        let unplug = unplugAt.map { Interval(microseconds: Int64($0 * 1_000_000)) }
        var pending = Array(repeating: [InputEvent](), count: writers.count)
        var first: Timestamp?
        var lateness = Interval.zero
        var frameCount = 0
        defer {
            warn("played \(counted(frameCount, "frame")), the latest \(formatFixed(lateness.milliseconds, decimals: 1)) ms after its time")
        }
        var last = Interval.zero
        while let (index, event) = try trace.next() {
            // SYN_DROPPED in a recording describes the recording machine's buffer, not input.
            if event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_DROPPED { continue }
            pending[index].append(event)
            guard event.type == EventCodes.EV_SYN && event.code == EventCodes.SYN_REPORT else { continue }
            let origin = first ?? event.time
            first = origin
            // Time that runs backwards in a trace is clamped: the frame goes out at once.
            let offset = max(last, event.time - origin)
            last = offset
            if let unplug, offset > unplug { break }
            RealTime.wait(until: start + offset)
            try writers[index](pending[index][...])
            pending[index].removeAll(keepingCapacity: true)
            // How late the frame went out: a loaded machine (or an emulated one) stretches the
            // trace's timing, which moves velocities and time-based decisions.
            lateness = max(lateness, RealTime.now() - (start + offset))
            frameCount += 1
        }
        if let unplug, !created.isEmpty {
            RealTime.wait(until: start + unplug)
            for device in created { device.remove() }
            return
        }
        for (index, events) in pending.enumerated() where !events.isEmpty { try writers[index](events[...]) }
        RealTime.wait(until: RealTime.now() + Interval(microseconds: Int64(hold * 1_000_000)))
        withExtendedLifetime(created) {}
    }
}
