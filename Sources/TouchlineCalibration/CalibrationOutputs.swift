import TouchlineCore
import TouchlineGestures

// What a calibration is written as: the udev rule that gives libinput (and Touchline's evdev
// source) the matrix, the `[[device]]` section of Touchline's own configuration, the `xinput`
// command of an X11 session, and the report a person reads. Text only: the executable writes
// it where it is asked to. The same calibration gives the same bytes.

/// The device a calibration is for: what the udev rule matches it on and what its axes are.
public struct CalibratedDevice: Hashable, Sendable {
    /// As the kernel reports it (EVIOCGNAME); Touchline's pass-through clone keeps it.
    public var name: String
    public var vendor: UInt16
    public var product: UInt16
    /// max − min of each axis, in device units (libinput normalizes over one unit more).
    public var xSpan: Double
    public var ySpan: Double
    /// The panel's size in mm (native axes).
    public var sensor: Size

    public init(name: String, vendor: UInt16, product: UInt16, xSpan: Double, ySpan: Double, sensor: Size) {
        (self.name, self.vendor, self.product, self.xSpan, self.ySpan, self.sensor) = (name, vendor, product, xSpan, ySpan, sensor)
    }

    public init(_ description: DeviceDescription, sensor: Size) {
        self.init(name: description.name, vendor: description.vendor, product: description.product,
                  xSpan: description.xAxis?.span ?? 0, ySpan: description.yAxis?.span ?? 0, sensor: sensor)
    }

    var ids: String { "vendor 0x\(hex4(vendor)), product 0x\(hex4(product))" }
}

func hex4(_ value: UInt16) -> String {
    let digits = Array("0123456789abcdef")
    return String((0..<4).reversed().map { digits[Int(value >> UInt16($0 * 4)) & 0xf] })
}

extension Calibration {
    /// The matrix libinput takes for this device (LIBINPUT_CALIBRATION_MATRIX, "libinput
    /// Calibration Matrix"): `map` on libinput's normalization of the axes.
    public func libinputMap(_ device: CalibratedDevice) -> AffineMap { map.onLibinputAxes(xSpan: device.xSpan, ySpan: device.ySpan) }

    /// The udev rules file: one rule, on the event node of every input device with this name,
    /// vendor and product (the device, and Touchline's pass-through clone of it), setting
    /// LIBINPUT_CALIBRATION_MATRIX; the comments say how to install and apply it.
    public func udevRule(_ device: CalibratedDevice, installedAs path: String = "/etc/udev/rules.d/99-touchline-calibration.rules") -> String {
        """
        # \(Self.commentSafe(device.name)) (\(device.ids)): \(orientation), \(residualSummary)
        # Written by `touchline calibrate` (docs/calibrate.md). It sets libinput's calibration for
        # this device and for Touchline's pass-through clone of it (which keeps name and ids);
        # Touchline's evdev source reads the same property.
        # Install and apply:
        #   sudo install -m 644 THIS_FILE \(path)
        #   sudo udevadm control --reload
        #   sudo udevadm trigger --subsystem-match=input --action=change
        # libinput reads the property when it opens the device: restart the compositor (or
        # unplug and plug the device in) after the trigger.
        ACTION=="add|change", SUBSYSTEM=="input", KERNEL=="event*", ATTRS{id/vendor}=="\(hex4(device.vendor))", \
        ATTRS{id/product}=="\(hex4(device.product))", ATTRS{name}=="\(Self.udevPattern(device.name))", \
        ENV{LIBINPUT_CALIBRATION_MATRIX}="\(libinputMap(device).formatted())"

        """
    }

    /// The `[[device]]` section for Touchline's configuration: the orientation's swap as a
    /// `rotation` (so that the graph's surface has the screen's shape) and the rest as the
    /// `calibration` applied before it; together they are `map` (DeviceTransform).
    public func deviceSection(_ device: CalibratedDevice) -> String {
        let (rotation, calibration) = deviceSettings
        return """
            [[device]]
            match.name = \(Self.tomlString(device.name))
            rotation = \(rotation.rawValue)
            calibration = [\(calibration.formatted(separator: ", "))]

            """
    }

    /// `map` as a `[[device]]` rotation and the calibration applied before it.
    public var deviceSettings: (rotation: Rotation, calibration: AffineMap) {
        let rotation = orientation.rotation
        let turn: Orientation
        switch rotation {
        case .none: turn = .normal
        case .quarter: turn = .rotated90
        case .half: turn = .rotated180
        case .threeQuarters: turn = .rotated270
        }
        return (rotation, turn.map.inverse!.after(map))
    }

