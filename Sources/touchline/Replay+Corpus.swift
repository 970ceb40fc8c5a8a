import ArgumentParser
import TouchlineGestures
import TouchlineInput
import TouchlineSettings

extension Replay {
    /// Several files (or one with --output-dir), on `--jobs` threads; TouchlineInput's
    /// CorpusOutput keeps standard output in file order.
    func replayCorpus(_ configuration: (GraphConfiguration, DeviceConfiguration)) throws {
        if let outputDir { try OutputDirectory.check(outputDir) }
        let workers = min(jobs ?? onlineCores(), files.count)
        // 32 files ahead per worker: with 4 per worker, one long file held the others back
        // (Bench/corpus on 2 idle cores: 1.66× the speed of one thread; 32: 1.75–1.79×). At
        // most 256 (each waiting file may hold a temporary's descriptor).
        let corpus = CorpusOutput(files: files.count, window: min(32 * workers, 256))
        // Colours follow standard output; files in --output-dir get them only when asked for.
        let color = outputDir == nil ? format.colorsStandardOutput : format.color == .always
        let job = self
        let work: @Sendable (Int) -> Void = { _ in
            while let index = corpus.nextFile() {
                let file = job.files[index]
                var report: (message: String, status: Int32)?
                var turn: OutputTurn?
                var descriptor: Int32 = -1
                do {
                    let output: OutputStream
                    if let directory = job.outputDir {
                        descriptor = try OutputDirectory.create(job.outputPath(file, in: directory), inputs: job.files)
                        output = OutputStream(fd: descriptor, name: job.outputPath(file, in: directory))
                    } else {
                        turn = OutputTurn(index: index, corpus: corpus)
                        output = OutputStream(turn: turn!)
                    }
                    try job.replay(file, configuration, to: output, color: color)
                } catch {
                    report = userReport(of: error) ?? ("internal error: \(error)", ExitStatus.internalError)
                }
                if descriptor >= 0 { OutputDirectory.close(descriptor) }
                var finished = turn?.leftover ?? .nothingWaiting
                finished.report = report
                corpus.finish(index, finished)
            }
        }
        if workers <= 1 {
            work(0)
        } else {
            runOnThreads(workers, work)
        }
        if corpus.status != 0 { throw ExitCode(corpus.status) }
    }

    /// "trace.yml.jsonl" for "dir/trace.yml": the whole input name, so that an output never
    /// takes an input's name in the same folder.
    func outputName(_ file: String) -> String {
        let base = file == "-" ? "stdin" : (file.split(separator: "/").last.map(String.init) ?? file)
        return base + (format.isText ? ".txt" : ".jsonl")
    }

    func outputPath(_ file: String, in directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + outputName(file)
    }
}
