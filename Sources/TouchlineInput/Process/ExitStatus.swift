// One exit-code table for every command (sysexits.h); the user's error that carries its status is
// CLIError.swift's. Here rather than in the executable because the system code that fails with
// it (files, the privilege drop, `replay --jobs`' workers) lives in this module. README.md ("Exit
// status") and `touchline --help` print the same table: change all three together.

/// The exit statuses `touchline` uses, and no others.
public enum ExitStatus {
    public static let ok: Int32 = 0
    /// `score`: a label does not hold (as `diff` says the files differ, and score.py).
    public static let labelsMissed: Int32 = 1
    /// A bad command line, including a bare `touchline` (EX_USAGE). ArgumentParser uses it for
    /// its own parse and validation errors too.
    public static let usage: Int32 = 64
    /// A trace or configuration with bad content (EX_DATAERR).
    public static let data: Int32 = 65
    /// An input that cannot be opened: missing, a directory, no permission, not a device (EX_NOINPUT).
    public static let noInput: Int32 = 66
    /// `daemon --user` names a user or group that does not exist (EX_NOUSER).
    public static let noUser: Int32 = 67
    /// A bug in touchline, or the system refusing something it always grants (EX_SOFTWARE).
    public static let internalError: Int32 = 70
    /// The output cannot be created (EX_CANTCREAT).
    public static let cannotCreate: Int32 = 73
    /// Reading or writing failed part way (EX_IOERR).
    public static let ioError: Int32 = 74
    /// `daemon --user` without the privilege to become someone else (EX_NOPERM).
    public static let noPermission: Int32 = 77

    /// The table as `--help` shows it.
    public static let table = """
        Exit status: 0 success; 1 `score`: a label does not hold; 64 usage error (bad or missing arguments, a bare `touchline`, \
        an output that is one of the inputs); \
        65 bad data (a trace or configuration line that cannot be read); 66 an input cannot be \
        opened (missing, a directory, no permission, not an input device); 67 `daemon --user` names \
        an unknown user or group; 70 internal error; \
        73 the output cannot be created (a directory, no permission, a missing folder); 74 an \
        I/O error while reading or writing; 77 `daemon --user` without root.
        """
}
