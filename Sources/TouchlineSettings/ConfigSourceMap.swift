import TouchlineConfig
import TouchlineCore
import TouchlineGestures

// Where each part of a parsed configuration was written, so that a problem found after parsing
// (by GraphConfiguration's validation or GestureGraph.init) can still name file:line:column.

public typealias ConfigPosition = TOMLPosition

public struct ConfigSourceMap: Hashable, Sendable {
    /// One `[[target]]` or `[[recognizer]]` table.
    public struct Table: Hashable, Sendable {
        /// The name it was given (for a recognizer without one, its kind), as in the configuration.
        public var name: String
        /// Where the table starts: its `[[…]]` header or `{`.
        public var position: ConfigPosition
        /// Where each key of the table is written.
        public var keys: [String: ConfigPosition]

        /// The key's position, or the table's when the key is not written (a default applies).
        public func position(ofKey key: String) -> ConfigPosition { keys[key] ?? position }
    }

    public var file: String
    /// Declared targets in order; empty when the file declares none (the whole surface).
    public var targets: [Table] = []
    /// Declared recognizers in order; empty when the file declares none (the default graph).
    public var recognizers: [Table] = []
    /// `[defaults]` keys as "kind.parameter".
    public var defaults: [String: ConfigPosition] = [:]

    public init(file: String) { self.file = file }

    /// The first target declared with this name.
    public func target(named name: String) -> Table? { targets.first { $0.name == name } }
    /// The first recognizer declared with this name.
    public func recognizer(named name: String) -> Table? { recognizers.first { $0.name == name } }

    /// A settings file's TOML document (every reader of the file parses it alike): a file
    /// that is not TOML is a ConfigError at the place TouchlineConfig names.
    static func document(_ bytes: [UInt8], file: String) throws(ConfigError) -> TOMLDocument {
        do {
            return try TOMLDocument.parse(bytes, file: file)
        } catch {
            throw ConfigError(file: error.file, line: error.line, column: error.column, message: error.message)
        }
    }

    /// An error at a position of this file.
    public func error(at position: ConfigPosition, _ message: String) -> ConfigError {
        ConfigError(file: file, line: position.line, column: position.column, message: message)
    }
}

/// How much of a configuration file its reader hands to the parser: one byte past the TOML
/// reader's cap (`TOMLDocument.maximumBytes`), so that a larger file is refused with the line
/// where the cap falls, and no more of it is read (docs/config.md#size-limits).
public enum ConfigurationFile {
    public static let bytesToRead = TOMLDocument.maximumBytes + 1
}

/// A configuration with where each of its parts was written.
public struct ParsedConfiguration: Hashable, Sendable {
    public var configuration: GraphConfiguration
    public var source: ConfigSourceMap
}

/// A reader of configuration sections (the graph's, `[[action]]`, `[[device]]`): its errors
/// name the place in the file, and say what was found and what was expected, all one way.
protocol ConfigSectionReader {
    var source: ConfigSourceMap { get }
}

extension ConfigSectionReader {
    func fail(_ position: ConfigPosition, _ message: String) -> ConfigError { source.error(at: position, message) }

    /// Refuses a bare number (no unit) above 0 and below what anyone means in its parameter's
    /// unit: a slip for a larger unit, as a new user writes one. `timeout = 2` was a 2 ms
    /// action timeout and `minimumDuration = 0.8` made every tap a long press; `slop = 0.003`
    /// (metres) is 3 µm, `minimumVelocity = 0.1` (m/s) a swipe that never stops being one,
    /// `maximumAngle = 0.5` (radians) a swipe within half a degree of an axis, which no finger
    /// draws. The message gives the unit it was read in, the value with the larger unit that
    /// lands in the parameter's plausible range (when one does), and how to say the small
    /// value on purpose; a string with a unit ("5ms", "0.5mm") is taken as written
    /// (docs/config.md#units).
    func refuseUnitSlip(_ value: TOMLValue, _ key: String, _ unit: ParameterUnit) throws(ConfigError) {
        guard let slip = UnitSlip.of(unit) else { return }
        let number: Double
        switch value.kind {
        case let .integer(n): number = Double(n)
        case let .float(d): number = d
        default: return
        }
        guard number > 0 && number < slip.below else { return }
        let n = plain(number)
        let unit = slip.symbol
        var meant = ""
        if let larger = slip.larger.first(where: { slip.plausible ~= number * $0.factor }) {
            meant = "\"\(n)\(larger.symbol)\" for \(n) \(larger.symbol) (\(plain(((number * larger.factor) * 1000).rounded() / 1000)) \(unit)), or "
        }
        throw fail(value.position, "\(key) = \(n) is read in \(slip.name): \(n) \(unit), too \(slip.adjective) to be meant; write \(meant)\"\(n)\(unit)\" if \(n) \(unit) is meant (a bare number is \(slip.name), docs/config.md#units)")
    }

    /// A number as a person writes it: whole ones without ".0".
    func plain(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d) }

    /// "found X for KEY; expected Y" at the value.
    func wrong(_ value: TOMLValue, _ key: String, _ expected: String) -> ConfigError {
        fail(value.position, "found \(value.found) for \(key); expected \(expected)")
    }
}

/// Per unit, what a bare number below which is a slip for a larger unit (docs/config.md#units).
struct UnitSlip {
    /// A bare number above 0 and below this is refused.
    var below: Double
    var name: String
    var symbol: String
    /// "too short", "too slow", "too small".
    var adjective: String
    /// The units it was probably meant in, the likelier first, each with its factor to this one.
    var larger: [(symbol: String, factor: Double)]
    /// Where a value meant in a larger unit lands for it to be offered: the parameters' range.
    var plausible: ClosedRange<Double>

    static func of(_ unit: ParameterUnit) -> UnitSlip? {
        switch unit {
        // Under 10 ms is shorter than a frame of most touchscreens (100 to 120 Hz): no
        // timing of a gesture or an action can be meant that short.
        case .milliseconds:
            UnitSlip(below: 10, name: "milliseconds", symbol: "ms", adjective: "short",
                     larger: [("s", 1000)], plausible: 10...GraphConfiguration.Limits.longestDuration.milliseconds)
        // Under 1 mm is below a finger's jitter on glass and a tenth of its contact's width:
        // no slop, distance or margin is meant that short. 0.3 is probably centimetres, 0.003
        // metres.
        case .millimetres:
            UnitSlip(below: 1, name: "millimetres", symbol: "mm", adjective: "short",
                     larger: [("cm", 10), ("m", 1000)], plausible: 1...GraphConfiguration.Limits.longestDistance)
        // Under 1 mm/s is a finger that takes ten seconds for a centimetre: resting, not
        // moving. 0.1 is probably metres per second (100 mm/s, the shipped swipe's).
        case .millimetresPerSecond:
            UnitSlip(below: 1, name: "millimetres per second", symbol: "mm/s", adjective: "slow",
                     larger: [("m/s", 1000), ("cm/s", 10)], plausible: 10...GraphConfiguration.Limits.highestSpeed)
        // Under 2° is within the wobble of two fingers a few centimetres apart (0.5 mm of
        // jitter each): no swipe stays that close to an axis and no rotation that small is a
        // turn. Every angle from 0.035 to 2 radians (2° to 115°) is read as a slip.
        case .degrees:
            UnitSlip(below: 2, name: "degrees", symbol: "deg", adjective: "small",
                     larger: [("rad", 180 / GestureMath.pi)], plausible: 2...GraphConfiguration.Limits.widestRotateAngle)
        case .count, .flag, .normalized, .word, .words:
            nil
        }
    }
}
