import TouchlineConfig
import TouchlineCore
import TouchlineGestures

// The tuned configuration `tune -o` writes: the input's text with each changed parameter edited
// where the document holds it, found through the TOML reader's positions rather than by
// matching lines. A key already set is changed in place (a dotted key under [defaults], a
// [defaults.KIND] table, an inline table), in the unit the input wrote it in ("6mm" stays a
// string in mm); a key not set is added in the style the file uses for its kind (a line in its
// table, a member of its inline table, a dotted key, or a new [defaults.KIND] table when the
// file writes its kinds as tables). Everything else (comments, order, spacing) stays as it was.
// Appending `[defaults]` + `edgeSwipe.margin = 6` to a file that has `[defaults.edgeSwipe]`
// made a file that does not load (issue 36): the caller reads the result back before writing.

public enum TunedConfig {
    /// The edited text. `input`: the --config text (nil for none); `file`: its name, for the
    /// reader's errors; `header`: comment lines put at the top, saying where it came from.
    public static func edit(
        _ input: String?, file: String, changes: [(parameter: TunableParameter, from: Double, to: Double)], header: [String]
    ) throws(TOMLError) -> String {
        var text = input ?? ""
        for change in changes {
            text = try set(change.parameter, change.to, in: text, file: file)
        }
        var lines = header.map { "# " + $0 }
        if !text.isEmpty { lines.append(text.hasSuffix("\n") ? String(text.dropLast()) : text) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with `parameter` set to `value` under [defaults].
    static func set(_ parameter: TunableParameter, _ value: Double, in text: String, file: String) throws(TOMLError) -> String {
        let document = try TOMLDocument.parse(text, file: file)
        var lines = Lines(text)
        let plain = parameter.text(value)
        guard let defaults = document.root["defaults"], defaults.value.table != nil else {
            // No [defaults] at all: one, at the end, with a dotted key (docs/config.md's first style).
            lines.append(["", "[defaults]", "\(parameter.kind).\(parameter.name) = \(plain)"])
            return lines.text
        }
        if let kind = defaults.value.table?[parameter.kind], kind.value.table != nil {
            if let old = kind.value.table?[parameter.name] {
                lines.replaceValue(at: old.value, with: rendered(value, of: parameter, like: old.value))
                return lines.text
            }
            try lines.insert(parameter.name, plain, into: kind, file: file)
            return lines.text
        }
        // A kind not set yet: as the file writes its other kinds.
        let siblings = (defaults.value.table?.entries ?? []).filter { $0.key != "pen" && $0.value.table != nil }
        let tables = siblings.filter { lines.style(of: $0) == .header }
        // [defaults] implied by `[defaults.pen]` or `[defaults.tap]` alone takes tables only.
        let style = lines.style(of: defaults)
        if style == .implied || siblings.first.map({ lines.style(of: $0) == .header }) == true && style != .inline {
            let headers = tables.isEmpty ? (defaults.value.table?.entries ?? []).filter { lines.style(of: $0) == .header } : tables
            let last = headers.map { lines.lastLine(of: $0) }.max() ?? lines.count
            lines.insert(["", "[defaults.\(parameter.kind)]", "\(parameter.name) = \(plain)"], after: last)
            return lines.text
        }
        if let first = siblings.first, lines.style(of: first) == .inline {
            try lines.insert(parameter.kind, "{ \(parameter.name) = \(plain) }", into: defaults, file: file)
            return lines.text
        }
        try lines.insert("\(parameter.kind).\(parameter.name)", plain, into: defaults, file: file)
        return lines.text
    }

    /// The value in the input's own notation: a number as a number, a string with its unit
    /// (`"0.3s"`, `"6 mm"`, `'1cm'`) with the same unit, quote and spacing.
    static func rendered(_ value: Double, of parameter: TunableParameter, like old: TOMLValue) -> String {
        guard case let .string(s) = old.kind else { return parameter.text(value) }
        let quote = old.source.first.map(String.init) ?? "\""
        var split = s.startIndex
        while split < s.endIndex, s[split].isNumber || "+-.e ".contains(s[split]) { split = s.index(after: split) }
        let suffix = String(s[split...])
        let spaced = s[..<split].hasSuffix(" ")
        guard !suffix.isEmpty, let factor = GraphConfiguration.parseQuantity("1" + suffix, unit: parameter.unit), factor > 0 else {
            return "\(quote)\(parameter.text(value))\(parameter.unit.rawValue)\(quote)"
        }
        // As many decimals as the parameter's own resolution needs in this unit (270 ms: 0.27s).
        var decimals = parameter.unit == .millimetres || parameter.unit == .degrees ? 1 : (parameter.unit == .normalized ? 2 : 0)
        var f = factor
        while f >= 10 {
            decimals += 1
            f /= 10
        }
        var number = formatFixed(value / factor, decimals: decimals)
        if number.contains(".") {
            while number.hasSuffix("0") { number.removeLast() }
            if number.hasSuffix(".") { number.removeLast() }
        }
        return "\(quote)\(number)\(spaced ? " " : "")\(suffix)\(quote)"
    }

    /// How a table is written: by a header of its own, by dotted keys, inline, or implied (by a
    /// header or dotted key of a table inside it).
    enum Style { case header, dotted, inline, implied }

    /// The text as lines, edited by the reader's positions (line from 1, column in characters).
    struct Lines {
        var lines: [String]
        var count: Int { lines.count }

        init(_ text: String) {
            lines = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
        }

        var text: String { lines.joined(separator: "\n") + "\n" }

        mutating func append(_ new: [String]) {
            lines += lines.isEmpty ? Array(new.drop { $0.isEmpty }) : new
        }

        /// Inserts after line `line` (from 1).
        mutating func insert(_ new: [String], after line: Int) {
            lines.insert(contentsOf: new, at: min(line, lines.count))
        }

        /// The byte offset in line `line` of character column `column`.
        func offset(_ position: TOMLPosition) -> (line: Int, byte: Int) {
            let bytes = Array(lines[position.line - 1].utf8)
            var column = 1
            var k = 0
            while k < bytes.count && column < position.column {
                k += 1
                while k < bytes.count && bytes[k] & 0xC0 == 0x80 { k += 1 }
                column += 1
            }
            return (position.line - 1, k)
        }

        /// The end (exclusive byte offset) of the key or value starting at `start` in `bytes`.
        static func end(from start: Int, in bytes: [UInt8], stops: String) -> Int {
            var k = start
            guard k < bytes.count else { return k }
            let stop = Set(stops.utf8)
            if bytes[k] == UInt8(ascii: "\"") || bytes[k] == UInt8(ascii: "'") {
                let quote = bytes[k]
                k += 1
                while k < bytes.count && bytes[k] != quote {
                    if quote == UInt8(ascii: "\"") && bytes[k] == UInt8(ascii: "\\") { k += 1 }
                    k += 1
                }
                return min(k + 1, bytes.count)
            }
            while k < bytes.count && !stop.contains(bytes[k]) { k += 1 }
            return k
        }

        mutating func replaceValue(at value: TOMLValue, with new: String) {
            let (line, start) = offset(value.position)
            let bytes = Array(lines[line].utf8)
            let end = Self.end(from: start, in: bytes, stops: " \t,}]#\r")
            lines[line] = String(decoding: bytes[..<start], as: UTF8.self) + new + String(decoding: bytes[end...], as: UTF8.self)
        }

        /// What follows the key of `entry` where it is first written (skipping blanks).
        func after(_ entry: TOMLEntry) -> (line: Int, byte: Int, next: UInt8?) {
            let (line, start) = offset(entry.keyPosition)
            let bytes = Array(lines[line].utf8)
            var k = Self.end(from: start, in: bytes, stops: " \t.=]")
            while k < bytes.count && (bytes[k] == 0x20 || bytes[k] == 0x09) { k += 1 }
            return (line, k, k < bytes.count ? bytes[k] : nil)
        }

        func style(of entry: TOMLEntry) -> Style {
            let (line, k, next) = after(entry)
            let isHeader = lines[line].drop { $0 == " " || $0 == "\t" }.hasPrefix("[")
            switch next {
            case UInt8(ascii: "]")?: return isHeader ? .header : .implied
            case UInt8(ascii: ".")?: return isHeader ? .implied : .dotted
            case UInt8(ascii: "=")?:
                let rest = Array(lines[line].utf8)[(k + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
                return rest.first == UInt8(ascii: "{") ? .inline : .dotted
            default: return .implied
            }
        }

        /// The last line (from 1) of `entry`'s table as this section writes it: its last key
        /// outside tables with headers of their own, else its own line.
        func lastLine(of entry: TOMLEntry) -> Int {
            var last = entry.keyPosition.line
            for child in entry.value.table?.entries ?? [] {
                if child.value.table != nil {
                    if style(of: child) == .header || style(of: child) == .implied && isHeaderLine(child.keyPosition.line) { continue }
                    last = max(last, lastLine(of: child))
                } else {
                    last = max(last, child.value.position.line)
                }
            }
            return last
        }

        func isHeaderLine(_ line: Int) -> Bool { lines[line - 1].drop { $0 == " " || $0 == "\t" }.hasPrefix("[") }

        /// Adds `key = value` to the table `entry` holds, as that table is written.
        mutating func insert(_ key: String, _ value: String, into entry: TOMLEntry, file: String) throws(TOMLError) {
            switch style(of: entry) {
            case .header:
                let last = lastLine(of: entry)
                let indent = last == entry.keyPosition.line ? "" : String(lines[last - 1].prefix { $0 == " " || $0 == "\t" })
                insert(["\(indent)\(key) = \(value)"], after: last)
            case .dotted:
                // The same dotted prefix as its first key, on a line after its last one.
                let (line, k, _) = after(entry)
                var bytes = Array(lines[line].utf8)[..<k]
                while bytes.last == 0x20 || bytes.last == 0x09 { bytes.removeLast() }
                insert([String(decoding: bytes, as: UTF8.self) + ".\(key) = \(value)"], after: lastLine(of: entry))
            case .inline:
                let (line, k, _) = after(entry)
                let bytes = Array(lines[line].utf8)
                var open = k + 1
                while open < bytes.count && bytes[open] != UInt8(ascii: "{") { open += 1 }
                var depth = 0
                var close = open
                while close < bytes.count {
                    let b = bytes[close]
                    if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                        close = Self.end(from: close, in: bytes, stops: "")
                        continue
                    }
                    if b == UInt8(ascii: "{") { depth += 1 }
                    if b == UInt8(ascii: "}") {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    close += 1
                }
                var head = Array(bytes[..<close])
                while head.last == 0x20 || head.last == 0x09 { head.removeLast() }
                let empty = head.last == UInt8(ascii: "{")
                lines[line] = String(decoding: head, as: UTF8.self) + (empty ? " " : ", ") + "\(key) = \(value) " + String(decoding: bytes[close...], as: UTF8.self)
            case .implied:
                // A table implied by `[defaults.tap]` or `defaults.tap.x = 1` (no header of its
                // own): a header for it, at the end, holds the key.
                throw TOMLError(file: file, line: entry.keyPosition.line, column: entry.keyPosition.column,
                                message: "cannot add \(key) to '\(entry.key)', a table written only through the tables inside it; add [\(entry.key)] by hand")
            }
        }
    }
}
