// Heap allocations counted exactly (principle 10), for the allocation tests of every module.
//
// How: the Swift runtime routes every heap object (array buffers, class instances, boxes)
// through `swift_allocObject`, which calls through the `_swift_allocObject` pointer when
// `_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly` is set (the
// hook Instruments uses). That switch also reroutes every retain and release in the process,
// which crashed other tests' threads when tried in-process, so the counting runs in a child
// process (this test binary again, filtered to a probe suite), and the parent test reads its
// report. `mallinfo2()` would not do: it reports only the main arena and only bytes in use, so a
// malloc+free per frame nets to zero there.
// Not counted: raw `malloc` and `UnsafeMutablePointer.allocate`, which the measured code never uses.
import Foundation
import Glibc

private typealias AllocObject = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

nonisolated(unsafe) private var originalAllocObject: AllocObject?
nonisolated(unsafe) private var countedThread: pthread_t = 0
nonisolated(unsafe) private var heapObjects = 0

private let countingAllocObject: AllocObject = { metadata, size, alignMask in
    if pthread_equal(pthread_self(), countedThread) != 0 { heapObjects += 1 }
    return originalAllocObject!(metadata, size, alignMask)
}

public enum HeapObjects {
    /// Counts the Swift heap objects `body` allocates on this thread; nil when the runtime has
    /// no hook to count with. Only in a probe's child process (see the top of this file).
    public static func count(_ body: () -> Void) -> Int? {
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

    /// Whether this process is a probe's child, started by `probe` with `variable` set.
    public static func isProbe(_ variable: String) -> Bool { getenv(variable) != nil }

    /// Runs this test binary again, filtered to the suite `suite`, with `variable` set (the
    /// suite is enabled only then); its exit status and standard output.
    public static func probe(suite: String, variable: String) throws -> (status: Int32, output: String) {
        let (status, output) = try runCapturingOutput(
            URL(fileURLWithPath: "/proc/self/exe"), ["--testing-library", "swift-testing", "--filter", suite],
            environment: ProcessInfo.processInfo.environment.merging([variable: "1"]) { $1 })
        return (status, String(decoding: output, as: UTF8.self))
    }
}

/// Runs `executable` (in `directory` when given) with its standard error discarded, to its
/// end; its exit status and standard output.
public func runCapturingOutput(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                               in directory: URL? = nil) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data)
}
