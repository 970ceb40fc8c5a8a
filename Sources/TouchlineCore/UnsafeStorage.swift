// Storage that Swift's arrays and strings do not give for free, all of it in this file:
// interned names that an event carries as one word with no reference count (kept for the
// process's life, or while a hold keeps them), and the frame
// assembler's two per-frame loops over its arrays in place. Each pointer use says why it stays
// in bounds; no pointer leaves this file in a public signature.

import Synchronization

/// A string stored once, beside its JSON form (quoted and escaped): one word, no reference
/// count, so a value that carries it (a gesture event, a reason) copies as plain bytes and costs
/// no retain and no release. With `String` fields, every event paid four atomic reference-count
/// operations (docs/performance.md). Equal strings share one entry, so identity is equality.
///
/// Two lifetimes. `init(_:)` keeps the entry for the life of the process (a configuration's
/// names, literals): whatever holds it may keep it anywhere. A `Hold` keeps an entry only while
/// some hold of it lives, and `init(sharing:)` takes such an entry without keeping it: the
/// daemon holds the names of each device's graph while that graph runs, so that names clients
/// register and unregister are freed once no graph uses them (issue 24, item 7: 2,048 cycles
/// had exhausted a never-freed table's budget). A value made by `init(sharing:)` is valid only
/// while a hold of its string lives, or after `init(_:)` made the entry permanent.
public struct InternedString: BitwiseCopyable, Hashable, CustomStringConvertible {
    /// The entry: the UTF-8 count and the JSON count (one `Int` each), the UTF-8 bytes, then
    /// the JSON bytes; laid out once in `intern` and never written again.
    @usableFromInline let entry: UnsafeRawPointer

    /// The entry of `string`, kept for the life of the process (one a hold kept becomes so).
    public init(_ string: String) { entry = InternedString.intern(string, permanent: true) }

    /// The entry of `string` as it is: one a `Hold` keeps is taken without keeping it (valid
    /// while a hold of it lives); none yet, one is made for the life of the process, as
    /// `init(_:)`. How a graph takes its names (GestureGraph), so that a graph built outside
    /// the daemon keeps its names as before and one the daemon holds does not.
    public init(sharing string: String) { entry = InternedString.intern(string, permanent: false) }

    // Computed: a stored static is read through a one-time-initialization check at every use.
    @inlinable static var header: Int { 2 * MemoryLayout<Int>.stride }

    @inlinable public var utf8Count: Int { entry.load(as: Int.self) }
    @inlinable var jsonCount: Int { entry.load(fromByteOffset: MemoryLayout<Int>.stride, as: Int.self) }

    public var description: String {
        // The UTF-8 bytes are `utf8Count` bytes after the header, inside the entry.
        String(decoding: UnsafeRawBufferPointer(start: entry + InternedString.header, count: utf8Count), as: UTF8.self)
    }

    /// Whether the string's UTF-8 bytes are `string`'s, without making a String (a cache keyed
    /// by entry checks its value with it: a freed entry's address may come back for another).
    public func hasUTF8(of string: String) -> Bool {
        var string = string
        let bytes = UnsafeRawBufferPointer(start: entry + InternedString.header, count: utf8Count)
        return string.withUTF8 { $0.count == bytes.count && $0.elementsEqual(bytes) }
    }

