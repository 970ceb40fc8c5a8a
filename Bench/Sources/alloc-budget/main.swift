// The allocation budget (style principle 10, issue 5): steady-state frames through the frame
// assembler (and the gesture graph, once it is wired in below) make no heap allocation.
//
// Counting is exact, not sampled: ordo-one's malloc interposer counts every malloc, calloc,
// realloc and posix_memalign call while hooked. The same input gives the same count on every
// run, so the gate cannot flake: it fails only when code starts allocating per frame.
//
// On Linux the interposer's library must come before libc in symbol lookup. The gate first
// checks that counting works (a deliberate allocation must be seen); if it does not, it runs
// itself again with LD_PRELOAD set to the library beside the executable, and if counting still
// does not work it fails rather than pass without having counted.
//
// Exit status: 0 within budget, 1 over budget, 2 could not count.

import BenchSupport
import Glibc
import MallocInterposerSwift
import TouchlineCore
import TouchlineGestures

@inline(never) func opaque<T>(_ x: T) -> T { x }

func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}

/// Whether the interposer sees this process's allocations.
func countingWorks() -> Bool {
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.hook()
    let probe = UnsafeMutableRawPointer.allocate(byteCount: opaque(64), alignment: 8)
    MallocInterposerSwift.unhook()
    probe.deallocate()
    return MallocInterposerSwift.getStatistics().mallocCount >= 1
}

func reexecWithPreload() -> Never {
    let exe = CommandLine.arguments[0]
    let dir = exe.contains("/") ? String(exe[..<exe.lastIndex(of: "/")!]) : "."
    let library = dir + "/libMallocInterposerSwift.so"
    setenv("LD_PRELOAD", library, 1)
    setenv("TOUCHLINE_ALLOC_BUDGET_PRELOADED", "1", 1)
    var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
    argv.append(nil)
    execv("/proc/self/exe", argv)
    printError("alloc-budget: could not run itself again with LD_PRELOAD=\(library): errno \(errno)")
    exit(2)
}

if !countingWorks() {
    if getenv("TOUCHLINE_ALLOC_BUDGET_PRELOADED") == nil { reexecWithPreload() }
    printError("alloc-budget: the malloc interposer counts nothing even with LD_PRELOAD; cannot check the budget")
    exit(2)
}

let warmupTurns = 4
let measuredTurns = 40
nonisolated(unsafe) var failures = 0

/// Warms up for `warmupTurns` turns of the motion, then counts the mallocs of `measuredTurns`
/// more. `body(turns)` processes that many turns and returns the frames it made.
func check(_ name: String, fingers: Int, _ body: (_ turns: Int) -> Int) {
    _ = body(warmupTurns)
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.hook()
    let frames = body(measuredTurns)
    MallocInterposerSwift.unhook()
    let stats = MallocInterposerSwift.getStatistics()
    let perFrame = Double(stats.mallocCount) / Double(max(1, frames))
    let verdict = stats.mallocCount == 0 ? "ok" : "OVER BUDGET"
    print("\(name), \(fingers) contact\(fingers == 1 ? "" : "s"): \(stats.mallocCount) mallocs over \(frames) steady-state frames (\(formatFixed(perFrame, decimals: 3))/frame, budget 0) \(verdict)")
    if stats.mallocCount != 0 { failures += 1 }
}

// `--self-test`: a scenario that allocates once per frame must be counted as such, so the gate
// is known to see a per-frame allocation, not only the probe above.
if CommandLine.arguments.contains("--self-test") {
    final class Box { var value: Int; init(_ value: Int) { self.value = value } }
    nonisolated(unsafe) var kept: Box? = nil
    check("self-test (one object per frame, must be over budget)", fingers: 1) { turns in
        for i in 0..<(turns * 125) { kept = Box(opaque(i)) }
        return turns * 125
    }
    _ = opaque(kept?.value)
    if failures == 1 {
        print("alloc-budget: self-test ok, a per-frame allocation is caught")
        exit(0)
    }
    printError("alloc-budget: self-test failed, a per-frame allocation was not caught")
    exit(2)
}

/// `turns` turns of the motion, each event shifted by `offset` (moved on a turn's length each
/// turn, so time keeps running forward) and handed to `feed`, which returns the frames it
/// completed; returns them all.
func play(_ turn: [InputEvent], turns: Int, length: Int64, offset: inout Int64, _ feed: (InputEvent) -> Int) -> Int {
    var frames = 0
    for _ in 0..<turns {
        for e in turn {
            frames += feed(InputEvent(time: Timestamp(microseconds: e.time.microseconds &+ offset), type: e.type, code: e.code, value: e.value))
        }
        offset &+= length
    }
    return frames
}

