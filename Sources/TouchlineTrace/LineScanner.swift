import TouchlineCore

// Lines out of a ByteSource with memory bounded by the longest allowed line: a 100 MB trace
// streams through one fixed buffer, and a binary file without newlines ends in an error
// instead of an ever-growing buffer.

/// Splits a byte source into lines, tracking 1-based line numbers. `\n` and `\r\n` both end a
/// line; the last line may lack its newline.
struct LineScanner {
    private var source: any ByteSource
    let fileName: String
    let maxLineLength: Int
    /// The bytes read and not yet dropped: `buffer.count` is where the next read appends. Its
    /// capacity is fixed at `capacity`, maxLineLength plus one read chunk, so that a partial line
    /// never crowds out a read and the buffer is allocated once.
    private(set) var buffer: [UInt8]
    private let capacity: Int
    private var start = 0
    private var end: Int { buffer.count }
    private var searched = 0
    private var sourceEnded = false
    /// The number of the current line (0 before the first).
    private(set) var lineNumber = 0
    /// The current line's bytes in `buffer`, without its line ending.
    private(set) var lineStart = 0
    private(set) var lineEnd = 0
    /// Whether any byte has been read at all (an empty file is its own error).
    private(set) var sawBytes = false
    /// The source's offset of `buffer[0]`: bytes dropped by `fill` plus where the source started.
    private var dropped = 0

    /// How much one read asks for: 64 KiB, less when lines are limited to less (fuzzing).
    private let chunkSize: Int

    init(source: any ByteSource, fileName: String, maxLineLength: Int) {
        self.source = source
        self.fileName = fileName
        self.maxLineLength = max(16, maxLineLength)
        self.chunkSize = min(64 * 1024, max(4096, self.maxLineLength))
        self.capacity = self.maxLineLength + chunkSize
        self.buffer = []
        buffer.reserveCapacity(capacity)
    }

    /// A scanner that continues a file from `offset`, the start of line `lineNumber + 1`:
    /// `source` must already be there (a device section read in place, TraceReader+Devices).
    init(continuing source: any ByteSource, at offset: Int, lineNumber: Int, fileName: String, maxLineLength: Int) {
        self.init(source: source, fileName: fileName, maxLineLength: maxLineLength)
        self.dropped = offset
        self.lineNumber = lineNumber
        self.sawBytes = true
    }

    /// The source offset of the byte after the current line's end (where the next line starts).
    var nextLineOffset: Int { dropped + start }

    /// Whether the source can be read again from any offset (TraceReader+Devices).
    var sourceIsRereadable: Bool { source.isRereadable }

    func error(_ message: String, line: Int? = nil, column: Int? = nil) -> TraceError {
        TraceError(file: fileName, line: line ?? max(1, lineNumber), message: message, column: column)
    }

    /// Moves to the next line; false at the end of the source.
    mutating func nextLine() throws(TraceError) -> Bool {
        while true {
            let newline = findNewline(buffer.span, from: searched)
            if newline >= 0 {
                var lineEnd = newline
                if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                self.lineStart = start
                self.lineEnd = lineEnd
                start = newline + 1
                searched = start
                lineNumber += 1
                if lineEnd - lineStart > maxLineLength { throw tooLong() }
                return true
            }
            searched = end
            if end - start > maxLineLength { throw tooLong() }
            if sourceEnded {
                guard start < end else { return false }
                var lineEnd = end
                if buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                self.lineStart = start
                self.lineEnd = lineEnd
                start = end
                searched = end
                lineNumber += 1
                return true
            }
            try fill()
        }
    }

    private func tooLong() -> TraceError {
        error("a line longer than \(maxLineLength) bytes: expected a text trace with lines (is this a binary file?)", line: lineNumber + 1)
    }

