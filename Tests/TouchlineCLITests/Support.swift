import Foundation
import Testing

/// Runs the built `touchline` executable, as a user would, and captures what it prints.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [Substring] { stdout.split(separator: "\n") }
}

enum Paths {
    /// The package root, found from this file's path.
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// The shared third-party traces beside the repository (never copied into it).
    static let traces = root.deletingLastPathComponent().appendingPathComponent("shared/traces")
    static let recordings = root.appendingPathComponent("Recordings")

    /// The `touchline` binary that `swift build` put beside this test bundle.
    static let binary: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("touchline")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir.deleteLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/touchline")
    }()

    static func trace(_ relative: String) -> String { traces.appendingPathComponent(relative).path }

    static func temporaryDirectory() -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("touchline-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

@discardableResult
func touchline(_ arguments: String..., environment: [String: String]? = nil) throws -> CLIResult {
    try run(Paths.binary.path, arguments, environment: environment)
}

/// `standardInput`: a file the process reads as fd 0 (`touchline … < FILE`); /dev/null otherwise.
func touchline(arguments: [String], standardInput: String? = nil) throws -> CLIResult {
    try run(Paths.binary.path, arguments, standardInput: standardInput)
}

func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, standardInput: String? = nil) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    // stderr goes to a file, so that only one pipe needs draining while the process runs.
    let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("touchline-stderr-\(UUID().uuidString)")
    FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let errHandle = try FileHandle(forWritingTo: errURL)
    defer { try? FileManager.default.removeItem(at: errURL) }
    process.standardOutput = out
    process.standardError = errHandle
    if let standardInput {
        process.standardInput = try #require(FileHandle(forReadingAtPath: standardInput), "cannot open \(standardInput)")
    } else {
        process.standardInput = FileHandle.nullDevice
    }
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try errHandle.close()
    let errData = (try? Data(contentsOf: errURL)) ?? Data()
    return CLIResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self)
    )
}

/// `libinput` with the system Python first on PATH: its analyze tools need python3-libevdev,
/// which a pyenv or venv python3 earlier on PATH does not have.
func libinput(_ arguments: String...) throws -> CLIResult {
    var env = ProcessInfo.processInfo.environment
    env["PATH"] = "/usr/bin:/bin:" + (env["PATH"] ?? "")
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/libinput") else {
        Issue.record("/usr/bin/libinput is missing: install libinput-tools and python3-libevdev (scripts/setup.sh does)")
        return CLIResult(status: -1, stdout: "", stderr: "")
    }
    return try run("/usr/bin/libinput", arguments, environment: env)
}
