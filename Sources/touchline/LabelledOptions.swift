import ArgumentParser
import TouchlineInput

/// What `score` and `tune` both take: labels files, the configuration they start from, threads.
struct LabelledOptions: ParsableArguments {
    @Argument(help: "Labels files (JSON, docs/labels.md); recordings are named relative to their file.")
    var labels: [String]

    @Option(help: ArgumentHelp("A configuration, as replay --config takes it (graph and [[device]] sections). Default: the embedded graph.", valueName: "file.toml"))
    var config: String?

    @Option(help: ArgumentHelp("How many recordings or candidates are replayed at once (default: the number of cores). The output is the same bytes for any N.", valueName: "N"))
    var jobs: Int?

    func validate() throws {
        if labels.isEmpty { throw ValidationError("Missing expected argument '<labels> ...': a labels file.") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a number of threads, 1 or more; got \(jobs).") }
    }

    var threads: Int { jobs ?? onlineCores() }
}
