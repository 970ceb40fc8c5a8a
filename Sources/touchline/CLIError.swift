// One exit-code table for every command (sysexits.h), and the one place that turns an error
// into a line on stderr and a status. README.md ("Exit status") and `touchline --help` print
// the same table: change all three together.
import ArgumentParser
import TouchlineInput
import TouchlineLive
import TouchlineTrace
#if canImport(Glibc)
import Glibc
#endif

/// The exit statuses `touchline` uses, and no others.
enum ExitStatus {
    static let ok: Int32 = 0
    /// A bad command line, including a bare `touchline` (EX_USAGE). ArgumentParser uses it for
    /// its own parse and validation errors too.
    static let usage: Int32 = 64
    /// A trace or configuration with bad content (EX_DATAERR).
    static let data: Int32 = 65
    /// An input that cannot be opened: missing, a directory, no permission, not a device (EX_NOINPUT).
    static let noInput: Int32 = 66
    /// `daemon --user` names a user or group that does not exist (EX_NOUSER).
    static let noUser: Int32 = 67
    /// A bug in touchline, or the system refusing something it always grants (EX_SOFTWARE).
    static let internalError: Int32 = 70
    /// The output cannot be created (EX_CANTCREAT).
    static let cannotCreate: Int32 = 73
    /// Reading or writing failed part way (EX_IOERR).
    static let ioError: Int32 = 74
    /// `daemon --user` without the privilege to become someone else (EX_NOPERM).
    static let noPermission: Int32 = 77

    /// The table as `--help` shows it.
    static let table = """
        Exit status: 0 success; 64 usage error (bad or missing arguments, a bare `touchline`, \
        an output that is one of the inputs); \
        65 bad data (a trace or configuration line that cannot be read); 66 an input cannot be \
        opened (missing, a directory, no permission, not an input device); 67 `daemon --user` names \
        an unknown user or group; 70 internal error; \
        73 the output cannot be created (a directory, no permission, a missing folder); 74 an \
        I/O error while reading or writing; 77 `daemon --user` without root.
        """
}

/// An error for the user: one sentence, and the exit status that says whose fault it was.
struct CLIError: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32

    /// A trace or config with bad content.
    static func data(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitStatus.data) }
    /// An input that cannot be opened.
    static func noInput(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitStatus.noInput) }
    /// An output that cannot be created.
    static func output(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitStatus.cannotCreate) }
    /// A write or read that failed part way.
    static func io(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitStatus.ioError) }
    /// Arguments that contradict each other in a way ArgumentParser's validation cannot see.
    static func usage(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitStatus.usage) }

    var description: String { message }
}

/// Runs a command body; every error becomes one line on stderr and its status from the table,
/// instead of ArgumentParser's generic "Error: …" and status 1.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ExitCode {
        throw error
    } catch {
        // ArgumentParser's own (CleanExit, ValidationError) keep their meaning.
        guard let (message, status) = userReport(of: error) else { throw error }
        warn(message)
        throw ExitCode(status)
    }
}

/// The line on stderr and the status `reportingErrors` gives an error; nil for ArgumentParser's
/// own (CleanExit, ValidationError, ExitCode), which keep their meaning. `replay --jobs` reports
/// each file's error through it, in file order.
func userReport(of error: any Error) -> (message: String, status: Int32)? {
    switch error {
    case let error as CLIError:
        return (error.message, error.exitCode)
    case let error as TraceError:
        // LineScanner wraps a failed read(2) as "could not read: …" at the line it was reading:
        // the content was fine, the file system was not.
        return (error.description, error.message.hasPrefix("could not read:") ? ExitStatus.ioError : ExitStatus.data)
    case let error as FileByteSource.Error:
        return (error.description, error.operation == "open" ? ExitStatus.noInput : ExitStatus.ioError)
    case let error as SystemError:
        return (error.description, exitStatus(of: error))
    case let error as LiveError:
        return (error.message, error.kind == .data ? ExitStatus.data : ExitStatus.noInput)
    case let error as TraceWriterError:
        return (error.description, ExitStatus.data)
    case is ExitCode, is CleanExit, is ValidationError:
        return nil
    default:
        // Anything else reaching here is a path nobody planned for.
        return ("internal error: \(error)", ExitStatus.internalError)
    }
}

/// The status for an environment error from TouchlineInput, by what was attempted.
func exitStatus(of error: SystemError) -> Int32 {
    switch error.operation {
    case "open", "read device description", "libevdev_new", "grab (EVIOCGRAB)", "inotify_add_watch":
        return ExitStatus.noInput
    case _ where error.operation.hasPrefix("libinput_path_add_device"):
        return ExitStatus.noInput
    case "open for writing", "create uinput device":
        return ExitStatus.cannotCreate
    case "read", "write", "write (short)":
        return ExitStatus.ioError
    default:
        // epoll, timerfd, signalfd, inotify, udev: the kernel refusing what it always grants.
        return ExitStatus.internalError
    }
}
