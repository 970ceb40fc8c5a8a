// SIGHUP, --check-config and `touchline listen`, on the real daemon process fed by
// `--source trace:`. The signal is sent while the daemon waits out --start-delay (its socket
// listens, so its signals are already routed to its loop), and the effect is seen in the
// events that follow. Every wait is a bounded poll.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A short directory under /tmp (sun_path holds 108 bytes), removed at the end.
struct ScratchDirectory {
    let path: String
    init() throws {
        path = "/tmp/touchline-reload-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }
}

@Suite struct DaemonReloadTests {
    let recording = Paths.recordings.appendingPathComponent("pinch.yml").path
    /// A graph of one pinch recognizer, and the same recognizer under another name.
    let pinchOnly = "[[recognizer]]\nkind = \"pinch\"\n"
    let renamed = "[[recognizer]]\nname = \"zoom\"\nkind = \"pinch\"\n"

    func replay(_ config: String) throws -> [String] {
        let result = try touchline("replay", recording, "--config", config)
        #expect(result.status == 0)
        return result.lines.map(String.init)
    }

    /// Starts the daemon on pinch.yml with `config`, subscribes, rewrites the config with
    /// `next`, sends SIGHUP, waits until stderr says `until`, then returns every event line up
    /// to the pinch's end, and the daemon's output.
    func reloadRun(config first: String, next: String, until: String, expecting count: Int) throws -> (events: [String], output: String) {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let config = try dir.write("graph.toml", first)
        let socketPath = dir.path + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--source", "trace:" + recording, "--speed", "100", "--start-delay", "1.5", "--socket", socketPath, "--config", config],
            outputIn: URL(fileURLWithPath: dir.path))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }

        let client = try DaemonClient(path: socketPath)
        try client.send("{\"subscribe\": []}\n")
        #expect(try client.line()?.hasPrefix("{\"ok\"") == true)
        _ = try dir.write("graph.toml", next)
        kill(daemon.pid, SIGHUP)
        // READY=1 after RELOADING=1: the reload is done, and its line written before it.
        _ = try daemon.notify?.message(containing: "RELOADING=1")
        _ = try daemon.notify?.message(containing: "READY=1")
        #expect(daemon.output.contains(until), "daemon: \(daemon.output)")
        var received: [String] = []
        while received.count < count, let line = try client.line() { received.append(line) }

        kill(daemon.pid, SIGTERM)
        let end = daemon.wait()
        ended = true
        #expect(end?.status == 0, "daemon: \(daemon.output)")
        return (received, daemon.output)
    }

    /// SIGHUP with a config that does not parse: stderr names its file:line:col, and the
    /// running graph goes on (the subscriber gets what replay with the old config prints).
    @Test func brokenConfigKeepsTheRunningOne() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let expected = try replay(try scratch.write("a.toml", pinchOnly))
        try #require(!expected.isEmpty)
        let (events, output) = try reloadRun(
            config: pinchOnly, next: "[[recognizer]]\nkind = = \"pinch\"\n",
            until: "keeping the running configuration", expecting: expected.count)
        #expect(events == expected)
        #expect(output.contains("graph.toml:2:"), "daemon: \(output)")
        #expect(!output.contains("reloaded"))
    }

    /// SIGHUP with a valid changed config: the events after it come from the new graph (the
    /// pinch recognizer now named zoom), exactly as replay with the new config prints them.
    @Test func validConfigTakesEffect() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let expected = try replay(try scratch.write("b.toml", renamed))
        try #require(expected.contains { $0.contains("\"recognizer\":\"zoom\"") })
        let (events, output) = try reloadRun(config: pinchOnly, next: renamed, until: "reloaded", expecting: expected.count)
        #expect(events == expected)
        #expect(!output.contains("keeping"), "daemon: \(output)")
    }

    @Test func checkConfig() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let good = try dir.write("good.toml", pinchOnly)
        let ok = try touchline("daemon", "--check-config", good)
        #expect(ok.status == 0)
        #expect(ok.stdout == good + ": ok\n")
        let bad = try dir.write("bad.toml", "# a comment\n[[recognizer]]\nkind = \"pinch\"\nminimumFingers = \"two\"\n")
        try expectErrors([(["daemon", "--check-config", bad], 65)], "check-config-bad-value.stderr.txt", scratch: dir.path)
        // No socket was made: the default path is not touched (nor needed).
        let missing = try touchline("daemon", "--check-config", dir.path + "/none.toml")
        #expect(missing.status == 66)
    }

    /// `touchline listen --subscribe pinch` as its own process prints exactly the pinch lines a
    /// subscriber gets, and exits 0 when the daemon goes away.
    @Test func listenPrintsTheSubscribedEvents() throws {
        let all = try touchline("replay", recording).lines.map(String.init)
        let pinch = all.filter { $0.contains("\"gesture\":\"pinch\"") }
        try #require(!pinch.isEmpty)
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let socketPath = dir.path + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--source", "trace:" + recording, "--speed", "100", "--start-delay", "1.5", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir.path))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        // Our own client says when the daemon listens and when the recording is over.
        let client = try DaemonClient(path: socketPath)
        let listen = try CleanProcess(Paths.binary.path, ["listen", "--socket", socketPath, "--subscribe", "pinch"], outputIn: URL(fileURLWithPath: dir.path))
        defer { if !ended { kill(listen.pid, SIGKILL); _ = listen.wait() } }
        try client.send("{\"subscribe\": []}\n")
        var received: [String] = []
        while received.count < all.count + 1, let line = try client.line() { received.append(line) }
        #expect(received.dropFirst().elementsEqual(all))

        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait()?.status == 0)
        let end = listen.wait()
        ended = true
        #expect(end?.status == 0, "listen: \(listen.output)")
        #expect(listen.output.split(separator: "\n").map(String.init) == pinch)
    }

    @Test func listenWithoutDaemon() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        try expectErrors([(["listen", "--socket", dir.path + "/touchline.sock"], 66)], "listen-no-daemon.stderr.txt", scratch: dir.path)
    }
}
