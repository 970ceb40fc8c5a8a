// Reading a labels file (docs/labels.md): what a good file gives, label by label, and each
// mistake's message with file:line:column, the recording and what was expected.
import Testing
import TouchlineTuning

@Suite struct LabelsTests {
    func parse(_ text: String) throws(LabelError) -> LabelSet {
        try LabelSet.parse(Array(text.utf8), file: "labels.json", directory: "/data")
    }

    func error(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func aGoodFileGivesItsRecordingsAndLabels() throws {
        let set = try parse("""
            {"version": 1, "recordings": [
              {"file": "panel.yml", "args": ["--size", "200x120"], "expect": [
                {"has": "tap", "from": 0, "to": 0.5, "why": "the first touch"},
                {"none": ["swipe", "pan"]},
                {"has": "tap", "min": 2, "from": 0.5, "where": {"count": ["==", 1]}}
              ]},
              {"file": "/abs/empty.events", "desc": "empty.desc", "expect": []}
            ]}
            """)
        let lines = set.recordings.map { r in
            "\(r.file) -> \(r.path) desc=\(r.desc ?? "-") args=\(r.args)" + r.labels.map { "\n  \($0)" }.joined()
        }
        #expect(lines == [
            "panel.yml -> /data/panel.yml desc=- args=[\"--size\", \"200x120\"]\n  has tap 0.00..0.50 s\n  none swipe|pan\n  has >=2 tap 0.50.. s count==1",
            "/abs/empty.events -> /abs/empty.events desc=/data/empty.desc args=[]",
        ])
        #expect(set.recordings[0].labels.map(\.why) == ["the first touch", nil, nil])
    }

    @Test func aBareListIsAFileToo() throws {
        let set = try parse(#"[{"file": "a.yml", "expect": [{"has": "longPress"}]}]"#)
        #expect(set.recordings.map { "\($0.file): \($0.labels.map(\.description))" } == [#"a.yml: ["has longPress"]"#])
    }

    /// Each bad entry, in a file of several lines: the message names the line and column of
    /// what is refused, the recording, and what was expected.
    @Test func mistakesSayWhereAndWhat() {
        let cases: [(String, String)] = [
            ("""
            [
              {"file": "a.yml", "expect": [
                {"has": "tap", "at": 1}
              ]}
            ]
            """, #"labels.json:3:20: a.yml: unknown label key "at" (has, none, from, to, min, where, why): {"has": "tap", "at": 1}"#),
            ("""
            [
              {"file": "a.yml", "expect": [
                {"has": "tap", "from": 2, "to": 1}
              ]}
            ]
            """, #"labels.json:3:28: a.yml: the window is empty: "from" 2.0 is after "to" 1.0: {"has": "tap", "from": 2, "to": 1}"#),
            ("""
            [
              {"file": "a.yml", "expect": [
                {"none": "tap", "min": 2}
              ]}
            ]
            """, #"labels.json:3:5: a.yml: "min" applies to a has label (a none label holds with no matching event): {"none": "tap", "min": 2}"#),
            ("""
            [
              {"file": "a.yml", "expect": [
                {"has": "tap", "where": {"count": [">=", "two"]}}
              ]}
            ]
            """, #"labels.json:3:46: a.yml: count: >= needs a number: [">=", "two"]"#),
            ("""
            [
              {"file": "a.yml", "expect": [
                {"has": "tap", "to": -1}
              ]}
            ]
            """, #"labels.json:3:26: a.yml: "to" -1 ends the window before the recording's first event (0 s): {"has": "tap", "to": -1}"#),
            ("""
            [
              {"expect": []}
            ]
            """, #"labels.json:2:3: recording 1: needs "file", the recording's path"#),
            ("""
            [
              {"file": "a.yml"}
            ]
            """, #"labels.json:2:3: a.yml: needs "expect", a list of labels"#),
            ("""
            {"version": 2, "recordings": []}
            """, #"labels.json:1:13: "version" is 2; this touchline reads version 1"#),
            ("""
            {"recordings": [], "extra": 1}
            """, #"labels.json:1:20: unknown key "extra" (a labels object has version and recordings)"#),
            ("""
            [
              {"file": "a.yml", "expect": [],}
            ]
            """, "labels.json:2:34: not JSON: unexpected '}', expected a key (a string)"),
            ("\"labels\"", #"labels.json:1:1: labels are a list of {"file": …, "expect": […]} (or {"version": 1, "recordings": […]})"#),
        ]
        let got = cases.map { error($0.0) }
        if got != cases.map(\.1) { print("ACTUAL\n" + got.joined(separator: "\n") + "\nEND") }
        #expect(got == cases.map(\.1))
    }
}
