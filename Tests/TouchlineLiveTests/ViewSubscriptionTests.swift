// The event socket's "view" subscription (docs/view.md): a client that asks gets each device's
// surface and graph and every frame besides its events; a client that does not gets what it
// got before, byte for byte; and with no viewer the session hands no frame to its sink at all.
// A scripted screen (100 × 50 mm), a virtual clock, real sockets driven by `step()`.
import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineLive
import TouchlineSettings
import TouchlineTesting

/// Counts the frames the session offers a viewer, and passes everything to a socket sink.
final class CountingViewSink: LiveSink {
    let inner: SocketSink
    var viewFrames = 0
    init(_ inner: SocketSink) { self.inner = inner }
    func gesture(_ event: GestureEvent) throws { try inner.gesture(event) }
    func frame(_ frame: TouchFrame, device: Int) throws {}
    func rawEvent(_ event: InputEvent, deviceName: String) throws {}
    func warn(_ message: String) {}
    func viewDevice(_ index: Int, surface: Size, configuration: GraphConfiguration) {
        inner.viewDevice(index, surface: surface, configuration: configuration)
    }
    func describeDevice(_ index: Int, _ description: DeviceDescription, native size: Size) {
        inner.describeDevice(index, description, native: size)
    }
    func viewFrame(_ frame: TouchFrame, raw: TouchFrame, device: Int) throws {
        viewFrames += 1
        try inner.viewFrame(frame, raw: raw, device: device)
    }
    func viewHold(_ report: HoldReport, device: Int) throws { try inner.viewHold(report, device: device) }
}

