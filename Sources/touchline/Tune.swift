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
            with only the changed values edited where it sets them (or added in its style), \
            read back as replay --config and daemon --check-config read it before it replaces \
            anything. The output is the same bytes for any --jobs.
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
        if let parameters { _ = try Self.parameterList(parameters) }
    }

    /// `--parameters`' names. Nothing to search, an empty item, a name given twice or a
    /// parameter whose kind is named too is refused, rather than searching nothing or merging.
    static func parameterList(_ text: String) throws -> [String] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0.filter { $0 != " " }) }
        if names.allSatisfy(\.isEmpty) {
            throw ValidationError("--parameters \"\(text)\": names no parameter; give kind.parameter or kind names, comma-separated (edgeSwipe.margin,tap), or leave the option out to search them all.")
        }
        for (i, name) in names.enumerated() {
            if name.isEmpty { throw ValidationError("--parameters \"\(text)\": item \(i + 1) is empty.") }
            if names[..<i].contains(name) { throw ValidationError("--parameters: '\(name)' is given twice.") }
            let kind = name.split(separator: ".").first.map(String.init) ?? name
            if kind != name, names.contains(kind) { throw ValidationError("--parameters: '\(name)' is searched already as part of '\(kind)'.") }
        }
        return names
    }

    func run() throws {
        try reportingErrors {
            // The output is checked before the search: an output that cannot be written, or is
            // an input, is said at once rather than after minutes of work.
            var outputCheck: OutputCheck?
            if let output {
                try FileByteSink.checkRegularOutput(output, option: "-o", inputs: options.labels + (options.config.map { [$0] } ?? []))
                outputCheck = try OutputCheck(config: options.config)
            }
            let (graph, devices) = try options.config.map(loadReplayConfiguration) ?? (.default, DeviceConfiguration())
            let only = try parameters.map(Self.parameterList)
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
                throw CLIError.usage("--holdout \(holdout): \(set.recordings.count == 1 ? "there is 1 recording" : "there are \(set.recordings.count) recordings"); each fold needs one at least")
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
            guard let output, let checked = outputCheck else { return }
            try write(output, checked: checked, result: result, labelCount: set.labelCount, recordings: set.entries.map(\.path), score: { evaluate([$0], all).first ?? nil })
        }
    }

    /// What the input config passes, so that the output is held to the same: `daemon
    /// --check-config`'s reading when the input passes it (a graph-only file does; a file whose
    /// [socket] group this machine lacks does not), `replay --config`'s always.
    struct OutputCheck {
        var input: [UInt8]?
        var daemonReads: Bool

        init(config: String?) throws {
            input = try config.map { try readSmallFile($0, limit: ConfigurationFile.bytesToRead) }
            if let config {
                daemonReads = (try? Daemon.loadConfiguration(config)) != nil
            } else {
                daemonReads = true
            }
        }
    }

    /// The input config with the changed values edited in (TunedConfig), read back as `replay
    /// --config` and `daemon --check-config` read it and scored, all before it is written; then
    /// written beside `output` and renamed over it.
    func write(_ output: String, checked: OutputCheck, result: Search.Result, labelCount: Int, recordings: [String], score: (GraphConfiguration) -> Outcome?) throws {
        let input = checked.input.map { String(decoding: $0, as: UTF8.self) }
        let text: String
        do {
            text = try TunedConfig.edit(input, file: options.config ?? output, changes: result.changes, header: [
                "tuned by `touchline tune` on \(options.labels.joined(separator: ", ")): \(result.before.held) -> \(result.after.held) of \(labelCount) labels hold",
            ])
        } catch {
            throw CLIError.data("\(output): not written: \(error)")
        }
        let bytes = Array(text.utf8)
        let tuned: GraphConfiguration
        do {
            (tuned, _) = try replayConfiguration(bytes: bytes, file: output)
            if checked.daemonReads { _ = try Daemon.configuration(bytes: bytes, file: output) }
        } catch {
            throw CLIError(message: "\(output): not written: the tuned configuration does not read back (a Touchline bug): \(error)", exitCode: ExitStatus.internalError)
        }
        let check = score(tuned)
        if check?.holds != result.after.holds {
            throw CLIError(message: "\(output): not written: it does not score as the search found (\(check?.held ?? 0) against \(result.after.held)): a parameter set by a recognizer of the input config itself overrides [defaults]", exitCode: ExitStatus.internalError)
        }
        var sink = try FileByteSink(path: output, inputs: options.labels + (options.config.map { [$0] } ?? []) + recordings)
        try sink.write(bytes)
        try sink.commit()
        var out = OutputStream(fd: 1)
        out.write("wrote \(output): \(check?.held ?? 0)/\(labelCount) labels hold with it\n")
        out.flush()
    }
}
