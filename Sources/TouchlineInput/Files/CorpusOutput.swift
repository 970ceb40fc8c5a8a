// `replay FILE… --jobs N`: files replayed on N threads, their outputs on standard output in file
// order, the same bytes as one thread gives. Each file's replay is the single-file replay,
// unchanged; only where its 64 KiB flushes go differs. The file whose turn it is (every earlier
// file is out) writes standard output directly; a later one keeps up to 1 MiB in memory (every
// shared recording's whole output: no temporary, no second write) and past that writes an
// unlinked temporary in $TMPDIR, copied out when its turn comes. Workers run at most
// min(32 × jobs, 256) files ahead of the one whose turn it is (a semaphore of that many
// permits, one per file taken and not yet out), so memory stays under that many MiB and open
// temporaries under that many, whatever the corpus. Errors are reported in file order too, after the file's output.
import Glibc
import Synchronization

/// What a finished file leaves for its turn: its output kept in memory, or its temporary (-1:
/// none; it wrote standard output directly, or its own file under --output-dir), and its error's
/// line and status.
public struct FinishedFile: Sendable {
    var pending: [UInt8] = []
    var spill: Int32
    public var report: (message: String, status: Int32)?

    /// A file that left nothing waiting (it wrote its own output, or failed before any).
    public static let nothingWaiting = FinishedFile(spill: -1)
}

/// The order of the files' outputs on standard output (or `output`, a pipe in the tests).
public final class CorpusOutput: Sendable {
    private struct State {
        /// The first file whose output is not all out: the one file allowed to write stdout.
        var head = 0
        var next = 0
        var finished: [FinishedFile?]
        /// The status of the first failing file, in file order.
        var status: Int32 = 0
    }

    private let state: Mutex<State>
    private let permits: CountingSemaphore
    public let count: Int
    /// Where the outputs go in file order: standard output but in the tests.
    let output: Int32
    /// How much of a later file's output waits in memory before it goes to a temporary.
    /// TOUCHLINE_REPLAY_MEMORY (bytes) lowers it, so that the CLI tests take the temporaries'
    /// path with the shared recordings' small outputs (CorpusReplayTests).
    let memoryLimit: Int
    /// Where the temporaries go: $TMPDIR, or /tmp.
    let temporaryDirectory: String

    public static var defaultMemoryLimit: Int {
        getenv("TOUCHLINE_REPLAY_MEMORY").flatMap { Int(String(cString: $0)) }.map { max(0, $0) } ?? 1 << 20
    }

    public static var defaultTemporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// `window`: how many files may be taken and not yet out (at least the number of workers,
    /// or some would wait with nothing to do).
    public init(files: Int, window: Int, output: Int32 = 1, memoryLimit: Int = CorpusOutput.defaultMemoryLimit,
                temporaryDirectory: String = CorpusOutput.defaultTemporaryDirectory) {
        count = files
        state = Mutex(State(finished: Array(repeating: nil, count: files)))
        permits = CountingSemaphore(max(1, window))
        self.output = output
        self.memoryLimit = memoryLimit
        self.temporaryDirectory = temporaryDirectory
    }

