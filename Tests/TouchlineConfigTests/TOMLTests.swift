import Testing
import TouchlineConfig

@Suite struct TOMLTests {
    func read(_ text: String) throws(TOMLError) -> TOMLTable {
        try TOMLDocument.parse(text, file: "t.toml").root
    }

    func error(_ text: String) -> String {
        error(Array(text.utf8))
    }

    func error(_ bytes: [UInt8]) -> String {
        do {
            _ = try TOMLDocument.parse(bytes, file: "t.toml")
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func everyKeyAndValueKeepsItsPosition() throws {
        let root = try read("# c\n[server]\n  port = 0x2A\n  name.first = \"é\" # x\n[[a]]\n[[a]]\nb = [1,\n  2]\n")
        let server = try #require(root["server"])
        #expect(server.keyPosition == TOMLPosition(line: 2, column: 2))
        #expect(server.value.position == TOMLPosition(line: 2, column: 1))
        let port = try #require(server.value.table?["port"])
        #expect(port.keyPosition == TOMLPosition(line: 3, column: 3))
        #expect(port.value.position == TOMLPosition(line: 3, column: 10))
        #expect(port.value.kind == .integer(42))
        #expect(port.value.source == "0x2A")
        let first = try #require(server.value.table?["name"]?.value.table?["first"])
        #expect(first.keyPosition == TOMLPosition(line: 4, column: 8))
        #expect(first.value.position == TOMLPosition(line: 4, column: 16))
        #expect(first.value.source == "\"é\"")
        guard case let .array(elements)? = root["a"]?.value.kind else { Issue.record("a"); return }
        #expect(elements.map(\.position) == [TOMLPosition(line: 5, column: 1), TOMLPosition(line: 6, column: 1)])
        guard case let .array(b)? = elements[1].table?["b"]?.value.kind else { Issue.record("b"); return }
        #expect(b.map(\.position) == [TOMLPosition(line: 7, column: 6), TOMLPosition(line: 8, column: 3)])
    }

    /// 532b116 rejected `0x2A` where a number belongs.
    @Test func hexOctalAndBinaryIntegers() throws {
        let root = try read("a = 0x2A\nb = 0o52\nc = 0b101010\nd = 0x7FFF_FFFF_FFFF_FFFF\ne = -9223372036854775808\n")
        #expect(root["a"]?.value.kind == .integer(42))
        #expect(root["b"]?.value.kind == .integer(42))
        #expect(root["c"]?.value.kind == .integer(42))
        #expect(root["d"]?.value.kind == .integer(.max))
        #expect(root["e"]?.value.kind == .integer(.min))
    }

    /// 532b116 crashed on a config number past Int64; the reader refuses it and quotes it.
    @Test func integersPastInt64QuoteTheLine() {
        #expect(error("[tap]\nmaxDuration = 99999999999999999999\n")
            == "t.toml:2:15: found 99999999999999999999 for 'maxDuration'; expected an integer from -9223372036854775808 to 9223372036854775807 (the 64-bit range)")
        #expect(error("a = 9_223_372_036_854_775_808\n")
            == "t.toml:1:5: found 9_223_372_036_854_775_808 for 'a'; expected an integer from -9223372036854775808 to 9223372036854775807 (the 64-bit range)")
        #expect(error("a = 0x1_0000_0000_0000_0000\n")
            == "t.toml:1:5: found 0x1_0000_0000_0000_0000 for 'a'; expected an integer from 0 to 0x7FFFFFFFFFFFFFFF (the 64-bit range)")
    }

    /// 532b116 said something other than what the line holds for `1e400` and `"\uD800"`.
    @Test func overflowingFloatsAndSurrogatesQuoteTheLine() {
        #expect(error("a = 1e400\n")
            == "t.toml:1:5: found 1e400 for 'a'; expected a float from -1.7976931348623157e308 to 1.7976931348623157e308 (the 64-bit range), or inf")
        #expect(error("name = \"ab\\uD800cd\"\n")
            == "t.toml:1:11: found \\uD800, a surrogate code point, which is not a character; expected the escape of a Unicode scalar value (\\u0000 to \\uD7FF or \\uE000 to \\U0010FFFF)")
        #expect(error("name = \"\\U00110000\"\n")
            == "t.toml:1:9: found \\U00110000, past U+10FFFF, the last code point; expected the escape of a Unicode scalar value (\\u0000 to \\uD7FF or \\uE000 to \\U0010FFFF)")
    }

    @Test func longWordsAreShortenedInMessages() {
        let long = String(repeating: "9", count: 100)
        #expect(error("a = \(long)\n")
            == "t.toml:1:5: found \(String(repeating: "9", count: 40))… for 'a'; expected an integer from -9223372036854775808 to 9223372036854775807 (the 64-bit range)")
    }

    /// 532b116 overflowed the stack on 50,000 nested arrays; every way of nesting stops at the
    /// documented limit with its position.
    @Test func nestingBeyondTheLimitIsAnError() {
        let n = 50_000
        let limit = TOMLDocument.maximumDepth
        let message = "found tables and arrays nested \(limit + 1) deep; expected at most \(limit) levels"
        #expect(error("a = " + String(repeating: "[", count: n) + String(repeating: "]", count: n)) == "t.toml:1:\(5 + limit): \(message)")
        #expect(error("a = " + String(repeating: "{b=", count: n) + "1" + String(repeating: "}", count: n)) == "t.toml:1:\(5 + 3 * limit): \(message)")
        let path = Array(repeating: "k", count: n).joined(separator: ".")
        #expect(error("[\(path)]\n") == "t.toml:1:\(2 + 2 * limit): \(message)")
        #expect(error("[[\(path)]]\n") == "t.toml:1:\(3 + 2 * limit): \(message)")
        #expect(error("\(path) = 1\n") == "t.toml:1:\(1 + 2 * limit): \(message)")
        // At the limit itself, the document reads.
        #expect(error("a = " + String(repeating: "[", count: limit) + String(repeating: "]", count: limit)) == "no error")
    }

    @Test func structuralErrorsNameBothPlaces() {
        #expect(error("[a]\nx = 1\n[a]\n") == "t.toml:3:2: found [a] again; expected each table defined once (first at 1:1)")
        #expect(error("a = 1\na = 2\n") == "t.toml:2:1: found 'a' again; expected each key defined once (first at 1:1)")
        #expect(error("a = {b = 1}\n[a]\n") == "t.toml:2:2: found the header for 'a', an inline table defined at 1:1; expected a new table (an inline table is complete as written)")
        #expect(error("[a.b]\n[a]\nb.c = 1\n") == "t.toml:3:1: found the dotted key 'b.c', but 'b' is a table defined by a header at 1:1; expected its keys under that header")
        #expect(error("a = [1\n") == "t.toml:2:1: found the end of the file; expected ',' or ']' in the array opened at 1:5")
        #expect(error("s = \"open\n") == "t.toml:1:10: found the end of the line; expected the closing \" of the string on its line")
        #expect(error("flag = yes\n") == "t.toml:1:8: found yes for 'flag'; expected a value (a quoted string, number, true, false, date, array or inline table); strings need quotes")
        #expect(error("d = 2023-02-29\n") == "t.toml:1:5: found 2023-02-29 for 'd'; expected a day from 01 to 28 (the month's length in 2023)")
        #expect(error([0x61, 0x20, 0x3D, 0x20, 0x22, 0xFF, 0x22, 0x0A]) == "t.toml:1:6: found byte 0xFF, which is not UTF-8; expected a UTF-8 file")
        #expect(error("a = 1\rb = 2\n") == "t.toml:1:6: found a carriage return without a line feed; expected LF or CRLF line ends")
    }

    /// Long arrays and many keys read in linear time (dictionary lookups, one column count per
    /// line): as many as a file may hold, which would take seconds if either were quadratic.
    @Test func largeDocumentsReadInLinearTime() throws {
        let n = TOMLDocument.maximumValues - 1
        let array = "a = [" + (0..<n).map(String.init).joined(separator: ",") + "]\n"
        guard case let .array(items)? = try read(array)["a"]?.value.kind else { Issue.record("array"); return }
        #expect(items.count == n)
        #expect(items.last?.position == TOMLPosition(line: 1, column: array.utf8.count - 6))
        let keys = (0..<n + 1).map { "k\($0) = \($0)" }.joined(separator: "\n")
        #expect(try read(keys).entries.count == n + 1)
    }

    /// Item 5 of issue 24: a 15 MiB file of short values took 2 GB and 7.7 s to read. A file is
    /// at most `maximumBytes` long and holds at most `maximumValues` keys and array elements
    /// (every key, implicit tables included, and every element); one past either is refused
    /// where it goes over. The sizes of a value are asserted, not the time of a large file.
    @Test func sizeCapsAreRefusedWhereTheyFall() throws {
        let n = TOMLDocument.maximumValues
        let values = "found more than \(n) keys and array elements by this one; expected at most \(n) in a configuration (a touch configuration holds a few hundred; docs/config.md#size-limits)"
        // The key `a` is one, so the array's last element is one too many.
        let array = "a = [" + Array(repeating: "1", count: n).joined(separator: ",") + "]\n"
        #expect(error(array) == "t.toml:1:\(5 + 2 * (n - 1) + 1): \(values)")
        #expect(error("a = [" + Array(repeating: "1", count: n - 1).joined(separator: ",") + "]\n") == "no error")
        // Keys, one a line: key n + 1 is on line n + 1.
        let keys = (0...n).map { "k\($0) = 1" }.joined(separator: "\n")
        #expect(error(keys) == "t.toml:\(n + 1):1: \(values)")
        // Tables by header and array-of-tables elements count as the keys they make.
        let tables = (0...n).map { "[t\($0)]" }.joined(separator: "\n")
        #expect(error(tables) == "t.toml:\(n + 1):2: \(values)")
        let elements = Array(repeating: "[[a]]", count: n).joined(separator: "\n")
        #expect(error(elements) == "t.toml:\(n):3: \(values)")
        // Inline tables and the keys in them.
        let inline = "a = [" + Array(repeating: "{}", count: n).joined(separator: ",") + "]\n"
        #expect(error(inline) == "t.toml:1:\(5 + 3 * (n - 1) + 1): \(values)")

        let cap = TOMLDocument.maximumBytes
        let bytes = "found more than \(cap) bytes (\(cap / 1024) KiB), the cap falling here; expected a configuration of at most \(cap / 1024) KiB (a touch configuration is a few KiB; docs/config.md#size-limits)"
        // Comments cost nothing but bytes: a file of them one byte past the cap is refused at
        // the byte past it (line 2 here, after a first line of 99 bytes and its newline).
        let long = "#" + String(repeating: "x", count: 98) + "\n" + "#" + String(repeating: "y", count: cap - 101)
        #expect(long.utf8.count == cap)
        #expect(error(long) == "no error")
        #expect(error(long + "y") == "t.toml:2:\(cap - 100 + 1): \(bytes)")
        // A string as long as the file may be is a value like any other.
        let string = "s = \"" + String(repeating: "z", count: cap - 7) + "\"\n"
        #expect(string.utf8.count == cap)
        guard case let .string(text)? = try read(string)["s"]?.value.kind else { Issue.record("string"); return }
        #expect(text.utf8.count == cap - 7)
    }

    /// What a value costs while a file is read: dates and times are boxed, so that a number or
    /// a string is not as large as the largest date-time (104 bytes a value before).
    @Test func aValueIsSmall() {
        #expect(MemoryLayout<TOMLValue>.stride <= 56)
        #expect(MemoryLayout<TOMLEntry>.stride <= 88)
    }
}