    private mutating func fill() throws(TraceError) {
        if capacity - end < chunkSize {
            // Keep the partial line, drop what is consumed (a move within the buffer: the array
            // is this scanner's alone, so it keeps its storage and capacity).
            buffer.removeSubrange(0..<start)
            searched -= start
            dropped += start
            start = 0
        }
        let before = end
        do {
            // Appends within the reserved capacity: no allocation.
            try buffer.append(addingCapacity: capacity - end) { (free: inout OutputSpan<UInt8>) throws in
                try source.read(into: &free)
            }
        } catch {
            // The file is named once, by this error (a source's own error names it too).
            let reason = (error as? any ByteSourceError)?.reason ?? "\(error)"
            throw self.error("could not read: \(reason)", line: lineNumber + 1)
        }
        if end == before {
            sourceEnded = true
        } else {
            sawBytes = true
        }
    }

    /// Runs `body` on the current line's bytes.
    @inline(__always)
    func withLine<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(buffer.span.extracting(lineStart..<lineEnd))
    }

    /// The current line as text, for header values and messages.
    var lineText: String { withLine { text(of: $0) } }
}

// MARK: - Byte-level field parsing shared by the readers

extension UInt8 {
    @inline(__always) var isSpaceOrTab: Bool { self == 0x20 || self == 0x09 }
    @inline(__always) var isDigit: Bool { self &- 0x30 < 10 }
}

/// A read position in one line. Parsing never allocates unless it fails. It cannot outlive the
/// line it reads (the span's lifetime is its own).
struct ByteCursor: ~Escapable {
    let bytes: Span<UInt8>
    var index: Int

    @_lifetime(copy bytes)
    @inline(__always) init(_ bytes: Span<UInt8>, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    @inline(__always) var atEnd: Bool { index >= bytes.count }
    @inline(__always) var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(__always) mutating func skipSpaces() {
        while index < bytes.count && bytes[index].isSpaceOrTab { index += 1 }
    }

    /// Consumes `byte` if it is next.
    @inline(__always) mutating func take(_ byte: UInt8) -> Bool {
        if index < bytes.count && bytes[index] == byte { index += 1; return true }
        return false
    }

    /// Consumes `prefix` if the bytes start with it.
    mutating func take(_ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard bytes.count - index >= n else { return false }
        let matches = withBytes(of: prefix) { p in
            for k in 0..<n where bytes[index + k] != p[k] { return false }
            return true
        }
        if matches { index += n }
        return matches
    }

    /// An unsigned decimal of 1 to `maxDigits` digits.
    @inline(__always) mutating func unsignedDecimal(maxDigits: Int = 18) -> Int64? {
        var value: Int64 = 0
        let first = index
        while index < bytes.count {
            let d = bytes[index] &- 0x30
            if d >= 10 { break }
            value = value &* 10 &+ Int64(d)
            index += 1
        }
        let n = index - first
        return n == 0 || n > maxDigits ? nil : value
    }

    /// A decimal with an optional sign.
    @inline(__always) mutating func signedDecimal() -> Int64? {
        var negative = false
        if index < bytes.count {
            if bytes[index] == 0x2D { negative = true; index += 1 }
            else if bytes[index] == 0x2B { index += 1 }
        }
        guard let v = unsignedDecimal() else { return nil }
        return negative ? -v : v
    }

    /// A hexadecimal of 1 to `maxDigits` digits, with an optional `0x`.
    @inline(__always) mutating func hex(maxDigits: Int = 16) -> UInt64? {
        if index + 1 < bytes.count && bytes[index] == 0x30 && (bytes[index + 1] | 0x20) == 0x78
            && index + 2 < bytes.count && hexValue(bytes[index + 2]) != nil {
            index += 2
        }
        var value: UInt64 = 0
        let first = index
        while index < bytes.count, let d = hexValue(bytes[index]) {
            value = value &<< 4 | UInt64(d)
            index += 1
        }
        let n = index - first
        return n == 0 || n > maxDigits ? nil : value
    }

    /// Whether the rest is only spaces, optionally followed by a `#` comment.
    mutating func atEndOrComment() -> Bool {
        skipSpaces()
        return atEnd || bytes[index] == 0x23
    }

    /// The next run of non-space bytes.
    mutating func token() -> Range<Int> {
        let first = index
        while index < bytes.count && !bytes[index].isSpaceOrTab { index += 1 }
        return first..<index
    }

    func text(_ range: Range<Int>) -> String {
        TouchlineTrace.text(of: bytes.extracting(range))
    }

    var rest: String { text(min(index, bytes.count)..<bytes.count) }
}

extension ByteCursor {
    /// The end of the field that starts at `start`: the next space or tab, or one of `stops`.
    func fieldEnd(from start: Int, stops: StaticString = "") -> Int {
        withBytes(of: stops) { p in
            var e = start
            scan: while e < bytes.count && !bytes[e].isSpaceOrTab {
                for k in p.indices where bytes[e] == p[k] { break scan }
                e += 1
            }
            return e
        }
    }

