import Glibc
import Synchronization
import Testing
import TouchlineCore
@testable import TouchlineInput

/// `replay --jobs`' ordering, with a file instead of standard output: files that finish out of
/// order come out in file order, whether they waited in memory or in a temporary, and each
/// error after its file's output, the status the first failing file's.
@Suite struct CorpusOutputTests {
    func run(memoryLimit: Int, order: [Int], workers: Int = 1) throws -> (output: String, status: Int32, scratch: [String]) {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let outputPath = scratch.path + "/out"
        let out = try FileOutput(creating: outputPath)
        let temporaries = scratch.path + "/tmp"
        mkdir(temporaries, 0o700)
        defer { rmdir(temporaries) }
        let corpus = CorpusOutput(files: order.count, window: order.count + 1, output: out.fd, memoryLimit: memoryLimit, temporaryDirectory: temporaries)
        // Every worker takes its file, but they finish in `order`: the turns are made first,
        // and then each file writes and finishes when its place in `order` comes.
        var turns: [Int: OutputTurn] = [:]
        for _ in order {
            let index = try #require(corpus.nextFile())
            turns[index] = OutputTurn(index: index, corpus: corpus)
        }
        #expect(corpus.nextFile() == nil)
        for index in order {
            var stream = OutputStream(turn: turns[index]!)
            stream.write("file \(index) line 1\n")
            stream.flush()
            stream.write("file \(index) line 2\n")
            stream.flush()
            var finished = turns[index]!.leftover
            if index == 1 { finished.report = ("file 1 failed", 65) }
            corpus.finish(index, finished)
        }
        out.close()
        let names = scratch.names()
        return (try contents(outputPath), corpus.status, names)
    }

    static let expected = (0..<3).map { "file \($0) line 1\nfile \($0) line 2\n" }.joined()

    @Test(arguments: [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]])
    func filesComeOutInOrderFromMemory(_ order: [Int]) throws {
        let result = try run(memoryLimit: 1 << 20, order: order)
        #expect(result.output == Self.expected)
        #expect(result.status == 65)
    }

    /// No memory at all: every later file goes through an unlinked temporary, which leaves
    /// nothing behind in the folder.
    @Test(arguments: [[2, 1, 0], [1, 2, 0]])
    func filesComeOutInOrderThroughTemporaries(_ order: [Int]) throws {
        let result = try run(memoryLimit: 0, order: order)
        #expect(result.output == Self.expected)
        #expect(result.scratch == ["out", "tmp"])
    }

    /// The threads and the window: every file is taken exactly once, whatever the workers.
    @Test func workersTakeEachFileOnce() {
        let taken = Mutex<[Int]>([])
        let corpus = CorpusOutput(files: 50, window: 4, output: -1)
        runOnThreads(4) { _ in
            while let index = corpus.nextFile() {
                taken.withLock { $0.append(index) }
                corpus.finish(index, .nothingWaiting)
            }
        }
        #expect(taken.withLock { $0.sorted() } == Array(0..<50))
        #expect(onlineCores() >= 1)
    }
}

/// The progress line on a fake clock: nothing before the delay, then at most four lines a
/// second, the clock read once per 4,096 events; cleared at the end only if shown.
@Suite struct ProgressLineTests {
    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var now: Int64 = 1_000_000
    }

    @Test func theLineAppearsAfterTheDelayAndAtMostFourTimesASecond() {
        let log = Log()
        var progress = ProgressLine(file: "big.yml", delay: 2_000_000, clock: { log.now }, write: { log.lines.append($0) })
        func events(_ n: Int, at seconds: Int64) {
            for _ in 0..<n { progress.count(time: Timestamp(microseconds: seconds * 1_000_000)) }
        }
        log.now += 1_000_000
        events(4096, at: 1)
        #expect(log.lines.isEmpty)
        log.now += 1_000_000
        events(4096, at: 2)
        #expect(log.lines == ["\r\u{1b}[Ktouchline: big.yml: 8192 events read, at 2.000 s"])
        log.now += 100_000
        events(4096, at: 3)
        #expect(log.lines.count == 1)
        log.now += 200_000
        events(4095, at: 4)
        #expect(log.lines.count == 1)
        events(1, at: 4)
        #expect(log.lines.last == "\r\u{1b}[Ktouchline: big.yml: 16384 events read, at 4.000 s")
        progress.clear()
        #expect(log.lines.last == "\r\u{1b}[K")
    }

    @Test func aShortReplayClearsNothing() {
        let log = Log()
        var progress = ProgressLine(file: "tap.yml", delay: 2_000_000, clock: { log.now }, write: { log.lines.append($0) })
        for _ in 0..<10 { progress.count(time: Timestamp(microseconds: 0)) }
        progress.clear()
        #expect(log.lines.isEmpty)
    }
}
