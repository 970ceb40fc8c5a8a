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

    /// Reads a getevent trace once and describes its devices from what they sent: the codes
    /// seen, and for each axis a range from 0 (or the lowest value, if negative) to the highest
    /// value seen; tracking ids get 0...65535. `options.ranges` replace inferred ranges and
    /// `options.name` the name. Pass the result as `TraceReaderOptions.geteventDevices` when
    /// reading the same file again.
    public static func inferGeteventDevices(source: some ByteSource, fileName: String, options: GeteventOptions = GeteventOptions(), maxLineLength: Int = 64 * 1024) throws(TraceError) -> [DeviceDescription] {
        var scanner = LineScanner(source: source, fileName: fileName, maxLineLength: maxLineLength)
        var names = GeteventNames()
        var facts: [GeteventDeviceFacts] = []
        var current = 0
        var sawEvent = false
        func index(_ path: [UInt8]) -> Int {
            if let i = facts.firstIndex(where: { $0.path == path }) { return i }
            // Events printed without a path before any path was seen belong to device 0.
            if facts.count == 1 && facts[0].path == nil { facts[0].path = path; return 0 }
            facts.append(GeteventDeviceFacts(path: path))
            return facts.count - 1
        }
        while try scanner.nextLine() {
            let line: GeteventLine
            var pathBytes: [UInt8]?
            do {
                line = try scanner.withLine { (l) throws(LineError) -> GeteventLine in
                    let line = try parseGeteventLine(l, names: &names)
                    switch line {
                    case .event(let row): if let p = row.path { pathBytes = Array(l[p]) }
                    case .addDevice(let p), .name(let p): pathBytes = Array(l[p])
                    default: break
                    }
                    return line
                }
            } catch {
                throw scanner.error(error.message)
            }
            switch line {
            case .blank, .info: break
            case .addDevice: current = index(pathBytes!)
            case .name: if current < facts.count { facts[current].name = String(decoding: pathBytes!, as: UTF8.self) }
            case .event(let row):
                sawEvent = true
                let i = pathBytes.map { index($0) } ?? 0
                if facts.isEmpty { facts.append(GeteventDeviceFacts()) }
                facts[i].observe(row.event)
            }
        }
        guard sawEvent else {
            if !scanner.sawBytes { throw scanner.error("empty file: expected a getevent -lt trace", line: 1) }
            throw scanner.error("no events: expected event lines such as '[   12.345678] EV_ABS       ABS_MT_POSITION_X    0000002b'")
        }
        return facts.map { f in
            var d = f.description(options: options)
            if f.name == nil && options.name == nil, let path = f.path { d.name = String(decoding: path, as: UTF8.self) }
            return d
        }
    }
}

extension TraceReader {
    /// Opens a trace file as the CLI does, with the file system behind two closures:
    /// - a header-less evemu `.events` file gets its description from `descriptionPath`
    ///   (`--desc`) or else from the first of `descriptionCandidates(forEventsPath:)` that exists;
    /// - a getevent trace is read twice: once to infer its devices, then to stream.
    /// Throws `TraceError` for bad content and whatever `openFile` throws for I/O.
    public static func open(
        path: String, descriptionPath: String? = nil, options: TraceReaderOptions = TraceReaderOptions(),
        openFile: (String) throws -> any ByteSource, fileExists: (String) -> Bool
    ) throws -> TraceReader {
        var options = options
        if let descriptionPath {
            options.description = try readDescription(source: openFile(descriptionPath), fileName: descriptionPath, maxLineLength: options.maxLineLength)
        }
        var reader: TraceReader
        do {
            reader = try TraceReader(source: openFile(path), fileName: path, options: options)
        } catch let error as TraceError where error.needsDescription && descriptionPath == nil {
            let candidates = descriptionCandidates(forEventsPath: path)
            guard let found = candidates.first(where: fileExists) else {
                var extended = error
                extended.message += "; none of " + candidates.map { "'\($0)'" }.joined(separator: ", ") + " exists"
                throw extended
            }
            options.description = try readDescription(source: openFile(found), fileName: found, maxLineLength: options.maxLineLength)
            reader = try TraceReader(source: openFile(path), fileName: path, options: options)
        }
        if reader.format == .getevent && options.geteventDevices == nil {
            options.geteventDevices = try inferGeteventDevices(source: openFile(path), fileName: path, options: options.getevent, maxLineLength: options.maxLineLength)
            reader = try TraceReader(source: openFile(path), fileName: path, options: options)
        }
        // Every device known before the first event, and the events in time order.
        try reader.readAllDevices(reopen: { try openFile(path) })
        return reader
    }
}
