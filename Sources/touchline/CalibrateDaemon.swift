// `touchline calibrate --daemon` (docs/calibrate.md#from-a-running-daemon): the daemon's socket
// as calibrate's touchscreen. Subscribed with "view", it gets each device's line (what the
// device says of itself: name, ids, axis ranges, panel) and every frame with the positions as
// the device reported them; TouchlineCalibration reads both (DaemonView) and finds the touches
// as on the device itself. Time between frames is this process's clock, from the last frame's
// time: a tap is told once the double tap's wait is over, as on the device.
import TouchlineCalibration
import TouchlineCore
import TouchlineInput
import TouchlineLive

final class DaemonTouchFeed {
    let path: String
    let connection: SocketConnection
    let readiness: ReadinessSet
    /// The device asked for (--device), or nil: the first the daemon describes.
    let wanted: Int?
    private(set) var device: (index: Int, calibrated: CalibratedDevice)?
    private var finder: FrameTouches?
    /// The last frame's time and when it came (this clock, ns): how far time has moved since.
    private var lastFrame: (time: Timestamp, at: Int64)?
    private var pending: [UInt8] = []
    private var replied = false
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Frames the daemon dropped for this client, said once.
    private var warnedDrops = false

    init(socket path: String, device wanted: Int?) throws {
        self.path = path
        self.wanted = wanted
        // The readiness set first: once the connection is made every stored property is set,
        // so a throw after it runs `deinit`, which closes the connection (closing it here as
        // well closed it twice).
        do { readiness = try ReadinessSet() } catch { throw CLIError.io("\(path): cannot subscribe: \(error.message)") }
        connection = try Listen.connect(path)
        do {
            try readiness.set(connection.fd, token: 0, input: true, output: false, added: true)
            try connection.send(DaemonView.subscription(device: wanted))
        } catch {
            throw CLIError.io("\(path): cannot subscribe: \(error.message)")
        }
    }

    deinit { connection.close() }

    /// The device's line: the one asked for, or the first. A daemon that does not describe its
    /// device (older than calibrate --daemon) is refused here, with why.
    func waitForDevice() throws -> CalibratedDevice {
        var said = false
        while device == nil {
            guard try touches(within: 1000) != nil else {
                throw CLIError.data("\(path): the daemon closed the connection before describing a touchscreen")
            }
            // Not silent: a daemon with no touchscreen yet, or no device of that number, keeps
            // this waiting (a touchscreen plugged in later is described when it opens).
            if device == nil && !said {
                said = true
                StandardError.write("touchline calibrate: waiting for the daemon to describe \(wanted.map { "its device \($0)" } ?? "a touchscreen") (Ctrl-C to stop)\n")
            }
        }
        return device!.calibrated
    }

    /// The touches (normalized device coordinates) that arrive or come due within
    /// `milliseconds`; nil once the daemon closed the connection.
    func touches(within milliseconds: Int32) throws -> [Point]? {
        var found: [Point] = []
        var wait = milliseconds
        // A tap waiting out its double tap is due at its deadline: wake for it.
        if let deadline = finder?.nextDeadline, let last = lastFrame {
            let due = (deadline.microseconds - last.time.microseconds) - (MonotonicNanoseconds.now() - last.at) / 1000
            wait = Int32(clamping: max(0, min(Int64(wait), due / 1000 + 1)))
        }
        let ready: Bool
        do {
            ready = try !readiness.ready(timeout: wait).isEmpty
        } catch {
            throw CLIError.io("\(path): cannot wait for the daemon: \(error.message)")
        }
        if ready {
            let n: Int
            do {
                n = try connection.receive(into: &buffer)
            } catch {
                throw CLIError.io("\(path): cannot read: \(error.message)")
            }
            if n == 0 { return nil }
            pending.append(contentsOf: buffer[0..<n])
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = pending[..<newline]
                try read(line, into: &found)
                pending.removeSubrange(...newline)
            }
            if pending.count > DaemonView.maximumLineBytes {
                throw CLIError.data("\(path): a line of more than \(DaemonView.maximumLineBytes) bytes from the daemon")
            }
        }
        if let last = lastFrame, let deadline = finder?.nextDeadline {
            let now = Timestamp(microseconds: last.time.microseconds + (MonotonicNanoseconds.now() - last.at) / 1000)
            // In place, as a frame is (no copy of the graph).
            if deadline <= now { found += finder!.advance(to: deadline).map(normalized) }
        }
        return found
    }

    private func normalized(_ p: Point) -> Point {
        let sensor = device!.calibrated.sensor
        return Point(x: p.x / sensor.width, y: p.y / sensor.height)
    }

    private func read(_ line: ArraySlice<UInt8>, into found: inout [Point]) throws {
        if !replied {
            // The daemon's reply to the subscription.
            replied = true
            if line.starts(with: Array("{\"error\"".utf8)) {
                throw CLIError.usage("\(path): the daemon refused the view subscription (is it older than calibrate --daemon?): \(String(decoding: line.prefix(300), as: UTF8.self))")
            }
            return
        }
        switch DaemonView.parse(line) {
        case .failure(let error):
            throw CLIError.data("\(path): a line from the daemon: \(error)")
        case .success(.device(let index, let calibrated)):
            guard device == nil || device?.index == index, wanted == nil || wanted == index else { return }
            guard let calibrated else {
                throw CLIError.data("\(path): device \(index)'s line has no \"native\" (the device's name, ids and axes): the daemon is older than calibrate --daemon")
            }
            if device == nil {
                StandardError.write("touchline calibrate: device \(index) of the daemon, \(calibrated.name) (panel \(calibrated.sensor))\(wanted == nil ? "; --device N for another" : "")\n")
            }
            if device?.calibrated != calibrated {
                do {
                    finder = try FrameTouches(sensor: calibrated.sensor)
                } catch {
                    throw CLIError.data("\(path): \(error)")
                }
            }
            device = (index, calibrated)
        case .success(.frame(let index, let frame)):
            // In place: a copy of `finder` (a `var` bound from it) shared the graph's storage
            // with the property, so each frame copied the whole graph before changing it.
            guard index == device?.index, finder != nil else { return }
            lastFrame = (frame.time, MonotonicNanoseconds.now())
            found += finder!.feed(frame).map(normalized)
        case .success(.dropped(let n)):
            if !warnedDrops && n > 0 {
                warnedDrops = true
                warn("\(path): the daemon dropped \(counted(n, "line")) for this client (it read too slowly): a touch may be missed; touch it again")
            }
        case .success(.other):
            return
        }
    }
}
