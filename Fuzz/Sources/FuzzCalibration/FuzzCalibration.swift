import FuzzSupport
import TouchlineCalibration
import TouchlineCore
import TouchlineSettings

// What `touchline calibrate` and the evdev source read from strangers: a udev property's value
// (LIBINPUT_CALIBRATION_MATRIX), `--points` with and without `--screen`, and the fit of
// whatever points those give (paired with each other shifted by one, so that any numbers the
// parser lets through reach the fit and every text it writes): a value, an error with a
// reason, never a trap. The input is split at its first newline: the property, then the points.
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
    return 0
}
