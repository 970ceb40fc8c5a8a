import FastPathScripts
import Foundation
import Testing
import TouchlineCore
@testable import TouchlineGestures
import TouchlineTesting

// Every event the graph writes validates against docs/event-schema-v1.json, with its keys in
// the documented order and its numbers at the documented precision.

/// A JSON Schema validator for the keywords the event schema uses: type, const, enum,
/// minimum, required, properties, additionalProperties, items, allOf, if/then.
struct SchemaValidator {
    let schema: [String: Any]

    func errors(_ value: Any, _ schema: [String: Any], path: String) -> [String] {
        var out: [String] = []
        // A list of types (`["string", "null"]`, schema 1.1): any of them.
        if let types = schema["type"] as? [String] {
            let ok = types.contains { errors(value, ["type": $0], path: path).isEmpty }
            if !ok { out.append("\(path): expected one of \(types), found \(value)") }
        }
        if let type = schema["type"] as? String {
            let ok: Bool
            switch type {
            case "null": ok = value is NSNull
            case "object": ok = value is [String: Any]
            case "array": ok = value is [Any]
            case "string": ok = value is String
            case "integer":
                // Events hold no booleans, so an NSNumber is a number here.
                if let n = value as? NSNumber { ok = n.doubleValue == n.doubleValue.rounded() } else { ok = false }
            case "number":
                ok = value is NSNumber
            case "boolean": ok = value is Bool
            default: ok = false
            }
            if !ok { out.append("\(path): expected \(type), found \(value)") }
        }
        if let c = schema["const"] { if !equal(value, c) { out.append("\(path): expected \(c), found \(value)") } }
        if let e = schema["enum"] as? [Any], !e.contains(where: { equal(value, $0) }) { out.append("\(path): \(value) is not one of \(e)") }
        if let minimum = schema["minimum"] as? Double, let n = value as? NSNumber, n.doubleValue < minimum { out.append("\(path): \(n) < \(minimum)") }
        if let object = value as? [String: Any] {
            for key in (schema["required"] as? [String]) ?? [] where object[key] == nil { out.append("\(path): missing \(key)") }
            let properties = (schema["properties"] as? [String: Any]) ?? [:]
            for (key, v) in object {
                if let sub = properties[key] as? [String: Any] { out += errors(v, sub, path: "\(path).\(key)") }
                else if schema["additionalProperties"] as? Bool == false { out.append("\(path): unexpected key \(key)") }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (k, v) in array.enumerated() { out += errors(v, items, path: "\(path)[\(k)]") }
        }
        for sub in (schema["allOf"] as? [[String: Any]]) ?? [] {
            if let condition = sub["if"] as? [String: Any] {
                if errors(value, condition, path: path).isEmpty, let then = sub["then"] as? [String: Any] { out += errors(value, then, path: path) }
            } else {
                out += errors(value, sub, path: path)
            }
        }
        return out
    }

    func equal(_ a: Any, _ b: Any) -> Bool {
        if let a = a as? String, let b = b as? String { return a == b }
        if let a = a as? NSNumber, let b = b as? NSNumber { return a == b }
        return false
    }

    func validate(_ line: String) -> [String] {
        guard let data = line.data(using: .utf8), let value = try? JSONSerialization.jsonObject(with: data) else { return ["not JSON: \(line)"] }
        return errors(value, schema, path: "$")
    }
}

/// The top-level keys of a JSON object line, in order, with each value's raw text.
func topLevelFields(_ line: String) -> [(key: String, raw: String)] {
    let bytes = Array(line.utf8)
    var fields: [(String, String)] = []
    var i = 1
    func skipString() { i += 1; while i < bytes.count && bytes[i] != UInt8(ascii: "\"") { if bytes[i] == UInt8(ascii: "\\") { i += 1 }; i += 1 }; i += 1 }
    while i < bytes.count - 1 {
        let keyStart = i + 1
        skipString()
        let key = String(decoding: bytes[keyStart..<(i - 1)], as: UTF8.self)
        i += 1 // ':'
        let valueStart = i
        var depth = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { skipString(); continue }
            if c == UInt8(ascii: "[") || c == UInt8(ascii: "{") { depth += 1 }
            if c == UInt8(ascii: "]") || c == UInt8(ascii: "}") {
                if depth == 0 { break }
                depth -= 1
            }
            if c == UInt8(ascii: ",") && depth == 0 { break }
            i += 1
        }
        fields.append((key, String(decoding: bytes[valueStart..<i], as: UTF8.self)))
        i += 1
    }
    return fields
}

