// Buffered output for the commands that print (replay, inspect, listen) and the one way a
// message reaches standard error. A write that fails ends the process: the output is the
// command's whole work, and a reader gone away (`| head`) is how Unix tools are told to stop.
import Glibc
import TouchlineCore

/// Buffered writes to a file descriptor. JSON Lines go out in 64 KiB chunks: one write(2) per
/// line would cost more than recognizing the line.
public struct OutputStream {
    public var fd: Int32
    public var buffer: [UInt8] = []
    public let limit = 64 * 1024
    /// Holds no bytes between lines (the executable's `writeLine` lends it `buffer`'s).
    public var line = JSONWriter(capacity: 0)
    /// In a corpus replay (`replay --jobs`), which file this is: each flush asks it where the
    /// bytes go (standard output once every earlier file is out, a temporary until then).
    let turn: OutputTurn?
    /// The output as messages name it; nil: "standard output" or "descriptor N".
    let name: String?

    public init(fd: Int32, name: String? = nil) {
        self.fd = fd
        self.turn = nil
        self.name = name
        buffer.reserveCapacity(limit + 4096)
    }

    public init(turn: OutputTurn) {
        self.fd = -1
        self.turn = turn
        self.name = nil
        buffer.reserveCapacity(limit + 4096)
    }

    public mutating func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    public mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flush() }
    }

    public mutating func flush() {
        if let turn {
            if buffer.isEmpty { return }
            guard let routed = turn.route(&buffer) else { return }
            fd = routed
        }
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                // `offset < raw.count`, so the pointer and length stay inside the array.
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                // The reader went away (EPIPE from `| head`): stop quietly, as Unix tools do.
                if errno == EPIPE { exit(ExitStatus.ok) }
                StandardError.write("touchline: \(name ?? (fd == 1 ? "standard output" : turn != nil ? "a temporary file (replay --jobs)" : "descriptor \(fd)")): cannot write: \(String(cString: strerror(errno)))\n")
                exit(ExitStatus.ioError)
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

public enum StandardError {
    /// Writes `text` to fd 2 whole if it can, and otherwise gives up without a word: there is
    /// nowhere left to report the failure.
    public static func write(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // `offset < raw.count`, so the pointer and length stay inside the array.
                let n = Glibc.write(2, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// A message for the user, prefixed with the program name. A standard error that cannot be
    /// written (closed, full) loses the message, not the command's work.
    /// Control characters are escaped: a message quotes device names and paths from traces.
    public static func warn(_ message: String) {
        write("touchline: " + message.escapingControlCharacters + "\n")
    }
}
