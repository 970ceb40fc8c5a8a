import TouchlineCore

/// The trace formats Touchline reads, detected from the content.
public enum TraceFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// evemu-record text: `N: I: P: B: A:` header lines and `E:` event lines; also a header-less
    /// `.events` file whose header comes from a separate `.desc`.
    case evemu
    /// Android `getevent -lt` text.
    case getevent
    /// `libinput record` YAML, version 1.
    case libinputRecord = "libinput-record"

    public var description: String { rawValue }
}

/// One event of a trace: which device (an index into `TraceReader.devices`) and the event.
public struct TraceEvent: Hashable, Sendable, CustomStringConvertible {
    public var device: Int
    public var event: InputEvent

    @inlinable public init(device: Int, event: InputEvent) {
        self.device = device
        self.event = event
    }

    public var description: String { "device \(device): \(event)" }
}

/// A trace that cannot be read: the file, the line (1-based) and a sentence saying what was
/// expected there. `description` is "FILE:LINE: message", as compilers print errors.
public struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String
    /// The trace is a header-less evemu `.events` file and no description was given: a caller
    /// that can find the `.desc` may try again with it (`TraceReader.open` does).
    public var needsDescription: Bool
    /// The column (1-based, in bytes) where the line goes wrong, when the reader knows it; the
    /// description is then "FILE:LINE:COLUMN: message".
    public var column: Int?

    public init(file: String, line: Int, message: String, needsDescription: Bool = false, column: Int? = nil) {
        self.file = file
        self.line = line
        self.message = message
        self.needsDescription = needsDescription
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column.map { "\($0):" } ?? "") \(message)" }
}

/// A writer asked to do something its format cannot express.
public struct TraceWriterError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What a line parser says went wrong; the reader adds the file and line.
struct LineError: Error {
    var message: String
    /// 1-based, in bytes, when the parser knows where on the line it went wrong.
    var column: Int?
    init(_ message: String, column: Int? = nil) {
        self.message = message
        self.column = column
    }
}
