// Registered targets through the real daemon: a recording of one tap in the middle of the
// screen (Recordings/tap.yml, at (100, 70) mm on 217 × 136 mm) played in real time after a start
// delay, during which clients connect and register over the socket.
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

    init(startDelay: Double) throws {
        dir = "/tmp/touchline-register-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        socket = dir + "/touchline.sock"
        let recording = Paths.recordings.appendingPathComponent("tap.yml").path
        process = try CleanProcess(
            daemon: ["--source", "trace:" + recording, "--start-delay", String(startDelay), "--socket", socket],
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
        // free: the observer takes it and gives it back (unregister), then listens.
        var reply: String?
        for _ in 0..<100 {
            try observer.send(registerZone + "\n")
            reply = try observer.line()
            if reply == zoneRegistered { break }
            usleep(10_000)
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
}
