// The document tree a TOML file reads into. Every key and value keeps its position, so that a
// problem found after reading (a configuration key out of range) still names its line.

public struct TOMLDate: Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }
    public var description: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }

    /// Days from 1970-01-01 (proleptic Gregorian), for comparing instants.
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

public struct TOMLTime: Hashable, Sendable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int
    /// 0…60 (60 is a leap second, which RFC 3339 allows).
    public var second: Int
    /// Digits past nanoseconds are cut off, as TOML 1.0 allows.
    public var nanosecond: Int
    public init(hour: Int, minute: Int, second: Int, nanosecond: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
    }
    public var description: String {
        var s = pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        if nanosecond != 0 {
            var fraction = pad(nanosecond, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            s += "." + fraction
        }
        return s
    }
    var secondsOfDay: Int { hour * 3600 + minute * 60 + second }
}

private func pad(_ n: Int, _ width: Int) -> String {
    let digits = String(n)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// A value with where it starts, and for scalars the text the file holds for it (shortened when
/// long), so that a message can quote it verbatim.
public struct TOMLValue: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case string(String)
        case integer(Int64)
        case float(Double)
        case bool(Bool)
        // Dates and times are boxed (`indirect`): inline, the offset date-time's eight words
        // made every value of every kind 104 bytes, where a configuration's values are numbers
        // and strings and a date is rare (docs/config.md#size-limits).
        /// Date and time with an offset from UTC in minutes.
        indirect case offsetDateTime(TOMLDate, TOMLTime, offsetMinutes: Int)
        indirect case localDateTime(TOMLDate, TOMLTime)
        indirect case localDate(TOMLDate)
        indirect case localTime(TOMLTime)
        case array([TOMLValue])
        case table(TOMLTable)
    }
    public var kind: Kind
    public var position: TOMLPosition
    /// The source text of a scalar ("0x2A", "'it'", "1979-05-27"), shortened; "" for arrays
    /// and tables.
    public var source: String

    public init(kind: Kind, position: TOMLPosition, source: String = "") {
        self.kind = kind
        self.position = position
        self.source = source
    }

    public var typeName: String {
        switch kind {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .bool: return "a boolean"
        case .offsetDateTime: return "a date-time"
        case .localDateTime: return "a local date-time"
        case .localDate: return "a date"
        case .localTime: return "a time"
        case .array: return "an array"
        case .table: return "a table"
        }
    }

    /// What "found …" says: the scalar's source text, or the kind of container.
    public var found: String {
        switch kind {
        case .array, .table: return typeName
        default: return source
        }
    }

    public var table: TOMLTable? {
        if case let .table(t) = kind { return t }
        return nil
    }
}

/// One key of a table with the value it holds.
public struct TOMLEntry: Hashable, Sendable {
    /// The decoded key (quotes removed, escapes resolved); one part of a dotted key.
    public var key: String
    /// Where the key is first written (for a table made by a header, in the header).
    public var keyPosition: TOMLPosition
    public var value: TOMLValue

    public init(key: String, keyPosition: TOMLPosition, value: TOMLValue) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}

/// A table's entries in the order of their first appearance, with lookup by key.
public struct TOMLTable: Hashable, Sendable {
    public private(set) var entries: [TOMLEntry] = []
    private var index: [String: Int] = [:]

    public init() {}

    /// A table built from another notation (the event socket's JSON objects, whose keys are distinct).
    public init(entries: [TOMLEntry]) {
        for entry in entries { append(entry) }
    }

    /// The reader's own: entries with the index it kept while reading them (the same keys at
    /// the same offsets), moved rather than built again.
    init(entries: [TOMLEntry], index: [String: Int]) {
        self.entries = entries
        self.index = index
    }

    public subscript(key: String) -> TOMLEntry? {
        guard let k = index[key] else { return nil }
        return entries[k]
    }

    public var isEmpty: Bool { entries.isEmpty }

    mutating func append(_ entry: TOMLEntry) {
        index[entry.key] = entries.count
        entries.append(entry)
    }

    public static func == (a: TOMLTable, b: TOMLTable) -> Bool { a.entries == b.entries }
    public func hash(into hasher: inout Hasher) { hasher.combine(entries) }
}

/// A parsed TOML document.
public struct TOMLDocument: Hashable, Sendable {
    public var root: TOMLTable

    /// Deepest nesting of tables and arrays (headers, dotted keys and inline values all count):
    /// bounds the reader's recursion, so that a hostile file cannot overflow the stack. toml-test
    /// suggests 128 to 256; configurations need 4.
    public static let maximumDepth = 128

    /// Largest file read, in bytes. A touch configuration is a few KiB (the example that
    /// documents every key, packaging/daemon.toml, is 5 KiB): 256 KiB is fifty of those, and
    /// it bounds what strings and comments can cost (docs/config.md#size-limits).
    public static let maximumBytes = 256 * 1024

    /// Most keys and array elements in one file (every key of every table, implicit tables
    /// included, and every element of every array). Each costs about a hundred bytes while the
    /// file is read, however short its text (`1,` is two bytes): 16,384 keep a hostile file's
    /// tree to a few MB, where a real configuration (64 recognizers of a dozen keys, a hundred
    /// targets and actions) holds a few thousand (docs/config.md#size-limits).
    public static let maximumValues = 16_384

    /// Reads TOML 1.0 from raw bytes (a UTF-8 BOM at the start is skipped).
    public static func parse(_ bytes: [UInt8], file: String) throws(TOMLError) -> TOMLDocument {
        var parser = TOMLParser(bytes: bytes, file: file)
        return TOMLDocument(root: try parser.parseDocument())
    }

    public static func parse(_ text: String, file: String) throws(TOMLError) -> TOMLDocument {
        try parse(Array(text.utf8), file: file)
    }
}
