import TouchlineConfig
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

    /// Refuses a bare number of milliseconds (no unit) from 0 to 10 ms, exclusive: durations
    /// that short are slips for seconds (`timeout = 2` was a 2 ms action timeout,
    /// `minimumDuration = 0.8` made every tap a long press). The message gives the unit it was
    /// read in and the two ways to say what was meant; a string with a unit ("5ms") is taken
    /// as written.
    func refuseSlipForSeconds(_ value: TOMLValue, _ key: String) throws(ConfigError) {
        let ms: Double
        switch value.kind {
        case let .integer(n): ms = Double(n)
        case let .float(d): ms = d
        default: return
        }
        guard ms > 0 && ms < 10 else { return }
        func shown(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d) }
        let n = shown(ms)
        throw fail(value.position, "\(key) = \(n) is read in milliseconds: \(n) ms, too short to be meant; write \"\(n)s\" for \(n) s (\(shown(ms * 1000)) ms), or \"\(n)ms\" if \(n) ms is meant (a bare number is milliseconds, docs/config.md#units)")
    }

    /// "found X for KEY; expected Y" at the value.
    func wrong(_ value: TOMLValue, _ key: String, _ expected: String) -> ConfigError {
        fail(value.position, "found \(value.found) for \(key); expected \(expected)")
    }
}
