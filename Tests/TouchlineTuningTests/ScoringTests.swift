// Scoring a recording's events against its labels (as ../shared/traces/score.py decides it):
// scripted touches in virtual time are the recording, the default graph makes its events.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting
import TouchlineTuning

@Suite struct ScoringTests {
    /// A tap at 0 s, a double tap from 1 s, a one-finger drag from 2 s; 120 Hz frames.
    static func recording() -> Recording {
        var s = TouchScript()
        s.down(0, at: Point(x: 50, y: 50))
        s.wait(60)
        s.up(0)
        s.wait(940)
        for _ in 0..<2 {
            s.down(0, at: Point(x: 100, y: 60))
            s.wait(50)
            s.up(0)
            s.wait(100)
        }
        s.wait(700)
        s.down(0, at: Point(x: 20, y: 60))
        s.move(0, to: Point(x: 120, y: 60), over: 600)
        s.up(0)
        s.wait(500)
        return Recording(devices: [RecordedDevice(index: 0, surface: s.surface, frames: s.frames)], origin: .zero)
    }

    static let labelsText = """
        [{"file": "scripted.yml", "expect": [
          {"has": "tap", "from": 0, "to": 0.5, "where": {"count": ["==", 1]}},
          {"has": "tap", "from": 0.9, "to": 1.8, "where": {"count": ["==", 2]}},
          {"has": "pan", "from": 1.9, "to": 3},
          {"none": "pinch"},
          {"has": "tap", "from": 1.9, "to": 3},
          {"none": "pan", "from": 2, "to": 3},
          {"has": "longPress", "min": 2}
        ]}]
        """

    static func labels() throws -> [Label] {
        try LabelSet.parse(Array(labelsText.utf8), file: "labels.json", directory: "").recordings[0].labels
    }

    @Test func eachLabelHoldsOrMisses() throws {
        let recording = Self.recording()
        let labels = try Self.labels()
        let score = Scoring.score(labels, events: try recording.events(.default), in: recording)
        let lines = zip(labels, score.holds).map { "\($1 ? "ok  " : "MISS") \($0)" }
        if lines != Self.expectedLines { print("ACTUAL\n" + lines.joined(separator: "\n") + "\nEND") }
        #expect(lines == Self.expectedLines)
        #expect(score.held == 4)
        // The drag's pan events in the `none pan` window: each one is spurious.
        #expect(score.spurious == 71)
    }

    static let expectedLines = [
        "ok   has tap 0.00..0.50 s count==1",
        "ok   has tap 0.90..1.80 s count==2",
        "ok   has pan 1.90..3.00 s",
        "ok   none pinch",
        "MISS has tap 1.90..3.00 s",
        "MISS none pan 2.00..3.00 s",
        "MISS has >=2 longPress",
    ]

    /// The counter fed event by event (what a search does) gives the same score.
    @Test func theCounterAgreesWithTheWholeScore() throws {
        let recording = Self.recording()
        let labels = try Self.labels()
        var counter = LabelCounter(labels, origin: recording.origin)
        try recording.run(.default) { counter.count($0) }
        #expect(counter.score == Scoring.score(labels, events: try recording.events(.default), in: recording))
    }

    /// What `touchline score` prints under a missed label: the matches against the need, the
    /// nearest events of its gesture, the nearest failed attempt.
    @Test func aMissSaysWhatItSaw() throws {
        let recording = Self.recording()
        let labels = try Self.labels()
        let explained = try recording.events(.default, explain: true)
        let lines = [4, 5, 6].map { Scoring.miss(labels[$0], explained: explained, in: recording, configuration: .default) }
        let expected: [[String]] = [
            [
                "0 matching (need 1)", "nearest tap: 1.200 s recognized fingers=1",
                "nearest attempt: 2.025 s tap failed: movement 4.17 mm > 3.00 mm (by 1.17 mm)",
            ],
            ["71 matching: 2.025 s began fingers=1; 2.033 s changed fingers=1; 2.042 s changed fingers=1 ..."],
            [
                "0 matching (need 2)", "no longPress events at all",
                "nearest attempt: 0.060 s longPress failed: lost to tap, which won first and is not simultaneous with it",
            ],
        ]
        if lines != expected { print("ACTUAL\n" + lines.map { $0.joined(separator: "\n") }.joined(separator: "\n--\n") + "\nEND") }
        #expect(lines == expected)
    }
}
