import ArgumentParser
import TouchlineCore

/// Options every command that reads a trace shares.
struct InputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The evemu description (.desc) for a header-less .events file.",
        discussion: "Without it, a .desc beside the events file with the same base name is used (\"N-Trig MultiTouch.desc\" for \"N-Trig MultiTouch.2-fingers-touch-release.events\").",
        valueName: "file"))
    var desc: String?

    @Option(name: .long, help: ArgumentHelp(
        "The sensor size in mm, as WIDTHxHEIGHT (e.g. 217x135.6), for devices that report no resolution.",
        valueName: "WxH"))
    var size: String?

    @Option(name: .long, help: ArgumentHelp(
        "An axis range for a getevent trace, as AXIS=MIN:MAX (e.g. ABS_MT_POSITION_Y=0:1919); repeat it per axis.",
        discussion: "getevent -lt traces carry no ranges. Without a 'getevent -lp' header in the trace, Touchline guesses each axis from the first 4096 events: a position axis ends where at least two touches start or end and move inward, when a panel size (such as 1079 or 2219) lies within 1 % of it; otherwise 0 to the next power of two minus one above the values seen. It says so on stderr, and inspect says which; --range gives the real range (from 'adb shell getevent -lp'). It overrides the header too. AXIS is an ABS_ name or a hex code (0x35).",
        valueName: "AXIS=MIN:MAX"))
    var range: [String] = []

    func validate() throws {
        if let size, Self.parseSize(size) == nil {
            throw ValidationError("--size takes WIDTHxHEIGHT in millimetres, each between \(Int(Self.sizeRange.lowerBound)) and \(Int(Self.sizeRange.upperBound)) (for example 217x135.6); got '\(size)'.")
        }
        var seen: Set<UInt16> = []
        for text in range {
            switch Self.parseRange(text) {
            case .failure(let error):
                throw ValidationError(error.description)
            case .success(let (code, _)):
                guard seen.insert(code).inserted else {
                    throw ValidationError("--range gives \(EventCodes.codeName(type: EventCodes.EV_ABS, code: code) ?? String(code)) twice: expected one --range per axis.")
                }
            }
        }
    }

    /// The `--range` options by ABS code (valid after `validate`).
    var userRanges: [UInt16: AbsInfo] {
        var ranges: [UInt16: AbsInfo] = [:]
        for text in range {
            if case .success(let (code, info)) = Self.parseRange(text) { ranges[code] = info }
        }
        return ranges
    }

    /// "ABS_MT_POSITION_X=0:1079" (or "0x35=0:1079") as an ABS code and a range, or a message
    /// quoting what was given and saying what was expected.
    static func parseRange(_ text: String) -> Result<(UInt16, AbsInfo), RangeError> {
        let shown = text.count > 60 ? String(text.prefix(60)) + "…" : text
        let usage = "expected AXIS=MIN:MAX with AXIS an ABS_ name or a hex code (for example ABS_MT_POSITION_Y=0:1919)"
        guard let equals = text.firstIndex(of: "=") else { return .failure(RangeError("--range '\(shown)': no '=': \(usage)")) }
        let axis = String(text[..<equals])
        let code: UInt16
        if axis.lowercased().hasPrefix("0x"), let v = UInt16(axis.dropFirst(2), radix: 16) {
            code = v
        } else if let named = EventCodes.code(named: axis.uppercased()), named.type == EventCodes.EV_ABS {
            code = named.code
        } else {
            return .failure(RangeError("--range '\(shown)': '\(axis.count > 40 ? String(axis.prefix(40)) + "…" : axis)' is not an ABS axis: \(usage)"))
        }
        guard code <= (EventCodes.maxCode(type: EventCodes.EV_ABS) ?? 0x3f) else {
            return .failure(RangeError("--range '\(shown)': code \(axis) is past the last ABS code: \(usage)"))
        }
        let bounds = text[text.index(after: equals)...].split(separator: ":", omittingEmptySubsequences: false)
        guard bounds.count == 2, let lo = Int32(bounds[0]), let hi = Int32(bounds[1]) else {
            return .failure(RangeError("--range '\(shown)': '\(text[text.index(after: equals)...].prefix(40))' is not MIN:MAX (two whole numbers of 32 bits): \(usage)"))
        }
        guard lo < hi else {
            return .failure(RangeError("--range '\(shown)': MIN \(lo) is not below MAX \(hi): expected MIN < MAX"))
        }
        return .success((code, AbsInfo(minimum: lo, maximum: hi)))
    }

    struct RangeError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    var userSize: Size? { size.flatMap(Self.parseSize) }

    /// A touchscreen's side in mm, from a watch's to a wall's: 1e-308 gave a 0 × 0 surface
    /// (every position 0), 1e308 infinite ones.
    static let sizeRange = 1.0...10_000.0

    static func parseSize(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
              sizeRange ~= w, sizeRange ~= h else { return nil }
        return Size(width: w, height: h)
    }

    var assemblerOptions: FrameAssembler.Options { FrameAssembler.Options(userSize: userSize) }
}