    /// The string as JSON (quoted, escaped as JSON requires): `jsonCount` bytes after the UTF-8
    /// bytes, the entry's end. Only the JSON writers read it.
    @inlinable var jsonBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: entry + (InternedString.header + utf8Count), count: jsonCount)
    }

    /// Appends the JSON form to `bytes`.
    @inlinable func appendJSON(to bytes: inout [UInt8]) { bytes.append(contentsOf: jsonBytes) }

    /// Appends the UTF-8 bytes (unquoted) to `bytes`: the text writer's names, with no String made.
    @inlinable public func appendUTF8(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: entry + InternedString.header, count: utf8Count))
    }

    public static func == (a: InternedString, b: InternedString) -> Bool { a.entry == b.entry }
    public func hash(into hasher: inout Hasher) { hasher.combine(entry) }

    /// An entry's address, and how many holds keep it; `holds` nil: kept for the life of the
    /// process.
    private struct Slot {
        var address: UInt
        var holds: Int?
    }

    /// String → its entry.
    private static let table = Mutex<[String: Slot]>([:])

    private static func intern(_ string: String, permanent: Bool) -> UnsafeRawPointer {
        let address = table.withLock { table -> UInt in
            if let slot = table[string] {
                if permanent { table[string]?.holds = nil }
                return slot.address
            }
            let stored = makeEntry(string)
            table[string] = Slot(address: stored, holds: nil)
            return stored
        }
        // A non-zero address: it came from an allocation.
        return UnsafeRawPointer(bitPattern: address)!
    }

    /// A new entry for `string` (called inside the table's lock).
    private static func makeEntry(_ string: String) -> UInt {
        var json = JSONWriter(capacity: string.utf8.count + 8)
        json.appendString(string)
        let utf8 = Array(string.utf8)
        // Freed by the last hold's release (`release`), or never (a permanent entry).
        let entry = UnsafeMutableRawPointer.allocate(
            byteCount: header + utf8.count + json.bytes.count, alignment: MemoryLayout<Int>.alignment)
        // The allocation is exactly header + both byte counts long; each copy fills its part.
        entry.storeBytes(of: utf8.count, as: Int.self)
        entry.storeBytes(of: json.bytes.count, toByteOffset: MemoryLayout<Int>.stride, as: Int.self)
        utf8.withUnsafeBytes { if let from = $0.baseAddress { (entry + header).copyMemory(from: from, byteCount: $0.count) } }
        json.bytes.withUnsafeBytes { if let from = $0.baseAddress { (entry + header + utf8.count).copyMemory(from: from, byteCount: $0.count) } }
        return UInt(bitPattern: entry)
    }

    /// Keeps `strings`' entries (making those missing); returns the strings whose entries it
    /// counted (a permanent entry needs no count).
    fileprivate static func hold(_ strings: Set<String>) -> [String] {
        table.withLock { table in
            var counted: [String] = []
            for string in strings {
                if let slot = table[string] {
                    guard let holds = slot.holds else { continue }
                    table[string]?.holds = holds + 1
                } else {
                    table[string] = Slot(address: makeEntry(string), holds: 1)
                }
                counted.append(string)
            }
            return counted
        }
    }

    /// Gives back one count of each of `strings`' entries; an entry no hold keeps any more is
    /// freed (one made permanent meanwhile stays).
    fileprivate static func release(_ strings: [String]) {
        table.withLock { table in
            for string in strings {
                guard let slot = table[string], let holds = slot.holds else { continue }
                if holds > 1 {
                    table[string]?.holds = holds - 1
                    continue
                }
                table[string] = nil
                // Allocated by `makeEntry`; no hold keeps it and it was never made permanent,
                // so by the contract of `init(sharing:)` nothing reads it any more.
                UnsafeMutableRawPointer(bitPattern: slot.address)?.deallocate()
            }
        }
    }

    /// Whether `string` has an entry now (tests: a name nobody holds is gone).
    public static func isStored(_ string: String) -> Bool { table.withLock { $0[string] != nil } }

    /// Keeps the entries of a set of strings while it lives: the names of one graph, which
    /// `init(sharing:)` then takes. Its release frees those no other hold keeps (and that
    /// `init(_:)` did not make permanent).
    public final class Hold: Sendable {
        let counted: [String]
        public init(_ strings: some Sequence<String>) { counted = InternedString.hold(Set(strings)) }
        deinit { InternedString.release(counted) }
    }
}

// Justified: an entry is written completely inside the table's lock before its address is
// published (the lock orders those writes before any other thread's read) and is never written
// again; it is freed only inside the lock, when no hold keeps it, and a value that shares it
// (`init(sharing:)`) is used only while a hold lives. Sharing the pointer across threads reads
// immutable memory.
extension InternedString: @unchecked Sendable {}

// MARK: - The frame assembler's loops in place

extension FrameAssembler {
    /// Every live protocol-B contact takes its slot's values. Over buffers in place, since this
    /// runs for every contact of every frame: indexing the arrays paid a uniqueness check per
    /// access. In bounds: `i` < the tracks buffer's count; a slot index is used only after the
    /// check that it lies in 0..<slots' count.
    mutating func takeSlotValues() {
        let xAxis = self.xAxis, yAxis = self.yAxis, pressure = pressureAxis.present
        tracks.withUnsafeMutableBufferPointer { tracks in
            slots.withUnsafeBufferPointer { slots in
                for i in 0..<tracks.count where !tracks[i].stage.isFinal && tracks[i].slot >= 0 && Int(tracks[i].slot) < slots.count {
                    let slot = slots[Int(tracks[i].slot)]
                    tracks[i].x = xAxis.clamp(slot.x)
                    tracks[i].y = yAxis.clamp(slot.y)
                    tracks[i].pressure = pressure ? slot.pressure : nil
                    tracks[i].major = slot.major
                    tracks[i].minor = slot.minor
                }
            }
        }
    }

    /// Writes the frame's contacts from the tracks (the frame holds exactly as many contacts as
    /// there are tracks: `buildFrame` sizes it first), then moves the live tracks to the front;
    /// returns how many are live. In bounds: both loops run over 0..<tracks' count, which is
    /// the contacts' count too, and `live` ≤ `r` where it is written.
    mutating func writeContactsAndCompactTracks() -> Int {
        let geometry = self.geometry, pressureAxis = self.pressureAxis, unitsPerMillimetre = unitsPerMillimetreForSize
        var live = 0
        var palm = false
        tracks.withUnsafeMutableBufferPointer { tracks in
            frame.contacts.withUnsafeMutableBufferPointer { contacts in
                precondition(contacts.count == tracks.count, "FrameAssembler: the frame was not sized to the tracks")
                for k in 0..<tracks.count {
                    contacts[k] = FrameAssembler.contact(tracks[k], geometry: geometry, pressureAxis: pressureAxis, unitsPerMillimetreForSize: unitsPerMillimetre)
                    palm = palm || tracks[k].tool == .palm
                }
            }
            for r in 0..<tracks.count where !tracks[r].stage.isFinal {
                var t = tracks[r]
                t.stage = .down
                t.lastX = t.x
                t.lastY = t.y
                tracks[live] = t
                live += 1
            }
        }
        frame.hasPalm = palm
        return live
    }
}
