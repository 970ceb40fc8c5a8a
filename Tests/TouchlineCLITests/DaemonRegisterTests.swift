// Registered targets through the real daemon: a recording of one tap in the middle of the
// screen (Recordings/tap.yml, at (100, 70) mm on 217 × 136 mm) played in real time after a start
// delay, during which clients connect and register over the socket. The daemon stays after the
// trace (--stay), as one on a touchscreen would: clients go on registering after the tap.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A daemon on tap.yml with its socket in a fresh directory; killed if the test ends early.
final class TapDaemon {
    let dir: String
    let socket: String
    let process: CleanProcess
    var ended = false

    /// `files` (name: text) are written in its directory; with "config.toml" among them the
    /// daemon runs with `--config` on it.
    init(startDelay: Double, files: [String: String] = [:]) throws {
        dir = "/tmp/touchline-register-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        socket = dir + "/touchline.sock"
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: false, encoding: .utf8) }
        let recording = Paths.recordings.appendingPathComponent("tap.yml").path
        let config = files["config.toml"] == nil ? [] : ["--config", dir + "/config.toml"]
        process = try CleanProcess(
            daemon: ["--source", "trace:" + recording, "--start-delay", String(startDelay), "--stay", "--socket", socket] + config,
            outputIn: URL(fileURLWithPath: dir))
    }

    /// SIGTERM; the exit status.
    func stop() -> Int32? {
        kill(process.pid, SIGTERM)
        ended = true
        return process.wait()?.status
    }

    deinit {
        if !ended {
            kill(process.pid, SIGKILL)
            _ = process.wait()
        }
        try? FileManager.default.removeItem(atPath: dir)
    }
}

let registerZone = #"{"register": {"name": "zone", "rect": [0.25, 0.25, 0.5, 0.5], "units": "normalized", "z": 10, "recognizers": [{"kind": "tap"}]}}"#
let zoneRegistered = #"{"ok":{"registered":"zone","recognizers":["zone.tap"],"devices":[]}}"#

