// `touchline listen --format text`: the socket's JSON lines as the text rows `replay --format
// text` prints. The members are read in their order (the kind's values follow the common keys
// in the order the kind declares them, which a dictionary would forget), each value kept as
// the JSON writes it, strings unquoted, so both commands print the same rows.
import TouchlineCore
import TouchlineGestures

enum ListenText {
    /// The keys every event has, which the text's fixed columns show or leave out.
    static let common: Set<String> = ["v", "seq", "time", "device", "gesture", "phase", "target", "fingers", "x", "y", "recognizer", "contacts"]

    /// One JSON line as a text row (with its newline), or nil when it is not an event object
    /// (a drop report, a reply): those are printed as they came.
    static func row(_ line: ArraySlice<UInt8>, into writer: inout TextEventWriter) -> Bool {
        guard let members = members(Array(line)) else { return false }
        var values: [String: String] = [:]
        for (key, value) in members where common.contains(key) { values[key] = value }
        guard let gesture = values["gesture"], let phase = values["phase"], let time = values["time"].flatMap(Double.init) else { return false }
        writer.beginLine(
            time: Timestamp(microseconds: Int64((time * 1_000_000).rounded())), device: values["device"].flatMap(Int.init) ?? 0,
            gesture: gesture, phase: phase, fingers: values["fingers"].flatMap(Int.init) ?? 0,
            target: values["target"] ?? "", recognizer: values["recognizer"] ?? "")
        for (key, value) in members where !common.contains(key) { writer.field(key, value) }
        writer.endLine()
        return true
    }

    /// `--relative-time`: the line with its `"time"` counted from `origin`, the first event's
    /// time (set by the first line that has one), written as the daemon writes times (µs, 6
    /// decimals); the line as it came when it has no time (a drop report). The daemon writes
    /// `"time"` among the first members, before any string a client named, so the first
    /// `"time":` is the member.
    static func relativeTime(_ line: ArraySlice<UInt8>, origin: inout Int64?) -> [UInt8] {
        let key = Array("\"time\":".utf8)
        guard let start = line.firstRange(of: key)?.upperBound else { return Array(line) }
        var end = start
        while end < line.endIndex, line[end] != UInt8(ascii: ","), line[end] != UInt8(ascii: "}") { end += 1 }
        guard let seconds = Double(String(decoding: line[start..<end], as: UTF8.self)), seconds.isFinite, abs(seconds) < 1e12 else { return Array(line) }
        let time = Int64((seconds * 1_000_000).rounded())
        let first = origin ?? time
        origin = first
        var out = Array(line[..<start])
        appendFixed(max(0, time - first), decimals: 6, to: &out)
        out += line[end...]
        return out
    }

    /// A flat object's members in order, each value as text: a string's content, an array of
    /// strings or numbers as `[a,b]`, anything else verbatim. Nil for anything else.
    static func members(_ bytes: [UInt8]) -> [(String, String)]? {
        var i = 0
        func skipSpace() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0d { i += 1 } }
        func string() -> String? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            let start = i
            i += 1
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
            guard i < bytes.count else { return nil }
            i += 1
            guard case .string(let text)? = try? JSONReader.read(bytes[start..<i]) else { return nil }
            return text
        }
        func scalar() -> String? {
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "\"") { return string() }
            let start = i
            while i < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20].contains(bytes[i]) { i += 1 }
            return i > start ? String(decoding: bytes[start..<i], as: UTF8.self) : nil
        }
        func value() -> String? {
            skipSpace()
            guard i < bytes.count else { return nil }
            guard bytes[i] == UInt8(ascii: "[") else { return scalar() }
            i += 1
            var elements: [String] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return "[]" }
            while true {
                guard let element = scalar() else { return nil }
                elements.append(element)
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return "[" + elements.joined(separator: ",") + "]" }
                guard bytes[i] == UInt8(ascii: ",") else { return nil }
                i += 1
            }
        }
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        var result: [(String, String)] = []
        while true {
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { return result }
            guard let key = string() else { return nil }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            guard let v = value() else { return nil }
            result.append((key, v))
            skipSpace()
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            guard bytes[i] == UInt8(ascii: "}") else { return nil }
            return result
        }
    }
}
