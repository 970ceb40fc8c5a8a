// A fixed workload for profilers: `valgrind --tool=callgrind` counts instructions, which are
// repeatable on a busy machine where wall clock is not (docs/performance.md).
//
//     bench-probe graph N FRAMES     default graph, N fingers circling, FRAMES steady frames
//     bench-probe graph-all N FRAMES the same with every registered kind attached
//     bench-probe graph-held N FRAMES the default graph with a long press of any finger count:
//                                    the N circling fingers are one long press that follows
//                                    them (the default's workload before issue 23 made the
//                                    default long press one finger; docs/performance.md)
//     bench-probe assembler N FRAMES the assembler alone on the same input
//     bench-probe replay FILE        read + assemble + recognize + JSON (discarded), in memory
//     bench-probe stages FILE [REPS] each of those stages alone, then the whole (Stages.swift)
//
// The warm-up (fingers down, 4 turns of motion) runs before `CALLGRIND_START`: with
// `--collect-atstart=no --toggle-collect='*measured*'` only the measured loop is counted.

import BenchSupport
import Foundation
import TouchlineCore
import TouchlineGestures
import TouchlineTrace

@inline(never) func measuredGraph(_ graph: inout GestureGraph, _ ring: inout [TouchFrame], _ t: inout Int64, frames: Int) -> Int {
    var emitted = 0
    var k = 0
    for _ in 0..<frames {
        t += MovingContacts.frameInterval
        ring[k].time = Timestamp(microseconds: t)
        graph.process(ring[k]) { e in emitted &+= e.seq }
        k += 1
        if k == ring.count { k = 0 }
    }
    return emitted
}

@inline(never) func measuredAssembler(_ assembler: inout FrameAssembler, _ turn: [InputEvent], _ offset: inout Int64, turnLength: Int64, frames: Int) -> Int {
    var made = 0
    var sum = 0
    while made < frames {
        for e in turn {
            let shifted = InputEvent(time: Timestamp(microseconds: e.time.microseconds &+ offset), type: e.type, code: e.code, value: e.value)
            if assembler.feed(shifted) { made += 1; sum &+= assembler.frame.contacts.count }
        }
        offset &+= turnLength
    }
    return sum
}

// A named frame for callgrind's --toggle-collect='*measuredReplay*'.
@inline(never) func measuredReplay(_ bytes: [UInt8], name: String) throws -> (events: Int, lines: Int, bytes: Int) {
    try BenchReplay.run(bytes, name: name)
}

let args = CommandLine.arguments
func usage() -> Never {
    print("usage: bench-probe graph|graph-all|graph-held|assembler FINGERS FRAMES | bench-probe replay FILE | bench-probe stages FILE [REPS]")
    exit(2)
}
guard args.count >= 3 else { usage() }
let start = ContinuousClock.now
switch args[1] {
case "graph", "graph-all", "graph-held", "assembler":
    guard args.count == 4, let fingers = Int(args[2]), let frames = Int(args[3]) else { usage() }
    let motion = MovingContacts(fingers: fingers)
    if args[1] != "assembler" {
        let made = motion.frameRing()
        var ring = made.ring
        let configuration: GraphConfiguration
        switch args[1] {
        case "graph": configuration = .default
        case "graph-held": configuration = .defaultWithHeldLongPress
        default: configuration = .everyKind
        }
        var graph = try GestureGraph(configuration: configuration, surface: made.assembler.geometry.size)
        // The fingers land on a fresh assembler, as they did for the ring: the ring's assembler
        // has them down already, so its frame had no `began`, and a contact whose landing the
        // graph never saw belongs to no target (the graph then did nothing per frame).
        var landing = FrameAssembler(device: SyntheticPanel.device)
        for e in motion.downEvents(at: .zero) where landing.feed(e) { graph.process(landing.frame) { _ in } }
        var t = ring.last!.time.microseconds
        _ = measuredGraph(&graph, &ring, &t, frames: 4 * ring.count)
        let s = ContinuousClock.now
        let r = measuredGraph(&graph, &ring, &t, frames: frames)
        let d = ContinuousClock.now - s
        // Measured only while busy: every frame emits events (pan, pinch, rotate `changed`;
        // with `graph-held`, the long press's).
        guard r != 0 else {
            print("\(args[1]) \(fingers) contacts: the graph emitted nothing in steady motion; the workload no longer exercises recognizers")
            exit(1)
        }
        print("\(args[1]) \(fingers) contacts: \(frames) frames in \(d), \(Double(d.components.attoseconds) / 1e9 / Double(frames) + Double(d.components.seconds) * 1e9 / Double(frames)) ns/frame (checksum \(r))")
    } else {
        var assembler = FrameAssembler(device: SyntheticPanel.device)
        for e in motion.downEvents(at: .zero) { _ = assembler.feed(e) }
        let turn = motion.motionEvents(after: .zero)
        var offset: Int64 = 0
        let turnLength = Int64(motion.period) * MovingContacts.frameInterval
        _ = measuredAssembler(&assembler, turn, &offset, turnLength: turnLength, frames: 4 * motion.period)
        let s = ContinuousClock.now
        let r = measuredAssembler(&assembler, turn, &offset, turnLength: turnLength, frames: frames)
        print("assembler \(fingers) contacts: \(frames) frames in \(ContinuousClock.now - s) (checksum \(r))")
    }
case "replay":
    let url = URL(fileURLWithPath: args[2])
    let bytes = try BenchTraces.bytes(of: url)
    let s = ContinuousClock.now
    let r = try measuredReplay(bytes, name: url.lastPathComponent)
    let d = ContinuousClock.now - s
    let secs = Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    print("replay \(url.lastPathComponent): \(r.events) events, \(r.lines) lines, \(r.bytes) bytes of JSON in \(d): \(Int(Double(r.events) / secs)) events/s, \(Int(Double(bytes.count) / 1e6 / secs)) MB/s")
case "stages":
    try Stages.run(path: args[2], repetitions: args.count > 3 ? Int(args[3]) ?? 5 : 5)
default:
    usage()
}
_ = start
