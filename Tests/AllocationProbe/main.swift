// allocation-probe: counts the Swift heap objects that the steady-state workloads
// (Tests/AllocationWorkloads) allocate, exactly, in a process with one thread. The allocation
// tests run it and check what it prints (Tests/TouchlineCoreTests/AllocationTests.swift,
// Tests/TouchlineGesturesTests/AllocationTests.swift).
//
//     allocation-probe assembler | graph
//
// How: the Swift runtime routes every heap object (array buffers, class instances, boxes)
// through `swift_allocObject`, which calls through the `_swift_allocObject` pointer when
// `_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly` is set (the
// hook Instruments uses). `mallinfo2()` would not do: it reports only the main arena and only
// bytes in use, so a malloc+free per frame nets to zero there.
//
// Why a process of its own, with one thread (issue 37): the switch is process-wide. While it
// is on, Swift 6.3's runtime sends every retain of every thread through
// `_swift_retain_adapterImpl`, which masks a bridge object's flag bits before testing them: a
// String's bits (its bytes, or an immortal literal's address in read-only data) become a
// "pointer", and `__swift_retain_` faults on it. The counter used to run inside the test
// binary, where swift-testing's threads copy strings beside the counted one: now and then one
// did so while the switch was on, and the child died of SIGSEGV at `__swift_retain_ + 36` from
// `_swift_retain_adapterImpl` (scripts/issue37/old-probe-crash.sh makes it happen on purpose in
// 9b4ee5b's binary; adapter-crash.sh in a file of its own). The switch and the pointer are also
// changed with two plain stores each, and the runtime's `swift_allocObject` turns the switch on
// itself when it sees a replaced pointer (CALL_IMPL_CHECK in HeapObject.cpp): a thread
// allocating between the stores leaves it on for the rest of the process (counter-race.sh).
// This process starts no thread (no Foundation, no Dispatch, no Testing, no concurrency), and
// checks that it has exactly one before each count: no other thread retains anything here.
// The upstream fix of the adapter (swiftlang/swift#88924) is not in 6.3.
// Not counted: raw `malloc` and `UnsafeMutablePointer.allocate`, which the measured code never
// uses (Bench's `alloc-budget` counts every malloc through an interposer, in CI).
import AllocationWorkloads
import TouchlineCore

/// The control: an allocation the counter must see (its self-test).
private func control() {
    var sink: [Int] = []
    let control = countHeapObjects {
        sink = Array(repeating: 1, count: 100)
        sink.append(contentsOf: [2, 3])
    }
    print("control \(control) \(sink.count)")
}

private func assembler() {
    control()
    // A caller that keeps each frame makes the assembler copy the frame's storage: the counter
    // must see that, one array per frame.
    var keeping = AssemblerSteadyRun(contacts: 2, protocolA: false, measured: 1000)
    var kept: [TouchFrame] = []
    kept.reserveCapacity(2000)
    let copies = countHeapObjects { keeping.measureKeeping(into: &kept) }
    print("keeping \(copies) \(kept.count)")
    for (contacts, protocolA) in assemblerScenarios {
        var run = AssemblerSteadyRun(contacts: contacts, protocolA: protocolA)
        let count = countHeapObjects { run.measure() }
        print("scenario \(contacts) \(protocolA ? "A" : "B") \(count) \(run.frames) \(run.contactsSeen)")
    }
}

private func graph() throws {
    control()
    for contacts in [1, 2, 10] {
        var run = try GraphSteadyRun(contacts: contacts, explain: false)
        let before = run.lines
        let count = countHeapObjects { run.measure() }
        print("graph \(contacts) \(count) \(run.frames.count - 100) \(run.lines - before)")
    }
    var text = try GraphSteadyRun(contacts: 2, explain: false, text: true)
    let textBefore = text.lines
    let textCount = countHeapObjects { text.measure() }
    print("text 2 \(textCount) \(text.frames.count - 100) \(text.lines - textBefore)")
    // A rotated and calibrated device: its turned frame's storage is reused.
    var rotated = try GraphSteadyRun(contacts: 2, explain: false, rotated: true)
    let before = rotated.lines
    let count = countHeapObjects { rotated.measure() }
    print("graph 2-rotated \(count) \(rotated.frames.count - 100) \(rotated.lines - before)")
}

switch CommandLine.arguments.dropFirst().first {
case "assembler": assembler()
case "graph":
    do { try graph() } catch { fail("the default graph: \(error)") }
default: fail("usage: allocation-probe assembler | graph")
}
