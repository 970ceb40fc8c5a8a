// What a device description may get wrong, and what the frame assembler does instead
// (docs/frame-assembly.md, "Device descriptions"): each repair comes with a warning, so nothing
// is believed silently and nothing crashes.

extension DeviceDescription {
    /// The absinfo the frame assembler uses, after the documented fallbacks, with a warning per
    /// fallback taken:
    /// - an axis described twice: the last description (the readers keep it);
    /// - any axis with minimum > maximum: the two swapped (the values lie between them either
    ///   way);
    /// - a position axis of zero width (minimum = maximum): the other position axis's range and
    ///   resolution (a square sensor), or nothing better when both are degenerate;
    /// - a pressure axis of zero width: pressure is ignored.
    public func checkedAbsinfo() -> (absinfo: [UInt16: AbsInfo], warnings: [String]) {
        var axes = absinfo
        var warnings: [String] = []
        func name(_ code: UInt16) -> String { EventCodes.codeName(type: EventCodes.EV_ABS, code: code) ?? "ABS axis \(code)" }

        var reported = Set<UInt16>()
        for code in duplicateAbsinfo where reported.insert(code).inserted {
            let a = absinfo[code].map { "\($0.minimum)..\($0.maximum)" } ?? "?"
            warnings.append("\(name(code)) is described more than once; using the last description (\(a))")
        }
        for code in axes.keys.sorted() {
            guard var a = axes[code], a.minimum > a.maximum else { continue }
            warnings.append("\(name(code)) has minimum \(a.minimum) > maximum \(a.maximum); reading it as \(a.maximum)..\(a.minimum)")
            swap(&a.minimum, &a.maximum)
            axes[code] = a
        }
        for (x, y) in [(EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y), (EventCodes.ABS_X, EventCodes.ABS_Y)] {
            guard let ax = axes[x], let ay = axes[y] else { continue }
            switch (ax.minimum == ax.maximum, ay.minimum == ay.maximum) {
            case (true, true):
                warnings.append("\(name(x)) and \(name(y)) both have zero width (\(ax.minimum)..\(ax.maximum), \(ay.minimum)..\(ay.maximum)); positions cannot be placed on the sensor")
            case (true, false):
                warnings.append("\(name(x)) has zero width (\(ax.minimum)..\(ax.maximum)); assuming it spans what \(name(y)) does (\(ay.minimum)..\(ay.maximum))")
                axes[x] = AbsInfo(minimum: ay.minimum, maximum: ay.maximum, fuzz: ax.fuzz, flat: ax.flat, resolution: ay.resolution, value: ax.value)
            case (false, true):
                warnings.append("\(name(y)) has zero width (\(ay.minimum)..\(ay.maximum)); assuming it spans what \(name(x)) does (\(ax.minimum)..\(ax.maximum))")
                axes[y] = AbsInfo(minimum: ax.minimum, maximum: ax.maximum, fuzz: ay.fuzz, flat: ay.flat, resolution: ax.resolution, value: ay.value)
            case (false, false): break
            }
        }
        for code in [EventCodes.ABS_MT_PRESSURE, EventCodes.ABS_PRESSURE] {
            if let p = axes[code], p.minimum == p.maximum, has(type: EventCodes.EV_ABS, code: code) || absinfo[code] != nil {
                warnings.append("\(name(code)) has zero width (\(p.minimum)..\(p.maximum)); pressure is ignored")
            }
        }
        return (axes, warnings)
    }
}
