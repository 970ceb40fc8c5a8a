// The one place that turns an error into a line on stderr and a status from the exit-code
// table (TouchlineInput's ExitStatus.swift).
import ArgumentParser
import TouchlineInput
import TouchlineLive
import TouchlineTrace

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
