// Zero heap allocations per frame in steady state (principle 10), counted exactly.
//
// How: the Swift runtime routes every heap object (array buffers, class instances, boxes)
// through `swift_allocObject`, which calls through the `_swift_allocObject` pointer when
// `_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly` is set (the
// hook Instruments uses). That switch also reroutes every retain and release in the process,
// which crashed other tests' threads when tried in-process, so the counting runs in a child
// process (this test binary again, filtered to `AllocationProbe`), and the parent test reads its
// report. `mallinfo2()` would not do: it reports only the main arena and only bytes in use, so a
// malloc+free per frame nets to zero there.
// Not counted: raw `malloc` and `UnsafeMutablePointer.allocate`, which TouchlineCore never uses.
import Foundation
import Glibc
import Testing
@testable import TouchlineCore

typealias AllocObject = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

nonisolated(unsafe) private var originalAllocObject: AllocObject?
nonisolated(unsafe) private var countedThread: pthread_t = 0
nonisolated(unsafe) private var heapObjects = 0

private let countingAllocObject: AllocObject = { metadata, size, alignMask in
    if pthread_equal(pthread_self(), countedThread) != 0 { heapObjects += 1 }
    return originalAllocObject!(metadata, size, alignMask)
}

/// Counts the Swift heap objects `body` allocates on this thread; nil when the runtime has no
/// hook to count with.
private func countHeapObjects(_ body: () -> Void) -> Int? {
    guard let hook = dlsym(nil, "_swift_allocObject"),
        let enable = dlsym(nil, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
    else { return nil }
    let slot = hook.assumingMemoryBound(to: AllocObject?.self)
    originalAllocObject = slot.pointee
    countedThread = pthread_self()
    heapObjects = 0
    slot.pointee = countingAllocObject
    enable.storeBytes(of: true, as: Bool.self)
    body()
    enable.storeBytes(of: false, as: Bool.self)
    slot.pointee = originalAllocObject
    countedThread = 0
    return heapObjects
}

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
@Suite(.serialized, .enabled(if: getenv(probeVariable) != nil, "runs only in the child process noAllocationPerFrame starts"))
struct AllocationProbe {
    @Test func probe() {
        var sink: [Int] = []
        let control = countHeapObjects {
            sink = Array(repeating: 1, count: 100)
            sink.append(contentsOf: [2, 3])
        }
        print("control \(control ?? -1) \(sink.count)")
        // A caller that keeps each frame makes the assembler copy the frame's storage: the
        // counter must see that, one array per frame.
        var keeping = SteadyRun(contacts: 2, protocolA: false, measured: 1000)
        var kept: [TouchFrame] = []
        kept.reserveCapacity(2000)
        let copies = countHeapObjects {
            for i in keeping.split..<keeping.events.count where keeping.assembler.feed(keeping.events[i]) {
                kept.append(keeping.assembler.frame)
            }
        }
        print("keeping \(copies ?? -1) \(kept.count)")
        for (contacts, protocolA) in scenarios {
            var run = SteadyRun(contacts: contacts, protocolA: protocolA)
            let count = countHeapObjects { run.measure() }
            print("scenario \(contacts) \(protocolA ? "A" : "B") \(count ?? -1) \(run.frames) \(run.contactsSeen)")
        }
    }
}

@Suite struct AllocationTests {
    /// Counts heap objects per frame exactly, in a child process (see the top of this file).
    @Test func noAllocationPerFrame() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = ["--testing-library", "swift-testing", "--filter", "AllocationProbe"]
        child.environment = ProcessInfo.processInfo.environment.merging([probeVariable: "1"]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(child.terminationStatus == 0, "the probe failed:\n\(text)")
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