    /// The X11 command: the X server's "Coordinate Transformation Matrix" (3×3, row-major) is
    /// applied to the device's coordinates normalized as Touchline's are, and its output is
    /// normalized over the whole X screen (every monitor): so it is `map` when the touchscreen's
    /// monitor is the whole X screen, and `map` after the monitor's placement otherwise
    /// (docs/calibrate.md). Not together with the udev rule under xf86-input-libinput, which
    /// applies that one already.
    public func xinputCommand(_ device: CalibratedDevice) -> String {
        "xinput set-prop \(Self.shellQuoted(device.name)) --type=float \"Coordinate Transformation Matrix\" \(map.formatted()) 0 0 1"
    }

    /// "worst 0.8 mm over 9 points"
    var residualSummary: String {
        let fitted = residuals.count - (outlier == nil ? 0 : 1)
        return "worst \(formatFixed(residuals.isEmpty ? 0 : residuals[worst], decimals: 1)) mm over \(fitted) points"
    }

    /// What was found, in words: orientation, then scale, offset and skew when they matter.
    public var findings: String {
        var parts = ["\(orientation)"]
        if abs(scale.x - 1) > 0.005 || abs(scale.y - 1) > 0.005 {
            parts.append("scaled \(formatFixed(scale.x, decimals: 3)) × \(formatFixed(scale.y, decimals: 3)) (x × y)")
        }
        if abs(offset.x) >= 0.5 || abs(offset.y) >= 0.5 {
            parts.append("offset \(Self.signed(offset.x)) mm, \(Self.signed(offset.y)) mm (x, y)")
        }
        if skew > 0.01 { parts.append("skewed \(formatFixed(skew * 100, decimals: 1))%") }
        return parts.joined(separator: ", ")
    }

    /// The report: per point, the worst, an outlier, what was found and the matrices.
    /// `targets` names each point as given (pixels or normalized).
    public func report(_ device: CalibratedDevice, points: [CalibrationPoint], targets: [String]) -> String {
        var lines: [String] = []
        lines.append("device: \(device.name) (\(device.ids)), panel \(device.sensor)")
        for (i, p) in points.enumerated() {
            let target = i < targets.count ? targets[i] : "\(formatFixed(p.target.x, decimals: 3)),\(formatFixed(p.target.y, decimals: 3))"
            var line = "point \(i + 1): aimed at \(target), touched \(formatFixed(p.touched.x, decimals: 4)),\(formatFixed(p.touched.y, decimals: 4)) "
                + "(normalized), off by \(formatFixed(residuals[i], decimals: 1)) mm"
            if i == outlier { line += ": far off the others, left out" }
            lines.append(line)
        }
        lines.append("worst: \(formatFixed(residuals.isEmpty ? 0 : residuals[worst], decimals: 1)) mm at point \(worst + 1) (tolerance \(formatFixed(tolerance, decimals: 1)) mm)")
        if let outlier {
            lines.append("outlier: point \(outlier + 1) is \(formatFixed(residuals[outlier], decimals: 1)) mm off the fit of the others: left out; touch it again")
        }
        if !agrees {
            lines.append("disagree: the points are more than \(formatFixed(tolerance, decimals: 1)) mm off any one fit: touch them again"
                + (points.count < 5 ? " (with fewer than 5 points one far off cannot be told from the others)" : ""))
        }
        lines.append("found: \(findings); the screen spans \(screen) of the panel")
        lines.append("matrix: \(libinputMap(device).formatted()) (LIBINPUT_CALIBRATION_MATRIX, libinput's normalization)")
        lines.append("touchline: \(map.formatted()) (a [[device]] calibration and X11's matrix, normalized over max − min)")
        return lines.joined(separator: "\n") + "\n"
    }

    static func signed(_ value: Double) -> String {
        let text = formatFixed(value, decimals: 1)
        return text.hasPrefix("-") ? text : "+" + text
    }

    /// A udev match pattern that matches `name` and nothing unlike it: udev's glob characters
    /// and `|` (its alternatives), a quote or backslash, and control characters become `?`,
    /// which matches any one character.
    static func udevPattern(_ name: String) -> String {
        var out = ""
        for s in name.unicodeScalars {
            let special = "*?[]|\"\\".unicodeScalars.contains(s) || s.value < 0x20 || s.value == 0x7f
            out.unicodeScalars.append(special ? "?" : s)
        }
        return out
    }

    /// A TOML basic string.
    static func tomlString(_ text: String) -> String {
        var out = "\""
        for s in text.unicodeScalars {
            switch s {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if s.value < 0x20 || s.value == 0x7f {
                    out += "\\u00" + String(hex4(UInt16(s.value)).suffix(2))
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out + "\""
    }

    /// A POSIX shell word: single quotes, a quote inside as '\''.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// A comment line cannot hold a newline.
    static func commentSafe(_ text: String) -> String {
        var out = ""
        for s in text.unicodeScalars { out.unicodeScalars.append(s.value < 0x20 || s.value == 0x7f ? "?" : s) }
        return out
    }
}
