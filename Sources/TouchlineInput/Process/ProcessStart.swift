// What the process sets up before any command runs: standard streams that later opens cannot
// take, and a closed pipe that ends the program through EPIPE rather than SIGPIPE.
import Glibc

public enum ProcessStart {
    /// A closed stdout (`touchline replay f | head`) must end the program quietly through
    /// EPIPE in OutputStream, not kill it with SIGPIPE.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// A closed standard stream (`2>&-`) would be taken by the next open(2) or mkstemp(3), and
    /// warnings or output would go into a trace being read or written. Each closed one gets
    /// /dev/null opened the wrong way round, so it stays occupied and still fails as closed:
    /// reading `-` and writing standard output say "Bad file descriptor", warnings go nowhere.
    public static func reserveStandardDescriptors() {
        for (fd, flags) in [(Int32(0), O_WRONLY), (1, O_RDONLY), (2, O_RDONLY)] where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
            // open(2) returns the lowest free descriptor: this one, since those below are open.
            let opened = open("/dev/null", flags | O_CLOEXEC)
            if opened >= 0 && opened != fd { close(opened) }
        }
    }
}
