// Zero heap allocations per frame in steady state (principle 10), counted exactly.
//
// How: the Swift runtime routes every heap object (array buffers, class instances, boxes)
// through `swift_allocObject`, which calls through the `_swift_allocObject` pointer when
// `_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly` is set (the
// hook Instruments uses). The test swaps in a counter that counts only on its own thread, so
// tests running in parallel do not disturb the count. `mallinfo2()` would not do: it reports
// only the main arena and only bytes in use, so a malloc+free per frame nets to zero there.
// Not counted: raw `malloc` and `UnsafeMutablePointer.allocate`, which TouchlineCore never uses.
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

@Suite(.serialized) struct AllocationTests {
    @Test func theCounterCountsAllocations() throws {
        var sink: [Int] = []
        let count = try #require(countHeapObjects {
            sink = Array(repeating: 1, count: 100)
            sink.append(contentsOf: [2, 3])
        })
        #expect(count >= 1)
        #expect(sink.count == 102)
    }

    @Test(arguments: [(2, false), (10, false), (2, true), (10, true)])
    func noAllocationPerFrameInSteadyState(contacts: Int, protocolA: Bool) throws {
        let device = protocolA ? Devices.unslotted() : Devices.slotted(slots: 10)
        let warmUp = 100
        let measured = 10_000
        let events = movingContacts(contacts, frames: warmUp + measured, protocolA: protocolA)
        let split = events.firstIndex { $0.time >= Timestamp(microseconds: Int64(warmUp) * 8000) }!
        var a = FrameAssembler(device: device)
        var w = JSONWriter(capacity: 4096)
        var frames = 0
        var contactsSeen = 0
        for e in events[..<split] where a.feed(e) {
            w.reset()
            a.frame.writeJSON(device: 0, into: &w)
        }
        let buffer = a.frame.contacts.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let count = try #require(countHeapObjects {
            for i in split..<events.count where a.feed(events[i]) {
                frames += 1
                contactsSeen += a.frame.contacts.count
                w.reset()
                a.frame.writeJSON(device: 0, into: &w)
            }
        })
        #expect(frames == measured)
        #expect(contactsSeen == measured * contacts)
        #expect(count == 0, "\(count) heap objects in \(frames) frames")
        #expect(a.frame.contacts.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == buffer)
    }
}
