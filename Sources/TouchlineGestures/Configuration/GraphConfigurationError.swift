/// Why a graph configuration cannot run, found by `GraphConfiguration.validate()` before any
/// graph is built (`GestureGraph.init` throws it too: nothing is repaired silently).
///
/// The subject (a target or recognizer, by name and declaration index) and the key are fields,
/// so that a layer that knows where each declaration and key came from (the TOML reader) can
/// name the file and line; `message` is the whole sentence without a location.
public struct GraphConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which rule of docs/config.md#validation was broken.
    public enum Rule: String, Hashable, Sendable {
        /// No target, or more recognizers than a graph holds.
        case count
        /// A name that is empty, too long or holds a control character.
        case name
        /// Two targets or two recognizers with one name.
        case duplicate
        /// A target, `simultaneousWith` or `requiresFailureOf` naming nothing declared, or a
        /// recognizer naming itself in a relation.
        case reference
        /// A relation between recognizers of different targets (arenas are per target, so it
        /// could never apply).
        case crossTarget
        /// `requiresFailureOf` recognizers that wait for each other.
        case cycle
        /// A number outside its documented range (negative, zero where a positive is needed,
        /// NaN, infinite, absurdly large).
        case range
        /// A minimum above its maximum.
        case minimumAboveMaximum
        /// A consuming recognizer that cannot claim within its hold bound, so it would never
        /// keep a touch from a pass-through clone (docs/live.md#pass-through).
        case hold
    }

    /// What the problem is about.
    public struct Subject: Hashable, Sendable, CustomStringConvertible {
        public enum Kind: String, Hashable, Sendable {
            case graph, target, recognizer
        }
        public var kind: Kind
        /// The name as declared (verbatim; the message shortens it). Empty for the graph.
        public var name: String
        /// Index in `targets` or `recognizers`; for a duplicate, the second declaration. -1
        /// for the graph.
        public var index: Int

        public static let graph = Subject(kind: .graph, name: "", index: -1)
        public static func target(_ name: String, _ index: Int) -> Subject { Subject(kind: .target, name: name, index: index) }
        public static func recognizer(_ name: String, _ index: Int) -> Subject { Subject(kind: .recognizer, name: name, index: index) }

        public var description: String {
            kind == .graph ? "the graph" : "\(kind.rawValue) \(GraphConfigurationError.quoted(name))"
        }
    }

    public var rule: Rule
    public var subject: Subject
    /// The key at fault (`name`, `target`, `rect`, `requiresFailureOf`, a parameter such as
    /// `minimumFingers`…); nil when the problem is the declaration as a whole.
    public var key: String?
    /// For a relation between two keys (`minimumAboveMaximum`), the other one: a file that
    /// writes only this one is located there.
    public var relatedKey: String?
    /// One sentence: what is wrong and what was expected.
    public var message: String

    public init(_ rule: Rule, _ subject: Subject, key: String?, relatedKey: String? = nil, _ message: String) {
        self.rule = rule
        self.subject = subject
        self.key = key
        self.relatedKey = relatedKey
        self.message = message
    }

    public var description: String { message }

    /// Longest name shown whole in a message, in characters; longer names are cut.
    static let shownNameLength = 40

    /// A name as messages show it: quoted, control characters escaped (`\u{1B}`), cut after
    /// `shownNameLength` characters (with its length in bytes unless `length` is false), so
    /// that a hostile name can neither flood nor corrupt a terminal.
    public static func quoted(_ name: String, length: Bool = true) -> String {
        var shown = ""
        var count = 0
        for scalar in name.unicodeScalars {
            if count == shownNameLength {
                return length ? "'\(shown)…' (\(name.utf8.count) bytes)" : "'\(shown)…'"
            }
            if scalar.properties.generalCategory == .control {
                shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return "'\(shown)'"
    }
}
