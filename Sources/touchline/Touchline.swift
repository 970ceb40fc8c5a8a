import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

@main
struct Touchline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchline",
        abstract: "Touch gesture recognition for Linux touchscreens.",
        discussion: """
            Reads touch input from recorded traces (libinput record YAML, evemu, Android \
            getevent -lt) or live devices, assembles frames of contacts and recognizes gestures, \
            printing JSON Lines (schema v1, docs/events.md).

            \(ExitStatus.table)
            """,
        version: "0.1.0",
        subcommands: [Inspect.self, Replay.self, Plot.self, Convert.self, Devices.self, Run.self, Record.self, Play.self, Daemon.self, Listen.self]
    )

    static func main() {
        // A closed stdout (`touchline replay f | head`) must end the program quietly through
        // EPIPE in OutputStream, not kill it with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        reserveStandardDescriptors()
        Self.main(nil)
    }

    /// A closed standard stream (`2>&-`) would be taken by the next open(2) or mkstemp(3), and
    /// warnings or output would go into a trace being read or written. Each closed one gets
    /// /dev/null opened the wrong way round, so it stays occupied and still fails as closed:
    /// reading `-` and writing standard output say "Bad file descriptor", warnings go nowhere.
    static func reserveStandardDescriptors() {
        for (fd, flags) in [(Int32(0), O_WRONLY), (1, O_RDONLY), (2, O_RDONLY)] where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
            // open(2) returns the lowest free descriptor: this one, since those below are open.
            let opened = open("/dev/null", flags | O_CLOEXEC)
            if opened >= 0 && opened != fd { close(opened) }
        }
    }

    /// A bare `touchline` is a usage error: the help goes to standard error and the status says
    /// nothing was done, so a script that forgot its subcommand does not pass.
    func run() throws {
        warn("missing a subcommand\n\n" + Self.helpMessage())
        throw ExitCode(ExitStatus.usage)
    }
}