    /// The next file for a worker, or nil when every file has been taken. Waits while `window`
    /// files are taken and not out: files are taken in order, so the one whose turn it is is
    /// among them, its worker is not waiting here, and its end frees a permit.
    public func nextFile() -> Int? {
        permits.wait()
        let index: Int? = state.withLock { state in
            guard state.next < count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
        if index == nil { permits.signal() }
        return index
    }

    public var status: Int32 { state.withLock { $0.status } }

    func isHead(_ index: Int) -> Bool { state.withLock { $0.head == index } }

    /// Records file `index` as finished; if it is the head, writes out it and every finished
    /// file after it, then hands the turn to the first unfinished one. Copies run outside the
    /// lock (no other file writes stdout meanwhile: the head has not moved), so other workers'
    /// flushes do not wait on them.
    public func finish(_ index: Int, _ file: FinishedFile) {
        let isHead = state.withLock { state in
            state.finished[index] = file
            return state.head == index
        }
        guard isHead else { return }
        var current = index
        while true {
            let entry = state.withLock { state in
                defer { state.finished[current] = nil }
                return state.finished[current]
            }
            if let entry {
                if !entry.pending.isEmpty {
                    var out = OutputStream(fd: output)
                    out.buffer = entry.pending
                    out.flush()
                }
                if entry.spill >= 0 {
                    copy(entry.spill, to: output)
                    close(entry.spill)
                }
                if let report = entry.report {
                    StandardError.warn(report.message)
                    state.withLock { state in if state.status == 0 { state.status = report.status } }
                }
                permits.signal()
            }
            current += 1
            let more = state.withLock { state in
                if current < count, state.finished[current] != nil { return true }
                state.head = current
                return false
            }
            if !more { return }
        }
    }
}

/// One file's place in the order, asked at each flush where its bytes go.
public final class OutputTurn: @unchecked Sendable {
    // Only the worker replaying the file touches `pending`, `spill` and `direct` (and reads
    // them for `finish`, on the same thread, after its last flush): no lock needed.
    let index: Int
    let corpus: CorpusOutput
    private(set) var pending: [UInt8] = []
    private(set) var spill: Int32 = -1
    private(set) var direct = false

    public init(index: Int, corpus: CorpusOutput) {
        self.index = index
        self.corpus = corpus
    }

    /// Where `buffer` goes: standard output once this file is the head (what waited goes out
    /// first), its temporary past the memory limit; nil when it was kept in memory (and
    /// `buffer` emptied).
    func route(_ buffer: inout [UInt8]) -> Int32? {
        if direct { return corpus.output }
        if corpus.isHead(index) {
            if !pending.isEmpty {
                var out = OutputStream(fd: corpus.output)
                swap(&out.buffer, &pending)
                out.flush()
                pending = []
            }
            if spill >= 0 {
                copy(spill, to: corpus.output)
                close(spill)
                spill = -1
            }
            direct = true
            return corpus.output
        }
        if spill < 0 && pending.count + buffer.count <= corpus.memoryLimit {
            pending.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
            return nil
        }
        if spill < 0 {
            spill = makeSpill(in: corpus.temporaryDirectory)
            // What waited in memory goes first, so the temporary holds the output in order.
            var out = OutputStream(fd: spill, name: "a temporary file (replay --jobs)")
            swap(&out.buffer, &pending)
            out.flush()
            pending = []
        }
        return spill
    }

    /// What `finish` needs, if the turn never came while the file was replayed.
    public var leftover: FinishedFile { direct ? FinishedFile(spill: -1) : FinishedFile(pending: pending, spill: spill) }
}

/// An unlinked temporary in $TMPDIR (or /tmp): nothing is left behind whatever ends the program.
private func makeSpill(in directory: String) -> Int32 {
    var template = Array((directory + "/touchline-replay-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
        StandardError.warn("\(directory): cannot create a temporary file for replay --jobs: \(String(cString: strerror(errno))) (set TMPDIR, or use --jobs 1)")
        exit(ExitStatus.cannotCreate)
    }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    return fd
}

/// Copies a temporary from its start to `output`. A failed write ends the program as
/// OutputStream's does (EPIPE quietly, anything else with 74); a failed read of our own
/// temporary is an I/O error.
private func copy(_ fd: Int32, to output: Int32) {
    var out = OutputStream(fd: output)
    var chunk = [UInt8](repeating: 0, count: out.limit)
    var offset: off_t = 0
    while true {
        let n = chunk.withUnsafeMutableBytes { raw in pread(fd, raw.baseAddress!, raw.count, offset) }
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else {
            StandardError.warn("a temporary file (replay --jobs): cannot read: \(String(cString: strerror(errno)))")
            exit(ExitStatus.ioError)
        }
        if n == 0 { break }
        out.write(Array(chunk[..<n]))
        offset += off_t(n)
    }
    out.flush()
}

