import FuzzSupport
import TouchlineCore

// TouchlineCore's JSONReader on arbitrary bytes (every byte of a socket line is a stranger's):
// every input is a value or an error with a column inside the input, never a trap; a value
// written back as JSON reads back as the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz_support_begin(data, size)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let value = try JSONReader.read(bytes)
        var text: [UInt8] = []
        write(value, to: &text)
        guard let again = try? JSONReader.read(text), again == value else {
            fatalError("a value that does not read back: \(String(decoding: text, as: UTF8.self))")
        }
    } catch {
        if error.reason.isEmpty { fatalError("an error without a reason") }
        if error.column < 1 || error.column > size + 1 { fatalError("column \(error.column) outside an input of \(size) bytes") }
    }
    return 0
}

/// The value as JSON: strings through the writer's escaping, numbers as Swift prints them
/// (which round-trips a Double exactly).
func write(_ value: JSONValue, to out: inout [UInt8]) {
    switch value {
    case .null: out += Array("null".utf8)
    case .bool(let b): out += Array((b ? "true" : "false").utf8)
    case .integer(let n): out += Array(String(n).utf8)
    case .number(let n): out += Array("\(n)".utf8)
    case .string(let s):
        var w = JSONWriter()
        w.appendString(s)
        out += w.bytes
    case .array(let items):
        out.append(UInt8(ascii: "["))
        for (i, item) in items.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            write(item, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    case .object(let members):
        out.append(UInt8(ascii: "{"))
        for (i, member) in members.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            write(.string(member.key), to: &out)
            out.append(UInt8(ascii: ":"))
            write(member.value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
