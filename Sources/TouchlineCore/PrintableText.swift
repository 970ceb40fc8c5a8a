// Text for a person's terminal: a device name or path from a trace is data, and its control
// characters (ESC starts a terminal escape sequence, BEL rings, CR overwrites the line) must
// reach the terminal as visible escapes, not as commands.

extension String {
    /// The text with C0 controls, DEL and the C1 controls (U+0080–U+009F, CSI among them)
    /// written as escapes: ESC as `\e`, BEL `\a`, TAB `\t`, LF `\n`, CR `\r`, any other as
    /// `\xHH` (C1 as `\u{HH}`). The text itself when it has none, which is nearly always.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: { $0.isTerminalControl }) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            guard scalar.isTerminalControl else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x1B: out += "\\e"
            case 0x07: out += "\\a"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x80...: out += "\\u{" + hexDigits(scalar.value) + "}"
            default: out += "\\x" + hexDigits(scalar.value)
            }
        }
        return out
    }
}

extension Unicode.Scalar {
    fileprivate var isTerminalControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}

/// Two uppercase hex digits of a byte-sized value.
private func hexDigits(_ value: UInt32) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(value >> 4 & 0xF)], digits[Int(value & 0xF)]])
}
