import Testing
import TouchlineCore

/// The event socket's JSON reader: every kind of value, the members in their order, and each
/// way a line can fail to be JSON named with its column.
@Suite struct JSONReaderTests {
    func read(_ text: String) throws(JSONReadError) -> JSONValue { try JSONReader.read(Array(text.utf8)) }

    @Test func readsEveryKindOfValueKeepingTheMembersOrder() throws {
        let value = try read(#" {"b": [1, -2.5, 1e3, true, false, null], "a": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "c": {}} "#)
        #expect(value == .object([
            JSONMember(key: "b", value: .array([.integer(1), .number(-2.5), .number(1000), .bool(true), .bool(false), .null])),
            JSONMember(key: "a", value: .string("x\"\\/\u{08}\u{0C}\n\r\t\u{e9}\u{1F600}")),
            JSONMember(key: "c", value: .object([])),
        ]))
        #expect(try read("[]") == .array([]))
        #expect(try read(" \"é\" ") == .string("é"))
    }

    /// A repeated key keeps its last value where the key first stood, as JSONSerialization's
    /// dictionary did (one key, the last value).
    @Test func aRepeatedKeyKeepsItsLastValue() throws {
        #expect(try read(#"{"subscribe": [], "x": 1, "subscribe": ["tap"]}"#) == .object([
            JSONMember(key: "subscribe", value: .array([.string("tap")])), JSONMember(key: "x", value: .integer(1)),
        ]))
    }

    /// Whole numbers that fit 64 bits are integers (device numbers such as 9×10¹⁷ included);
    /// larger ones, fractions and exponents are Doubles; past Double's range is refused.
    @Test func numbersAreIntegersWhenWholeAndInRange() throws {
        #expect(try read("900000000000000000") == .integer(900_000_000_000_000_000))
        #expect(try read("-9223372036854775808") == .integer(Int64.min))
        #expect(try read("99999999999999999999") == .number(1e20))
        #expect(try read("-0") == .integer(0))
        #expect(try read("1.0") == .number(1))
        #expect(try read("2.5E-7") == .number(2.5e-7))
    }

    @Test(arguments: [
        ("", "unexpected end, expected a value at column 1"),
        (#"{"subscribe": }"#, "unexpected '}', expected a value at column 15"),
        (#"{"subscribe": ["tap""#, "unexpected end, expected ',' or ']' at column 21"),
        (#"{"a" 1}"#, "unexpected '1', expected ':' at column 6"),
        ("{\"a\"\u{7f}", "unexpected byte 0x7F, expected ':' at column 5"),
        (#"{a: 1}"#, "unexpected 'a', expected a key (a string) at column 2"),
        (#"{"a": 1} x"#, "unexpected 'x' after the value at column 10"),
        (#""abc"#, "unterminated string at column 1"),
        ("\"a\u{01}\"", "a control character (byte 0x1) in a string; write it as \\u0001 at column 3"),
        (#""\x""#, "unknown escape \\'x' at column 2"),
        (#""\ud800x""#, "an unpaired surrogate \\uD800 at column 2"),
        (#""\udc00""#, "an unpaired surrogate \\uDC00 at column 2"),
        (#""\u12g4""#, "unexpected 'g' in a \\u escape, expected a hex digit at column 6"),
        ("012", "a number with a leading zero at column 1"),
        ("-", "expected a digit after '-' at column 1"),
        ("1.", "expected a digit after '.' at column 3"),
        ("1e+", "expected a digit in the exponent at column 4"),
        ("1e400", "a number out of range at column 1"),
        ("tru", "expected true at column 1"),
        ("nul", "expected null at column 1"),
    ])
    func eachErrorSaysWhatAndWhere(_ text: String, _ expected: String) {
        #expect(throws: JSONReadError.self) { try read(text) }
        do {
            _ = try read(text)
        } catch {
            #expect(error.description == expected)
        }
    }

    /// Several multi-byte sequences in one string, raw and escaped, read as the same string
    /// (FuzzJSONReader: a parser kept across sequences read "é힙" as another string).
    @Test func multiByteSequencesInARowReadAsEscaped() throws {
        let escaped = try read(#"{"targets": ["\u00e9\ud799"]}"#)
        #expect(escaped == .object([JSONMember(key: "targets", value: .array([.string("\u{e9}\u{d799}")]))]))
        #expect(try read("{\"targets\": [\"é힙\"]}") == escaped)
        #expect(try read("\"aé힙😀ü€b\"") == .string("aé힙😀ü€b"))
    }

    @Test func invalidUTF8IsRefusedWhereItStarts() {
        do {
            _ = try JSONReader.read([UInt8(ascii: "\""), 0x61, 0xFF, 0x00, UInt8(ascii: "\"")])
            Issue.record("read invalid UTF-8")
        } catch {
            #expect(error == JSONReadError(column: 3, reason: "invalid UTF-8 (byte 0xFF)"))
        }
    }

    /// Nesting is bounded, so a line of brackets cannot exhaust the stack.
    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try read(deep) }
        do {
            _ = try read("[" + deep + "]")
            Issue.record("read 65 levels")
        } catch {
            #expect(error == JSONReadError(column: 65, reason: "nested deeper than 64 levels"))
        }
        #expect(throws: JSONReadError.self) { try JSONReader.read(Array("[[1]]".utf8), maximumDepth: 1) }
    }

    /// readLocated: where each value and key starts, in preorder, so that a labels file's
    /// error names its line and column; a key twice in one object is refused there.
    @Test func locatedValuesGiveEachValuesAndKeysOffset() throws {
        let text = #"[1, {"a": [true], "b": "x"}]"#
        let (value, offsets) = try JSONReader.readLocated(Array(text.utf8))
        #expect(value == (try read(text)))
        // [ 1 { "a" [ true "b" "x"
        #expect(offsets == [0, 1, 4, 5, 10, 11, 18, 23])
        #expect(throws: JSONReadError(column: 10, reason: #"the key "a" again in one object; expected each key once"#)) {
            try JSONReader.readLocated(Array(#"{"a": 1, "a": 2}"#.utf8))
        }
    }

    /// JSONPieceReader walks an outer list item by item, each item a value of its own with
    /// absolute offsets, and names a missing comma where it is.
    @Test func aPieceReaderTakesAListItemByItem() throws {
        var reader = JSONPieceReader(Array(#" [{"k": 1}, 2 ] "#.utf8))
        try reader.open(UInt8(ascii: "["))
        var items: [JSONValue] = []
        var offsets: [[Int]] = []
        var first = true
        while try reader.more(UInt8(ascii: "]"), first: first) {
            first = false
            let (item, at) = try reader.value()
            items.append(item)
            offsets.append(at)
        }
        try reader.end()
        #expect(items == [.object([JSONMember(key: "k", value: .integer(1))]), .integer(2)])
        #expect(offsets == [[2, 3, 8], [12]])
        var broken = JSONPieceReader(Array("[1 2]".utf8))
        try broken.open(UInt8(ascii: "["))
        #expect(try broken.more(UInt8(ascii: "]"), first: true))
        _ = try broken.value()
        #expect(throws: JSONReadError(column: 4, reason: "unexpected '2', expected ',' or ']'")) { try broken.more(UInt8(ascii: "]"), first: false) }
    }
}
