import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineTesting
import TouchlineTuning

/// `record --guided`'s plan and windows, from the events a recording gets: a person standing
/// in, touch by touch, in virtual time.
struct GuidedTests {
    let gestures = ["tap", "longPress", "edgeSwipe", "swipe", "pinch", "rotate", "pan"]

    func event(_ seconds: Double, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: Int64(seconds * 1_000_000)), type: type, code: code, value: value)
    }

    /// A touch from `down` to `up` (s): BTN_TOUCH and a report each time.
    func touch(_ session: inout GuidedSession, device: Int = 0, _ down: Double, _ up: Double) -> Bool {
        _ = session.feed(device: device, event(down, EventCodes.EV_KEY, EventCodes.BTN_TOUCH, 1))
        _ = session.feed(device: device, event(down, EventCodes.EV_SYN, EventCodes.SYN_REPORT, 0))
        let ended = session.feed(device: device, event(up, EventCodes.EV_KEY, EventCodes.BTN_TOUCH, 0))
        _ = session.feed(device: device, event(up, EventCodes.EV_SYN, EventCodes.SYN_REPORT, 0))
        return ended
    }

    @Test func promptsFollowTheAttemptsAndTheirWindowsBecomeLabels() throws {
        let plan = try GuidedPlan.parse("# two taps, then a pinch\ntap 2\npinch 1 pinch in with two fingers\n", gestures: gestures)
        #expect(plan.steps.map(\.gesture) == ["tap", "pinch"])
        var session = GuidedSession(plan: plan)
        #expect(session.prompt == "tap with one finger (1 of 2)")
        // The recording's first event, before any touch: windows count from it.
        _ = session.feed(device: 0, event(10.0, EventCodes.EV_SYN, EventCodes.SYN_REPORT, 0))
        let ended1 = touch(&session, 11.0, 11.1)
        #expect(ended1)
        #expect(session.prompt == "tap with one finger (2 of 2)")
        let ended2 = touch(&session, 12.0, 12.08)
        #expect(ended2)
        #expect(session.prompt == "pinch in with two fingers (1 of 1)")
        // Two devices touched at once are one attempt, ended by the last lift.
        _ = session.feed(device: 1, event(13.0, EventCodes.EV_KEY, EventCodes.BTN_TOUCH, 1))
        let ended3 = touch(&session, device: 0, 13.2, 13.5)
        #expect(!ended3)
        let ended4 = session.feed(device: 1, event(13.9, EventCodes.EV_KEY, EventCodes.BTN_TOUCH, 0))
        #expect(ended4)
        #expect(session.isFinished && session.prompt == nil)
        // After the plan, touches are recorded but not labelled.
        let ended5 = touch(&session, 15.0, 15.1)
        #expect(!ended5)

        let text = session.labels(file: "panel \"A\".yml")
        let set = try LabelSet.parse(Array(text.utf8), file: "panel.yml.labels.json", directory: "/data")
        #expect(set.recordings.count == 1)
        #expect(set.recordings[0].path == "/data/panel \"A\".yml")
        #expect(set.recordings[0].labels.map(\.description) == ["has tap 0.90..1.60 s", "has tap 1.90..2.58 s", "has pinch 2.90..4.40 s"])
        #expect(set.recordings[0].labels[2].why == "guided: pinch in with two fingers (1 of 1)")
    }

    @Test func aPlanIsALineAListOrAMistakeNamed() throws {
        #expect(try GuidedPlan.parse("edgeSwipe:3,tap:1", gestures: gestures).steps.map { "\($0.gesture) \($0.count) \($0.prompt)" }
            == ["edgeSwipe 3 swipe in from an edge", "tap 1 tap with one finger"])
        #expect(throws: LabelError.self) { try GuidedPlan.parse("tapp 3", gestures: gestures) }
        #expect(throws: LabelError.self) { try GuidedPlan.parse("tap three", gestures: gestures) }
        #expect(throws: LabelError.self) { try GuidedPlan.parse("tap:0", gestures: gestures) }
        #expect(throws: LabelError.self) { try GuidedPlan.parse("# nothing\n", gestures: gestures) }
        do {
            _ = try GuidedPlan.parse("tap 2\npinch x\n", gestures: gestures)
        } catch {
            #expect(error.description == "plan line 2: 'pinch x': expected GESTURE COUNT [PROMPT] (a count from 1 to 1000)")
        }
    }
}

/// A plan says with what fields and what must not happen (issue 36, item 5): its labels then
/// bound a parameter from both sides (a margin that takes the left edge swipes and no pan).
struct GuidedConditionTests {
    let gestures = ["tap", "longPress", "edgeSwipe", "swipe", "pinch", "rotate", "pan"]

