import Synchronization
import TouchlineCore

/// A target's or recognizer's name from the configuration, as events and reasons carry it.
///
/// Names are interned once, in storage that lives as long as the process, so a name is two
/// words with no reference count: an event (and a `Reason`) copies as plain bytes and making
/// one costs no retain and no release. With `String` fields, every event paid four atomic
/// reference-count operations and every action copy an outlined copy; together that was the
/// largest share of a frame (docs/performance.md). The set of names is the configuration's, so
/// the interned storage is bounded by the distinct names a process ever configures.
public struct GestureName: Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The interned entry: the UTF-8 bytes, then the same name quoted and escaped for JSON.
    private let entry: UnsafeRawPointer

    public init(_ name: String) { entry = GestureName.intern(name) }
    public init(stringLiteral value: String) { self.init(value) }

    /// The name.
    public var description: String {
        String(decoding: UnsafeRawBufferPointer(start: entry + 2 * MemoryLayout<Int>.stride, count: utf8Count), as: UTF8.self)
    }

    private var utf8Count: Int { entry.load(as: Int.self) }
    private var jsonCount: Int { entry.load(fromByteOffset: MemoryLayout<Int>.stride, as: Int.self) }

    /// The name as a JSON string: quoted, escaped as JSON requires.
    public var jsonBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: entry + 2 * MemoryLayout<Int>.stride + utf8Count, count: jsonCount)
    }

    // Interned, so equal names share one entry and identity is equality.
    public static func == (a: GestureName, b: GestureName) -> Bool { a.entry == b.entry }
    public func hash(into hasher: inout Hasher) { hasher.combine(entry) }
    public static func < (a: GestureName, b: GestureName) -> Bool { a.description < b.description }

    /// The name as the configuration spelled it.
    public static func == (a: GestureName, b: String) -> Bool { a.description == b }

    /// Name → address of its entry.
    private static let table = Mutex<[String: UInt]>([:])

    private static func intern(_ name: String) -> UnsafeRawPointer {
        let address = table.withLock { table -> UInt in
            if let entry = table[name] { return entry }
            var json = JSONWriter(capacity: name.utf8.count + 8)
            json.appendString(name)
            let utf8 = Array(name.utf8)
            let header = 2 * MemoryLayout<Int>.stride
            // Never freed: names live as long as the process (see above).
            let entry = UnsafeMutableRawPointer.allocate(byteCount: header + utf8.count + json.bytes.count, alignment: MemoryLayout<Int>.alignment)
            entry.storeBytes(of: utf8.count, as: Int.self)
            entry.storeBytes(of: json.bytes.count, toByteOffset: MemoryLayout<Int>.stride, as: Int.self)
            for (k, byte) in utf8.enumerated() { entry.storeBytes(of: byte, toByteOffset: header + k, as: UInt8.self) }
            for (k, byte) in json.bytes.enumerated() { entry.storeBytes(of: byte, toByteOffset: header + utf8.count + k, as: UInt8.self) }
            let stored = UInt(bitPattern: entry)
            table[name] = stored
            return stored
        }
        return UnsafeRawPointer(bitPattern: address)!
    }
}

// The pointer is to immutable storage that is never freed.
extension GestureName: @unchecked Sendable {}
