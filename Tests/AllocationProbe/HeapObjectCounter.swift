// The counter of allocation-probe: Swift heap objects counted through the runtime's
// allocation hook, only in a process with one thread (main.swift says how and why).
import Glibc

private typealias AllocObject = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

nonisolated(unsafe) private var originalAllocObject: AllocObject?
nonisolated(unsafe) private var heapObjects = 0

private let countingAllocObject: AllocObject = { metadata, size, alignMask in
    heapObjects += 1
    return originalAllocObject!(metadata, size, alignMask)
}

/// How many threads this process has (the `Threads:` line of /proc/self/status); 0 when it
/// cannot be read.
func threadCount() -> Int {
    let fd = open("/proc/self/status", O_RDONLY)
    guard fd >= 0 else { return 0 }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 8192)
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n > 0 else { return 0 }
    let text = String(decoding: bytes[..<n], as: UTF8.self)
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }) else { return 0 }
    return Int(line.dropFirst("Threads:".count).trimmingPrefix(while: { $0 == " " || $0 == "\t" })) ?? 0
}

func fail(_ message: String) -> Never {
    let line = Array("allocation-probe: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

/// The Swift heap objects `body` allocates. Refuses to count in a process with more than one
/// thread (the reason is at the top of main.swift). `body` must not copy a String: with the
/// switch on, Swift 6.3 faults on a long literal's retain even on this thread, every time
/// (scripts/issue37/adapter-crash.sh, `same-thread`), and on a short string's depending on its
/// bytes; a workload that copied strings would fail at once or for some strings, and its count
/// would be a runtime's accident either way.
func countHeapObjects(_ body: () -> Void) -> Int {
    let threads = threadCount()
    guard threads == 1 else { fail("\(threads) threads: the counter must run alone (see the top of main.swift)") }
    guard let hook = dlsym(nil, "_swift_allocObject"),
        let enable = dlsym(nil, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
    else { fail("the Swift runtime has no allocation hook to count with") }
    let slot = hook.assumingMemoryBound(to: AllocObject?.self)
    originalAllocObject = slot.pointee
    heapObjects = 0
    slot.pointee = countingAllocObject
    enable.storeBytes(of: true, as: Bool.self)
    body()
    enable.storeBytes(of: false, as: Bool.self)
    slot.pointee = originalAllocObject
    return heapObjects
}

