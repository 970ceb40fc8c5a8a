// A minimal evemu reader for `touchline play` until TouchlineTrace's readers land on main
// (branch `trace`); then play uses them and this file goes. It reads the `N: I: P: B: A: E:`
// lines and nothing more, and finds the `.desc` beside a header-less `.events` file.
import TouchlineCore
import TouchlineInput

struct PlayableTrace {
    var device: DeviceDescription
    var events: [InputEvent]
}

struct TraceFormatError: Error, CustomStringConvertible {
    var path: String
    var line: Int
    var message: String
    var description: String { "\(path):\(line): \(message)" }
}

enum EvemuFallbackReader {
    static func read(path: String) throws -> PlayableTrace {
        let text = String(decoding: try readWholeFile(path), as: UTF8.self)
        var trace = try parse(text, path: path)
        if trace.device.name.isEmpty && trace.device.codes.isEmpty {
            // "Wacom ISDv4 E6 Finger.2fg-tap.events" describes itself in "Wacom ISDv4 E6 Finger.desc".
            let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
            let dir = String(path[..<slash])
            let file = path[slash...]
            let stem = file.firstIndex(of: ".").map { String(file[..<$0]) } ?? String(file)
            let desc = dir + stem + ".desc"
            guard fileExists(desc) else {
                throw TraceFormatError(path: path, line: 1, message: "no device header (N:/B:/A: lines) and no \(desc) beside it")
            }
            let header = try parse(String(decoding: try readWholeFile(desc), as: UTF8.self), path: desc)
            trace.device = header.device
        }
        return trace
    }

    static func parse(_ text: String, path: String) throws -> PlayableTrace {
        var device = DeviceDescription(name: "")
        var events: [InputEvent] = []
        var bitBytes: [UInt16: [UInt8]] = [:]
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine[...]
            guard line.count >= 2, line.dropFirst().first == ":" else { continue }
            // evemu 1.3 appends "# EV_ABS / ABS_MT_SLOT 0" comments after a tab.
            let body = line.dropFirst(2).prefix(while: { $0 != "#" })
            let fields = body.split(whereSeparator: { $0 == " " || $0 == "\t" })
            func bad(_ what: String) -> TraceFormatError {
                TraceFormatError(path: path, line: lineNumber, message: "expected \(what), found \"\(line)\"")
            }
            switch line.first {
            case "N": device.name = String(line.dropFirst(2).drop(while: { $0 == " " }))
            case "I":
                let v = fields.compactMap { UInt16($0, radix: 16) }
                guard v.count == 4 else { throw bad("I: bus vendor product version (hex)") }
                (device.bus, device.vendor, device.product, device.version) = (v[0], v[1], v[2], v[3])
            case "P":
                for (i, f) in fields.enumerated() {
                    guard let byte = UInt8(f, radix: 16) else { throw bad("P: property bytes (hex)") }
                    for bit in 0..<8 where byte & (1 << bit) != 0 { device.properties.append(UInt16(i * 8 + bit)) }
                }
            case "B":
                let v = fields.compactMap { UInt8($0, radix: 16) }
                guard v.count == fields.count, let type = v.first else { throw bad("B: type and bit bytes (hex)") }
                bitBytes[UInt16(type), default: []].append(contentsOf: v.dropFirst())
            case "A":
                guard fields.count >= 5, let code = UInt16(fields[0], radix: 16),
                      let mn = Int32(fields[1]), let mx = Int32(fields[2]), let fuzz = Int32(fields[3]), let flat = Int32(fields[4])
                else { throw bad("A: code min max fuzz flat [resolution]") }
                let res = fields.count > 5 ? Int32(fields[5]) ?? 0 : 0
                device.absinfo[code] = AbsInfo(minimum: mn, maximum: mx, fuzz: fuzz, flat: flat, resolution: res)
            case "E":
                guard fields.count == 4, let type = UInt16(fields[1], radix: 16), let code = UInt16(fields[2], radix: 16),
                      let value = Int32(fields[3]), let time = parseTime(fields[0])
                else { throw bad("E: sec.usec type code value") }
                events.append(InputEvent(time: time, type: type, code: code, value: value))
            default: continue
            }
        }
        for (type, bytes) in bitBytes {
            var list: [UInt16] = []
            for (i, byte) in bytes.enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 { list.append(UInt16(i * 8 + bit)) }
            }
            // B: 00 holds the type bits, not EV_SYN codes.
            device.codes[type] = type == EventCodes.EV_SYN ? [EventCodes.SYN_REPORT] : list
        }
        return PlayableTrace(device: device, events: events)
    }

    static func parseTime(_ s: Substring) -> Timestamp? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let sec = Int64(parts[0]), parts[1].count == 6, let us = Int64(parts[1]) else { return nil }
        return Timestamp(seconds: sec, microseconds: us)
    }
}
