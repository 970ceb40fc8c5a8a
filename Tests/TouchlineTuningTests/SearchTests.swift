// `tune`'s search and `tune -o`'s edit, on scripted touches: a slow tap the default graph
// misses, the one parameter that makes it a tap, and the config text that parameter is written in.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting
import TouchlineTuning

@Suite struct SearchTests {
    /// Two touches held 400 ms (taps the default graph's 300 ms maxDuration refuses), 2 s apart.
    static func slowTaps() -> Recording {
        var s = TouchScript()
        for x in [50.0, 150.0] {
            s.down(0, at: Point(x: x, y: 60))
            s.wait(400)
            s.up(0)
            s.wait(1600)
        }
        return Recording(devices: [RecordedDevice(index: 0, surface: s.surface, frames: s.frames)], origin: .zero)
    }

    static let labels = """
        [{"file": "slow.yml", "expect": [
          {"has": "tap", "from": 0, "to": 1},
          {"has": "tap", "from": 2, "to": 3},
          {"none": "longPress"}
        ]}]
        """

    @Test func theSearchFindsTheParameterThatMakesTheLabelsHold() throws {
        let recording = Self.slowTaps()
        let labels = try LabelSet.parse(Array(Self.labels.utf8), file: "labels.json", directory: "").recordings[0].labels
        let parameters = TunableParameter.all(in: .default, only: ["tap.maxDuration"])
        #expect(parameters.map(\.key) == ["tap.maxDuration"])
        let result = try #require(Search.run(.default, parameters: parameters) { configurations in
            configurations.map { c in
                (try? recording.events(c)).map { Outcome(recordings: [Scoring.score(labels, events: $0, in: recording)]) }
            }
        })
        let lines = ["before \(result.before.holds) spurious \(result.before.spurious)", "after \(result.after.holds) spurious \(result.after.spurious)"]
            + result.changes.map { "\($0.parameter.key): \($0.parameter.shown($0.from)) -> \($0.parameter.shown($0.to))" }
        let expected = [
            "before [false, false, true] spurious 0",
            "after [true, true, true] spurious 0",
            "tap.maxDuration: 300 ms -> 405 ms",
        ]
        if lines != expected { print("ACTUAL\n" + lines.joined(separator: "\n") + "\nEND") }
        #expect(lines == expected)
    }

    /// `tune -o`'s text: the value edited where the input holds it, in each style, the rest as it was.
    @Test func theTunedValueIsWrittenWhereTheInputHoldsIt() throws {
        let maxDuration = TunableParameter(kind: "tap", name: "maxDuration", unit: .milliseconds)
        let changes = [(parameter: maxDuration, from: 300.0, to: 450.0)]
        let inputs: [String?] = [
            nil,
            "# mine\n[defaults]\ntap.maxDuration = 300 # slow hands\n",
            "[defaults.tap]\ntaps = 1\n",
            "[defaults]\ntap = { slop = 5 }\n",
        ]
        let got = try inputs.map { try TunedConfig.edit($0, file: "in.toml", changes: changes, header: ["tuned"]) }
        let expected = [
            "# tuned\n[defaults]\ntap.maxDuration = 450\n",
            "# tuned\n# mine\n[defaults]\ntap.maxDuration = 450 # slow hands\n",
            "# tuned\n[defaults.tap]\ntaps = 1\nmaxDuration = 450\n",
            "# tuned\n[defaults]\ntap = { slop = 5, maxDuration = 450 }\n",
        ]
        if got != expected { print("ACTUAL\n" + got.map { "\($0.debugDescription)," }.joined(separator: "\n") + "\nEND") }
        #expect(got == expected)
    }
}
