import TouchlineCore
import TouchlineGestures
import TouchlineInput

extension OutputStream {
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
}

/// A message for the user on stderr, prefixed with the program name.
func warn(_ message: String) {
    StandardError.warn(message)
}

/// "1 touch sequence", "2 touch sequences": a count with its noun, singular for one.
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
