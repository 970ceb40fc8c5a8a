import ArgumentParser
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineTrace

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarize the devices and touches in traces.",
        discussion: """
            For each device: name, kind (touchscreen, touchpad, pen), size in mm, the x and y \
            ranges and where each came from (the trace, --range, or guessed for a getevent trace \
            without its header), slots, pressure \
            and touch-size ranges, event and frame counts, duration, the most contacts at once and \
            the number of touch sequences (a finger from down to up), and what drives a peek \
            (pressure, touch size or time).
            """
    )

    @Argument(help: "Trace files (libinput record YAML, evemu, getevent -lt); - for standard input.")
    var files: [String]

    @OptionGroup var input: InputOptions

    @Flag(help: "One JSON object per device instead of the human summary.")
    var json = false

    func run() throws {
        try reportingErrors { try inspect() }
    }

    func inspect() throws {
        var out = OutputStream(fd: 1)
        defer { out.flush() }
        for path in files {
            // Each device gets its assembler at its first event (the pipeline, frames only): a
            // trace may describe a device only when it reaches it, and list thousands that send
            // nothing. `stats` is indexed by device, up to the highest started.
            var source = InspectInput(trace: try TraceFile.open(path, input: input))
            var replay = GesturePipeline(assemblerOptions: input.assemblerOptions, recognizes: false)
            var counted = InspectCounts()
            do {
                try replay.run(&source, into: &counted)
            } catch {
                out.flush()
                throw error
            }
            let trace = source.trace
            let stats = counted.stats
            let origin = counted.origin
            // A device that sent nothing gets no assembler: its summary needs only the geometry
            // its description gives (a trace may list tens of thousands of such devices).
            for index in trace.devices.indices {
                let device = trace.devices[index]
                let positions = device.isMultitouch
                    ? (EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y) : (EventCodes.ABS_X, EventCodes.ABS_Y)
                let rangeSources = (trace.rangeSource(device: index, code: positions.0), trace.rangeSource(device: index, code: positions.1))
                var summary = if let assembler = replay.assembler(of: index) {
                    DeviceSummary(path: trace.displayName, index: index, format: trace.format, device: device,
                                  geometry: assembler.geometry, counters: assembler.counters, stats: stats[index],
                                  rangeSources: rangeSources)
                } else {
                    DeviceSummary(path: trace.displayName, index: index, format: trace.format, device: device,
                                  geometry: FrameAssembler.geometry(of: device, options: input.assemblerOptions),
                                  counters: FrameAssembler.Counters(), stats: TouchStatistics(), rangeSources: rangeSources)
                }
                summary.origin = origin ?? .zero
                out.write(json ? summary.json : summary.text)
            }
        }
    }
}

/// One device's summary, as text for people or JSON for scripts.
struct DeviceSummary {
    var path: String
    var index: Int
    var format: String
    var device: DeviceDescription
    var geometry: SurfaceGeometry
    var counters: FrameAssembler.Counters
    var stats: TouchStatistics
    /// Where the x and y ranges came from (docs/traces.md, "Axis ranges"); nil without the axis.
    var rangeSources: (x: AxisRangeSource?, y: AxisRangeSource?)
    /// The trace's first event: `touches`' times count from it (as labels' windows).
    var origin: Timestamp = .zero

    func range(_ axis: AbsInfo?) -> String {
        guard let axis else { return "none" }
        return "\(axis.minimum)..\(axis.maximum)" + (axis.resolution > 0 ? " (\(axis.resolution)/mm)" : "")
    }

    var text: String {
        let size = geometry.size
        let sizeSource: String
        switch geometry.source {
        case .resolution: sizeSource = "from resolution"
        case .userSize: sizeSource = "as given by --size"
        case .assumed: sizeSource = "ASSUMED: the device reports no resolution; pass --size WxH"
        }
        var lines: [String] = []
        lines.append("\(path) [\(format)], device \(index): \(device.name)")
        lines.append("  kind:              \(device.kind.rawValue)")
        lines.append("  ids:               bus 0x\(hex(device.bus)) vendor 0x\(hex(device.vendor)) product 0x\(hex(device.product))")
        lines.append("  size:              \(size) (\(sizeSource))")
        lines.append("  x range:           \(range(device.xAxis))\(rangeSources.x.map { ", \($0.explanation)" } ?? "")")
        lines.append("  y range:           \(range(device.yAxis))\(rangeSources.y.map { ", \($0.explanation)" } ?? "")")
        lines.append("  slots:             \(device.slotCount == 0 ? (device.isMultitouch ? "none (protocol A)" : "none (single touch)") : String(device.slotCount))")
        lines.append("  pressure:          \(range(device.pressureAxis))")
        lines.append("  touch size:        major \(range(device.touchMajorAxis)), minor \(range(device.touchMinorAxis))")
        lines.append("  peek source:       \(PeekRecognizer.autoSource(of: device)) (source = \"auto\")")
        lines.append("  events:            \(stats.eventCount)")
        lines.append("  frames:            \(stats.frameCount)")
        lines.append("  duration:          \(formatFixed(stats.duration.microseconds / 1000, decimals: 3)) s")
        lines.append("  contacts at once:  \(stats.maxContacts) at most")
        var sequences = counted(stats.sequenceCount, "touch sequence")
        if let a = stats.shortestSequence, let b = stats.longestSequence {
            sequences += ", \(Int(a.milliseconds.rounded()))–\(Int(b.milliseconds.rounded())) ms long"
        }
        if stats.openSequences > 0 { sequences += ", \(stats.openSequences) still down at the end" }
        lines.append("  sequences:         \(sequences)")
        if let p = stats.pressureRange {
            lines.append("  pressure seen:     \(formatFixed(p.lowerBound, decimals: 3))..\(formatFixed(p.upperBound, decimals: 3)) (normalized)")
        }
        let c = counters
        let notes = [
            c.timeWentBackwards > 0 ? "time went backwards \(c.timeWentBackwards)×" : nil,
            c.droppedResyncs > 0 ? "\(c.droppedResyncs) SYN_DROPPED" : nil,
            c.slotsOutOfRange > 0 ? counted(c.slotsOutOfRange, "event") + " for slots out of range" : nil,
            c.contactsOverCapacity > 0 ? counted(c.contactsOverCapacity, "contact") + " over capacity" : nil,
        ].compactMap { $0 }
        if !notes.isEmpty { lines.append("  device nonsense:   " + notes.joined(separator: ", ")) }
        // The name and path come from the trace: their control characters are shown, not obeyed.
        return lines.map(\.escapingControlCharacters).joined(separator: "\n") + "\n\n"
    }

