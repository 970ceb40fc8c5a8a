// The user's error that carries its exit status (the table is ExitStatus.swift's). In its own
// file, not beside the table (issue 32 item 4): here rather than in the executable because the
// system code that fails with it (files, the privilege drop, `replay --jobs`' workers) lives in
// this module.

/// An error for the user: one sentence, and the exit status that says whose fault it was.
public struct CLIError: Error, CustomStringConvertible {
    public var message: String
    public var exitCode: Int32

    public init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    /// A trace or config with bad content.
    public static func data(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitStatus.data) }
    /// An input that cannot be opened.
    public static func noInput(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitStatus.noInput) }
    /// An output that cannot be created.
    public static func output(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitStatus.cannotCreate) }
    /// A write or read that failed part way.
    public static func io(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitStatus.ioError) }
    /// Arguments that contradict each other in a way ArgumentParser's validation cannot see.
    public static func usage(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitStatus.usage) }

    public var description: String { message }
}
