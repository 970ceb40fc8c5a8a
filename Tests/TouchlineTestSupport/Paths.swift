import Foundation

// The one place tests find the package and their inputs. The shared third-party traces and the
// toml-test suite stay beside the repository (`../shared/`), never copied into it; a worktree
// one level deeper finds them at `../../shared/`.

/// The package, its recordings and the shared data beside it.
public enum Paths {
    /// The package root: the first folder above this file that holds Package.swift.
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url = url.deletingLastPathComponent()
        }
        return url
    }()

    /// Touchline's own synthetic recordings and their golden files.
    public static let recordings = root.appendingPathComponent("Recordings")

    /// `../shared` from the root (the main checkout), or `../../shared` (a worktree); the first
    /// candidate when neither exists, so that a test reading from it fails naming that path.
    public static let shared: URL = {
        let candidates = ["../shared", "../../shared"].map { root.appendingPathComponent($0).standardizedFileURL }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates[0]
    }()

    /// The shared third-party traces: `$TOUCHLINE_TRACES`, else `shared/traces`.
    public static let traces: URL = {
        if let env = ProcessInfo.processInfo.environment["TOUCHLINE_TRACES"] { return URL(fileURLWithPath: env) }
        return shared.appendingPathComponent("traces")
    }()

    /// Whether the shared traces are there (a suite that needs them says so when they are not).
    public static var tracesFound: Bool { FileManager.default.fileExists(atPath: traces.path) }

    /// The path of a shared trace, from its path under `traces/`.
    public static func trace(_ relative: String) -> String { traces.appendingPathComponent(relative).path }

    /// The bytes of a shared trace, from its path under `traces/`.
    public static func traceBytes(_ relative: String) throws -> [UInt8] { try bytes(trace(relative)) }

    /// Recordings/NAME.toml beside Recordings/NAME.yml, when the recording has its own graph.
    public static func recordingConfig(_ recording: String) -> String? {
        let name = recording.hasSuffix(".yml") ? String(recording.dropLast(4)) : recording
        let path = recordings.appendingPathComponent(name + ".toml").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The bytes of a file, or a failure naming it.
    public static func bytes(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TestFailure("cannot read \(path)" + (path.hasPrefix(shared.path) ? ": the shared data must be at ../shared from the package root" : ""))
        }
        return [UInt8](data)
    }
}

/// A test's own failure, with its message.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What reading a configuration reports: its error's message, or "no error".
public func errorMessage<T>(_ read: () throws -> T) -> String {
    do {
        _ = try read()
        return "no error"
    } catch {
        return String(describing: error)
    }
}
