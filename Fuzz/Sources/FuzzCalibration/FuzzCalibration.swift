import FuzzSupport
import TouchlineCalibration
import TouchlineCore
import TouchlineSettings

// What `touchline calibrate` and the evdev source read from strangers: a udev property's value
// (LIBINPUT_CALIBRATION_MATRIX), `--points` with and without `--screen`, and the fit of
// whatever points those give (paired with each other shifted by one, so that any numbers the
// parser lets through reach the fit and every text it writes): a value, an error with a
// reason, never a trap. The input is split at its first newline: the property, then the points
// (also read as the page's answer and a guided prompt, and played to a page's run). Every line
// of the input is also read as `calibrate --daemon` reads the daemon's view lines (DaemonView),
// its frames played to the default graph on the device line's panel (FrameTouches).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz_support_begin(data, size)
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (property, points) = text.firstIndex(of: "\n").map { (String(text[..<$0]), String(text[text.index(after: $0)...])) } ?? (text, text)
    if let numbers = UdevCalibration.parse(property) {
        guard numbers.count == 6, numbers.allSatisfy(\.isFinite) else { fatalError("a property read as \(numbers)") }
    }
    let device = CalibratedDevice(name: property, vendor: 0x0eef, product: 1, xSpan: 4095, ySpan: 4095, sensor: Size(width: 300, height: 200))
    for screen in [nil, Size(width: 1920, height: 1080)] {
        switch CalibrationTargets.parse(points, screen: screen) {
        case .failure(let error):
            if error.description.isEmpty { fatalError("an error without a reason") }
        case .success(let targets):
            guard targets.allSatisfy({ (0...1).contains($0.x) && (0...1).contains($0.y) }) else { fatalError("a point off the screen: \(targets)") }
            let pairs = targets.indices.map { CalibrationPoint(touched: targets[$0], target: targets[($0 + 1) % targets.count]) }
            do {
                let fit = try Calibration.fit(pairs, sensor: device.sensor)
                if fit.residuals.count != pairs.count { fatalError("\(fit.residuals.count) residuals for \(pairs.count) points") }
                _ = fit.report(device, points: pairs, targets: [])
                _ = fit.udevRule(device) + fit.deviceSection(device) + fit.xinputCommand(device)
            } catch {
                if error.description.isEmpty { fatalError("an error without a reason") }
            }
        }
    }
    // The page's answer (a query a browser sends) and a guided label's prompt ("… at X,Y"); then
    // a page's run driven by that answer and the points as touches, each line written.
    let answer = CalibrationRun.Answer.parse(Substring(points))
    if let (_, p) = CalibrationTargets.aimedAt(points, screen: nil), !((0...1).contains(p.x) && (0...1).contains(p.y)) {
        fatalError("a prompt's point off the screen: \(p)")
    }
    if case .success(let touches) = CalibrationTargets.parse(points, screen: nil) {
        var run = CalibrationRun(targets: CalibrationLayout.points(4 + size % 6), sensor: device.sensor)
        for touch in touches {
            _ = run.answer(answer ?? .shown(run.current ?? 0))
            _ = run.answer(.shown(run.current ?? 0))
            _ = run.touch(touch)
            _ = run.line(device: device, done: CalibrationRun.Done(report: property, rule: property, section: "", xinput: "", written: nil))
        }
    }
    daemonLines(UnsafeBufferPointer(start: data, count: size))
    return 0
}

func daemonLines(_ bytes: UnsafeBufferPointer<UInt8>) {
    var finder: FrameTouches?
    var sensor = Size(width: 216, height: 135)
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        switch DaemonView.parse(Array(line)[...]) {
        case .failure(let error):
            if error.description.isEmpty { fatalError("an error without a reason") }
        case .success(.device(let index, let device)):
            guard index >= 0, let device else { continue }
            guard device.sensor.width > 0, device.sensor.height > 0, device.sensor.width.isFinite, device.sensor.height.isFinite else {
                fatalError("a panel of \(device.sensor)")
            }
            sensor = device.sensor
            finder = try? FrameTouches(sensor: sensor)
        case .success(.frame(_, let frame)):
            if finder == nil { finder = try? FrameTouches(sensor: sensor) }
            for p in finder?.feed(frame) ?? [] where !(p.x.isFinite && p.y.isFinite) { fatalError("a touch at \(p)") }
            if let deadline = finder?.nextDeadline { _ = finder?.advance(to: deadline) }
        case .success(.dropped(let n)):
            if n < 0 { fatalError("dropped \(n)") }
        case .success(.other):
            continue
        }
    }
}