@Suite struct ViewSubscriptionTests {
    @Test func viewIsABooleanOfTheSubscription() throws {
        #expect(try ClientMessageParser.parse(Array(#"{"subscribe": {"view": true}}"#.utf8)[...]).get() == .subscribe(SubscriptionFilter(view: true)))
        #expect(try ClientMessageParser.parse(Array(#"{"subscribe": {"view": false, "gestures": ["tap"]}}"#.utf8)[...]).get()
            == .subscribe(SubscriptionFilter(gestures: ["tap"])))
        #expect(parseError(#"{"subscribe": {"view": 1}}"#) == "subscribe.view: expected true or false, found the number 1")
        #expect(parseError(#"{"subscribe": {"view": "yes"}}"#) == "subscribe.view: expected true or false, found the string \"yes\"")
    }

    /// A tap on the scripted screen, played through a session whose sink is the socket's.
    func play(_ server: EventSocketServer) throws -> CountingViewSink {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        tap(&source, at: 100, x: 30, y: 20)
        // Later than every deadline of the tap (the double tap's window): they fire first.
        source.stop(at: ms(1000))
        let sink = CountingViewSink(SocketSink(server: server))
        var session = LiveSession(output: .gestures, sink: sink, clock: source.clock)
        session.clients.viewTap = server.viewTap
        try session.start(&source)
        try session.run(&source)
        try server.step()
        return sink
    }

    @Test func aViewerGetsTheDeviceAndEveryFrameAndOthersGetTheirEventsAsBefore() throws {
        let dir = try SocketDirectory()
        let server = try EventSocketServer(path: dir.socket)
        let viewer = try SocketTestClient(dir.socket)
        let plain = try SocketTestClient(dir.socket)
        try server.step()
        #expect(try viewer.ask(#"{"subscribe": {"view": true}}"#, server) == #"{"ok":{"subscribe":{"gestures":[],"targets":[],"devices":[],"view":true}}}"#)
        #expect(try plain.ask(#"{"subscribe": []}"#, server) == #"{"ok":{"subscribe":{"gestures":[],"targets":[],"devices":[]}}}"#)
        #expect(server.viewTap.viewers == 1)
        let sink = try play(server)

        let seen = try viewer.lines()
        let others = try plain.lines()
        // The surface in mm, the device as it describes itself (calibrate --daemon's), its
        // targets and recognizers (names as data, escaped by the writer).
        #expect(seen.first?.hasPrefix(#"{"view":"device","device":0,"width":100.00,"height":50.00,"native":{"name":"scripted screen","vendor":0,"product":0,"xMin":0,"xMax":1000,"yMin":0,"yMax":500,"width":100.0000,"height":50.0000},"targets":[{"name":"surface","x":0.00,"y":0.00,"w":100.00,"h":50.00,"z":0}],"recognizers":[{"name":"#) == true,
            "\(seen.first ?? "nothing")")
        let frames = seen.filter { $0.contains(#""contacts":"#) && !$0.hasPrefix(#"{"v":1"#) }
        // Down and up: two frames, each as `replay --frames` writes it.
        #expect(frames.count == 2, "\(seen)")
        #expect(frames.first?.hasPrefix(#"{"time":0.100000,"device":0,"contacts":[{"id":"#) == true, "\(frames)")
        #expect(sink.viewFrames == 2)
        // The gesture events both get are the same lines, numbered as without a viewer; the
        // viewer also gets the decisions (made for it alone), the plain client nothing else.
        let explain = #""gesture":"explain""#
        #expect(seen.filter { $0.hasPrefix(#"{"v":1"#) && !$0.contains(explain) } == others)
        #expect(seen.contains { $0.contains(explain) && $0.contains(#""phase":"won""#) }, "\(seen)")
        #expect(!others.contains { $0.contains(explain) })
        #expect(others.contains { $0.contains(#""gesture":"tap""#) }, "\(others)")
        #expect(others.map { field($0, "seq") as? Int } == others.indices.map { Optional($0) }, "\(others)")
    }

    /// Issue 33: a viewer's copy of an event is queued, not sent, while the event goes out: its
    /// send(2), which wakes `touchline view`, never comes before another client's next line.
    /// It goes when the server is next serviced (the daemon's next turn of its loop).
    @Test func aViewersCopyWaitsForTheServersNextTurnTheOthersDoNot() throws {
        let dir = try SocketDirectory()
        let server = try EventSocketServer(path: dir.socket)
        let viewer = try SocketTestClient(dir.socket)
        let plain = try SocketTestClient(dir.socket)
        try server.step()
        _ = try viewer.ask(#"{"subscribe": {"view": true}}"#, server)
        _ = try plain.ask(#"{"subscribe": []}"#, server)
        try server.publish(gestureEvent(0, TapRecognizer.gesture))
        try server.publish(gestureEvent(1, TapRecognizer.gesture))
        let both = [gestureEvent(0, TapRecognizer.gesture).json, gestureEvent(1, TapRecognizer.gesture).json]
        #expect(try plain.lines() == both)
        #expect(try viewer.lines() == [])
        try server.step()
        #expect(try viewer.lines() == both)
    }

    @Test func withNoViewerTheSessionOffersNoFrame() throws {
        let dir = try SocketDirectory()
        let server = try EventSocketServer(path: dir.socket)
        let plain = try SocketTestClient(dir.socket)
        try server.step()
        _ = try plain.ask(#"{"subscribe": []}"#, server)
        let sink = try play(server)
        #expect(sink.viewFrames == 0)
        #expect(try plain.lines().allSatisfy { $0.hasPrefix(#"{"v":1"#) })
    }

    @Test func aViewerThatComesLaterIsToldTheOpenDevicesFirst() throws {
        let dir = try SocketDirectory()
        let server = try EventSocketServer(path: dir.socket)
        _ = try play(server)
        let late = try SocketTestClient(dir.socket)
        try server.step()
        try late.send(#"{"subscribe": {"view": true}}"# + "\n")
        try server.step()
        let lines = try late.lines()
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.last?.hasPrefix(#"{"view":"device","device":0,"#) == true, "\(lines)")
    }

    /// A session of the daemon's kind on `source` (`[[device]]` sections `sections`, each
    /// reload the next of `reloads`), its sink the socket's, a clone for each device it passes
    /// through; the viewer subscribed before it starts. Returns the viewer's lines.
    func follow(_ source: ScriptedSource, _ sections: String, reloads: [String] = []) throws -> [String] {
        let dir = try SocketDirectory()
        let server = try EventSocketServer(path: dir.socket)
        let viewer = try SocketTestClient(dir.socket)
        try server.step()
        _ = try viewer.ask(#"{"subscribe": {"view": true}}"#, server)
        var source = source
        let clock = source.clock
        source.makeClone = { _ in GrabbingClone(clock: clock, node: "/dev/input/event90") }
        var session = LiveSession(sink: SocketSink(server: server), clock: clock)
        session.clients.viewTap = server.viewTap
        session.settings.configPath = "daemon.toml"
        session.settings.deviceConfiguration = try DaemonConfiguration.parse(bytes: Array(sections.utf8), file: "daemon.toml").devices
        var next = reloads.makeIterator()
        session.hooks.reloadConfiguration = { try DaemonConfiguration.parse(bytes: Array(next.next()!.utf8), file: "daemon.toml") }
        try session.start(&source)
        try session.run(&source)
        try server.step()
        return try viewer.lines()
    }

    /// Issue 33: a device passed through tells a viewer each contact's hold as it is decided
    /// (forwarded at once, held then released, consumed), in `replay --passthrough --explain`'s
    /// form; the page shows them per contact.
    @Test func aViewerIsToldEachPassThroughHold() throws {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        tap(&source, at: 1000, x: 50, y: 25)
        source.stop(at: ms(3000))
        let lines = try follow(source, "[[device]]\nmatch.name = \"scripted screen\"\npassthrough = true\n")
        let holds = lines.filter { $0.hasPrefix(#"{"passthrough":"#) }
        // The default graph's tap does not consume: the contact is forwarded at once.
        #expect(holds == [#"{"passthrough":"forwarded","time":1.000000,"device":0,"contact":0,"held":0.000000,"distance":0.00}"#], "\(lines)")
    }

    /// Issue 33: SIGHUP rebuilds a device's graph with its new settings (here rotated 90°:
    /// the surface turns from 100 × 50 to 50 × 100 mm); a viewer is told the device again.
    @Test func aReloadTellsTheViewerTheDeviceAgain() throws {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        tap(&source, at: 100, x: 30, y: 20)
        source.hangup(at: ms(1100))
        source.stop(at: ms(2000))
        let lines = try follow(source, "", reloads: ["[[device]]\nmatch.name = \"scripted screen\"\nrotation = 90\n"])
        let devices = lines.filter { $0.hasPrefix(#"{"view":"device""#) }
        #expect(devices.count == 2, "\(lines)")
        #expect(devices.first?.hasPrefix(#"{"view":"device","device":0,"width":100.00,"height":50.00,"#) == true, "\(devices)")
        #expect(devices.last?.hasPrefix(#"{"view":"device","device":0,"width":50.00,"height":100.00,"#) == true, "\(devices)")
    }
}
