// Registered targets (docs/live.md#registered-targets): the register message read through the
// configuration's own reader, and the session merging a client's target into a device's graph
// when that graph is idle, and dropping it when the client goes. The session runs on a scripted
// screen (100 × 50 mm) and a virtual clock; a client's messages are steps of the script.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineLive
import TouchlineTesting

/// The request a register message reads as; fails the test with the error otherwise.
func registration(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ClientTargetRequest {
    switch ClientMessageParser.parse(Array(json.utf8)[...]) {
    case .success(.register(let request)): return request
    case let other:
        Issue.record("\(json) → \(other)", sourceLocation: sourceLocation)
        throw ClientMessageError("not a registration")
    }
}

/// The error a message gets.
func parseError(_ json: String) -> String? {
    if case .failure(let error) = ClientMessageParser.parse(Array(json.utf8)[...]) { return error.message }
    return nil
}

/// A registration's error message, nil when it was taken.
func refusal(_ result: Result<Void, ClientMessageError>) -> String? {
    if case .failure(let error) = result { return error.message }
    return nil
}

/// Gesture events as log lines with their target: "… @zone".
final class TargetSink: LiveSink {
    var log: [String] = []
    var warnings: [String] = []
    func gesture(_ event: GestureEvent) throws { log.append("\(event.logLine) @\(event.target)") }
    func frame(_ frame: TouchFrame, device: Int) throws {}
    func rawEvent(_ event: InputEvent, deviceName: String) throws {}
    func warn(_ message: String) { warnings.append(message) }
}

/// A tap (down, up 80 ms later) at (x, y) mm.
func tap(_ source: inout ScriptedSource, at time: Int64, x: Double, y: Double, id: Int32 = 1) {
    var finger = Finger(trackingID: id)
    finger.down(at: ms(time), x: x, y: y)
    finger.up(at: ms(time + 80))
    source.events(0, finger.events)
}

func playWithClients(_ source: ScriptedSource, _ targets: ClientTargets, configuration: GraphConfiguration = .default,
                     reload: (() throws -> GraphConfiguration)? = nil, configure: (inout LiveSession) -> Void = { _ in }) throws -> TargetSink {
    var source = source
    let sink = TargetSink()
    var session = LiveSession(output: .gestures, sink: sink, clock: source.clock)
    session.settings.graphConfiguration = configuration
    configure(&session)
    session.hooks.reloadConfiguration = reload.map { reload in { DaemonConfiguration(graph: try reload()) } }
    session.clients.targets = targets
    try session.start(&source)
    try session.run(&source)
    return sink
}

/// A script on `screen` whose client (connection 7) registers `request` at 500 ms.
func scriptRegistering(_ request: ClientTargetRequest) -> (ScriptedSource, ClientTargets) {
    var source = ScriptedSource(clock: VirtualClock())
    source.add(0, path: "/dev/input/event5", description: screen)
    let targets = ClientTargets()
    source.perform(at: ms(500)) { _ = try targets.register(request, owner: 7).get() }
    return (source, targets)
}

let zone = #"{"register": {"name": "zone", "rect": [0, 0, 20, 20], "z": 10, "recognizers": [{"kind": "tap"}]}}"#

@Suite struct RegisterMessageTests {
    @Test func aRegistrationReadsAsTheConfigurationsTargetAndRecognizersWithQualifiedNames() throws {
        let request = try registration(#"""
            {"register": {"name": "zone", "rect": [0.5, 0, 0.5, 0.25], "units": "normalized", "z": 10, "devices": [1],
             "recognizers": [{"kind": "tap"}, {"kind": "tap", "name": "double", "taps": 2, "maxDuration": "250ms", "simultaneousWith": "tap"}]}}
            """#)
        #expect(request.spec.target == TargetSpec(name: "zone", rect: Rect(x: 0.5, y: 0, width: 0.5, height: 0.25), units: .normalized, z: 10))
        #expect(request.devices == [1])
        #expect(request.spec.recognizers.map(\.name) == ["zone.tap", "zone.double"])
        #expect(request.spec.recognizers.allSatisfy { $0.target == "zone" })
        #expect(request.spec.recognizers[1].simultaneousWith == ["zone.tap"])
        // The parameters as the TOML reader sets them: "250ms" is the file's 250 (ms).
        var double = TapParameters()
        double.taps = 2
        double.maxDuration = .milliseconds(250)
        #expect(request.spec.recognizers[1].kind == .tap(double))
        // Defaults: mm, z 0, every device.
        let plain = try registration(#"{"register": {"name": "b", "rect": [1, 2, 3, 4], "recognizers": [{"kind": "longPress", "minimumDuration": "0.8s"}]}}"#)
        #expect(plain.spec.target == TargetSpec(name: "b", rect: Rect(x: 1, y: 2, width: 3, height: 4)))
        #expect(plain.devices.isEmpty)
    }

    @Test func eachWayARegistrationCanBeWrongIsNamedWithWhatWasFoundAndExpected() {
        let cases: [(String, String)] = [
            (#"{"register": "zone"}"#, "register: expected an object such as {\"name\": \"zone\""),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1]}}"#, "register: no \"recognizers\"; expected a list such as [{\"kind\": \"tap\"}]"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": {"kind": "tap"}}}"#, "register.recognizers: expected a list of recognizers such as [{\"kind\": \"tap\"}], found an object"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": []}}"#, "register: recognizers: found 0; expected 1 to 8 recognizers"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap"}, {"kind": "tap"}, {"kind": "tap"}, {"kind": "tap"}, {"kind": "tap"}, {"kind": "tap"}, {"kind": "tap"}, {"kind": "tap"}, {"kind": "tap"}]}}"#,
             "register.recognizers: found 9 recognizers; at most 8 per target"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": ["tap"]}}"#, "register: recognizers[0]: found \"tap\"; expected an object such as {\"kind\": \"tap\"}"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"taps": 2}]}}"#, "register: recognizers[0]: this [[recognizer]] has no kind"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tapp"}]}}"#, "register: recognizers[0]: found \"tapp\" for kind; expected a recognizer kind: "),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap", "tapps": 2}]}}"#, "register: recognizers[0]: tap has no parameter 'tapps'; its parameters: fingers, taps"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap", "maxDuration": "fast"}]}}"#, "register: recognizers[0]: found \"fast\" for tap.maxDuration; expected a number of ms or a string with a unit"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap", "taps": 2.5}]}}"#, "register: recognizers[0]: found 2.5 for tap.taps; expected a whole number"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap", "taps": 99}]}}"#, "register: recognizers[0]: found 99 for tap.taps; expected "),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap", "eager": null}]}}"#, "register.recognizers: found null; expected a string, a number"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap", "target": "surface"}]}}"#, "register: recognizers[0]: a registered target's recognizer takes no 'target': it is 'zone'"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap", "simultaneousWith": ["pan"]}]}}"#, "register: recognizers[0]: simultaneousWith: 'pan' is not a recognizer of this target; expected one of tap"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap"}, {"kind": "tap"}]}}"#, "register: "),
            (#"{"register": {"rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap"}]}}"#, "register: this [[target]] has no name"),
            (#"{"register": {"name": "", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap"}]}}"#, "register: found \"\" for a target's name; expected a non-empty string"),
            (#"{"register": {"name": "a-name-that-is-far-too-long-for-it", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap"}]}}"#, "register: name: 'a-name-that-is-far-too-long-for-it' is 34 bytes; a registered target's name is at most 31"),
            (#"{"register": {"name": "zone", "recognizers": [{"kind": "tap"}]}}"#, "register: target 'zone' has no rect = [x, y, width, height]"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1], "recognizers": [{"kind": "tap"}]}}"#, "register: found an array for a target's rect; expected [x, y, width, height], four numbers"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 2, 1], "units": "normalized", "recognizers": [{"kind": "tap"}]}}"#, "register: target 'zone' has rect [0, 0, 2, 1] (normalized); expected x and y within -1…1"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "units": "px", "recognizers": [{"kind": "tap"}]}}"#, "register: found \"px\" for a target's units; expected \"mm\" or \"normalized\""),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "z": 1.5, "recognizers": [{"kind": "tap"}]}}"#, "register: found 1.5 for a target's z; expected an integer from"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "colour": "red", "recognizers": [{"kind": "tap"}]}}"#, "register: unknown key \"colour\"; expected \"name\", \"rect\", \"units\", \"z\", \"recognizers\" or \"devices\""),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "devices": [-1], "recognizers": [{"kind": "tap"}]}}"#, "register.devices[0]: expected a device number"),
            (#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap", "x": [[[[[[[[[1]]]]]]]]]}]}}"#, "register.recognizers: nested deeper than 8 levels"),
            (#"{"unregister": 3}"#, "unregister: expected the name of a target this connection registered (a string), found the number 3"),
            (#"{"unregister": ""}"#, "unregister: expected the name of a target this connection registered (a string), found the string \"\""),
        ]
        for (message, expected) in cases {
            let error = parseError(message)
            #expect(error?.hasPrefix(expected) == true, "\(message) → \(error ?? "no error")")
        }
    }

    @Test func theRegistryRefusesClashesTooManyTargetsAndGraphsThatWouldNotValidate() throws {
        let targets = ClientTargets()
        let request = try registration(zone)
        #expect(throws: Never.self) { try targets.register(request, owner: 1).get() }
        let again = targets.register(request, owner: 1)
        #expect(refusal(again) == "register: this connection already registered \"zone\"; unregister it first")
        #expect(refusal(targets.register(request, owner: 2)) == "register: another client registered a target named \"zone\"; choose another name")
        let surface = try registration(#"{"register": {"name": "surface", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap"}]}}"#)
        #expect(refusal(targets.register(surface, owner: 2)) == "register: \"surface\" is a target of the daemon's configuration; choose another name")
        for k in 1..<ClientTargets.maximumPerClient {
            #expect(throws: Never.self) { try targets.register(try registration(zone.replacingOccurrences(of: "\"zone\"", with: "\"z\(k)\"")), owner: 1).get() }
        }
        let ninth = try registration(zone.replacingOccurrences(of: "\"zone\"", with: "\"z9\""))
        #expect(refusal(targets.register(ninth, owner: 1)) == "register: this connection holds 8 targets; at most 8 (unregister one first)")
        // 7 default recognizers + 8 + 8 × 7 more would pass the graph's 64: refused by its validation.
        var refused: ClientMessageError?
        for owner in UInt64(3)...12 {
            let eight = #"{"register": {"name": "o\#(owner)", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap"}, {"kind": "tap", "name": "b"}, {"kind": "tap", "name": "c"}, {"kind": "tap", "name": "d"}, {"kind": "tap", "name": "e"}, {"kind": "tap", "name": "f"}, {"kind": "tap", "name": "g"}, {"kind": "tap", "name": "h"}]}}"#
            if case .failure(let error) = targets.register(try registration(eight), owner: owner) { refused = error; break }
        }
        #expect(refused?.message.hasPrefix("register: \"o9\" does not fit the graph: ") == true, "\(String(describing: refused))")
        // A client's going removes its targets and only its; the name is free again.
        let before = targets.generation
        targets.removeAll(owner: 1)
        #expect(targets.generation == before + 1)
        #expect(!targets.entries.contains { $0.owner == 1 })
        #expect(targets.entries.count == 6)
        #expect(throws: Never.self) { try targets.register(request, owner: 2).get() }
        #expect(targets.unregister("zone", owner: 2))
        #expect(!targets.unregister("zone", owner: 2))
    }
}

/// The configuration decides what clients may do (issue 24, items 1 and 4).
@Suite struct RegistrationPolicyTests {
    let all = #"{"register": {"name": "all", "rect": [0, 0, 1, 1], "units": "normalized", "z": 1000000, "recognizers": [{"kind": "tap"}]}}"#

    @Test func aNameTheActionsFilterOnOrAZOutsideTheGrantedRangeIsRefused() throws {
        let targets = ClientTargets()
        targets.reservedNames = ["powerButton"]
        let power = try registration(#"{"register": {"name": "powerButton", "rect": [0, 0, 1, 1], "units": "normalized", "recognizers": [{"kind": "tap"}]}}"#)
        #expect(refusal(targets.register(power, owner: 1)) == "register: \"powerButton\" is a target the daemon's configured actions filter on; choose another name")
        targets.zRange = 0...100
        #expect(refusal(targets.register(try registration(all), owner: 1)) == "register: z 1000000 is outside the range the daemon's configuration grants clients ([socket] clientZ = [0, 100])")
        #expect(throws: Never.self) { try targets.register(try registration(zone), owner: 1).get() }
    }

    /// One connection holds at most 16 recognizers: it cannot take every slot of the graph.
    @Test func aConnectionHoldsAtMost16Recognizers() throws {
        let targets = ClientTargets()
        let six = #"[{"kind": "tap"}, {"kind": "tap", "name": "b"}, {"kind": "tap", "name": "c"}, {"kind": "tap", "name": "d"}, {"kind": "tap", "name": "e"}, {"kind": "tap", "name": "f"}]"#
        for name in ["a", "b"] {
            #expect(throws: Never.self) { try targets.register(try registration(#"{"register": {"name": "\#(name)", "rect": [0, 0, 1, 1], "recognizers": \#(six)}}"#), owner: 1).get() }
        }
        let third = try registration(#"{"register": {"name": "c", "rect": [0, 0, 1, 1], "recognizers": \#(six)}}"#)
        #expect(refusal(targets.register(third, owner: 1)) == "register: this connection would hold 18 recognizers; at most 16 (unregister a target first)")
        #expect(throws: Never.self) { try targets.register(third, owner: 2).get() }
    }

    /// A configuration file places registered targets below its own unless `[socket] clientZ`
    /// grants a range: "all" at z 1000000 over the whole screen takes no tap from "surface".
    @Test func withAConfigurationARegisteredTargetSitsBelowItsTargets() throws {
        let request = try registration(all)
        var (source, targets) = scriptRegistering(request)
        tap(&source, at: 1000, x: 10, y: 10)
        let sink = try playWithClients(source, targets, configure: { $0.settings.clientZFromConfiguration = true })
        expectLog(sink.log, ["1.080000 tap recognized f1 (10.00,10.00) count=1 @surface"])
        // Granted a range, it keeps its z (and is on top at equal z, as before).
        let merged = targets.merged(.default, [request.spec])
        #expect(merged.targets.map(\.name) == ["all", "surface"])
        targets.zRange = 0...100
        #expect(targets.merged(.default, [request.spec]).targets.map(\.name) == ["surface", "all"])
    }

    /// A device with a graph of its own: a registration that would take it past 64 recognizers
    /// is refused, one for other devices only is not, and what was registered stays.
    @Test func aRegistrationIsCheckedAgainstEachDeviceGraphItWouldJoin() throws {
        let targets = ClientTargets()
        let pad = TargetSpec(name: "pad", rect: Rect(x: 0, y: 0, width: 1, height: 1), units: .normalized)
        targets.deviceGraphs[1] = GraphConfiguration(targets: [pad], recognizers: (0..<58).map {
            RecognizerSpec(name: "t\($0)", kind: .tap(TapParameters()), target: "pad")
        })
        let one = try registration(#"{"register": {"name": "one", "rect": [0, 0, 1, 1], "units": "normalized", "recognizers": [{"kind": "tap"}]}}"#)
        #expect(throws: Never.self) { try targets.register(one, owner: 1).get() }
        let six = #"[{"kind": "tap"}, {"kind": "tap", "name": "b"}, {"kind": "tap", "name": "c"}, {"kind": "tap", "name": "d"}, {"kind": "tap", "name": "e"}, {"kind": "tap", "name": "f"}]"#
        let more = try registration(#"{"register": {"name": "more", "rect": [0, 0, 1, 1], "units": "normalized", "recognizers": \#(six)}}"#)
        #expect(refusal(targets.register(more, owner: 2)) == "register: \"more\" does not fit device 1's graph ([[device]] graph): a graph holds at most 64 recognizers, this one has 65")
        let elsewhere = try registration(#"{"register": {"name": "more", "rect": [0, 0, 1, 1], "units": "normalized", "devices": [0], "recognizers": \#(six)}}"#)
        #expect(throws: Never.self) { try targets.register(elsewhere, owner: 2).get() }
        #expect(targets.specs(forDevice: 1).map(\.target.name) == ["one"])
        // A device that is not open yet may match a section with that graph: refused too. No
        // device is open, so "more" (for device 0) may join it as well: 58 + 1 + 6 + 6.
        targets.deviceGraphs = [:]
        targets.sectionGraphs = [("pad.toml", GraphConfiguration(targets: [pad], recognizers: (0..<58).map {
            RecognizerSpec(name: "t\($0)", kind: .tap(TapParameters()), target: "pad")
        }))]
        let later = try registration(#"{"register": {"name": "later", "rect": [0, 0, 1, 1], "units": "normalized", "recognizers": \#(six)}}"#)
        #expect(refusal(targets.register(later, owner: 3)) == "register: \"later\" does not fit the graph of a device that may open ([[device]] graph \"pad.toml\"): a graph holds at most 64 recognizers, this one has 71")
        targets.deviceGraphs[1] = targets.sectionGraphs[0].graph
        // The device graph's own target names are the configuration's too.
        let taken = try registration(#"{"register": {"name": "pad", "rect": [0, 0, 1, 1], "units": "normalized", "recognizers": [{"kind": "tap"}]}}"#)
        #expect(refusal(targets.register(taken, owner: 3)) == "register: \"pad\" is a target of the daemon's configuration; choose another name")
    }
}

@Suite struct RegisteredTargetSessionTests {
    /// The registered targets have one writer, the session (issue 32, item 3): the socket's
    /// register message waits for it, is applied on its next wake, and its reply comes then,
    /// before the reply to the connection's next message; the tap lands on the target.
    @Test func theSessionAppliesTheSocketsRegistrationsInOrder() throws {
        let dir = try SocketDirectory()
        let server = try EventSocketServer(path: dir.socket)
        let client = try SocketTestClient(dir.socket)
        try server.step()
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        var early: [String] = []
        source.perform(at: ms(10)) {
            try client.send(zone + "\n" + #"{"subscribe": ["tap"]}"# + "\n")
            try server.step()
            // Read, not answered: the register waits for the session, the subscribe for it.
            early = try client.lines()
        }
        tap(&source, at: 500, x: 10, y: 10)
        let sink = TargetSink()
        var session = LiveSession(output: .gestures, sink: SocketSink(server: server, copy: sink), clock: source.clock)
        session.clients.targets = ClientTargets()
        session.clients.socket = server
        try session.start(&source)
        try session.run(&source)
        try server.step()
        #expect(early.isEmpty)
        let lines = try client.lines()
        #expect(Array(lines.prefix(2)) == [
            #"{"ok":{"registered":"zone","recognizers":["zone.tap"],"devices":[]}}"#,
            #"{"ok":{"subscribe":{"gestures":["tap"],"targets":[],"devices":[]}}}"#,
        ])
        #expect(sink.log.contains { $0.hasSuffix("@zone") }, "\(sink.log)")
        #expect(session.clients.targets?.entries.map(\.owner).count == 1)
    }

    @Test func aRegisteredTargetTakesItsTapsUntilItsClientGoes() throws {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        let targets = ClientTargets()
        tap(&source, at: 1000, x: 10, y: 10)
        let request = try registration(zone)
        source.perform(at: ms(2000)) { _ = try targets.register(request, owner: 7).get() }
        // On the zone: the zone's tap; beside it: the configuration's.
        tap(&source, at: 3000, x: 10, y: 10, id: 2)
        tap(&source, at: 4000, x: 60, y: 30, id: 3)
        source.perform(at: ms(5000)) { targets.removeAll(owner: 7) }
        tap(&source, at: 6000, x: 10, y: 10, id: 4)
        let sink = try playWithClients(source, targets)
        expectLog(sink.log, [
            "1.080000 tap recognized f1 (10.00,10.00) count=1 @surface",
            "3.080000 tap recognized [zone.tap] f1 (10.00,10.00) count=1 @zone",
            "4.080000 tap recognized f1 (60.00,30.00) count=1 @surface",
            "6.080000 tap recognized f1 (10.00,10.00) count=1 @surface",
        ])
        #expect(sink.warnings.isEmpty)
    }

    @Test func aRegistrationWhileAFingerIsDownWaitsForItsLiftAndCutsNothing() throws {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        let targets = ClientTargets()
        // A pan in flight on the surface when the zone comes: it goes on to its end.
        var finger = Finger()
        finger.down(at: ms(1000), x: 10, y: 10)
        finger.move(at: ms(1050), x: 30, y: 10)
        source.events(0, finger.events)
        let request = try registration(zone)
        source.perform(at: ms(1100)) { _ = try targets.register(request, owner: 7).get() }
        var rest = Finger()
        rest.move(at: ms(1150), x: 40, y: 10)
        rest.up(at: ms(1200))
        source.events(0, rest.events)
        // The zone takes effect at the lift.
        tap(&source, at: 2000, x: 10, y: 10, id: 2)
        let sink = try playWithClients(source, targets)
        expectLog(sink.log, [
            "1.050000 pan began f1 (30.00,10.00) d=(20.00,0.00) @surface",
            "1.150000 pan changed f1 (40.00,10.00) d=(30.00,0.00) @surface",
            "1.200000 swipe recognized f1 (40.00,10.00) right d=(30.00,0.00) v=(150,0) @surface",
            "1.200000 pan ended f1 (40.00,10.00) d=(30.00,0.00) @surface",
            "2.080000 tap recognized [zone.tap] f1 (10.00,10.00) count=1 @zone",
        ])
    }

    @Test func aRegistrationWaitsOutADoubleTapWindowLeftOpenAfterTheLift() throws {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        let targets = ClientTargets()
        // A graph that waits for a second tap. No finger is down at 1100, but the first tap's
        // double-tap window is open: the double tap is still the surface's; the zone takes the
        // tap after the window closed.
        var double = TapParameters()
        double.taps = 2
        let configuration = GraphConfiguration(targets: [.surface()], recognizers: [RecognizerSpec(name: "double", kind: .tap(double))])
        tap(&source, at: 1000, x: 10, y: 10)
        let request = try registration(zone)
        source.perform(at: ms(1100)) { _ = try targets.register(request, owner: 7).get() }
        tap(&source, at: 1200, x: 10, y: 10, id: 2)
        tap(&source, at: 3000, x: 10, y: 10, id: 3)
        let sink = try playWithClients(source, targets, configuration: configuration)
        expectLog(sink.log, [
            "1.280000 tap recognized [double] f1 (10.00,10.00) count=2 @surface",
            "3.080000 tap recognized [zone.tap] f1 (10.00,10.00) count=1 @zone",
        ])
    }

    @Test func aReloadKeepsRegisteredTargetsUnlessTheNewConfigurationDeclaresTheName() throws {
        var (source, targets) = scriptRegistering(try registration(zone))
        source.hangup(at: ms(600))
        tap(&source, at: 1000, x: 10, y: 10)
        source.hangup(at: ms(1500))
        tap(&source, at: 2000, x: 10, y: 10, id: 2)
        var reloads = 0
        // The second configuration declares a target "zone" of its own (with the default
        // recognizers): it wins, and the client's is left out.
        let declaring = GraphConfiguration(targets: [.surface(name: "zone")], recognizers: GraphConfiguration.default.recognizers.map {
            var spec = $0
            spec.target = "zone"
            return spec
        })
        let sink = try playWithClients(source, targets, reload: {
            reloads += 1
            return reloads == 1 ? .default : declaring
        })
        expectLog(sink.log, [
            "1.080000 tap recognized [zone.tap] f1 (10.00,10.00) count=1 @zone",
            "2.080000 tap recognized f1 (10.00,10.00) count=1 @zone",
        ])
        #expect(sink.warnings == ["reload: the configuration: reloaded", "reload: the configuration: reloaded"])
    }

    @Test func aTargetForOtherDevicesLeavesThisOnesGraphAlone() throws {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        let targets = ClientTargets()
        let request = try registration(#"{"register": {"name": "zone", "rect": [0, 0, 20, 20], "z": 10, "devices": [1], "recognizers": [{"kind": "tap"}]}}"#)
        source.perform(at: ms(500)) { _ = try targets.register(request, owner: 7).get() }
        tap(&source, at: 1000, x: 10, y: 10)
        let sink = try playWithClients(source, targets)
        expectLog(sink.log, ["1.080000 tap recognized f1 (10.00,10.00) count=1 @surface"])
    }

    /// Issue 24, item 7 (on 8d7af8f a name stayed interned for the life of the process, and
    /// the registry refused new names after 4,096): a registered name is stored while a graph
    /// has it and freed once the rebuild without it ran, the graph's own names staying.
    @Test func aNameNoGraphHasAnyMoreIsFreed() throws {
        let clock = VirtualClock()
        var source = ScriptedSource(clock: clock)
        source.add(0, path: "/dev/input/event5", description: screen)
        let targets = ClientTargets()
        // Names no other test uses: the table is the process's.
        let request = try registration(#"{"register": {"name": "recycledZone", "rect": [0, 0, 20, 20], "z": 10, "recognizers": [{"kind": "tap", "name": "recycledTap"}]}}"#)
        var stored: [String: [Bool]] = [:]
        func look() {
            for name in ["recycledZone", "recycledZone.recycledTap"] { stored[name, default: []].append(InternedString.isStored(name)) }
        }
        look()
        source.perform(at: ms(500)) { _ = try targets.register(request, owner: 7).get() }
        source.perform(at: ms(700)) { look() }
        tap(&source, at: 1000, x: 10, y: 10)
        source.perform(at: ms(1500)) { targets.removeAll(owner: 7) }
        source.perform(at: ms(1700)) { look() }
        tap(&source, at: 2000, x: 10, y: 10, id: 2)
        let sink = try playWithClients(source, targets)
        expectLog(sink.log, [
            "1.080000 tap recognized [recycledZone.recycledTap] f1 (10.00,10.00) count=1 @recycledZone",
            "2.080000 tap recognized f1 (10.00,10.00) count=1 @surface",
        ])
        #expect(stored == ["recycledZone": [false, true, false], "recycledZone.recycledTap": [false, true, false]])
    }
}