    @Test func conditionsAndNoneLinesBecomeLabels() throws {
        let plan = try GuidedPlan.parse("""
            edgeSwipe 1 edge=left swipe in from the left edge
            none pan
            tap 1 fingers=1
            none edgeSwipe
            none swipe direction!=up
            """, gestures: gestures)
        #expect(plan.steps.map(\.prompt) == ["swipe in from the left edge", "tap with one finger"])
        var session = GuidedSession(plan: plan)
        let t = GuidedTests()
        _ = session.feed(device: 0, t.event(10.0, EventCodes.EV_SYN, EventCodes.SYN_REPORT, 0))
        _ = t.touch(&session, 10.5, 10.8)
        _ = t.touch(&session, 12.0, 12.1)
        let text = session.labels(file: "panel.yml")
        #expect(text == """
            {"version": 1, "recordings": [
             {"file": "panel.yml", "expect": [
               {"has": "edgeSwipe", "from": 0.400, "to": 1.300, "where": {"edge": ["==", "left"]}, "why": "guided: swipe in from the left edge (1 of 1)"},
               {"none": "pan", "from": 0.400, "to": 1.300, "why": "guided: swipe in from the left edge (1 of 1): no pan"},
               {"has": "tap", "from": 1.900, "to": 2.600, "where": {"fingers": ["==", 1]}, "why": "guided: tap with one finger (1 of 1)"},
               {"none": "edgeSwipe", "from": 1.900, "to": 2.600, "why": "guided: tap with one finger (1 of 1): no edgeSwipe"},
               {"none": "swipe", "from": 1.900, "to": 2.600, "where": {"direction": ["!=", "up"]}, "why": "guided: tap with one finger (1 of 1): no swipe"}
             ]}
            ]}

            """)
        // What it writes, labels read and check.
        let set = try LabelSet.parse(Array(text.utf8), file: "panel.yml.labels.json", directory: "")
        #expect(set.recordings[0].labels.map(\.description) == [
            "has edgeSwipe 0.40..1.30 s edge==left", "none pan 0.40..1.30 s", "has tap 1.90..2.60 s fingers==1",
            "none edgeSwipe 1.90..2.60 s", "none swipe 1.90..2.60 s direction!=up",
        ])
        // The list form says the same.
        let list = try GuidedPlan.parse("edgeSwipe:1:edge=left,none:pan", gestures: gestures).steps
        #expect(list.map { "\($0.gesture) \($0.count) \($0.prompt)" } == ["edgeSwipe 1 swipe in from an edge"])
        #expect(list[0].conditions.map { "\($0.field)\($0.op)\($0.value)" } == ["edge==left"])
        #expect(list[0].forbidden.map(\.gesture) == ["pan"])
    }

    @Test func aPlansConditionsAreCheckedAsLabels() throws {
        for (plan, message) in [
            ("edgeSwipe 2 edge=lef", "plan line 1: 'edge=lef': edge takes one of left, right, top, bottom"),
            ("tap 2 edge=left", "plan line 1: 'edge=left': tap events have no field 'edge'; their fields: phase, fingers, x, y, tool, count, duration"),
            ("tap 2 fingers=two", "plan line 1: 'fingers=two': fingers takes a number (fingers is one)"),
            ("none pan\ntap 2", "plan line 1: 'none pan': a none line follows the step whose attempts it applies to"),
            ("tap 2\nnone rotat", "plan line 2: 'rotat' is no gesture; gestures: tap, longPress, pan, swipe, edgeSwipe, pinch, rotate, peek, pop, peekActions, drag, spring"),
            ("tap 2\nnone pan quickly", "plan line 2: 'quickly': expected FIELD=VALUE (a none line takes no prompt)"),
        ] {
            do {
                _ = try GuidedPlan.parse(plan, gestures: gestures)
                Issue.record("\(plan): taken")
            } catch {
                #expect(error.description == message)
            }
        }
    }
}

/// `record --guided` tells each attempt as the person makes it: `ok` as soon as the attempt's
/// gesture is recognized, `MISS` with what the graph saw and the nearest failed attempt's reason
/// once its window has closed (issue 36, item 5). The default graph recognizes a scripted
/// person's touches in virtual time; the guide reads them as RecordSession hands them over
/// (raw events first, then the gestures that frame made, times from the recording's start).
struct GuidedFeedbackTests {
    @Test func eachAttemptIsToldRecognizedOrWhyNot() throws {
        var guide = GuidedSession(plan: try GuidedPlan.parse("swipe 2\nnone pan", gestures: ["swipe", "pan", "tap"]))
        guide.feedbackConfiguration = .default
        var driver = try GraphDriver(configuration: .default, surface: TouchScript.defaultSurface)
        driver.graph.explain = true
        var s = TouchScript()
        s.wait(100)
        // Attempt 1: a quick flick, 60 mm in 80 ms.
        s.down(0, at: Point(x: 40, y: 60))
        s.move(0, to: Point(x: 100, y: 60), over: 80)
        s.up(0)
        s.wait(1000)
        // Attempt 2: a slow drag, 30 mm over a second: no swipe, and a pan the plan says not.
        s.down(0, at: Point(x: 40, y: 60))
        s.move(0, to: Point(x: 70, y: 60), over: 1000)
        s.up(0)
        s.wait(1000)
        var told: [String] = []
        _ = guide.feed(device: 0, InputEvent(time: .zero, type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0))
        for frame in s.frames {
            let landed = frame.contacts.contains { $0.phase == .began }
            let lifted = !frame.contacts.isEmpty && frame.contacts.allSatisfy { $0.phase == .ended }
            if landed || lifted {
                let raw = InputEvent(time: frame.time, type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH, value: landed ? 1 : 0)
                _ = guide.feed(device: 0, raw)
                told += guide.verdicts(after: raw)
            }
            driver.feed(frame) { told += guide.observe($0) }
        }
        told += guide.finishVerdicts()
        // The default graph pans along with a flick, so the flick's attempt has its pan too.
        #expect(told == [
            "ok   flick one finger quickly across the screen (1 of 2): swipe; but also pan (the plan says none)",
            "MISS flick one finger quickly across the screen (2 of 2): no swipe: no swipe events at all; "
                + "nearest attempt: 1.680 s swipe failed: no last lift within 500.0 ms; but also pan (the plan says none)",
        ])
    }
}
