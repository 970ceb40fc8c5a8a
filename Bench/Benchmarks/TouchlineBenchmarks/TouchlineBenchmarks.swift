// Touchline's performance contract, measured (docs/performance.md has the figures and how to
// run them). Timing is reported, never asserted; the allocation budget is enforced by the
// alloc-budget executable, which CI runs.
//
//     cd Bench && swift package --disable-sandbox benchmark
//
// Each steady-state benchmark processes `scalingFactor` frames per iteration, so with
// `--scale` the figures read per frame (ns/frame, mallocs/frame).

import Benchmark
import BenchSupport
import Foundation
import TouchlineCore
import TouchlineGestures
import TouchlineTrace

/// The size of the generated trace the readers and the replay read (in memory, so that the
/// figures are parsing, not the disk).
let traceMegabytes = 10

/// A per-iteration throughput as a custom metric (bigger is better, not scaled).
func rate(_ name: String) -> BenchmarkMetric {
    .custom(name, polarity: .prefersLarger, useScalingFactor: false)
}

func elapsedSeconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

/// A TraceReader over in-memory bytes; getevent traces get their devices from the first pass,
/// as `touchline replay` does.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 2,
        maxDuration: .seconds(3),
        maxIterations: 1_000)

    // MARK: Gesture graph

    // The default graph with N fingers circling (every contact moves every frame; pan, pinch and
    // rotate are all in progress and emit `changed`). scalingFactor frames per iteration, so
    // the scaled wall clock is ns per frame and the scaled malloc count is mallocs per frame.
    for fingers in [1, 2, 10] {
        Benchmark(
            "Graph/default, \(fingers) contacts in motion",
            configuration: .init(metrics: [.wallClock, .mallocCountTotal, .throughput], scalingFactor: .kilo)
        ) { benchmark in
            let motion = MovingContacts(fingers: fingers)
            let made = motion.frameRing()
            var ring = made.ring
            var graph = try GestureGraph(configuration: .default, surface: made.assembler.geometry.size)
            var emitted = 0
            // Put the fingers down and let every recognizer reach its steady state first. On a
            // fresh assembler, as for the ring: the ring's has them down already, its frame has
            // no `began`, and the graph adopts only contacts it saw land.
            var landing = FrameAssembler(device: SyntheticPanel.device)
            for e in motion.downEvents(at: .zero) where landing.feed(e) {
                graph.process(landing.frame) { _ in emitted += 1 }
            }
            var t = ring.last!.time.microseconds
            for _ in 0..<4 {
                for k in ring.indices {
                    t += MovingContacts.frameInterval
                    ring[k].time = Timestamp(microseconds: t)
                    graph.process(ring[k]) { _ in emitted += 1 }
                }
            }
            var k = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                t += MovingContacts.frameInterval
                ring[k].time = Timestamp(microseconds: t)
                graph.process(ring[k]) { e in emitted &+= e.seq }
                k += 1
                if k == ring.count { k = 0 }
            }
            benchmark.stopMeasurement()
            blackHole(emitted)
        }
    }

    // MARK: Frame assembler

    for fingers in [1, 2, 10] {
        Benchmark(
            "Assembler/steady motion, \(fingers) contacts",
            configuration: .init(metrics: [.wallClock, .mallocCountTotal, rate("events/s")], scalingFactor: .kilo)
        ) { benchmark in
            let motion = MovingContacts(fingers: fingers)
            let turn = motion.motionEvents(after: .zero)
            let turnLength = Int64(motion.period) * MovingContacts.frameInterval
            var assembler = FrameAssembler(device: SyntheticPanel.device)
            for e in motion.downEvents(at: .zero) { _ = assembler.feed(e) }
            var offset: Int64 = 0
            var events = 0
            benchmark.startMeasurement()
            let seconds = elapsedSeconds {
                var frames = 0
                while frames < benchmark.scaledIterations.count {
                    for e in turn {
                        let shifted = InputEvent(time: Timestamp(microseconds: e.time.microseconds &+ offset), type: e.type, code: e.code, value: e.value)
                        events += 1
                        if assembler.feed(shifted) {
                            frames += 1
                            blackHole(assembler.frame.contacts.count)
                        }
                    }
                    offset &+= turnLength
                }
            }
            benchmark.stopMeasurement()
            benchmark.measurement(rate("events/s"), Int(Double(events) / seconds))
        }
    }

    Benchmark(
        "Assembler/generated trace \(traceMegabytes) MB",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, rate("events/s")])
    ) { benchmark in
        let url = try BenchTraces.file(megabytes: traceMegabytes, extension: "yml")
        let events = BenchTraces.libinputRecordEvents(try BenchTraces.bytes(of: url))
        var assembler = FrameAssembler(device: SyntheticPanel.device)
        benchmark.startMeasurement()
        let seconds = elapsedSeconds {
            for e in events where assembler.feed(e) {
                blackHole(assembler.frame.contacts.count)
            }
        }
        benchmark.stopMeasurement()
        benchmark.measurement(rate("events/s"), Int(Double(events.count) / seconds))
    }

    // MARK: Replay end to end

    // What `touchline replay` does, minus the write(2): read (in memory), assemble, recognize
    // with the default graph in virtual time, write every event as a JSON line into a buffer
    // that is then discarded.
    for ext in ["yml", "evemu"] {
        let format = ["yml": "libinput-record", "evemu": "evemu"][ext]!
        Benchmark(
            "Replay/end to end, \(format) \(traceMegabytes) MB",
            configuration: .init(metrics: [.wallClock, .mallocCountTotal, rate("events/s"), rate("MB/s")], maxIterations: 20)
        ) { benchmark in
            let url = try BenchTraces.file(megabytes: traceMegabytes, extension: ext)
            let bytes = try BenchTraces.bytes(of: url)
            var result = (events: 0, lines: 0, bytes: 0)
            benchmark.startMeasurement()
            let seconds = try elapsedSeconds {
                result = try BenchReplay.run(bytes, name: url.lastPathComponent)
            }
            benchmark.stopMeasurement()
            blackHole(result.bytes)
            blackHole(result.lines)
            benchmark.measurement(rate("events/s"), Int(Double(result.events) / seconds))
            benchmark.measurement(rate("MB/s"), Int(Double(bytes.count) / 1e6 / seconds))
        }
    }

    // MARK: Trace readers

    for ext in ["yml", "evemu", "getevent"] {
        let format = ["yml": "libinput-record", "evemu": "evemu", "getevent": "getevent"][ext]!
        Benchmark(
            "Reader/\(format) \(traceMegabytes) MB",
            configuration: .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, rate("MB/s")], maxIterations: 20)
        ) { benchmark in
            let url = try BenchTraces.file(megabytes: traceMegabytes, extension: ext)
            let bytes = try BenchTraces.bytes(of: url)
            var count = 0
            benchmark.startMeasurement()
            let seconds = try elapsedSeconds {
                var reader = try BenchReplay.reader(bytes, name: url.lastPathComponent)
                while let e = try reader.next() {
                    count &+= Int(e.event.value)
                }
            }
            benchmark.stopMeasurement()
            blackHole(count)
            benchmark.measurement(rate("MB/s"), Int(Double(bytes.count) / 1e6 / seconds))
        }
    }
}
