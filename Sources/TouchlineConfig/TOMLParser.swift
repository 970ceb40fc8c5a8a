// The structural layer of the TOML reader: key/value pairs, table headers, arrays, inline
// tables, and the rules on what may be defined where. Tables and arrays live in flat arenas
// addressed by index while the file is read, so that headers and dotted keys reach any depth
// without recursion, and a table's origin (header, dotted key, inline) can be checked; the
// public tree is built once at the end, at most `TOMLDocument.maximumDepth` deep.

struct TOMLParser {
    private enum Slot {
        case scalar(TOMLValue)
        case table(Int)
        case array(Int)
    }

    /// How a table came to be, which decides what may still add to it.
    private enum Origin {
        case root
        /// Named on the way to a deeper header (`a` in `[a.b]`); a later `[a]` may define it.
        case implicit
        /// Defined by a `[header]` or as an element of `[[header]]`.
        case header
        /// Made by a dotted key (`a` in `a.b = 1`).
        case dotted
        /// `{ … }`: complete as written.
        case inline
    }

    private struct Entry {
        var key: String
        var keyPosition: TOMLPosition
        var slot: Slot
    }

    private struct Table {
        var origin: Origin
        var position: TOMLPosition
        var depth: Int
        var entries: [Entry] = []
        var index: [String: Int] = [:]
    }

    private struct ArrayNode {
        /// Made by `[[header]]`, which may add to it; an array value may not be added to.
        var ofTables: Bool
        var position: TOMLPosition
        var depth: Int
        var items: [Slot] = []
    }

    private var s: TOMLScanner
    private var tables: [Table] = []
    private var arrays: [ArrayNode] = []
    /// Keys and array elements so far, against `TOMLDocument.maximumValues`.
    private var values = 0

    init(bytes: [UInt8], file: String) {
        s = TOMLScanner(bytes: bytes, file: file)
    }

    mutating func parseDocument() throws(TOMLError) -> TOMLTable {
        // Before anything else, so that nothing is read past the cap; the caller may hand over
        // only the first maximumBytes + 1 of a larger file, and the line named is where the
        // cap falls.
        guard s.bytes.count <= TOMLDocument.maximumBytes else {
            throw s.error("found more than \(TOMLDocument.maximumBytes) bytes (\(TOMLDocument.maximumBytes / 1024) KiB), the cap falling here; expected a configuration of at most \(TOMLDocument.maximumBytes / 1024) KiB (a touch configuration is a few KiB; docs/config.md#size-limits)", at: TOMLDocument.maximumBytes)
        }
        try s.checkUTF8()
        tables.append(Table(origin: .root, position: TOMLPosition(line: 1, column: 1), depth: 0))
        var current = 0
        while true {
            try s.skipBlank()
            guard let c = s.peek else { break }
            if c == UInt8(ascii: "[") {
                current = try header()
            } else {
                try keyValue(into: current)
                try s.endOfLine(after: "a key/value pair")
            }
        }
        return build(table: 0)
    }

    // MARK: statements

