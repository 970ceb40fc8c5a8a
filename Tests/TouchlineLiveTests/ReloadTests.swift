// SIGHUP in a session whose owner can reload (the daemon): a gesture in flight ends as
// cancelled at the signal and the next touches go through the new graph; a reload that fails
// is reported and changes nothing.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings
import TouchlineLive

@Suite struct ReloadTests {
    func play(_ source: ScriptedSource, reload: @escaping () throws -> GraphConfiguration) throws -> LogSink {
        var source = source
        let sink = LogSink(clock: source.clock)
        var session = LiveSession(sink: sink, clock: source.clock)
        session.settings.configPath = "graph.toml"
        session.hooks.reloadConfiguration = { DaemonConfiguration(graph: try reload()) }
        try session.start(&source)
        try session.run(&source)
        return sink
    }

    /// A pan, SIGHUP mid-pan with a graph of a tap alone, the finger goes on moving, then a tap.
    func script() -> ScriptedSource {
        var source = ScriptedSource(clock: VirtualClock())
        source.add(0, path: "/dev/input/event5", description: screen)
        var finger = Finger()
        finger.down(at: ms(1000), x: 20, y: 20)
        finger.move(at: ms(1020), x: 30, y: 20)
        finger.move(at: ms(1040), x: 40, y: 20)
        source.events(0, finger.events)
        source.hangup(at: ms(1060))
        let before = finger.events.count
        finger.move(at: ms(1080), x: 50, y: 20)
        finger.up(at: ms(1100))
        source.events(0, Array(finger.events[before...]))
        var tap = Finger(trackingID: 2)
        tap.down(at: ms(1200), x: 50, y: 25)
        tap.up(at: ms(1260))
        source.events(0, tap.events)
        return source
    }

    @Test func aReloadCancelsWhatIsInFlightAndTheNewGraphRuns() throws {
        let sink = try play(script()) { try GraphConfiguration.parse(toml: "[[recognizer]]\nkind = \"tap\"\n", file: "graph.toml") }
        expectLog(sink.log, [
            "1.020000 pan began f1 (30.00,20.00) d=(10.00,0.00)",
            "1.040000 pan changed f1 (40.00,20.00) d=(20.00,0.00)",
            "1.060000 pan cancelled f1 (40.00,20.00) d=(20.00,0.00)",
            "1.260000 tap recognized f1 (50.00,25.00) count=1",
        ])
        #expect(sink.warnings == ["reload: graph.toml: reloaded"])
    }

    @Test func aFailedReloadKeepsTheRunningGraph() throws {
        let sink = try play(script()) {
            try GraphConfiguration.parse(toml: "[[recognizer]]\nkind = = \"tap\"\n", file: "graph.toml")
        }
        #expect(sink.log.first == "1.020000 pan began f1 (30.00,20.00) d=(10.00,0.00)")
        #expect(!sink.log.contains { $0.contains("cancelled") })
        #expect(sink.log.contains { $0.hasPrefix("1.100000 pan ended") })
        #expect(sink.warnings.count == 1)
        #expect(sink.warnings.first?.hasPrefix("reload: graph.toml:2:") == true, "\(sink.warnings)")
        #expect(sink.warnings.first?.hasSuffix("; keeping the running configuration") == true)
    }
}
