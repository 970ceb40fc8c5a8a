// What `score` and `tune` share: the labels files read, each labelled recording read and
// assembled into frames once (TouchlineTuning's Recording), and work spread over threads with
// the results in a fixed order.
import ArgumentParser
import Synchronization
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineSettings
import TouchlineTuning

struct LabelledSet {
    /// Per recording (over every labels file, in order): its entry and its frames.
    var entries: [LabelledRecording] = []
    var recordings: [Recording] = []

    var labelCount: Int { entries.reduce(0) { $0 + $1.labels.count } }

    /// Reads every labels file and every recording they name (the recordings on `jobs` threads).
    static func load(_ paths: [String], devices: DeviceConfiguration, configPath: String?, jobs: Int) throws -> LabelledSet {
        var set = LabelledSet()
        set.entries = try entries(paths)
        let entries = set.entries
        let results = inOrder(entries.count, jobs: jobs) { i -> Result<Recording, CLIErrorBox> in
            do { return .success(try readRecording(entries[i], devices: devices, configPath: configPath)) } catch {
                return .failure(CLIErrorBox(error: error))
            }
        }
        for result in results {
            switch result {
            case let .success(recording): set.recordings.append(recording)
            case let .failure(box): throw box.error
            }
        }
        return set
    }

    /// Every labels file's recordings and labels, checked, none of the recordings read yet.
    static func entries(_ paths: [String]) throws -> [LabelledRecording] {
        var source = LabelledEntries(paths)
        var entries: [LabelledRecording] = []
        while let next = try source.next() { entries.append(next) }
        return entries
    }

    /// One recording's frames, per device, as `replay` assembles them (its `args`, `desc` and
    /// the configuration's [[device]] sections applied).
    static func readRecording(_ entry: LabelledRecording, devices configuration: DeviceConfiguration, configPath: String?) throws -> Recording {
        let input: InputOptions
        do {
            input = try InputOptions.parse(entry.args + (entry.desc.map { ["--desc", $0] } ?? []))
        } catch {
            throw CLIError.data("\(entry.file): its args \(entry.args): \(InputOptions.message(for: error))")
        }
        // A recording (and its description) must be a regular file, as a configuration: a FIFO
        // named in a labels file would hang `score` waiting for a writer.
        for path in [entry.path] + (entry.desc.map { [$0] } ?? []) {
            _ = try FileByteSource.regularFile(path: path, what: "a labelled recording")
        }
        var source = TraceInput(trace: try TraceFile.open(entry.path, input: input), devices: TraceDevices(configuration, configPath: configPath))
        var pipeline = GesturePipeline(assemblerOptions: input.assemblerOptions, recognizes: false)
        var recording = RecordingFrames()
        try pipeline.run(&source, into: &recording)
        // Each device's surface and graph as its [[device]] section says.
        for k in recording.devices.indices {
            let settings = source.settings[recording.devices[k].index] ?? nil
            recording.devices[k].surface = settings?.transform?.surface(recording.devices[k].surface) ?? recording.devices[k].surface
            recording.devices[k].configuration = settings?.graphConfiguration
        }
        return Recording(devices: recording.devices, origin: recording.origin ?? .zero)
    }
}

/// A recording's frames per device, as the pipeline assembles (and transforms) them.
struct RecordingFrames: PipelineSink {
    var devices: [RecordedDevice] = []
    var slot: [Int: Int] = [:]
    var origin: Timestamp?

    mutating func input(device: Int, _ event: InputEvent) {
        if origin == nil { origin = event.time }
    }

    /// The assembler's surface, before any transform (`readRecording` applies the section's).
    mutating func started(device: Int, _ pipeline: GesturePipeline) {
        slot[device] = devices.count
        devices.append(RecordedDevice(index: device, surface: pipeline.assembler(of: device)!.geometry.size))
    }

    mutating func frame(device: Int, _ pipeline: GesturePipeline) { devices[slot[device]!].frames.append(pipeline.frame(of: device)) }
}

/// The recordings of every labels file, in order, one at a time: only the labels file being
/// read is held (`score` streams them). A file named twice (`score L L`, or a link to it) is
/// read once, with a note: its recordings would otherwise count twice.
struct LabelledEntries {
    let paths: [String]
    private var file = -1
    private var stream: LabelStream?

    init(_ paths: [String]) { self.paths = paths }

    mutating func next() throws -> LabelledRecording? {
        while true {
            do {
                if let next = try stream?.next() { return next }
            } catch {
                throw CLIError.data(error.description)
            }
            stream = nil
            file += 1
            guard file < paths.count else { return nil }
            let path = paths[file]
            if let first = paths[..<file].first(where: { sameFile($0, path) }) {
                warn("note: \(path): the labels file \(first) again; read once")
                continue
            }
            let bytes = try readSmallFile(path, limit: LabelSet.maximumBytes + 1, what: "a labels file")
            if bytes.count > LabelSet.maximumBytes {
                throw CLIError.data("\(path): a labels file is at most \(LabelSet.maximumBytes >> 20) MiB")
            }
            let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            do {
                stream = try LabelStream(bytes, file: path, directory: path.hasPrefix("/") && directory.isEmpty ? "/" : directory)
            } catch {
                throw CLIError.data(error.description)
            }
        }
    }
}

/// An error carried out of a worker thread (errors are not all Sendable).
struct CLIErrorBox: Error, @unchecked Sendable {
    let error: any Error
}

/// `body(0..<count)` on up to `jobs` threads; the results in index order, whatever the threads'
/// timing, so that every output built from them is the same bytes for any --jobs.
func inOrder<T: Sendable>(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let workers = max(1, min(jobs, count))
    if workers == 1 { return (0..<count).map(body) }
    let state = Mutex((next: 0, results: [T?](repeating: nil, count: count)))
    runOnThreads(workers) { _ in
        while true {
            let i = state.withLock { s -> Int in
                defer { s.next += 1 }
                return s.next
            }
            guard i < count else { return }
            let value = body(i)
            state.withLock { $0.results[i] = value }
        }
    }
    return state.withLock { $0.results.map { $0! } }
}