@Suite struct SchemaTests {
    static var schema: [String: Any] {
        let path = Paths.root.appendingPathComponent("docs/event-schema-v1.json").path
        let data = FileManager.default.contents(atPath: path) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// Lines from every kind of event: the golden recordings, a real trace and random streams,
    /// with explain lines.
    static func sampleLines() throws -> [String] {
        var lines: [String] = []
        for recording in Golden.recordings {
            let trace = try assemble(path: Paths.recordings.appendingPathComponent(recording).path)
            lines += try GestureHarness.replay(trace.frames, surface: trace.surface, explain: true).map(\.json)
        }
        lines += try replayTrace("xorg-integration-tests/n4.events", explain: true).1.map(\.json)
        lines += try DragSpringTests.everyScenario().map(\.json)
        // Peek, pop and peekActions, from every source (PeekTests' graph).
        for source in [0, 1, 2] {
            var h = try GestureHarness(configuration: peekGraph(), rate: 60, explain: true)
            let pressure: Double? = source == 0 ? 0.2 : nil, size: Double? = source == 1 ? 9 : nil
            h.down(0, at: p(60, 60), pressure: pressure, touchMajor: size)
            h.wait(550)
            h.press(0, pressure: pressure.map { _ in 0.6 }, touchMajor: size.map { _ in 16 }, over: 50)
            h.move(0, to: p(60, 45), over: 100)
            h.press(0, pressure: pressure.map { _ in 0.9 }, touchMajor: size.map { _ in 19 }, over: 50)
            h.wait(500)
            h.up(0)
            lines += h.jsonLines
        }
        for seed in Seeds.cases(30, base: 0x5C4E_0001) {
            let s = randomScript(seed: seed)
            lines += try GestureHarness.replay(s.frames, surface: s.surface, explain: true).map(\.json)
        }
        return lines
    }

    @Test func everyEventValidatesWithKeysInOrderAndFixedPrecision() throws {
        #expect(!Self.schema.isEmpty, "docs/event-schema-v1.json did not load")
        let validator = SchemaValidator(schema: Self.schema)
        let order = Self.schema["x-key-order"] as? [String: [String]] ?? [:]
        let decimals = Self.schema["x-decimals"] as? [String: Int] ?? [:]
        let lines = try Self.sampleLines()
        var gestures = Set<String>()
        var failures = 0
        for line in lines where failures < 10 {
            let problems = validator.validate(line)
            if !problems.isEmpty { failures += 1; Issue.record("\(line)\n\(problems.joined(separator: "\n"))") }
            let fields = topLevelFields(line)
            let gesture = fields.first { $0.key == "gesture" }?.raw.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? ""
            gestures.insert(gesture)
            // A kind's optional keys (peek's pressure, touchMajor, end) may be absent; those present
            // keep the order, and the schema says which are required.
            let present = Set(fields.map(\.key))
            let expectedOrder = ((order["common"] ?? []) + (order[gesture] ?? []) + (order["last"] ?? [])).filter(present.contains)
            if fields.map(\.key) != expectedOrder { failures += 1; Issue.record("key order \(fields.map(\.key)) ≠ \(expectedOrder) in \(line)") }
            for (key, raw) in fields {
                guard let places = decimals[key] else { continue }
                let actual = raw.firstIndex(of: ".").map { raw.distance(from: $0, to: raw.endIndex) - 1 } ?? 0
                if actual != places { failures += 1; Issue.record("\(key) has \(actual) decimals, not \(places), in \(line)") }
            }
        }
        #expect(gestures == ["tap", "longPress", "pan", "swipe", "edgeSwipe", "pinch", "rotate", "peek", "pop", "peekActions", "drag", "spring", "explain"],
                "kinds covered: \(gestures.sorted())")
    }