@Suite struct DaemonRegisterTests {
    /// A client registers a target over the tap and subscribes to it: the tap is its target's,
    /// and another subscriber sees it so too. A bad registration before that got an error and
    /// the connection went on.
    @Test func aRegisteredTargetOverTheTapReceivesIt() throws {
        let daemon = try TapDaemon(startDelay: 1.5)
        let client = try DaemonClient(path: daemon.socket)
        let other = try DaemonClient(path: daemon.socket)
        try client.send(#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap", "taps": "two"}]}}"# + "\n")
        #expect(try client.line() == #"{"error":"register: recognizers[0]: found \"two\" for tap.taps; expected a whole number"}"#)
        try client.send(registerZone + "\n")
        #expect(try client.line() == zoneRegistered)
        // The name is taken while the first client lives.
        try other.send(registerZone + "\n")
        #expect(try other.line() == #"{"error":"register: another client registered a target named \"zone\"; choose another name"}"#)
        try client.send(#"{"subscribe": {"targets": ["zone"]}}"# + "\n")
        #expect(try client.line()?.hasPrefix(#"{"ok":{"subscribe":"#) == true)
        try other.send(#"{"subscribe": []}"# + "\n")
        #expect(try other.line()?.hasPrefix(#"{"ok":{"subscribe":"#) == true)

        let expected = #"{"v":1,"seq":0,"time":0.120000,"device":0,"gesture":"tap","phase":"recognized","target":"zone","fingers":1,"x":100.00,"y":70.00,"recognizer":"zone.tap","count":1,"duration":0.080000,"contacts":[0]}"#
        #expect(try client.line() == expected)
        #expect(try other.line() == expected)
        #expect(daemon.stop() == 0, "daemon: \(daemon.process.output)")
    }

    /// The registering client goes before the tap: its target goes with it (the name is free
    /// again, and the tap is the surface's).
    @Test func aTargetVanishesWithItsClient() throws {
        let daemon = try TapDaemon(startDelay: 1.5)
        let observer = try DaemonClient(path: daemon.socket)
        do {
            let client = try DaemonClient(path: daemon.socket)
            try client.send(registerZone + "\n")
            #expect(try client.line() == zoneRegistered)
        }
        // The first client's connection is closed. Once the daemon has seen that, the name is
        // free: the observer takes it and gives it back (unregister), then listens. The close and
        // the observer's first request may reach the daemon in one wakeup, in either order; each
        // reply is a round trip through the daemon's loop, so a second request comes after the
        // close has been read (a few tries at most, no sleep between them).
        var reply: String?
        for _ in 0..<10 {
            try observer.send(registerZone + "\n")
            reply = try observer.line()
            if reply == zoneRegistered { break }
        }
        #expect(reply == zoneRegistered)
        try observer.send(#"{"unregister": "zone"}"# + "\n")
        #expect(try observer.line() == #"{"ok":{"unregistered":"zone"}}"#)
        try observer.send(#"{"unregister": "zone"}"# + "\n")
        #expect(try observer.line() == #"{"error":"unregister: this connection registered no target named \"zone\""}"#)
        try observer.send(#"{"subscribe": []}"# + "\n")
        #expect(try observer.line()?.hasPrefix(#"{"ok":{"subscribe":"#) == true)
        let replay = try String(contentsOf: Paths.recordings.appendingPathComponent("tap.events.jsonl"), encoding: .utf8)
        #expect(try observer.line() == replay.trimmingCharacters(in: .newlines))
        #expect(daemon.stop() == 0, "daemon: \(daemon.process.output)")
    }

    /// Issue 24, item 1 (on 8d7af8f "all" took the tap and the action never ran): with a
    /// configuration, a client's target sits below its targets, whatever z it asks for, and
    /// cannot take the name of one.
    @Test func aClientCannotTakeTheConfigurationsTapsOrTargets() throws {
        let daemon = try TapDaemon(startDelay: 1.5, files: ["config.toml": """
            [[action]]
            gesture = "tap"
            target = "surface"
            argv = ["/bin/true"]
            """])
        let client = try DaemonClient(path: daemon.socket)
        try client.send(#"{"register": {"name": "surface", "rect": [0, 0, 1, 1], "units": "normalized", "recognizers": [{"kind": "tap"}]}}"# + "\n")
        #expect(try client.line() == #"{"error":"register: \"surface\" is a target of the daemon's configuration; choose another name"}"#)
        try client.send(allOverTheScreen + "\n")
        #expect(try client.line() == #"{"ok":{"registered":"all","recognizers":["all.tap"],"devices":[]}}"#)
        try client.send(#"{"subscribe": []}"# + "\n")
        #expect(try client.line()?.hasPrefix(#"{"ok":{"subscribe":"#) == true)
        let replay = try String(contentsOf: Paths.recordings.appendingPathComponent("tap.events.jsonl"), encoding: .utf8)
        #expect(try client.line() == replay.trimmingCharacters(in: .newlines))
        #expect(daemon.stop() == 0, "daemon: \(daemon.process.output)")
    }

    /// Issue 35 (on 9b4ee5b a client's full-screen target got the tap and the action without
    /// `target` ran on it): an action without `target` fires on the configuration's targets only;
    /// `target = "*"` on any. With `maxRunning = 1` the first action, had it matched, would hold
    /// the one place and the second would be skipped: the second's file says the first did not.
    @Test func anActionWithoutTargetIgnoresAClientsTarget() throws {
        let out = Paths.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let daemon = try TapDaemon(startDelay: 1.5, files: ["config.toml": """
            [actions]
            maxRunning = 1

            [[target]]
            name = "corner"
            rect = [0, 0, 10, 10]

            [[action]]
            gesture = "tap"
            timeout = "60s"
            argv = ["/bin/sh", "-c", "exec sleep 60"]

            [[action]]
            gesture = "tap"
            target = "*"
            argv = ["/bin/sh", "-c", "printf %s \\"$TOUCHLINE_TARGET\\" > \\"$0/fired.tmp\\" && mv \\"$0/fired.tmp\\" \\"$0/fired\\"", "\(out)"]
            """])
        let client = try DaemonClient(path: daemon.socket)
        try client.send(allOverTheScreen + "\n")
        #expect(try client.line() == #"{"ok":{"registered":"all","recognizers":["all.tap"],"devices":[]}}"#)
        try client.send(#"{"subscribe": ["tap"]}"# + "\n")
        #expect(try client.line()?.hasPrefix(#"{"ok":{"subscribe":"#) == true)
        #expect(try client.line()?.contains(#""target":"all""#) == true)
        #expect(eventually(in: out) { (try? String(contentsOfFile: out + "/fired", encoding: .utf8)) == "all" }, "daemon: \(daemon.process.output)")
        #expect(daemon.stop() == 0, "daemon: \(daemon.process.output)")
        #expect(!daemon.process.output.contains("skipped"), "daemon: \(daemon.process.output)")
    }

    /// Issue 24, item 1 (8d7af8f said "ok" and exited 0): an action's target must be declared.
    @Test func checkConfigRefusesAnActionOnAnUndeclaredTarget() throws {
        let dir = Paths.temporaryDirectory()
        let config = dir.appendingPathComponent("power.toml").path
        try "[[action]]\ngesture = \"tap\"\ntarget = \"powerButton\"\nargv = [\"/bin/true\"]\n".write(toFile: config, atomically: false, encoding: .utf8)
        let result = try touchline("daemon", "--check-config", config)
        #expect(result.status == 65)
        #expect(result.stderr == "touchline: \(config):1: this action's target \"powerButton\" is not a declared target (declared: \"surface\"); declare it with [[target]], or a client of the socket could register it and choose where the action fires (target = \"*\" fires on any target, clients' too)\n")
        // Declared by a [[device]] graph file, it is a target of the configuration.
        try "[[target]]\nname = \"powerButton\"\nrect = [0, 0, 10, 10]\n\n[[recognizer]]\nkind = \"tap\"\ntarget = \"powerButton\"\n"
            .write(toFile: dir.appendingPathComponent("power-graph.toml").path, atomically: false, encoding: .utf8)
        try "[[device]]\nmatch.name = \"*\"\ngraph = \"power-graph.toml\"\n\n[[action]]\ngesture = \"tap\"\ntarget = \"powerButton\"\nargv = [\"/bin/true\"]\n"
            .write(toFile: config, atomically: false, encoding: .utf8)
        #expect(try touchline("daemon", "--check-config", config).stdout == "\(config): ok\n")
    }

    /// Issue 24, items 1 and 4 (on 8d7af8f the second registration got "ok", then every
    /// registered target of the device was left out, with a line on stderr, and the tap went to
    /// "pad"): a `[[device]] graph` of 58 recognizers; "zone" (1) fits, "more" (6) would take it
    /// to 65 and is refused, "zone" stays and takes the tap at the z `[socket] clientZ` grants.
    /// The trace's device opens after the start delay: the registrations are checked against
    /// the graph of each section a device may match.
    @Test func aRegistrationThatDoesNotFitADeviceGraphIsRefusedAndTheOthersStay() throws {
        let pad = (0..<58).map { "[[recognizer]]\nname = \"t\($0)\"\nkind = \"tap\"\ntarget = \"pad\"\n" }.joined()
        let daemon = try TapDaemon(startDelay: 1.5, files: [
            "config.toml": "[socket]\nclientZ = [0, 100]\n\n[[device]]\nmatch.name = \"*\"\ngraph = \"pad.toml\"\n",
            "pad.toml": "[[target]]\nname = \"pad\"\nrect = [0, 0, 1, 1]\nunits = \"normalized\"\n\n" + pad,
        ])
        let client = try DaemonClient(path: daemon.socket)
        let other = try DaemonClient(path: daemon.socket)
        try client.send(allOverTheScreen + "\n")
        #expect(try client.line() == #"{"error":"register: z 1000000 is outside the range the daemon's configuration grants clients ([socket] clientZ = [0, 100])"}"#)
        try client.send(registerZone + "\n")
        #expect(try client.line() == zoneRegistered)
        let six = #"[{"kind": "tap"}, {"kind": "tap", "name": "b"}, {"kind": "tap", "name": "c"}, {"kind": "tap", "name": "d"}, {"kind": "tap", "name": "e"}, {"kind": "tap", "name": "f"}]"#
        try other.send(#"{"register": {"name": "more", "rect": [0, 0, 1, 1], "units": "normalized", "recognizers": \#(six)}}"# + "\n")
        #expect(try other.line() == #"{"error":"register: \"more\" does not fit the graph of a device that may open ([[device]] graph \"pad.toml\"): a graph holds at most 64 recognizers, this one has 65"}"#)
        try client.send(#"{"subscribe": []}"# + "\n")
        #expect(try client.line()?.hasPrefix(#"{"ok":{"subscribe":"#) == true)
        #expect(try client.line() == #"{"v":1,"seq":0,"time":0.120000,"device":0,"gesture":"tap","phase":"recognized","target":"zone","fingers":1,"x":100.00,"y":70.00,"recognizer":"zone.tap","count":1,"duration":0.080000,"contacts":[0]}"#)
        #expect(daemon.stop() == 0, "daemon: \(daemon.process.output)")
        #expect(!daemon.process.output.contains("left out"), "daemon: \(daemon.process.output)")
    }

    /// Issue 24, item 7 (on 8d7af8f one connection took 8 targets of 7 recognizers, 56 slots,
    /// and another client's registration of 2 no longer fit the graph): a connection holds at
    /// most 16 recognizers, and another client still registers.
    @Test func oneConnectionCannotTakeEveryRecognizerSlot() throws {
        let daemon = try TapDaemon(startDelay: 1.5)
        let greedy = try DaemonClient(path: daemon.socket)
        let other = try DaemonClient(path: daemon.socket)
        let seven = "[" + (0..<7).map { #"{"kind": "tap", "name": "r\#($0)"}"# }.joined(separator: ", ") + "]"
        func register(_ name: String) -> String { #"{"register": {"name": "\#(name)", "rect": [0, 0, 0.1, 0.1], "units": "normalized", "recognizers": \#(seven)}}"# + "\n" }
        for name in ["g0", "g1"] {
            try greedy.send(register(name))
            #expect(try greedy.line()?.hasPrefix(#"{"ok":{"registered":"\#(name)""#) == true)
        }
        try greedy.send(register("g2"))
        #expect(try greedy.line() == #"{"error":"register: this connection would hold 21 recognizers; at most 16 (unregister a target first)"}"#)
        for name in ["o0", "o1"] {
            try other.send(register(name))
            #expect(try other.line()?.hasPrefix(#"{"ok":{"registered":"\#(name)""#) == true)
        }
        #expect(daemon.stop() == 0, "daemon: \(daemon.process.output)")
    }

    /// Issue 24, item 7 (on 8d7af8f the 65th connection got "too many clients (64); try again
    /// later" while 64 connections that never said anything held every place): when full, the
    /// idle connection connected longest (neither subscribed nor registered) makes room.
    @Test func idleConnectionsCannotLockEveryoneOut() throws {
        let daemon = try TapDaemon(startDelay: 1.5)
        let idle = try (0..<64).map { _ in try DaemonClient(path: daemon.socket) }
        let client = try DaemonClient(path: daemon.socket)
        try client.send(#"{"subscribe": []}"# + "\n")
        #expect(try client.line()?.hasPrefix(#"{"ok":{"subscribe":"#) == true)
        #expect(try idle[0].line() == #"{"error":"closed: idle (neither subscribed nor registered) while the daemon's 64 connections were taken"}"#)
        #expect(try idle[0].line() == nil)
        let replay = try String(contentsOf: Paths.recordings.appendingPathComponent("tap.events.jsonl"), encoding: .utf8)
        #expect(try client.line() == replay.trimmingCharacters(in: .newlines))
        #expect(daemon.stop() == 0, "daemon: \(daemon.process.output)")
    }

    /// Issue 24, item 7 (on 8d7af8f, after 2,048 cycles of registering a new name and
    /// unregistering it, every registration was refused until a restart: "register: the daemon
    /// has taken 4096 distinct names since it started; at most 4096 (reuse a name, or restart
    /// the daemon)"): names no graph has any more are freed, so 10,000 cycles later a client
    /// still registers. The device is open throughout, so its graph is rebuilt with the names
    /// (RegisterTests.aNameNoGraphHasAnyMoreIsFreed checks that they are freed).
    @Test func namesAreRecycled() throws {
        let daemon = try TapDaemon(startDelay: 0.5)
        let client = try DaemonClient(path: daemon.socket)
        try client.send(#"{"subscribe": []}"# + "\n")
        #expect(try client.line()?.hasPrefix(#"{"ok":{"subscribe":"#) == true)
        // The tap: the device is open, so each registration rebuilds its graph with the name.
        let replay = try String(contentsOf: Paths.recordings.appendingPathComponent("tap.events.jsonl"), encoding: .utf8)
        #expect(try client.line() == replay.trimmingCharacters(in: .newlines))
        for i in 0..<10_000 {
            try client.send(#"{"register": {"name": "n\#(i)", "rect": [0, 0, 0.1, 0.1], "units": "normalized", "recognizers": [{"kind": "tap"}]}}"# + "\n")
            let registered = try client.line()
            guard registered == #"{"ok":{"registered":"n\#(i)","recognizers":["n\#(i).tap"],"devices":[]}}"# else {
                Issue.record("cycle \(i): \(registered ?? "closed")")
                break
            }
            try client.send(#"{"unregister": "n\#(i)"}"# + "\n")
            #expect(try client.line() == #"{"ok":{"unregistered":"n\#(i)"}}"#)
        }
        try client.send(registerZone + "\n")
        #expect(try client.line() == zoneRegistered)
        #expect(daemon.stop() == 0 && !daemon.process.output.contains("left out"), "daemon: \(daemon.process.output)")
    }

    /// Issue 24, item 7: a connection holds at most 8 targets (the ninth is refused with why),
    /// and once it gives one back it registers again; another connection is not affected.
    @Test func oneConnectionHoldsAtMostEightTargets() throws {
        let daemon = try TapDaemon(startDelay: 1.5)
        let client = try DaemonClient(path: daemon.socket)
        let other = try DaemonClient(path: daemon.socket)
        func register(_ name: String) -> String { #"{"register": {"name": "\#(name)", "rect": [0, 0, 0.1, 0.1], "units": "normalized", "recognizers": [{"kind": "tap"}]}}"# + "\n" }
        for k in 0..<8 {
            try client.send(register("t\(k)"))
            #expect(try client.line()?.hasPrefix(#"{"ok":{"registered":"t\#(k)""#) == true)
        }
        try client.send(register("t8"))
        #expect(try client.line() == #"{"error":"register: this connection holds 8 targets; at most 8 (unregister one first)"}"#)
        try other.send(register("o0"))
        #expect(try other.line()?.hasPrefix(#"{"ok":{"registered":"o0""#) == true)
        try client.send(#"{"unregister": "t0"}"# + "\n")
        #expect(try client.line() == #"{"ok":{"unregistered":"t0"}}"#)
        try client.send(register("t8"))
        #expect(try client.line()?.hasPrefix(#"{"ok":{"registered":"t8""#) == true)
        #expect(daemon.stop() == 0, "daemon: \(daemon.process.output)")
    }

    /// Issue 24, item 7, the other half of the idle policy (docs/live.md, "Idle clients"): when
    /// every one of the 64 places is busy (subscribed), a 65th connection is told so and closed,
    /// and nobody busy is evicted.
    @Test func busyConnectionsKeepTheirPlaces() throws {
        let daemon = try TapDaemon(startDelay: 1.5)
        let busy = try (0..<64).map { _ in try DaemonClient(path: daemon.socket) }
        for client in busy {
            try client.send(#"{"subscribe": []}"# + "\n")
            #expect(try client.line()?.hasPrefix(#"{"ok":{"subscribe":"#) == true)
        }
        let late = try DaemonClient(path: daemon.socket)
        #expect(try late.line() == #"{"error":"too many clients (64); try again later"}"#)
        #expect(try late.line() == nil)
        let replay = try String(contentsOf: Paths.recordings.appendingPathComponent("tap.events.jsonl"), encoding: .utf8)
        for client in [busy[0], busy[63]] { #expect(try client.line() == replay.trimmingCharacters(in: .newlines)) }
        #expect(daemon.stop() == 0, "daemon: \(daemon.process.output)")
    }
}

let allOverTheScreen = #"{"register": {"name": "all", "rect": [0, 0, 1, 1], "units": "normalized", "z": 1000000, "recognizers": [{"kind": "tap"}]}}"#
