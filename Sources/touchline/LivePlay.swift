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

    @Argument(help: "The trace (evemu; a header-less .events file uses the .desc beside it).")
    var file: String

    @Option(help: "Inject into this existing event node instead of creating a uinput device.")
    var device: String?

    @Option(help: "Seconds between creating the device and the first frame, so readers can open it.")
    var startDelay: Double = 1.0

    @Option(help: "Seconds to keep the device after the last frame, so readers drain it before it goes.")
    var hold: Double = 0.5

    @Option(help: "Wait until this file exists before the start delay begins (a reader's --ready-file).")
    var waitFor: String?

    @Option(help: "Remove the device this many seconds after the first event (an unplug, maybe mid-gesture).")
    var unplugAt: Double?

    func validate() throws {
        if startDelay < 0 || hold < 0 { throw ValidationError("--start-delay and --hold must not be negative") }
        if let u = unplugAt, u < 0 { throw ValidationError("--unplug-at must not be negative") }
        if device != nil && unplugAt != nil { throw ValidationError("--unplug-at needs a uinput device; drop --device") }
    }

    func run() throws {
        let trace = try EvemuFallbackReader.read(path: file)
        let frames = Play.frames(of: trace.events)
        let write: (ArraySlice<InputEvent>) throws -> Void
        var uinput: UInputDevice?
        if let device {
            let injector = try EvdevInjector(path: device)
            write = { try injector.write($0) }
            try FileOutput.standardOutput.write(device + "\n")
        } else {
            let created = try UInputDevice(description: trace.device)
            uinput = created
            write = { try created.write($0) }
            try FileOutput.standardOutput.write(created.devnode + "\n")
        }
        guard let first = trace.events.first else { return }
        if let waitFor {
            // A test handshake, not the hot path: the reader says it is ready by creating a file.
            while !fileExists(waitFor) { RealTime.wait(until: RealTime.now() + .milliseconds(10)) }
        }
        let start = RealTime.now() + Interval(microseconds: Int64(startDelay * 1_000_000))
        let unplug = unplugAt.map { Interval(microseconds: Int64($0 * 1_000_000)) }
        var last = Interval.zero
        for frame in frames {
            // Time that runs backwards in a trace is clamped: the frame goes out at once.
            let offset = max(last, frame.time - first.time)
            last = offset
            if let unplug, offset > unplug { break }
            RealTime.wait(until: start + offset)
            try write(frame.events)
        }
        if let unplug, let uinput {
            RealTime.wait(until: start + unplug)
            uinput.remove()
            return
        }
        RealTime.wait(until: RealTime.now() + Interval(microseconds: Int64(hold * 1_000_000)))
        _ = uinput
    }

    struct Frame {
        var time: Timestamp
        var events: ArraySlice<InputEvent>
    }

    /// Splits events into frames ending at SYN_REPORT; SYN_DROPPED markers of the recording
    /// are left out (they describe the recording machine's buffer, not input).
    static func frames(of events: [InputEvent]) -> [Frame] {
        let kept = events.filter { !($0.type == EventCodes.EV_SYN && $0.code == EventCodes.SYN_DROPPED) }
        var frames: [Frame] = []
        var start = 0
        for (i, e) in kept.enumerated() where e.type == EventCodes.EV_SYN && e.code == EventCodes.SYN_REPORT {
            frames.append(Frame(time: e.time, events: kept[start...i]))
            start = i + 1
        }
        if start < kept.count, let t = kept.last?.time { frames.append(Frame(time: t, events: kept[start...])) }
        return frames
    }
}
