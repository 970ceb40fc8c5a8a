// Zero heap allocations per frame in the graph's steady state (principle 10), counted exactly
// by `allocation-probe graph`, a process of its own with one thread (how, and why not in this
// test binary: Tests/AllocationProbe/main.swift; the workloads: Tests/AllocationWorkloads), as
// Tests/TouchlineCoreTests/AllocationTests.swift counts the assembler's.
import Testing

@Suite struct GraphAllocationTests {
    @Test func graphAllocatesNothingPerFrame() throws {
        let (status, text) = try HeapObjects.probe(workload: "graph")
        #expect(status == 0, "the probe failed:\n\(text)")
        let lines = text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("graph ") || $0.hasPrefix("text ") }.map(String.init)
        // Three JSON runs, a rotated device's, and one through `--format text`'s writer (with colours).
        #expect(lines.count == 5, "\(text)")
        let control = text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("control ") }?.split(separator: " ")
        #expect((control.flatMap { Int($0[1]) } ?? 0) >= 1, "the counter must see the control allocation")
        for line in lines {
            let parts = line.split(separator: " ")
            #expect(parts.count == 5 && parts[2] == "0", "heap objects per steady-state run: \(line) (graph CONTACTS OBJECTS FRAMES EVENTS)")
            #expect(parts.count == 5 && (Int(parts[4]) ?? 0) > 0, "the run must emit events: \(line)")
        }
    }
}
