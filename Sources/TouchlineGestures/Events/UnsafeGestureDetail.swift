// The one place that reads and writes a gesture's fields as bytes: `GestureDetail` holds any
// kind's fields (a `GestureFields` value of at most `capacity` bytes, BitwiseCopyable) inline,
// with their type, so that an event holds no reference and making one allocates nothing (an
// existential `any GestureFields` boxes values over three words on the heap: one allocation per
// event). Bytes are only read back as the type they were written as (`fields(as:)` checks the
// type first); no pointer leaves this file.

import TouchlineCore

/// A gesture's own fields, of whichever kind made them.
public struct GestureDetail: Hashable, Sendable, CustomStringConvertible {
    /// Most bytes a kind's fields may take.
    public static let capacity = 64

    /// The fields' type (the kind's `GestureFields`).
    public let fieldsType: any GestureFields.Type
    /// The fields' bytes, the rest zero.
    private var raw: InlineArray<8, UInt64>

    /// Holds `fields`. Their type must fit `capacity` bytes at 8-byte alignment: a kind whose
    /// fields do not is a programming error (caller misuse), found by its first test.
    @inline(__always) public init<F: GestureFields>(_ fields: F) {
        precondition(MemoryLayout<F>.size <= GestureDetail.capacity && MemoryLayout<F>.alignment <= 8,
                      "GestureDetail: a kind's fields take at most 64 bytes at 8-byte alignment")
        fieldsType = F.self
        raw = InlineArray(repeating: 0)
        // In bounds: checked above (the bytes of an InlineArray<8, UInt64> are 64, 8-aligned).
        withUnsafeMutableBytes(of: &raw) { $0.storeBytes(of: fields, as: F.self) }
    }

    /// The fields, when they are of type `F`.
    @inline(__always) public func fields<F: GestureFields>(as _: F.Type) -> F? {
        guard fieldsType == F.self else { return nil }
        // Written as `F` by `init` (the type was checked just above), so in bounds and aligned.
        return withUnsafeBytes(of: raw) { $0.load(as: F.self) }
    }
}

extension GestureFields {
    public static func _forEachField(of detail: borrowing GestureDetail, _ body: (StaticString, FieldValue) -> Void) {
        detail.fields(as: Self.self)?.forEachField(body)
    }
}
