#if canImport(Glibc)
import Glibc
#endif
import TouchlineCore
import TouchlineGestures

/// Buffered writes to a file descriptor. JSON Lines go out in 64 KiB chunks: one write(2) per
/// line would cost more than recognizing the line.
struct OutputStream {
    var fd: Int32
    var buffer: [UInt8] = []
    let limit = 64 * 1024
    /// Holds no bytes between `writeLine` calls (it borrows `buffer`'s).
    private var line = JSONWriter(capacity: 0)
    /// In a corpus replay (`replay --jobs`), which file this is: each flush asks it where the
    /// bytes go (standard output once every earlier file is out, a temporary until then).
    let turn: OutputTurn?
    /// The output as messages name it; nil: "standard output" or "descriptor N".
    let name: String?

    init(fd: Int32, name: String? = nil) {
        self.fd = fd
        self.turn = nil
        self.name = name
        buffer.reserveCapacity(limit + 4096)
    }

    init(turn: OutputTurn) {
        self.fd = -1
        self.turn = turn
        self.name = nil
        buffer.reserveCapacity(limit + 4096)
    }

    mutating func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    /// A gesture event as one JSON line, made in place at the end of the buffer: no line
    /// buffer to clear and copy per event (that was a quarter of the writer's time).
    mutating func writeLine(_ event: GestureEvent) {
        // The writer takes the buffer for the line and gives it back: two pointer swaps. Its
        // `needsComma` is false between lines (`newline` clears it).
        swap(&line.bytes, &buffer)
        event.writeJSON(into: &line)
        line.newline()
        swap(&line.bytes, &buffer)
        if buffer.count >= limit { flush() }
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flush() }
    }

    mutating func flush() {
        if let turn {
            if buffer.isEmpty { return }
            guard let routed = turn.route(&buffer) else { return }
            fd = routed
        }
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                // The reader went away (EPIPE from `| head`): stop quietly, as Unix tools do.
                if errno == EPIPE { exit(ExitStatus.ok) }
                writeToStandardError("touchline: \(name ?? (fd == 1 ? "standard output" : turn != nil ? "a temporary file (replay --jobs)" : "descriptor \(fd)")): cannot write: \(String(cString: strerror(errno)))\n")
                exit(ExitStatus.ioError)
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A message for the user on stderr, prefixed with the program name. A standard error that
/// cannot be written (closed, full) loses the message, not the command's work.
func warn(_ message: String) {
    writeToStandardError("touchline: " + message + "\n")
}

/// Writes `text` to fd 2 whole if it can, and otherwise gives up without a word: there is
/// nowhere left to report the failure.
func writeToStandardError(_ text: String) {
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

/// "1 touch sequence", "2 touch sequences": a count with its noun, singular for one.
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
