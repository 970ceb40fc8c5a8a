import ArgumentParser
import TouchlineGestures
import TouchlineInput
import TouchlineSettings
import TouchlineTuning

struct Score: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay labelled recordings and say which labels hold (docs/labels.md).",
        discussion: """
            Prints one line per label, `ok` or `MISS`, and for a miss what was seen: the \
            matching events against the need, the nearest events of the gesture, and the \
            nearest failed attempt with the reason that decided it (the threshold and the \
            margin, as replay --explain says it). Then `score: P/T labels hold (F files)` and the \
            spurious gestures (events where a `none` label says there should be none). Exit \
            status 0 when every label holds, 1 when some do not. The output is the same bytes \
            for any --jobs.
            """
    )

    @OptionGroup var options: LabelledOptions

    func run() throws {
        try reportingErrors {
            let (graph, devices) = try options.config.map(loadReplayConfiguration) ?? (.default, DeviceConfiguration())
            var source = LabelledEntries(options.labels)
            let threads = options.threads
            // Streamed: a window of recordings at a time is taken from the labels (checked as it
            // is read), read, replayed and scored on the threads, then printed in order and
            // dropped, so that memory holds one window and the labels file, not every
            // recording's frames and lines, and the first lines come at once.
            let window = threads * 2
            let configPath = options.config
            var out = OutputStream(fd: 1)
            var held = 0
            var spurious = 0
            var files = 0
            var labelCount = 0
            while true {
                var batch: [LabelledRecording] = []
                while batch.count < window, let next = try source.next() { batch.append(next) }
                if batch.isEmpty { break }
                files += batch.count
                labelCount += batch.reduce(0) { $0 + $1.labels.count }
                let entries = batch
                let reports = inOrder(entries.count, jobs: threads) { k -> Result<(lines: [String], score: RecordingScore), CLIErrorBox> in
                    Self.report(entries[k], graph: graph, devices: devices, configPath: configPath)
                }
                for report in reports {
                    switch report {
                    case let .success((lines, score)):
                        for line in lines { out.write(line + "\n") }
                        held += score.held
                        spurious += score.spurious
                    case let .failure(box):
                        out.flush()
                        throw box.error
                    }
                }
                out.flush()
            }
            out.write("score: \(held)/\(labelCount) labels hold (\(counted(files, "file")))\n")
            out.write("spurious: \(counted(spurious, "event")) where a none label says there should be none\n")
            out.flush()
            if held != labelCount { throw ExitCode(ExitStatus.labelsMissed) }
        }
    }

    /// One recording's lines (`ok`/`MISS` per label, a miss's detail) and score.
    static func report(_ entry: LabelledRecording, graph: GraphConfiguration, devices: DeviceConfiguration, configPath: String?) -> Result<(lines: [String], score: RecordingScore), CLIErrorBox> {
        do {
            let recording = try LabelledSet.readRecording(entry, devices: devices, configPath: configPath)
            // Explain lines too: a miss names the attempt that failed; the labels look only at
            // the gesture events, which explain does not change.
            let events = try recording.events(graph, explain: true)
            let score = Scoring.score(entry.labels, events: events, in: recording)
            var lines: [String] = []
            for (label, holds) in zip(entry.labels, score.holds) {
                if holds {
                    lines.append("ok   \(entry.file): \(label)")
                    continue
                }
                let detail = Scoring.miss(label, explained: events, in: recording, configuration: graph)
                lines.append("MISS \(entry.file): \(label): \(detail.first ?? "")")
                for line in detail.dropFirst() { lines.append("       \(line)") }
            }
            return .success((lines, score))
        } catch let error as GraphConfigurationError {
            return .failure(CLIErrorBox(error: CLIError.data("\(configPath ?? "the embedded graph configuration"): \(error.message)")))
        } catch {
            return .failure(CLIErrorBox(error: error))
        }
    }
}
