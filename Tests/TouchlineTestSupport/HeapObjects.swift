// Heap allocations counted exactly (principle 10), for the allocation tests of every module:
// they run `allocation-probe` (Tests/AllocationProbe), a process of its own with one thread,
// and read what it prints. How it counts, and why not in this test binary (issue 37: the
// counter's process-wide switch raced the testing library's threads and crashed one run in
// three): Tests/AllocationProbe/main.swift.
import Foundation

public enum HeapObjects {
    /// The `allocation-probe` executable that `swift build` put beside this test binary.
    public static let probeExecutable: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().appendingPathComponent("allocation-probe")
    }()

    /// Runs `allocation-probe WORKLOAD` to its end; its exit status and what it printed (standard
    /// error too, so that a failure says why).
    public static func probe(workload: String) throws -> (status: Int32, output: String) {
        guard FileManager.default.isExecutableFile(atPath: probeExecutable.path) else {
            return (-1, "no allocation-probe at \(probeExecutable.path): build it with `swift build --build-tests`")
        }
        let (status, output) = try runCapturingOutput(probeExecutable, [workload], standardErrorToo: true)
        return (status, String(decoding: output, as: UTF8.self))
    }
}

/// Runs `executable` (in `directory` when given) to its end; its exit status and standard
/// output, with its standard error discarded (or in the same stream, with `standardErrorToo`).
public func runCapturingOutput(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                               in directory: URL? = nil, standardErrorToo: Bool = false) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe()
    process.standardOutput = output
    // With standardErrorToo, both go into the one pipe, in the order the child wrote them.
    process.standardError = standardErrorToo ? output : FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data)
}

