// Zero heap allocations per frame in steady state (principle 10), counted exactly by
// `allocation-probe assembler`, a process of its own with one thread (how, and why not in this
// test binary: Tests/AllocationProbe/main.swift; the workloads: Tests/AllocationWorkloads).
import AllocationWorkloads
import Testing
@testable import TouchlineCore

@Suite struct AllocationTests {
    /// Counts heap objects per frame exactly, in the probe process (see the top of this file).
    @Test func noAllocationPerFrame() throws {
        let (status, text) = try HeapObjects.probe(workload: "assembler")
        #expect(status == 0, "the probe failed:\n\(text)")
        let lines = text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("control ") || $0.hasPrefix("scenario ") }
        let keeping = text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("keeping ") }?.split(separator: " ")
        // The counter's self-test: a caller keeping every frame makes one copy per frame.
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

    /// A library user may keep every frame the assembler gives: each kept frame keeps its own
    /// contacts, unchanged by the frames after it (copy on write of the storage the assembler
    /// overwrites in place, UnsafeStorage.swift). Compared with frames made afresh.
    @Test func keptFramesKeepTheirContacts() {
        var run = AssemblerSteadyRun(contacts: 2, protocolA: false, measured: 300)
        var kept: [TouchFrame] = []
        run.measureKeeping(into: &kept)
        var again = AssemblerSteadyRun(contacts: 2, protocolA: false, measured: 300)
        var fresh: [TouchFrame] = []
        for i in again.split..<again.events.count where again.assembler.feed(again.events[i]) {
            fresh.append(TouchFrame(time: again.assembler.frame.time, contacts: again.assembler.frame.contacts.map { $0 }))
        }
        #expect(kept.count == 300)
        #expect(kept.map(\.contacts) == fresh.map(\.contacts))
    }

    /// In-process and without the hook: every array keeps its buffer and capacity over 2,000
    /// frames (a reallocation would move it).
    @Test(arguments: assemblerScenarios)
    func storageIsReservedOnce(contacts: Int, protocolA: Bool) {
        var run = AssemblerSteadyRun(contacts: contacts, protocolA: protocolA, measured: 2000)
        let before = storage(run)
        run.measure()
        #expect(run.frames == 2000)
        #expect(storage(run) == before)
    }

    /// Where every array of the assembler keeps its elements, and how many it can hold.
    private func storage(_ run: AssemblerSteadyRun) -> [UInt] {
        func id<T>(_ a: [T]) -> [UInt] {
            a.withUnsafeBufferPointer { [UInt(bitPattern: $0.baseAddress), UInt(a.capacity)] }
        }
        return id(run.assembler.frame.contacts) + id(run.assembler.tracks) + id(run.assembler.slots)
            + id(run.assembler.reports) + id(run.writer.bytes)
    }
}
