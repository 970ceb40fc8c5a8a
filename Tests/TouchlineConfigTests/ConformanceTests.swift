import Foundation
import Testing
import TouchlineConfig
import TouchlineTestSupport

// toml-test's TOML 1.0 suite (../shared/conformance/toml-test, README.md there): every valid
// file must read and match its tagged JSON, every invalid file must be refused with a position
// inside the file. The suite is read where it lives, never copied; a missing suite fails.

/// Cases left out on purpose, with the reason. None at present.
let leftOut: [String: String] = [:]

enum Suite {
    static let root = Paths.shared.appendingPathComponent("conformance/toml-test/tests")

    static func list() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("files-toml-1.0.0"), encoding: .utf8)
        return text.split(separator: "\n").map(String.init).filter { $0.hasSuffix(".toml") }
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(path)))
    }
}

@Suite struct ConformanceTests {
    @Test func suiteIsPresent() throws {
        let files = try Suite.list()
        #expect(files.filter { $0.hasPrefix("valid/") }.count == 210)
        #expect(files.filter { $0.hasPrefix("invalid/") }.count == 499)
    }

    @Test func validFilesReadAndMatchTheirJSON() throws {
        let files = try Suite.list().filter { $0.hasPrefix("valid/") }
        var passed = 0
        for path in files where leftOut[path] == nil {
            let document: TOMLDocument
            do {
                document = try TOMLDocument.parse(try Suite.bytes(path), file: path)
            } catch {
                Issue.record("\(path): refused: \(error)")
                continue
            }
            let jsonData = try Data(contentsOf: Suite.root.appendingPathComponent(String(path.dropLast(5)) + ".json"))
            let expected = try JSONSerialization.jsonObject(with: jsonData, options: [.fragmentsAllowed])
            if let mismatch = Tagged.compare(TOMLValue(kind: .table(document.root), position: TOMLPosition(line: 1, column: 1)), expected, at: "") {
                Issue.record("\(path): \(mismatch)")
            } else {
                passed += 1
            }
        }
        print("toml-test 1.0.0 valid: \(passed)/\(files.count) pass, \(leftOut.keys.filter { $0.hasPrefix("valid/") }.count) left out")
        #expect(passed == files.count - leftOut.keys.filter { $0.hasPrefix("valid/") }.count)
    }

    @Test func invalidFilesAreRefusedWithAPosition() throws {
        let files = try Suite.list().filter { $0.hasPrefix("invalid/") }
        var passed = 0
        for path in files where leftOut[path] == nil {
            let bytes = try Suite.bytes(path)
            let lines = bytes.count(where: { $0 == 0x0A }) + 1
            do {
                _ = try TOMLDocument.parse(bytes, file: path)
                Issue.record("\(path): accepted")
            } catch {
                guard error.file == path, error.line >= 1, error.line <= lines, error.column >= 1, !error.message.isEmpty else {
                    Issue.record("\(path): error without a position in the file: \(error)")
                    continue
                }
                passed += 1
            }
        }
        print("toml-test 1.0.0 invalid: \(passed)/\(files.count) refused with a position, \(leftOut.keys.filter { $0.hasPrefix("invalid/") }.count) left out")
        #expect(passed == files.count - leftOut.keys.filter { $0.hasPrefix("invalid/") }.count)
    }
}

/// The README's comparison of a document with its tagged JSON.
enum Tagged {
    static func compare(_ value: TOMLValue, _ json: Any, at path: String) -> String? {
        switch value.kind {
        case let .table(table):
            guard let object = json as? [String: Any], !isScalar(object) else { return "\(path): a table where the JSON has \(json)" }
            let keys = Set(table.entries.map(\.key))
            guard keys == Set(object.keys) else { return "\(path): keys \(keys.sorted()) where the JSON has \(object.keys.sorted())" }
            for entry in table.entries {
                if let m = compare(entry.value, object[entry.key]!, at: path + "." + entry.key) { return m }
            }
            return nil
        case let .array(items):
            guard let array = json as? [Any], array.count == items.count else { return "\(path): an array of \(items.count) where the JSON has \(json)" }
            for (k, item) in items.enumerated() {
                if let m = compare(item, array[k], at: path + "[\(k)]") { return m }
            }
            return nil
        default:
            guard let object = json as? [String: Any], isScalar(object), let type = object["type"] as? String, let text = object["value"] as? String else {
                return "\(path): a scalar \(value.kind) where the JSON has \(json)"
            }
            return scalar(value.kind, type: type, text: text).map { "\(path): \($0)" }
        }
    }

