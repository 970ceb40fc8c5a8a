// The one error type of every settings reader (graph, actions, devices, socket, registered
// targets): where in the file, and the sentence that says what was found and expected.

/// A configuration problem, printed as "FILE:LINE:COLUMN: sentence" ("FILE:LINE: sentence" when
/// the column is not known).
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based; 0 when the problem is not on one line.
    public var line: Int
    /// 1-based, in Unicode scalars; 0 when not known.
    public var column: Int
    public var message: String
    public init(file: String, line: Int, column: Int = 0, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }
    public var description: String {
        if file.isEmpty { return message }
        if line <= 0 { return "\(file): \(message)" }
        return column > 0 ? "\(file):\(line):\(column): \(message)" : "\(file):\(line): \(message)"
    }
}
