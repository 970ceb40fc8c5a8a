import TouchlineCore

extension TraceReader {
    /// Reads the device description of an evemu `.desc` file (or the header of any evemu
    /// file, stopping at its first event line).
    public static func readDescription(source: some ByteSource, fileName: String, maxLineLength: Int = 64 * 1024) throws(TraceError) -> DeviceDescription {
        var scanner = LineScanner(source: source, fileName: fileName, maxLineLength: maxLineLength)
        var builder = EvemuHeaderBuilder()
        while try scanner.nextLine() {
            let isEvent: Bool
            do {
                isEvent = try scanner.withLine { (l) throws(LineError) -> Bool in
                    if isBlankOrComment(l) { return false }
                    guard let kind = evemuKind(l) else {
                        throw LineError("expected an evemu description line ('N:', 'I:', 'P:', 'B:', 'A:' or a '#' comment), found \(quoted(l))")
                    }
                    if kind == UInt8(ascii: "E") { return true }
                    try builder.apply(l)
                    return false
                }
            } catch {
                throw scanner.error(error.message)
            }
            if isEvent { break }
        }
        guard builder.sawHeader else {
            if !scanner.sawBytes { throw scanner.error("empty file: expected an evemu device description ('N:', 'I:', 'P:', 'B:', 'A:' lines)", line: 1) }
            throw scanner.error("no device description: expected evemu 'N:', 'I:', 'P:', 'B:', 'A:' lines")
        }
        return builder.description
    }

    /// Where the description of a header-less evemu `.events` file may be, most specific first:
    /// the extension is replaced by `.desc`, then each further ".suffix" is dropped, so
    /// "dir/N-Trig MultiTouch.2-fingers-touch-release.events" gives
    /// "dir/N-Trig MultiTouch.2-fingers-touch-release.desc" and "dir/N-Trig MultiTouch.desc".
    public static func descriptionCandidates(forEventsPath path: String) -> [String] {
        let bytes = Array(path.utf8)
        let slash = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        let directory = String(decoding: bytes[..<slash], as: UTF8.self)
        var base = Array(bytes[slash...])
        var candidates: [String] = []
        // The extension first; a name that is only ".something" has none.
        if let dot = base.lastIndex(of: UInt8(ascii: ".")), dot > 0 { base.removeSubrange(dot...) }
        while true {
            let candidate = directory + String(decoding: base, as: UTF8.self) + ".desc"
            if candidate != path { candidates.append(candidate) }
            guard let dot = base.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { break }
            base.removeSubrange(dot...)
        }
        return candidates
    }
}

extension TraceReader {
    /// The path that names standard input.
    public static let standardInputPath = "-"

    /// Opens a trace file as the CLI does, with the file system behind two closures. The trace is
    /// opened once and read once, so a pipe, a FIFO or standard input (`-`) reads as a file does:
    /// - a header-less evemu `.events` file gets its description from `descriptionPath`
    ///   (`--desc`) or else from the first of `descriptionCandidates(forEventsPath:)` that exists
    ///   (standard input has no name to look beside); the lines read before that was known are
    ///   read again from memory, not from the file;
    /// - a getevent trace streams, its ranges from a `getevent -lp` header, `options.getevent`
    ///   or a bounded look-ahead (docs/traces.md).
    /// Throws `TraceError` for bad content and whatever `openFile` throws for I/O.
    public static func open(
        path: String, descriptionPath: String? = nil, options: TraceReaderOptions = TraceReaderOptions(),
        openFile: (String) throws -> any ByteSource, fileExists: (String) -> Bool, fileName: String? = nil
    ) throws -> TraceReader {
        var options = options
        let fileName = fileName ?? path
        if let descriptionPath {
            options.description = try readDescription(source: openFile(descriptionPath), fileName: descriptionPath, maxLineLength: options.maxLineLength)
        }
        let shared = SharedSource(try openFile(path))
        let log = ReadLog()
        let firstError: TraceError
        var opened: TraceReader?
        do {
            opened = try TraceReader(source: LoggingSource(shared: shared, log: log), fileName: fileName, options: options)
            firstError = TraceError(file: fileName, line: 0, message: "")
        } catch {
            firstError = error
        }
        if var reader = opened {
            log.stop()
            // Every device known before the first event, and the events in the order asked for.
            try reader.readAllDevices(reopen: { try openFile(path) })
            return reader
        }
        guard firstError.needsDescription && descriptionPath == nil else { throw firstError }
        guard path != standardInputPath else {
            throw TraceError(file: firstError.file, line: firstError.line, message: firstError.message + "; standard input has no file beside it: give --desc FILE", needsDescription: true)
        }
        let candidates = descriptionCandidates(forEventsPath: path)
        guard let found = candidates.first(where: fileExists) else {
            let tried = candidates.map { "'\($0)'" }.joined(separator: ", ")
            throw TraceError(file: firstError.file, line: firstError.line, message: firstError.message + "; none of " + tried + " exists", needsDescription: true)
        }
        options.description = try readDescription(source: openFile(found), fileName: found, maxLineLength: options.maxLineLength)
        guard let prefix = log.bytes else {
            // Only comments longer than the log keeps came before the first event line.
            throw TraceError(file: fileName, line: 1, message: "more than \(ReadLog.limit) bytes before the first event line: give the description with --desc FILE")
        }
        log.stop()
        return try TraceReader(source: ReplaySource(prefix: prefix, shared: shared), fileName: fileName, options: options)
    }
}

/// One byte source read through several wrappers in turn, so that they share its position.
private final class SharedSource {
    var base: any ByteSource
    init(_ base: any ByteSource) { self.base = base }
}

/// The bytes read while a trace's beginning is examined, to be read again once the
/// description of a header-less evemu file is known.
private final class ReadLog {
    /// The first event line of an evemu file comes after its comments: 1 MiB is a lot of them.
    static let limit = 1 << 20
    private(set) var bytes: [UInt8]? = []
    private var logging = true

    func record(_ chunk: Span<UInt8>) {
        guard logging, bytes != nil else { return }
        if bytes!.count + chunk.count > Self.limit {
            bytes = nil
        } else {
            append(chunk, to: &bytes!)
        }
    }

    func stop() {
        logging = false
        bytes = nil
    }
}

private struct LoggingSource: ByteSource {
    let shared: SharedSource
    let log: ReadLog

    // A regular file under the log is still one: a libinput record file of several devices is
    // then read through one reader per device section (TraceReader+Devices) instead of held.
    var isRereadable: Bool { shared.base.isRereadable }
    mutating func seek(to offset: Int) throws { try shared.base.seek(to: offset) }

    mutating func read(into buffer: inout OutputSpan<UInt8>) throws {
        let before = buffer.count
        try shared.base.read(into: &buffer)
        if buffer.count > before { log.record(buffer.span.extracting(before..<buffer.count)) }
    }
}

/// The logged bytes, then the rest of the source.
private struct ReplaySource: ByteSource {
    let prefix: [UInt8]
    var offset = 0
    let shared: SharedSource

    init(prefix: [UInt8], shared: SharedSource) {
        self.prefix = prefix
        self.shared = shared
    }

    mutating func read(into buffer: inout OutputSpan<UInt8>) throws {
        guard offset < prefix.count else { return try shared.base.read(into: &buffer) }
        offset += append(prefix.span.extracting(offset...), to: &buffer)
    }
}