    /// The whole field that starts at `start`, quoted for a message, whatever a failed parse
    /// consumed of it ("'655z35'", not the "'z35'" left after the digits).
    func found(from start: Int, stops: StaticString = "") -> String {
        var k = start
        while k < bytes.count && bytes[k].isSpaceOrTab { k += 1 }
        guard k < bytes.count else { return "the end of the line" }
        let e = fieldEnd(from: k, stops: stops)
        // A field that is only a delimiter (",", "]"): show it, so the message names something.
        return quoted(bytes.extracting(k..<max(e, k + 1)), limit: 24)
    }

    /// Whether the field at `start` is an integer in decimal (a sign, then digits only): one
    /// that was refused for its size, not its spelling.
    func isDecimalInteger(from start: Int, stops: StaticString = "") -> Bool {
        var k = start
        while k < bytes.count && bytes[k].isSpaceOrTab { k += 1 }
        if k < bytes.count && (bytes[k] == 0x2D || bytes[k] == 0x2B) { k += 1 }
        let e = fieldEnd(from: k, stops: stops)
        guard e > k else { return false }
        for i in k..<e where !bytes[i].isDigit { return false }
        return true
    }

    /// The message for a decimal field at `start` that did not parse as a 32-bit value: its
    /// size if it is a number, its text otherwise.
    func int32FieldProblem(_ what: String, from start: Int, stops: StaticString = "", expected: String) -> String {
        let field = found(from: start, stops: stops)
        if isDecimalInteger(from: start, stops: stops) {
            return "\(what) \(field) does not fit in 32 bits: expected -2147483648 to 2147483647"
        }
        return "expected \(expected), found \(field)"
    }
}

@inline(__always) func hexValue(_ c: UInt8) -> UInt8? {
    let d = c &- 0x30
    if d < 10 { return d }
    let l = (c | 0x20) &- 0x61
    if l < 6 { return l + 10 }
    return nil
}

/// "0x0003", as messages print types and codes.
func hex4(_ value: some BinaryInteger) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var v = UInt64(truncatingIfNeeded: value)
    var out: [UInt8] = []
    repeat { out.append(digits[Int(v & 15)]); v >>= 4 } while v != 0
    while out.count < 4 { out.append(0x30) }
    return "0x" + String(decoding: out.reversed(), as: UTF8.self)
}

/// A line quoted for an error message, shortened and with control bytes shown as `?`.
func quoted(_ line: Span<UInt8>, limit: Int = 60) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(min(line.count, limit))
    for i in 0..<min(line.count, limit) { bytes.append(line[i] < 0x20 || line[i] == 0x7F ? 0x3F : line[i]) }
    let text = String(decoding: bytes, as: UTF8.self)
    return "'" + text + (line.count > limit ? "…'" : "'")
}

/// Checks a type and code against the kernel's tables, as every reader does for every event.
@inline(__always)
func validateEvent(type: UInt64, code: UInt64) throws(LineError) {
    guard type <= UInt64(UInt16.max), let maxCode = EventCodes.maxCode(type: UInt16(type)) else {
        throw LineError("unknown event type \(hex4(type)): expected a type the kernel defines (EV_SYN, EV_KEY, EV_ABS, ...)")
    }
    guard code <= UInt64(maxCode) else {
        let name = EventCodes.typeName(UInt16(type)) ?? hex4(type)
        throw LineError("event code \(hex4(code)) is out of range for \(name): expected at most \(hex4(maxCode))")
    }
}
