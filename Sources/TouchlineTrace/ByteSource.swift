// Where trace bytes come from and where written traces go. The readers and writers are pure,
// so they see bytes only through these two protocols; the CLI supplies a file-backed source
// and sink, tests an in-memory one.

/// A stream of bytes read in chunks (a file, a pipe, memory).
public protocol ByteSource {
    /// Appends the next bytes to `buffer`, at most its free capacity (never 0 when asked);
    /// appending nothing means the end. The reader's own buffer is handed over, so a file
    /// source reads straight into it.
    mutating func read(into buffer: inout OutputSpan<UInt8>) throws
    /// Whether opening the same file again gives the same bytes and `seek(to:)` works: a
    /// regular file or memory, not a pipe or a terminal. A libinput record file with several
    /// devices is read in place when this is true, and buffered (with a cap) when it is false.
    var isRereadable: Bool { get }
    /// Moves to `offset` bytes from the start; only asked of a re-readable source.
    mutating func seek(to offset: Int) throws
}

/// A source's failed read that can say why without naming the file: the reader names it (with
/// the line it was reading), so the message says the path once.
public protocol ByteSourceError: Error {
    /// Why the read failed ("Input/output error").
    var reason: String { get }
}

/// A source that cannot seek, such as a pipe.
public struct SeekUnsupported: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "this input cannot seek" }
}

extension ByteSource {
    public var isRereadable: Bool { false }
    public mutating func seek(to offset: Int) throws { throw SeekUnsupported() }
}

/// A source over bytes already in memory, for tests, fuzzing and small inputs.
public struct BytesSource: ByteSource, Sendable {
    public let bytes: [UInt8]
    public private(set) var offset = 0
    /// The most each `read` returns, so that tests can exercise lines split across chunks.
    public var chunkLimit: Int

    public init(_ bytes: [UInt8], chunkLimit: Int = .max) {
        self.bytes = bytes
        self.chunkLimit = max(1, chunkLimit)
    }

    public init(_ text: String, chunkLimit: Int = .max) {
        self.init(Array(text.utf8), chunkLimit: chunkLimit)
    }

    /// Re-readable unless made to stand for a pipe (`rereadable: false`), for tests of both paths.
    public var isRereadable: Bool { rereadable }
    public var rereadable = true

    public mutating func seek(to offset: Int) throws {
        guard rereadable else { throw SeekUnsupported() }
        self.offset = max(0, min(offset, bytes.count))
    }

    public mutating func read(into buffer: inout OutputSpan<UInt8>) throws {
        let count = min(buffer.freeCapacity, bytes.count - offset, chunkLimit)
        guard count > 0 else { return }
        offset += append(bytes.span.extracting(offset..<offset + count), to: &buffer)
    }
}

/// Where a writer's bytes go (a file, memory). Writers hand over chunks of tens of KiB.
public protocol ByteSink {
    mutating func write(_ bytes: [UInt8]) throws
}

/// A sink that keeps everything in memory.
public struct BytesSink: ByteSink, Sendable {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public mutating func write(_ bytes: [UInt8]) throws { self.bytes.append(contentsOf: bytes) }
    /// The bytes as text (they are UTF-8 for every writer here).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
