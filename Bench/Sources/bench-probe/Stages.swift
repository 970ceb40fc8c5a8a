// `bench-probe stages FILE [REPS]`: each stage of a replay alone, on the same trace, so that the
// gap between the stages and the whole shows in one table (docs/performance.md, Bench/stages).
// Each stage's input is the previous stage's output, made before it is measured: the events
// the reader gives, the frames the assembler makes, the gesture events the graph emits. All
// rates are per evdev event of the trace, so the stages' times add up against the whole's.
//
// Under callgrind (`--collect-atstart=no --toggle-collect='*measured*'`) each stage is its own
// `measured…` function: callgrind_annotate --inclusive=yes gives each stage's instructions.

import BenchSupport
import Foundation
import TouchlineCore
import TouchlineGestures
import TouchlineTrace

@inline(never) func measuredStageRead(_ bytes: [UInt8], name: String) throws -> Int {
    var reader = try BenchReplay.reader(bytes, name: name)
    var sum = 0
    while let e = try reader.next() { sum &+= Int(e.event.value) }
    return sum
}

@inline(never) func measuredStageAssemble(_ events: [InputEvent], device: DeviceDescription) -> Int {
    var assembler = FrameAssembler(device: device)
    var sum = 0
    for e in events where assembler.feed(e) { sum &+= assembler.frame.contacts.count }
    return sum
}

@inline(never) func measuredStageRecognize(_ frames: [TouchFrame], surface: Size) throws -> Int {
    var driver = try GraphDriver(configuration: .default, surface: surface)
    var sum = 0
    for frame in frames { driver.feed(frame) { g in sum &+= g.seq } }
    driver.finish { g in sum &+= g.seq }
    return sum
}

@inline(never) func measuredStageWrite(_ gestures: [GestureEvent]) -> Int {
    var json = JSONWriter(capacity: 4096)
    var written = 0
    for g in gestures {
        json.reset()
        g.writeJSON(into: &json)
        json.bytes.append(UInt8(ascii: "\n"))
        written &+= json.bytes.count
    }
    return written
}

@inline(never) func measuredStageWhole(_ bytes: [UInt8], name: String) throws -> Int {
    try BenchReplay.run(bytes, name: name).bytes
}

enum Stages {
    static func run(path: String, repetitions: Int) throws {
        let url = URL(fileURLWithPath: path)
        let bytes = try BenchTraces.bytes(of: url)
        let name = url.lastPathComponent
        // Each stage's input, made before anything is measured.
        var reader = try BenchReplay.reader(bytes, name: name)
        let device = reader.devices[0]
        var events: [InputEvent] = []
        while let e = try reader.next() { events.append(e.event) }
        var assembler = FrameAssembler(device: device)
        var frames: [TouchFrame] = []
        for e in events where assembler.feed(e) { frames.append(assembler.frame) }
        var driver = try GraphDriver(configuration: .default, surface: assembler.geometry.size)
        var gestures: [GestureEvent] = []
        for frame in frames { driver.feed(frame) { gestures.append($0) } }
        driver.finish { gestures.append($0) }
        let surface = assembler.geometry.size

        let stages: [(String, Int, () throws -> Int)] = [
            ("read", events.count, { try measuredStageRead(bytes, name: name) }),
            ("assemble", frames.count, { measuredStageAssemble(events, device: device) }),
            ("recognize", gestures.count, { try measuredStageRecognize(frames, surface: surface) }),
            ("write", gestures.count, { measuredStageWrite(gestures) }),
            ("whole (read + assemble + recognize + write)", events.count, { try measuredStageWhole(bytes, name: name) }),
        ]
        print("stages \(name): \(bytes.count) bytes, \(events.count) evdev events, \(frames.count) frames, \(gestures.count) gesture events; best and median of \(repetitions) runs each, interleaved")
        var times = Array(repeating: [Double](), count: stages.count)
        var check = 0
        for _ in 0..<repetitions {
            for (i, stage) in stages.enumerated() {
                let s = ContinuousClock.now
                check &+= try stage.2()
                let d = ContinuousClock.now - s
                times[i].append(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
            }
        }
        for (i, stage) in stages.enumerated() {
            let sorted = times[i].sorted()
            let best = sorted[0], median = sorted[sorted.count / 2]
            let rate = { (t: Double) in String(format: "%.2f", Double(events.count) / t / 1e6) }
            print("\(stage.0)\t\(stage.1) items\tbest \(String(format: "%.2f", best * 1e3)) ms\tmedian \(String(format: "%.2f", median * 1e3)) ms\t\(rate(best)) / \(rate(median)) M evdev events/s")
        }
        print("checksum \(check)")
    }
}
