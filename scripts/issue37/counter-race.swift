// Issue 37: 9b4ee5b's HeapObjects.count, verbatim, and what it does beside other threads.
//   counter-race.sh:   mode `race`: one thread counts while WORKERS threads allocate, retain and
//                      release (as swift-testing's and Dispatch's threads did beside the probe);
//                      prints after how many counts the runtime's switch was left on.
//   adapter-crash.sh:  modes `same-thread`, `other-thread`, `other-thread-short`, `no-count`: a
//                      String copied while the switch is on. Swift 6.3's runtime then sends every
//                      retain through _swift_retain_adapterImpl, which masks a bridge object's
//                      flag bits before its null/tag test; an immortal string (every literal of
//                      16 bytes or more, such as a #filePath or a test's comment) becomes a
//                      pointer to its own bytes in the binary's read-only data, and
//                      __swift_retain_ faults writing its "refcount" there. Fixed upstream by
//                      https://github.com/swiftlang/swift/pull/88924 (after 6.3.3).
//   counter-race MODE [ROUNDS]
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
final class Holder { var text: String; init(_ t: String) { text = t } }

/// Copies `text` out of a class instance: the copy retains the string's bridge object.
@inline(never) func copy(_ holder: Holder) -> Int { let t = holder.text; return t.utf8.count }

nonisolated(unsafe) var stop = false
nonisolated(unsafe) var copied = 0

/// WORKERS threads that allocate, retain and release.
func startAllocators() {
    let workers = Int(getenv("WORKERS").map { String(cString: $0) } ?? "2") ?? 2
    for _ in 0..<workers {
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
    }
}

/// A thread copying `text`, as swift-testing's threads copied test names, comments and source
/// paths while the probe counted.
func startCopier(_ text: String) {
    var t = pthread_t()
    pthread_create(&t, nil, { raw in
        let holder = Unmanaged<Holder>.fromOpaque(raw!).takeRetainedValue()
        while !stop { copied &+= copy(holder) }
        return nil
    }, Unmanaged.passRetained(Holder(text)).toOpaque())
}

/// The counted work of the race: one array and a few more.
func countOnce(_ appends: Int) -> Int {
    var sink: [Int] = []
    return HeapObjects.count {
        sink = Array(repeating: 1, count: 100)
        for _ in 0..<appends { sink.append(contentsOf: [2, 3]) }
    }!
}

let long = "runs only in the child process graphAllocatesNothingPerFrame starts"  // a test's comment
let short = "keeping"   // 15 bytes or fewer, stored inline: these bytes survive (0 of 5), though a
                        // small string's bytes read as an address can fault too (old-probe-crash.sh
                        // saw a Character's, "PENTS", at 0x53544e4550)
let arguments = CommandLine.arguments.dropFirst()
let mode = arguments.first ?? "race"
let rounds = Int(arguments.dropFirst().first ?? "") ?? (mode == "race" ? 20000 : 2000)
switch mode {
case "race":
    startAllocators()
    let enable = dlsym(nil, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")!
    var histogram: [Int: Int] = [:]
    var leftOn = 0
    for _ in 0..<rounds {
        histogram[countOnce(1), default: 0] += 1
        if enable.load(as: Bool.self) { leftOn += 1 }
    }
    stop = true
    print("counts \(histogram.sorted { $0.key < $1.key }) switch left on after \(leftOn) of \(rounds) counts")
case "same-thread":     // the counting thread itself copies a long string while counting
    let holder = Holder(long)
    let counted = HeapObjects.count { copied = copy(holder) }!
    print("\(mode): survived, \(counted) objects counted")
case "other-thread", "other-thread-short", "no-count":
    startCopier(mode == "other-thread-short" ? short : long)
    var counted = 0
    for _ in 0..<rounds {
        if mode == "no-count" {
            var sink = Array(repeating: 1, count: 100)
            for _ in 0..<1000 { sink.append(contentsOf: [2, 3]) }
        } else {
            counted += countOnce(1000)
        }
    }
    stop = true
    print("\(mode): survived, \(counted) objects counted")
default:
    print("modes: race, same-thread, other-thread, other-thread-short, no-count")
    exit(2)
}