    /// The keys are camelCase, as the events' (`maxContacts` as `scaleVelocity`); lengths in
    /// mm and times in seconds, as there. `contacts` lists the sequences' contact ids, the ids
    /// the events' `contacts` name (docs/traces.md#inspect).
    var json: String {
        var w = JSONWriter()
        func range(_ key: StaticString, _ axis: AbsInfo?) {
            guard let axis else { return w.fieldNull(key) }
            w.beginArray(key); w.element(Double(axis.minimum), decimals: 0); w.element(Double(axis.maximum), decimals: 0); w.endArray()
        }
        w.beginObject()
        w.field("file", path)
        w.field("device", index)
        w.field("format", format)
        w.field("name", device.name)
        w.field("kind", device.kind.rawValue)
        w.field("width", geometry.size.width, decimals: 2)
        w.field("height", geometry.size.height, decimals: 2)
        w.field("sizeSource", geometry.source.rawValue)
        range("xRange", device.xAxis)
        range("yRange", device.yAxis)
        if let x = rangeSources.x { w.field("xRangeSource", x.rawValue) } else { w.fieldNull("xRangeSource") }
        if let y = rangeSources.y { w.field("yRangeSource", y.rawValue) } else { w.fieldNull("yRangeSource") }
        w.field("slots", device.slotCount)
        range("pressureRange", device.pressureAxis)
        range("touchMajorRange", device.touchMajorAxis)
        range("touchMinorRange", device.touchMinorAxis)
        w.field("peekSource", raw: PeekRecognizer.autoSource(of: device).name)
        w.field("events", stats.eventCount)
        w.field("frames", stats.frameCount)
        w.field("duration", Double(stats.duration.microseconds) / 1e6, decimals: 6)
        w.field("maxContacts", stats.maxContacts)
        w.field("sequences", stats.sequenceCount)
        w.field("openSequences", stats.openSequences)
        if let a = stats.shortestSequence, let b = stats.longestSequence {
            w.field("shortestSequence", a.seconds, decimals: 6)
            w.field("longestSequence", b.seconds, decimals: 6)
        }
        if let p = stats.pressureRange {
            w.beginArray("pressureSeen"); w.element(p.lowerBound, decimals: 3); w.element(p.upperBound, decimals: 3); w.endArray()
        }
        w.array("contacts", stats.contactIDs.count) { stats.contactIDs[$0].raw }
        // Per sequence, its id, start and end (seconds from the trace's first event, as labels
        // count; end null while still down) and where it went down and up (mm): what a person
        // needs to write labels by hand (docs/labels.md).
        w.beginArray("touches")
        for touch in stats.touches {
            w.beginObject()
            w.field("contact", Int(touch.id.raw))
            w.field("start", Double((touch.start - origin).microseconds) / 1e6, decimals: 6)
            if let end = touch.end { w.field("end", Double((end - origin).microseconds) / 1e6, decimals: 6) } else { w.fieldNull("end") }
            w.field("x", touch.startPosition.x, decimals: 2)
            w.field("y", touch.startPosition.y, decimals: 2)
            w.field("endX", touch.endPosition.x, decimals: 2)
            w.field("endY", touch.endPosition.y, decimals: 2)
            if touch.cancelled { w.field("cancelled", true) }
            w.endObject()
        }
        w.endArray()
        w.field("timeWentBackwards", counters.timeWentBackwards)
        w.field("dropped", counters.droppedResyncs)
        w.field("slotsOutOfRange", counters.slotsOutOfRange)
        w.field("contactsOverCapacity", counters.contactsOverCapacity)
        w.endObject()
        w.newline()
        return w.string
    }

    func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}

/// Inspect's source: every device started at its first event, its assembler's warnings on
/// stderr (without graphs, starting a device cannot fail).
struct InspectInput: PipelineSource {
    var trace: TraceFile

    mutating func next() throws -> (device: Int, event: InputEvent)? {
        guard let (device, event) = try trace.next() else { return nil }
        return (device, event)
    }

    mutating func start(device: Int, in pipeline: inout GesturePipeline) throws -> Bool {
        for warning in (try? pipeline.start(device: device, trace.devices[device])) ?? [] {
            warn("\(trace.path): device \(device) (\(trace.devices[device].name)): \(warning)")
        }
        return true
    }
}

/// Inspect's counts per device: every event and frame, and the input's first time (touches'
/// times count from it, as labels do).
struct InspectCounts: PipelineSink {
    var stats: [TouchStatistics] = []
    var origin: Timestamp?

    mutating func input(device: Int, _ event: InputEvent) {
        if origin == nil { origin = event.time }
        if stats.count <= device { stats += repeatElement(TouchStatistics(), count: device + 1 - stats.count) }
        stats[device].count(event: event)
    }

    mutating func frame(device: Int, _ pipeline: GesturePipeline) { stats[device].count(frame: pipeline.frame(of: device)) }
}
