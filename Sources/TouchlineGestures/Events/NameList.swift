import TouchlineCore

/// Up to `capacity` target or recognizer names, inline, in the order added: an event field
/// that is an array of names (a drag's `items`) with no allocation per event. Inline so that it
/// fits a kind's 64 bytes of fields (GestureDetail.capacity) beside another name: 6 names of
/// one word each, and a count.
public struct NameList: BitwiseCopyable, Hashable, Sendable, Sequence, CustomStringConvertible {
    public static let capacity = 6
    private var storage = InlineArray<6, GestureName?>(repeating: nil)
    private var stored: UInt8 = 0

    public init() {}
    public init(_ names: [GestureName]) {
        for name in names { _ = append(name) }
    }

    public var count: Int { Int(stored) }
    public var isFull: Bool { count >= NameList.capacity }

    /// Adds `name`; false (nothing added) when the list is full.
    public mutating func append(_ name: GestureName) -> Bool {
        guard count < NameList.capacity else { return false }
        storage[count] = name
        stored &+= 1
        return true
    }

    public func contains(_ name: GestureName) -> Bool {
        for i in 0..<count where storage[i] == name { return true }
        return false
    }

    /// Name `i` (i < count).
    public subscript(i: Int) -> GestureName {
        precondition(i >= 0 && i < count, "NameList: index out of range")
        // Set by `append` for every index below `count` (checked: no unchecked access here).
        return storage[i]!
    }

    public func makeIterator() -> IndexingIterator<[GestureName]> { (0..<count).map { self[$0] }.makeIterator() }

    public var description: String { "[" + (0..<count).map { self[$0].description }.joined(separator: ",") + "]" }

    public static func == (a: NameList, b: NameList) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] { return false }
        return true
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for i in 0..<count { hasher.combine(self[i]) }
    }
}
