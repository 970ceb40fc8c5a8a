import Glibc
import Testing
import TouchlineCore
@testable import TouchlineInput

/// `touchline record`'s held devices (1…): memory stays bounded however many events a second
/// device sends, and every event comes back in order, byte for byte what was appended.
@Suite struct EventSpillTests {
    /// The i-th event of a busy device: every field varies, negative values and large times too.
    static func event(_ i: Int) -> InputEvent {
        InputEvent(
            time: Timestamp(microseconds: Int64(i) * 7919 + 1_700_000_000_000_000), type: UInt16(i % 4), code: UInt16(i % 0x2ff),
            value: Int32(truncatingIfNeeded: i &* 2_654_435_761))
    }

    func scratch() throws -> String {
        var template = Array("/tmp/touchline-spill-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        try #require(made != nil)
        return String(cString: made!)
    }

    func entries(_ dir: String) -> Int {
        guard let d = opendir(dir) else { return -1 }
        defer { closedir(d) }
        var n = 0
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { n += 1 }
        }
        return n
    }

    @Test func manyEventsStayWithinTheBufferAndComeBackInOrder() throws {
        let dir = try scratch()
        defer { rmdir(dir) }
        let spill = EventSpill(capacity: 1024, directory: dir)
        let total = 300_000
        for i in 0..<total { try spill.append(Self.event(i)) }
        // 300,000 events (4.8 MB encoded) held in at most 1024 events' bytes of memory.
        #expect(spill.peakBufferedBytes <= 1024 * EventSpill.eventSize)
        #expect(spill.pending.capacity <= 2 * 1024 * EventSpill.eventSize)
        #expect(spill.count == total)
        // The file is unlinked at once: nothing is left in the directory, even now.
        #expect(spill.fd >= 0 && entries(dir) == 0)
        var next = 0
        var wrong = 0
        try spill.forEach { event in
            if event != Self.event(next) { wrong += 1 }
            next += 1
        }
        #expect(next == total && wrong == 0)
    }

    /// A device that sends less than the buffer holds makes no file at all.
    @Test func fewEventsStayInMemory() throws {
        let spill = EventSpill(capacity: 64, directory: "/nonexistent-directory")
        for i in 0..<64 { try spill.append(Self.event(i)) }
        var got: [InputEvent] = []
        try spill.forEach { got.append($0) }
        #expect(spill.fd == -1)
        #expect(got == (0..<64).map(Self.event))
    }

    /// A directory the file cannot be made in: an error naming it, not a crash.
    @Test func unwritableDirectoryIsAnError() throws {
        let spill = EventSpill(capacity: 2, directory: "/nonexistent-directory")
        try spill.append(Self.event(0))
        try spill.append(Self.event(1))
        #expect(throws: SystemError.self) { try spill.append(Self.event(2)) }
        do { try spill.append(Self.event(2)) } catch { #expect(error.description.contains("/nonexistent-directory")) }
    }
}