/// The gate is only meaningful if the graphs were busy: they must have emitted events.
func expectBusy(_ name: String, fingers: Int, lines: Int, written: Int) {
    if lines == 0 {
        print("\(name), \(fingers) contacts: the graph emitted nothing in steady motion; the scenario no longer exercises recognizers")
        failures += 1
    } else {
        print("  (\(lines) gesture events, \(written) bytes of JSON)")
    }
}

for fingers in [1, 2, 10] {
    let motion = MovingContacts(fingers: fingers)
    let turn = motion.motionEvents(after: .zero)
    let turnLength = Int64(motion.period) * MovingContacts.frameInterval

    // Frame assembler alone: raw events in, frames out.
    do {
        var assembler = FrameAssembler(device: SyntheticPanel.device)
        for e in motion.downEvents(at: .zero) { _ = assembler.feed(e) }
        var offset: Int64 = 0
        var checksum = 0
        check("frame assembler", fingers: fingers) { turns in
            play(turn, turns: turns, length: turnLength, offset: &offset) { e in
                guard assembler.feed(e) else { return 0 }
                checksum &+= assembler.frame.contacts.count
                return 1
            }
        }
        _ = opaque(checksum)
    }

    // Assembler + default gesture graph + JSON Lines into a reused buffer: the replay and
    // daemon hot path. Every frame moves every finger, so pan, pinch and rotate emit `changed`
    // events, each written as JSON.
    // The same with every registered kind attached (GraphConfiguration.everyKind).
    for (graphName, configuration) in [("default graph", GraphConfiguration.default), ("every kind", GraphConfiguration.everyKind)] {
        var assembler = FrameAssembler(device: SyntheticPanel.device)
        var graph = try GestureGraph(configuration: configuration, surface: assembler.geometry.size)
        var json = JSONWriter(capacity: 4096)
        var lines = 0
        var written = 0
        for e in motion.downEvents(at: .zero) where assembler.feed(e) {
            graph.process(assembler.frame) { _ in }
        }
        var offset: Int64 = 0
        check("assembler + \(graphName) + JSON", fingers: fingers) { turns in
            play(turn, turns: turns, length: turnLength, offset: &offset) { e in
                guard assembler.feed(e) else { return 0 }
                graph.process(assembler.frame) { g in
                    json.reset()
                    g.writeJSON(into: &json)
                    written &+= json.bytes.count
                    lines += 1
                }
                return 1
            }
        }
        expectBusy("assembler + \(graphName)", fingers: fingers, lines: lines, written: written)
    }

    // The one multi-device driver every mode runs (GesturePipeline: replay, run, daemon, record),
    // two devices fed the same motion in turn, the second one rotated by a `[[device]]` section:
    // per-device assembly, the transform into a reused frame, and the deadlines of every device
    // looked at before each frame.
    do {
        var pipeline = GesturePipeline()
        _ = try pipeline.start(device: 0, SyntheticPanel.device)
        _ = try pipeline.start(device: 1, SyntheticPanel.device, settings: DeviceSpec(rotation: .quarter))
        // The pipeline's step (`take`, the body of its one loop) into a generic sink, as
        // `touchline replay` runs it.
        struct Lines: PipelineSink {
            var json = JSONWriter(capacity: 4096)
            var lines = 0
            var written = 0
            mutating func event(_ g: GestureEvent) {
                json.reset()
                g.writeJSON(into: &json)
                written &+= json.bytes.count
                lines += 1
            }
        }
        var sink = Lines()
        var idle = Lines()
        for e in motion.downEvents(at: .zero) {
            for device in 0..<2 { pipeline.take(device: device, e, into: &idle) }
        }
        var offset: Int64 = 0
        check("pipeline of 2 devices (one rotated) + default graph + JSON", fingers: fingers) { turns in
            play(turn, turns: turns, length: turnLength, offset: &offset) { e in
                var frames = 0
                for device in 0..<2 { if pipeline.take(device: device, e, into: &sink) { frames += 1 } }
                return frames
            }
        }
        expectBusy("pipeline", fingers: fingers, lines: sink.lines, written: sink.written)
    }
}

if failures > 0 {
    print("alloc-budget: \(failures) scenario(s) allocate in steady state; find the allocation with `swift package benchmark --filter Allocations --allocation-stacks` in Bench/")
    exit(1)
}
print("alloc-budget: 0 allocations per steady-state frame")
