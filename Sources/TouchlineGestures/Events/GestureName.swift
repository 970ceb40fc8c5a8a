import TouchlineCore

/// A target's or recognizer's name from the configuration, as events and reasons carry it.
///
/// Names are interned once (`InternedString`), so
/// a name is one word with no reference count: an event (and a `Reason`) copies as plain bytes
/// and making one costs no retain and no release. With `String` fields, every event paid four
/// atomic reference-count operations and every action copy an outlined copy; together that was
/// the largest share of a frame (docs/performance.md). A name made with `init(_:)` lives as long
/// as the process, as a graph's are by default; the daemon holds each graph's names while the
/// graph runs (`InternedString.Hold`, LiveSession) and builds the graph with `sharingNames`
/// (`init(sharing:)`), so that the names clients registered are freed once no graph uses them.
public struct GestureName: BitwiseCopyable, Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name and its JSON form.
    public let interned: InternedString

    public init(_ name: String) { interned = InternedString(name) }
    /// The entry a hold keeps, without keeping it (`InternedString.init(sharing:)`): valid
    /// while that hold lives; with none, as `init(_:)`.
    public init(sharing name: String) { interned = InternedString(sharing: name) }
    public init(stringLiteral value: String) { self.init(value) }

    /// The name.
    public var description: String { interned.description }

    // Interned, so equal names share one entry and identity is equality.
    public static func == (a: GestureName, b: GestureName) -> Bool { a.interned == b.interned }
    public func hash(into hasher: inout Hasher) { hasher.combine(interned) }
    public static func < (a: GestureName, b: GestureName) -> Bool { a.description < b.description }

    /// The name as the configuration spelled it.
    public static func == (a: GestureName, b: String) -> Bool { a.description == b }
}
