// The one file of TouchlineTrace that uses the standard library's unsafe byte operations. The
// readers see each line as a `Span<UInt8>` (bounds-checked, and it cannot outlive the scanner's
// buffer) and come here only for what Span does not offer safely yet in Swift 6.3: a word load,
// a bulk copy, decoding bytes as text, the bytes of a string literal. Each use below says why it
// stays in bounds; keep this file small, so that it can be read whole when it changes.

/// The 8 bytes of `bytes` at `offset` (any alignment) as one little-endian word. Traps, never
/// reads past the span, when fewer than 8 bytes are there.
@inline(__always)
func loadWord(_ bytes: Span<UInt8>, at offset: Int) -> UInt64 {
    // `unsafeLoadUnaligned(fromByteOffset:)` checks offset..<offset + 8 against the span before
    // it loads; it is marked unsafe only because a type loaded from raw bytes may not be valid
    // for every bit pattern, and every bit pattern is a valid UInt64.
    UInt64(littleEndian: unsafe bytes.bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self))
}

/// The index of the first `\n` in b[from...], or -1. Scans a word at a time: the hot path of
/// every reader is finding line ends. `from` is checked once against the span; a checked load
/// per word cost a third of this loop (45 instructions per line).
@inline(__always)
func findNewline(_ b: Span<UInt8>, from: Int) -> Int {
    let to = b.count
    precondition(from >= 0 && from <= to, "findNewline: start outside the buffer")
    // Span<UInt8>'s bytes are marked unsafe only because some element types have padding;
    // UInt8 has none, so the raw view is exactly the span's bytes.
    let bytes = unsafe b.bytes
    var i = from
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let pattern: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
    // In bounds: 0 <= from <= i, and each loop runs only while i + 16 (or i + 8) <= to, the
    // span's byte count, so every load reads bytes i..<i + 16 (i..<i + 8) of the span.
    // Two words per step: lines are 60-80 bytes, so the loop's own cost matters.
    while i + 16 <= to {
        let w0 = UInt64(littleEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: i, as: UInt64.self)) ^ pattern
        let w1 = UInt64(littleEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: i + 8, as: UInt64.self)) ^ pattern
        let za = (w0 &- ones) & ~w0 & highs
        let zb = (w1 &- ones) & ~w1 & highs
        if za | zb != 0 {
            return za != 0 ? i + (za.trailingZeroBitCount >> 3) : i + 8 + (zb.trailingZeroBitCount >> 3)
        }
        i += 16
    }
    while i + 8 <= to {
        let word = UInt64(littleEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: i, as: UInt64.self)) ^ pattern
        let zero = (word &- ones) & ~word & highs
        if zero != 0 { return i + (zero.trailingZeroBitCount >> 3) }
        i += 8
    }
    while i < to {
        if b[i] == 0x0A { return i }
        i += 1
    }
    return -1
}

/// Appends as much of `bytes` as `buffer` has room for; returns how many were appended.
@inline(__always) @discardableResult
func append(_ bytes: Span<UInt8>, to buffer: inout OutputSpan<UInt8>) -> Int {
    let n = min(bytes.count, buffer.freeCapacity)
    guard n > 0 else { return 0 }
    unsafe buffer.withUnsafeMutableBufferPointer { out, initialized in
        unsafe bytes.withUnsafeBufferPointer { source in
            // In bounds: out holds `initialized` bytes then freeCapacity >= n free ones, and
            // source holds count >= n; n > 0, so neither base address is nil.
            unsafe (out.baseAddress! + initialized).initialize(from: source.baseAddress!, count: n)
        }
        initialized += n
    }
    return n
}

/// Appends `bytes` to `array`.
@inline(__always)
func append(_ bytes: Span<UInt8>, to array: inout [UInt8]) {
    // The buffer pointer covers exactly the span's count bytes; append copies that many.
    unsafe bytes.withUnsafeBufferPointer { unsafe array.append(contentsOf: $0) }
}

/// The bytes as text, invalid UTF-8 replaced by U+FFFD (as `String(decoding:as:)` does).
func text(of bytes: Span<UInt8>) -> String {
    // The buffer pointer covers exactly the span's bytes and does not outlive the call.
    unsafe bytes.withUnsafeBufferPointer { unsafe String(decoding: $0, as: UTF8.self) }
}

/// Runs `body` on the bytes of a string literal (ASCII in every use).
@inline(__always)
func withBytes<R, E: Error>(of literal: StaticString, _ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
    // A literal's bytes are static: the span over utf8CodeUnitCount bytes from utf8Start is
    // valid for the whole call. A literal that is one Unicode scalar has no pointer.
    precondition(literal.hasPointerRepresentation, "a string literal, not a single scalar")
    return try unsafe body(Span(_unsafeStart: literal.utf8Start, count: literal.utf8CodeUnitCount))
}
