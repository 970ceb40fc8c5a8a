// Zero heap allocations per frame in steady state (principle 10), counted exactly in a child
// process by TouchlineTestSupport's `HeapObjects` (how, and why a child: HeapObjects.swift).
import Testing
@testable import TouchlineCore

/// `frames` frames of `n` contacts moving 0.1 mm per frame, as a protocol-B or -A device sends them.
private func movingContacts(_ n: Int, frames: Int, protocolA: Bool) -> [InputEvent] {
    let s = Script()
    for f in 0..<frames {
        for i in 0..<n {
            let x = Int32(50 + 90 * i + f % 40)
            let y = Int32(100 + 20 * i + f % 30)
            if protocolA {
                s.at(x, y).mtReport()
            } else {
                s.slot(Int32(i))
                if f == 0 { s.track(Int32(i)) }
                s.at(x, y).pressure(Int32(f % 200)).major(Int32(5 + f % 7))
            }
        }
        s.syn(at: Double(f) * 0.008)
    }
    return s.events
}

let probeVariable = "TOUCHLINE_ALLOCATION_PROBE"

/// One steady-state run: 100 frames to warm up, then 10,000 frames fed and written as JSON.
private struct SteadyRun {
    var assembler: FrameAssembler
    var writer = JSONWriter(capacity: 4096)
    let events: [InputEvent]
    let split: Int
    var frames = 0
    var contactsSeen = 0

    init(contacts: Int, protocolA: Bool, measured: Int = 10_000) {
        let warmUp = 100
        assembler = FrameAssembler(device: protocolA ? Devices.unslotted() : Devices.slotted(slots: 10))
        events = movingContacts(contacts, frames: warmUp + measured, protocolA: protocolA)
        split = events.firstIndex { $0.time >= Timestamp(microseconds: Int64(warmUp) * 8000) }!
        for e in events[..<split] where assembler.feed(e) { write() }
    }

    mutating func write() {
        writer.reset()
        assembler.frame.writeJSON(device: 0, into: &writer)
    }

    mutating func measure() {
        for i in split..<events.count where assembler.feed(events[i]) {
            frames += 1
            contactsSeen += assembler.frame.contacts.count
            write()
        }
    }

    /// Where every array of the assembler keeps its elements, and how many it can hold.
    var storage: [UInt] {
        func id<T>(_ a: [T]) -> [UInt] {
            a.withUnsafeBufferPointer { [UInt(bitPattern: $0.baseAddress), UInt(a.capacity)] }
        }
        return id(assembler.frame.contacts) + id(assembler.tracks) + id(assembler.slots) + id(assembler.reports)
            + id(writer.bytes)
    }
}

private let scenarios = [(2, false), (10, false), (2, true), (10, true)]

/// Runs in the child process only: prints one line per scenario for the parent to check.
@Suite(.serialized, .enabled(if: HeapObjects.isProbe(probeVariable), "runs only in the child process noAllocationPerFrame starts"))
struct AllocationProbe {
    @Test func probe() {
        var sink: [Int] = []
        let control = HeapObjects.count {
            sink = Array(repeating: 1, count: 100)
            sink.append(contentsOf: [2, 3])
        }
        print("control \(control ?? -1) \(sink.count)")
        // A caller that keeps each frame makes the assembler copy the frame's storage: the
        // counter must see that, one array per frame.
        var keeping = SteadyRun(contacts: 2, protocolA: false, measured: 1000)
        var kept: [TouchFrame] = []
        kept.reserveCapacity(2000)
        let copies = HeapObjects.count {
            for i in keeping.split..<keeping.events.count where keeping.assembler.feed(keeping.events[i]) {
                kept.append(keeping.assembler.frame)
            }
        }
        print("keeping \(copies ?? -1) \(kept.count)")
        for (contacts, protocolA) in scenarios {
            var run = SteadyRun(contacts: contacts, protocolA: protocolA)
            let count = HeapObjects.count { run.measure() }
            print("scenario \(contacts) \(protocolA ? "A" : "B") \(count ?? -1) \(run.frames) \(run.contactsSeen)")
        }
    }
}

@Suite struct AllocationTests {
    /// Counts heap objects per frame exactly, in a child process (see the top of this file).
    @Test func noAllocationPerFrame() throws {
        let (status, text) = try HeapObjects.probe(suite: "AllocationProbe", variable: probeVariable)
        #expect(status == 0, "the probe failed:\n\(text)")
        let lines = text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("control ") || $0.hasPrefix("scenario ") }
        let keeping = text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("keeping ") }?.split(separator: " ")
        #expect(keeping.map { Int($0[1]) ?? 0 >= 999 && $0[2] == "1000" } == true, "keeping frames: \(keeping ?? [])")
        let control = lines.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        #expect(control >= 1, "the counter must see the control allocation: \(lines.first ?? "nothing")")
        #expect(Array(lines.dropFirst()) == [
            "scenario 2 B 0 10000 20000",
            "scenario 10 B 0 10000 100000",
            "scenario 2 A 0 10000 20000",
            "scenario 10 A 0 10000 100000",
        ], "\(text)")
    }

    /// In-process and without the hook: every array keeps its buffer and capacity over 2,000
    /// frames (a reallocation would move it).
    @Test(arguments: scenarios)
    func storageIsReservedOnce(contacts: Int, protocolA: Bool) {
        var run = SteadyRun(contacts: contacts, protocolA: protocolA, measured: 2000)
        let before = run.storage
        run.measure()
        #expect(run.frames == 2000)
        #expect(run.storage == before)
    }
}
