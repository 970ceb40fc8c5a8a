import Testing
import TouchlineCore
@testable import TouchlineTrace

/// A source that makes a long libinput record file on the fly, so nothing holds it whole.
struct GeneratedRecording: ByteSource {
    var frames: Int
    private var pending: [UInt8] = Array("""
        version: 1
        ndevices: 1
        devices:
        - node: /dev/input/event0
          evdev:
            name: "Generated"
            id: [3, 1, 2, 3]
            codes:
              0: [0]
              3: [53]
            absinfo:
              53: [0, 1000, 0, 0, 10]
            properties: [1]
          events:

        """.utf8)
    private var offset = 0
    private var frame = 0

    init(frames: Int) { self.frames = frames }

    mutating func read(into buffer: inout OutputSpan<UInt8>) throws {
        while pending.count - offset < buffer.freeCapacity && frame < frames {
            let t = frame * 8000
            pending.append(contentsOf: "  - evdev:\n    - [  \(t / 1_000_000), \(t % 1_000_000),   3,  53, \(frame % 1000)] # EV_ABS / ABS_MT_POSITION_X\n    - [  \(t / 1_000_000), \(t % 1_000_000),   0,   0,       0] # SYN_REPORT\n".utf8)
            frame += 1
        }
        offset += append(pending.span.extracting(offset...), to: &buffer)
        if offset > 1 << 20 {
            pending.removeFirst(offset)
            offset = 0
        }
    }
}

@Suite struct StreamingTests {
    /// About 10 MB through a reader whose buffer never grows past one line plus one chunk.
    @Test func longRecordingStreams() throws {
        var reader = try TraceReader(source: GeneratedRecording(frames: 100_000), fileName: "generated.yml")
        var count = 0
        var lastValue: Int32 = -1
        while let e = try reader.next() {
            count += 1
            if e.event.type == EventCodes.EV_ABS { lastValue = e.event.value }
        }
        #expect(count == 200_000)
        #expect(lastValue == 999)
        #expect(reader.devices.first?.absinfo[53]?.resolution == 10)
    }
}

/// Each frame's `- evdev:` line, which the reader takes without its general line walk when it
/// is exactly libinput's own (TraceReader.nextLibinputRecord): every other spelling still goes
/// through the walk, and the events are the same whichever way the line went.
@Suite struct EvdevItemLineTests {
    static func recording(_ itemLines: [String]) -> String {
        var text = """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event0
              evdev:
                name: "Items"
                id: [3, 1, 2, 3]
                codes:
                  0: [0]
                  3: [53]
                absinfo:
                  53: [0, 1000, 0, 0, 10]
                properties: [1]
              events:

            """
        for (n, line) in itemLines.enumerated() {
            text += line + "\n"
            text += "    - [  0, \(String(repeating: " ", count: 6 - String(n * 8000).count))\(n * 8000),   3,  53, \(String(repeating: " ", count: 7 - String(n).count))\(n)] # EV_ABS / ABS_MT_POSITION_X\n"
            text += "    - [  0, \(String(repeating: " ", count: 6 - String(n * 8000).count))\(n * 8000),   0,   0,       0] # SYN_REPORT\n"
        }
        return text
    }

    @Test func everySpellingOfTheItemGivesTheSameEvents() {
        let bare = readAll(Self.recording(Array(repeating: "  - evdev:", count: 4)))
        let mixed = readAll(Self.recording(["  - evdev:", "  - evdev: # a comment", "  - evdev:   ", "  - evdev:"]))
        #expect(bare.error == nil)
        #expect(mixed.error == nil)
        #expect(bare.events.count == 8)
        #expect(bare.events.map(\.event) == mixed.events.map(\.event))
        #expect(bare.events.filter { $0.event.type == EventCodes.EV_ABS }.map(\.event.value) == [0, 1, 2, 3])
    }

    /// An item deeper than the list's items is not the next frame: still an error naming the line.
    @Test func anItemAtAnotherIndentIsNotTakenForTheNextFrame() {
        let result = readAll(Self.recording(["  - evdev:", "    - evdev:", "  - evdev:"]))
        #expect(result.error != nil)
        #expect(result.error?.description.hasPrefix("t:18:") == true, "\(String(describing: result.error))")
    }
}
