// Issue 37, scripts/issue37/counter-race.sh: 9b4ee5b's HeapObjects.count, verbatim, called in a loop
// on one thread while other threads allocate, retain and release (as swift-testing's and
// Dispatch's threads did beside the probe in the test binary).
import Glibc

private typealias AllocObject = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

nonisolated(unsafe) private var originalAllocObject: AllocObject?
nonisolated(unsafe) private var countedThread: pthread_t = 0
nonisolated(unsafe) private var heapObjects = 0

private let countingAllocObject: AllocObject = { metadata, size, alignMask in
    if pthread_equal(pthread_self(), countedThread) != 0 { heapObjects += 1 }
    return originalAllocObject!(metadata, size, alignMask)
}

enum HeapObjects {
    static func count(_ body: () -> Void) -> Int? {
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
}

final class Box { var v: Int; init(_ v: Int) { self.v = v } }
nonisolated(unsafe) var stop = false
let workers = Int(getenv("WORKERS").map { String(cString: $0) } ?? "2") ?? 2
for w in 0..<workers {
    var t = pthread_t()
    pthread_create(&t, nil, { _ in
        var keep: [Box] = []
        var i = 0
        while !stop {
            let b = Box(i)            // an allocation on another thread
            keep.append(b)            // retains, and array growth
            if keep.count > 64 { keep.removeAll(keepingCapacity: i % 2 == 0) }
            i &+= 1
        }
        return nil
    }, nil)
    _ = w
}
let enable = dlsym(nil, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")!
let rounds = Int(CommandLine.arguments.dropFirst().first ?? "20000") ?? 20000
var histogram: [Int: Int] = [:]
var leftOn = 0
for _ in 0..<rounds {
    var sink: [Int] = []
    let c = HeapObjects.count {
        sink = Array(repeating: 1, count: 100)
        sink.append(contentsOf: [2, 3])
    }!
    histogram[c, default: 0] += 1
    if enable.load(as: Bool.self) { leftOn += 1 }
}
stop = true
print("counts \(histogram.sorted { $0.key < $1.key }) switch left on after \(leftOn) of \(rounds) counts")
