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
            let set = try LabelledSet.load(options.labels, devices: devices, configPath: options.config, jobs: options.threads)
            let entries = set.entries
            let recordings = set.recordings
            // Explain lines too: a miss names the attempt that failed; the labels look only at
            // the gesture events, which explain does not change.
            let reports = inOrder(entries.count, jobs: options.threads) { i -> Result<(lines: [String], score: RecordingScore), CLIErrorBox> in
                do {
                    let events = try recordings[i].events(graph, explain: true)
                    let score = Scoring.score(entries[i].labels, events: events, in: recordings[i])
                    var lines: [String] = []
                    for (label, holds) in zip(entries[i].labels, score.holds) {
                        if holds {
                            lines.append("ok   \(entries[i].file): \(label)")
                            continue
                        }
                        let detail = Scoring.miss(label, explained: events, in: recordings[i], configuration: graph)
                        lines.append("MISS \(entries[i].file): \(label): \(detail.first ?? "")")
                        for line in detail.dropFirst() { lines.append("       \(line)") }
                    }
                    return .success((lines, score))
                } catch let error as GraphConfigurationError {
                    return .failure(CLIErrorBox(error: CLIError.data("\(options.config ?? "the embedded graph configuration"): \(error.message)")))
                } catch {
                    return .failure(CLIErrorBox(error: error))
                }
            }
            var out = OutputStream(fd: 1)
            var held = 0
            var spurious = 0
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
            out.write("score: \(held)/\(set.labelCount) labels hold (\(counted(entries.count, "file")))\n")
            out.write("spurious: \(counted(spurious, "event")) where a none label says there should be none\n")
            out.flush()
            if held != set.labelCount { throw ExitCode(ExitStatus.labelsMissed) }
        }
    }
}
