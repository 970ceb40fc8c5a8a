import ArgumentParser
import TouchlineGestures
import TouchlineInput
import TouchlineSettings
import TouchlineTuning

struct Tune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search the recognizers' parameters for the values under which the most labels hold (docs/tuning.md).",
        discussion: """
            Reads every labelled recording once, into frames in memory, then replays only the \
            graph for each candidate. Each round tries a grid of values around every numeric \
            parameter (distances, durations, speeds, angles, levels; within their limits) and \
            takes the one change that makes the most labels hold while breaking none that held \
            and adding no spurious gesture; it stops when none helps. Prints the before/after \
            table, each changed parameter with the labels it fixed and the range of values that \
            keeps the same labels, the trade-offs it did not take (changes that fix some labels \
            only by breaking others), and the labels still missed. -o writes the input config \
            with only the changed values added under [defaults], which replay --config and the \
            daemon read. The output is the same bytes for any --jobs.
            """
    )

    @OptionGroup var options: LabelledOptions

    @Option(help: ArgumentHelp("Only these parameters, comma-separated: kind.parameter (edgeSwipe.margin) or a whole kind (tap). Default: every numeric parameter of the graph's kinds.", valueName: "LIST"))
    var parameters: String?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the tuned configuration here.", valueName: "TUNED.toml"))
    var output: String?

    @Option(help: ArgumentHelp("Also score each of K folds of the recordings with the values tuned on the others (k-fold), to tell tuning from fitting.", valueName: "K"))
    var holdout: Int?

    func validate() throws {
        if let holdout, holdout < 2 { throw ValidationError("--holdout takes a number of folds, 2 or more; got \(holdout).") }
    }

    func run() throws {
        try reportingErrors {
            let (graph, devices) = try options.config.map(loadReplayConfiguration) ?? (.default, DeviceConfiguration())
            let only = parameters.map { $0.split(separator: ",").map { String($0.filter { $0 != " " }) } }
            let searched = TunableParameter.all(in: graph, only: only)
            if let only {
                let known = TunableParameter.all(in: graph)
                for name in only where !known.contains(where: { $0.key == name || $0.kind == name }) {
                    throw CLIError.usage("--parameters: '\(name)' is no numeric parameter of this graph's kinds; they are: \(known.map(\.key).joined(separator: ", "))")
                }
            }
            let threads = options.threads
            let set = try LabelledSet.load(options.labels, devices: devices, configPath: options.config, jobs: threads)
            if let holdout, holdout > set.recordings.count {
                throw CLIError.usage("--holdout \(holdout): there are \(set.recordings.count) recordings; each fold needs one at least")
            }
            let recordings = set.recordings
            let labelLists = set.entries.map(\.labels)
            let evaluate: ([GraphConfiguration], [Int]) -> [Outcome?] = { configurations, subset in
                let chosen = subset.map { recordings[$0] }
                let lists = subset.map { labelLists[$0] }
                return inOrder(configurations.count, jobs: threads) { Outcome.of(configurations[$0], recordings: chosen, labels: lists) }
            }
            let all = Array(recordings.indices)
            guard let result = Search.run(graph, parameters: searched, evaluate: { evaluate($0, all) }) else {
                throw CLIError.data("\(options.config ?? "the embedded graph configuration"): makes no graph for these recordings")
            }
            var out = OutputStream(fd: 1)
            for line in TuningReport.lines(result, parameters: searched, files: set.entries.map(\.file), labels: labelLists) {
                out.write(line + "\n")
            }
            if let holdout {
                let lines = TuningReport.holdout(
                    holdout, configuration: graph, parameters: searched, recordings: recordings, labels: labelLists, evaluate: evaluate)
                for line in lines { out.write(line + "\n") }
            }
            out.flush()
            guard let output else { return }
            let input = try options.config.map { String(decoding: try readSmallFile($0, limit: ConfigurationFile.bytesToRead), as: UTF8.self) }
            let text = TuningReport.config(input: input, changes: result.changes, header: [
                "tuned by `touchline tune` on \(options.labels.joined(separator: ", ")): \(result.before.held) -> \(result.after.held) of \(set.labelCount) labels hold",
            ])
            let sink = try FileByteSink(path: output, inputs: options.labels + (options.config.map { [$0] } ?? []) + set.entries.map(\.path))
            var writer = sink
            try writer.write(Array(text.utf8))
            try sink.commit()
            // Read back as replay reads it: what was written scores what the search found.
            let (tuned, _) = try loadReplayConfiguration(output)
            let check = evaluate([tuned], all).first ?? nil
            out.write("wrote \(output): \(check?.held ?? 0)/\(set.labelCount) labels hold with it\n")
            out.flush()
            if check?.holds != result.after.holds {
                throw CLIError(message: "\(output) does not score as the search found (\(check?.held ?? 0) against \(result.after.held)): a parameter set by a recognizer of the input config itself overrides [defaults]", exitCode: ExitStatus.internalError)
            }
        }
    }
}
