// The udev property libinput calibrates a device from, read as libinput reads it, so that one
// udev rule (`touchline calibrate --udev-rule`) calibrates libinput, the compositor's view of
// Touchline's pass-through clone and Touchline's own evdev source alike (docs/calibrate.md).

public enum UdevCalibration {
    /// libinput's name for it (src/evdev.c, `evdev_read_calibration_prop`).
    public static let property = "LIBINPUT_CALIBRATION_MATRIX"

    /// The six numbers of `text` as libinput's `parse_calibration_property` takes them: words
    /// separated by spaces, the first six each a whole finite number (strtod in the C locale:
    /// no trailing characters), any after them ignored; nil where libinput ignores the property.
    public static func parse(_ text: String) -> [Double]? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 6 else { return nil }
        var numbers: [Double] = []
        for word in words.prefix(6) {
            // Double(_:) takes what strtod takes, less leading white space (split already) and
            // locale decimal commas (libinput forces the C locale too).
            guard word.utf8.count <= 64, let value = Double(word), value.isFinite else { return nil }
            // libinput keeps them as float: a value past float's range is infinite there.
            guard Float(value).isFinite else { return nil }
            numbers.append(value)
        }
        return numbers
    }
}