    /// `[a.b]` or `[[a.b]]`; returns the table that the following pairs go into.
    private mutating func header() throws(TOMLError) -> Int {
        let start = s.i
        let position = s.position(start)
        let isArray = s.at(1, is: UInt8(ascii: "["))
        s.i += isArray ? 2 : 1
        let path = try s.keyPath()
        let close = isArray ? "]]" : "]"
        guard s.peek == UInt8(ascii: "]"), !isArray || s.at(1, is: UInt8(ascii: "]")) else {
            throw s.unexpected("'\(close)' to close the header \(isArray ? "[[" : "[")\(dotted(path))")
        }
        s.i += isArray ? 2 : 1
        try s.endOfLine(after: "the header \(isArray ? "[[" : "[")\(Self.dotted(path))\(close)")

        var current = 0
        for (n, part) in path.enumerated() {
            let isLast = n == path.count - 1
            let keyPosition = s.position(part.offset)
            // Made only when a message needs it, not for every part of every header read.
            lazy var name = Self.dotted(path[...n])
            guard let existing = tables[current].index[part.key] else {
                if isLast && isArray {
                    let array = try newArray(ofTables: true, position: position, depth: tables[current].depth + 1, at: part.offset)
                    let element = try newTable(.header, position: position, depth: arrays[array].depth + 1, at: part.offset)
                    try append(.table(element), to: array, at: part.offset)
                    try add(Entry(key: part.key, keyPosition: keyPosition, slot: .array(array)), to: current, at: part.offset)
                    return element
                }
                let table = try newTable(isLast ? .header : .implicit, position: isLast ? position : keyPosition, depth: tables[current].depth + 1, at: part.offset)
                try add(Entry(key: part.key, keyPosition: keyPosition, slot: .table(table)), to: current, at: part.offset)
                current = table
                continue
            }
            let entry = tables[current].entries[existing]
            switch entry.slot {
            case let .table(t):
                let origin = tables[t].origin
                if origin == .inline {
                    throw s.error("found the header for '\(name)', an inline table defined at \(entry.keyPosition); expected a new table (an inline table is complete as written)", at: part.offset)
                }
                if isLast && isArray {
                    throw s.error("found [[\(name)]], but '\(name)' is a table defined at \(entry.keyPosition); expected a name not used yet", at: part.offset)
                }
                if isLast {
                    switch origin {
                    case .implicit:
                        tables[t].origin = .header
                        tables[t].position = position
                    case .header, .root:
                        throw s.error("found [\(name)] again; expected each table defined once (first at \(tables[t].position))", at: part.offset)
                    case .dotted:
                        throw s.error("found [\(name)], but dotted keys defined '\(name)' at \(entry.keyPosition); expected each table defined once", at: part.offset)
                    case .inline:
                        // Refused above, before any header is taken apart.
                        assertionFailure("an inline table reached the header switch")
                    }
                }
                current = t
            case let .array(a):
                guard arrays[a].ofTables else {
                    throw s.error("found the header for '\(name)', an array value defined at \(entry.keyPosition); expected a new table (an array value cannot be extended)", at: part.offset)
                }
                if isLast {
                    guard isArray else {
                        throw s.error("found [\(name)], but '\(name)' is an array of tables ([[\(name)]] at \(arrays[a].position)); expected [[\(name)]] to add an element", at: part.offset)
                    }
                    let element = try newTable(.header, position: position, depth: arrays[a].depth + 1, at: part.offset)
                    try append(.table(element), to: a, at: part.offset)
                    return element
                }
                guard case let .table(last)? = arrays[a].items.last else {
                    // An array of tables is made with the table of its first [[header]].
                    assertionFailure("an array of tables without a table")
                    throw s.error("found the header for '\(name)' in an array of tables that holds none; expected a table in it (a Touchline bug)", at: part.offset)
                }
                current = last
            case let .scalar(value):
                throw s.error("found the header for '\(name)', but '\(name)' is \(value.typeName) (\(value.found)) at \(entry.keyPosition); expected a table name not used yet", at: part.offset)
            }
        }
        return current
    }

    /// `a.b.c = value` into `table`.
    private mutating func keyValue(into table: Int) throws(TOMLError) {
        let path = try s.keyPath()
        guard s.peek == UInt8(ascii: "=") else { throw s.unexpected("'=' after the key '\(dotted(path))'") }
        s.i += 1
        s.skipSpaces()
        var current = table
        for (n, part) in path.dropLast().enumerated() {
            lazy var name = Self.dotted(path[...n])
            if let existing = tables[current].index[part.key] {
                let entry = tables[current].entries[existing]
                guard case let .table(t) = entry.slot else {
                    let what: String
                    switch entry.slot {
                    case let .scalar(v): what = "\(v.typeName) (\(v.found))"
                    case .array: what = "an array"
                    case .table: what = "a table"
                    }
                    throw s.error("found the dotted key '\(dotted(path))', but '\(name)' is \(what) at \(entry.keyPosition); expected a key not used yet", at: part.offset)
                }
                switch tables[t].origin {
                case .dotted: break
                case .implicit: tables[t].origin = .dotted
                case .header, .root:
                    throw s.error("found the dotted key '\(dotted(path))', but '\(name)' is a table defined by a header at \(tables[t].position); expected its keys under that header", at: part.offset)
                case .inline:
                    throw s.error("found the dotted key '\(dotted(path))', but '\(name)' is an inline table at \(entry.keyPosition); expected a new key (an inline table is complete as written)", at: part.offset)
                }
                current = t
            } else {
                let keyPosition = s.position(part.offset)
                let t = try newTable(.dotted, position: keyPosition, depth: tables[current].depth + 1, at: part.offset)
                try add(Entry(key: part.key, keyPosition: keyPosition, slot: .table(t)), to: current, at: part.offset)
                current = t
            }
        }
        guard let last = path.last else { return }
        if let existing = tables[current].index[last.key] {
            throw s.error("found '\(dotted(path))' again; expected each key defined once (first at \(tables[current].entries[existing].keyPosition))", at: last.offset)
        }
        let keyPosition = s.position(last.offset)
        // The key counts before its value, whose elements then count after it.
        try count(at: last.offset)
        let slot = try value(depth: tables[current].depth, path: path)
        insert(Entry(key: last.key, keyPosition: keyPosition, slot: slot), into: current)
    }

    // MARK: values

    /// A value whose container is at `depth`, of the key `path` (its dotted name is made only
    /// for a message: once per value, it was a third of the time of reading a long array).
    private mutating func value(depth: Int, path: [(key: String, offset: Int)]) throws(TOMLError) -> Slot {
        let start = s.i
        let position = s.position(start)
        guard let c = s.peek else { throw s.unexpected("a value for '\(dotted(path))'") }
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let text = c == UInt8(ascii: "\"") ? try s.basicString() : try s.literalString()
            return .scalar(TOMLValue(kind: .string(text), position: position, source: TOMLQuote.verbatim(s.bytes[start..<s.i])))
        case UInt8(ascii: "["):
            return .array(try array(depth: depth + 1, path: path))
        case UInt8(ascii: "{"):
            return .table(try inlineTable(depth: depth + 1, path: path))
        default:
            let r = s.word()
            let kind = try s.scalar(r, key: Self.dotted(path))
            return .scalar(TOMLValue(kind: kind, position: position, source: TOMLQuote.verbatim(s.bytes[r])))
        }
    }

    private mutating func array(depth: Int, path: [(key: String, offset: Int)]) throws(TOMLError) -> Int {
        let open = s.i
        let node = try newArray(ofTables: false, position: s.position(open), depth: depth, at: open)
        s.i += 1
        while true {
            try s.skipBlank()
            if s.peek == UInt8(ascii: "]") { break }
            guard !s.atEnd else {
                throw s.unexpected("']' to close the array opened at \(arrays[node].position)")
            }
            let at = s.i
            let item = try value(depth: depth, path: path)
            try append(item, to: node, at: at)
            try s.skipBlank()
            if s.peek == UInt8(ascii: ",") {
                s.i += 1
                continue
            }
            guard s.peek == UInt8(ascii: "]") else {
                throw s.unexpected("',' or ']' in the array opened at \(arrays[node].position)")
            }
            break
        }
        s.i += 1
        return node
    }

    private mutating func inlineTable(depth: Int, path: [(key: String, offset: Int)]) throws(TOMLError) -> Int {
        let open = s.i
        let table = try newTable(.dotted, position: s.position(open), depth: depth, at: open)
        s.i += 1
        s.skipSpaces()
        if s.peek == UInt8(ascii: "}") {
            s.i += 1
            tables[table].origin = .inline
            return table
        }
        while true {
            s.skipSpaces()
            try keyValue(into: table)
            s.skipSpaces()
            if s.peek == UInt8(ascii: ",") {
                s.i += 1
                s.skipSpaces()
                if s.peek == UInt8(ascii: "}") {
                    throw s.error("found ',' before '}'; expected another key/value pair (TOML 1.0 has no trailing comma in inline tables)", at: s.i - 1)
                }
                continue
            }
            guard s.peek == UInt8(ascii: "}") else {
                throw s.unexpected("',' or '}' in the inline table opened at \(tables[table].position) (TOML 1.0 inline tables stay on one line)")
            }
            s.i += 1
            tables[table].origin = .inline
            return table
        }
    }

    // MARK: arenas

    private mutating func newTable(_ origin: Origin, position: TOMLPosition, depth: Int, at offset: Int) throws(TOMLError) -> Int {
        try checkDepth(depth, at: offset)
        tables.append(Table(origin: origin, position: position, depth: depth))
        return tables.count - 1
    }

    private mutating func newArray(ofTables: Bool, position: TOMLPosition, depth: Int, at offset: Int) throws(TOMLError) -> Int {
        try checkDepth(depth, at: offset)
        arrays.append(ArrayNode(ofTables: ofTables, position: position, depth: depth))
        return arrays.count - 1
    }

    private func checkDepth(_ depth: Int, at offset: Int) throws(TOMLError) {
        guard depth <= TOMLDocument.maximumDepth else {
            throw s.error("found tables and arrays nested \(depth) deep; expected at most \(TOMLDocument.maximumDepth) levels", at: offset)
        }
    }

    private mutating func add(_ entry: Entry, to table: Int, at offset: Int) throws(TOMLError) {
        try count(at: offset)
        insert(entry, into: table)
    }

    /// A key counted already (a key/value pair's, before its value is read).
    private mutating func insert(_ entry: Entry, into table: Int) {
        tables[table].index[entry.key] = tables[table].entries.count
        tables[table].entries.append(entry)
    }

    private mutating func append(_ item: Slot, to array: Int, at offset: Int) throws(TOMLError) {
        try count(at: offset)
        arrays[array].items.append(item)
    }

    /// One more key or array element: past `maximumValues` the file is refused where it went
    /// over, before the value is kept.
    private mutating func count(at offset: Int) throws(TOMLError) {
        values += 1
        guard values <= TOMLDocument.maximumValues else {
            throw s.error("found more than \(TOMLDocument.maximumValues) keys and array elements by this one; expected at most \(TOMLDocument.maximumValues) in a configuration (a touch configuration holds a few hundred; docs/config.md#size-limits)", at: offset)
        }
    }

    // Static: a message made lazily (an autoclosure) may not capture the parser being read.
    private static func dotted(_ path: ArraySlice<(key: String, offset: Int)>) -> String {
        path.map { part in
            part.key.allSatisfy { $0.isASCII && TOMLScanner.isBareKey(UInt8(ascii: $0.unicodeScalars.first ?? " ")) } && !part.key.isEmpty
                ? part.key : "\"" + TOMLQuote.verbatim(part.key) + "\""
        }.joined(separator: ".")
    }

    private static func dotted(_ path: [(key: String, offset: Int)]) -> String { dotted(path[...]) }
    private func dotted(_ path: ArraySlice<(key: String, offset: Int)>) -> String { Self.dotted(path) }
    private func dotted(_ path: [(key: String, offset: Int)]) -> String { Self.dotted(path[...]) }

    // MARK: the public tree

    // Recursion here is bounded by `maximumDepth`, checked when each node was made. Each node
    // of the arenas is emptied as it is built, so that the file is not held twice at the end.
    private mutating func build(table id: Int) -> TOMLTable {
        let entries = tables[id].entries
        let index = tables[id].index
        tables[id].entries = []
        tables[id].index = [:]
        var out: [TOMLEntry] = []
        out.reserveCapacity(entries.count)
        for entry in entries {
            out.append(TOMLEntry(key: entry.key, keyPosition: entry.keyPosition, value: build(entry.slot)))
        }
        return TOMLTable(entries: out, index: index)
    }

    private mutating func build(_ slot: Slot) -> TOMLValue {
        switch slot {
        case let .scalar(v): return v
        case let .table(t): return TOMLValue(kind: .table(build(table: t)), position: tables[t].position)
        case let .array(a):
            let items = arrays[a].items
            arrays[a].items = []
            var out: [TOMLValue] = []
            out.reserveCapacity(items.count)
            for item in items { out.append(build(item)) }
            return TOMLValue(kind: .array(out), position: arrays[a].position)
        }
    }
}