    @Test func schemaRejectsWhatItShould() {
        let validator = SchemaValidator(schema: Self.schema)
        let good = #"{"v":1,"seq":0,"time":0.080000,"device":0,"gesture":"tap","phase":"recognized","target":"surface","fingers":1,"x":50.00,"y":50.00,"recognizer":"tap","count":1,"duration":0.080000,"contacts":[0]}"#
        #expect(validator.validate(good).isEmpty)
        #expect(!validator.validate(good.replacingOccurrences(of: #""v":1"#, with: #""v":2"#)).isEmpty)
        #expect(!validator.validate(good.replacingOccurrences(of: #","count":1"#, with: "")).isEmpty)
        #expect(!validator.validate(good.replacingOccurrences(of: #""phase":"recognized""#, with: #""phase":"began""#)).isEmpty)
        #expect(!validator.validate(good.replacingOccurrences(of: #""contacts":[0]"#, with: #""contacts":[0],"extra":1"#)).isEmpty)
    }
}

/// Gesture events are written through a pointer into scratch memory (`JSONWriter.appendObject`);
/// the bytes must be those of the writer's piece-by-piece methods, for every kind and for wild
/// numbers (huge, negative, not finite) and full contact lists.
@Suite struct EventWriterTests {
    @Test(arguments: Seeds.cases(400, base: 0x15_0A_11_2E))
    func scratchPathWritesThePieceByPieceBytes(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        func number() -> Double {
            switch rng.int(0...9) {
            case 0: return [Double.nan, .infinity, -.infinity, -0.0, 1e300, -1e300][rng.int(0...5)]
            case 1: return rng.double(-1e12...1e12)
            default: return rng.double(-500...500)
            }
        }
        func vector() -> Vector { Vector(dx: number(), dy: number()) }
        let interval = Interval(microseconds: Int64(rng.int(-1_000_000...100_000_000)))
        let details: [GestureDetail] = [
            .tap(count: rng.int(0...5), duration: interval), .longPress(duration: interval),
            .pan(translation: vector(), velocity: vector()),
            .swipe(direction: SwipeDirection.allCases[rng.int(0...3)], translation: vector(), velocity: vector(), duration: interval),
            .edgeSwipe(edge: ScreenEdge.allCases[rng.int(0...3)], translation: vector(), velocity: vector()),
            .pinch(scale: number(), velocity: number(), span: number()), .rotate(rotation: number(), velocity: number()),
        ]
        var contacts = ContactList()
        for _ in 0..<rng.int(0...20) { contacts.append(ContactID(UInt32(truncatingIfNeeded: rng.next()))) }
        let event = GestureEvent(
            seq: rng.chance(0.1) ? Int.max : rng.int(0...1_000_000), time: Timestamp(microseconds: Int64(rng.int(-5_000_000...Int(Int32.max)))),
            device: rng.int(0...3), gesture: RecognizerRegistry.standard.kinds[rng.int(0...6)].gesture, phase: GesturePhase.allCases[rng.int(0...4)],
            target: "surface", recognizer: "pan \"quoted\"", fingers: rng.int(0...40), position: Point(x: number(), y: number()),
            contacts: contacts, detail: details[rng.int(0...details.count - 1)])
        var fast = JSONWriter(), reference = JSONWriter()
        for _ in 0..<2 {
            event.writeJSON(into: &fast)
            event.writeJSONPieceByPiece(into: &reference)
        }
        #expect(fast.string == reference.string, "seed \(seed)")
    }
}
