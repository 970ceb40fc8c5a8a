// Storage that Swift's arrays and strings do not give for free, all of it in this file:
// interned names that an event carries as one word with no reference count, and the frame
// assembler's two per-frame loops over its arrays in place. Each pointer use says why it stays
// in bounds; no pointer leaves this file in a public signature.

import Synchronization

/// A string stored once for the life of the process, beside its JSON form (quoted and escaped):
/// one word, no reference count, so a value that carries it (a gesture event, a reason) copies
/// as plain bytes and costs no retain and no release. With `String` fields, every event paid
/// four atomic reference-count operations (docs/performance.md). Equal strings share one entry,
/// so identity is equality. Entries are never freed, so the strings interned must come from a
/// bounded set (a configuration's names), not from input.
public struct InternedString: BitwiseCopyable, Hashable, CustomStringConvertible {
    /// The entry: the UTF-8 count and the JSON count (one `Int` each), the UTF-8 bytes, then
    /// the JSON bytes; laid out once in `intern` and never written again.
    @usableFromInline let entry: UnsafeRawPointer

    public init(_ string: String) { entry = InternedString.intern(string) }

    // Computed: a stored static is read through a one-time-initialization check at every use.
    @inlinable static var header: Int { 2 * MemoryLayout<Int>.stride }

    @inlinable public var utf8Count: Int { entry.load(as: Int.self) }
    @inlinable var jsonCount: Int { entry.load(fromByteOffset: MemoryLayout<Int>.stride, as: Int.self) }

    public var description: String {
        // The UTF-8 bytes are `utf8Count` bytes after the header, inside the entry.
        String(decoding: UnsafeRawBufferPointer(start: entry + InternedString.header, count: utf8Count), as: UTF8.self)
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

    /// String → its entry's address.
    private static let table = Mutex<[String: UInt]>([:])

    private static func intern(_ string: String) -> UnsafeRawPointer {
        let address = table.withLock { table -> UInt in
            if let entry = table[string] { return entry }
            var json = JSONWriter(capacity: string.utf8.count + 8)
            json.appendString(string)
            let utf8 = Array(string.utf8)
            // Never freed: entries live as long as the process (see above).
            let entry = UnsafeMutableRawPointer.allocate(
                byteCount: header + utf8.count + json.bytes.count, alignment: MemoryLayout<Int>.alignment)
            // The allocation is exactly header + both byte counts long; each copy fills its part.
            entry.storeBytes(of: utf8.count, as: Int.self)
            entry.storeBytes(of: json.bytes.count, toByteOffset: MemoryLayout<Int>.stride, as: Int.self)
            utf8.withUnsafeBytes { if let from = $0.baseAddress { (entry + header).copyMemory(from: from, byteCount: $0.count) } }
            json.bytes.withUnsafeBytes { if let from = $0.baseAddress { (entry + header + utf8.count).copyMemory(from: from, byteCount: $0.count) } }
            let stored = UInt(bitPattern: entry)
            table[string] = stored
            return stored
        }
        // A non-zero address: it came from an allocation.
        return UnsafeRawPointer(bitPattern: address)!
    }
}

// Justified: the entry is written completely inside the table's lock before its address is
// published (the lock orders those writes before any other thread's read), is never written
// again and is never freed, so sharing the pointer across threads reads immutable memory.
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