    static func isScalar(_ object: [String: Any]) -> Bool { Set(object.keys) == ["type", "value"] }

    static func scalar(_ kind: TOMLValue.Kind, type: String, text: String) -> String? {
        let mismatch = "\(kind) where the JSON has \(type) \(text)"
        switch kind {
        case let .string(s): return type == "string" && s == text ? nil : mismatch
        case let .integer(n): return type == "integer" && String(n) == text ? nil : mismatch
        case let .bool(b): return type == "bool" && String(b) == text.lowercased() ? nil : mismatch
        case let .float(d):
            guard type == "float" else { return mismatch }
            let e: Double?
            switch text.lowercased() {
            case "inf", "+inf": e = .infinity
            case "-inf": e = -.infinity
            case "nan", "+nan", "-nan": e = .nan
            default: e = Double(text)
            }
            guard let e else { return mismatch }
            return (d.isNaN && e.isNaN) || d == e ? nil : mismatch
        case .offsetDateTime, .localDateTime, .localDate, .localTime:
            // The expected text is RFC 3339, which is TOML: read it with the same reader and
            // compare by value, offset date-times as instants.
            guard let other = try? TOMLDocument.parse("v = \(text)", file: "json")["v"]?.value.kind else { return mismatch }
            let types = ["datetime", "datetime-local", "date-local", "time-local"]
            switch (kind, other) {
            case let (.offsetDateTime(d1, t1, o1), .offsetDateTime(d2, t2, o2)):
                return type == types[0] && instant(d1, t1, o1) == instant(d2, t2, o2) ? nil : mismatch
            case (.localDateTime, .localDateTime): return type == types[1] && kind == other ? nil : mismatch
            case (.localDate, .localDate): return type == types[2] && kind == other ? nil : mismatch
            case (.localTime, .localTime): return type == types[3] && kind == other ? nil : mismatch
            default: return mismatch
            }
        case .array, .table: return mismatch
        }
    }

    static func instant(_ d: TOMLDate, _ t: TOMLTime, _ offset: Int) -> [Int] {
        [d.daysSinceEpoch * 86_400 + t.hour * 3600 + t.minute * 60 + t.second - offset * 60, t.nanosecond]
    }
}

extension TOMLDocument {
    subscript(key: String) -> TOMLEntry? { root[key] }
}

@Suite struct TaggedComparisonTests {
    /// The comparer itself must see a difference, or the suite above would pass on anything.
    @Test func comparerSeesDifferences() throws {
        let document = try TOMLDocument.parse("a = 1\nb = 1979-05-27T07:32:00Z\nc = [1.5]\n", file: "t.toml")
        let value = TOMLValue(kind: .table(document.root), position: TOMLPosition(line: 1, column: 1))
        func json(_ a: String, _ b: String, _ c: String) -> [String: Any] {
            ["a": ["type": "integer", "value": a], "b": ["type": "datetime", "value": b], "c": [["type": "float", "value": c]]]
        }
        #expect(Tagged.compare(value, json("1", "1979-05-27T00:32:00-07:00", "1.50"), at: "") == nil)
        #expect(Tagged.compare(value, json("2", "1979-05-27T07:32:00Z", "1.5"), at: "") != nil)
        #expect(Tagged.compare(value, json("1", "1979-05-27T07:32:01Z", "1.5"), at: "") != nil)
        #expect(Tagged.compare(value, json("1", "1979-05-27T07:32:00Z", "1.25"), at: "") != nil)
        #expect(Tagged.compare(value, ["a": ["type": "integer", "value": "1"]], at: "") != nil)
    }
}
