// The event socket with real sockets: a server listening in a temporary directory and clients
// connected with socket(2)/connect(2). No sleeps: a Unix socket's write is in the peer's buffer
// when it returns, so the server is driven by `step()` (which does not wait) and clients read
// what is there now.
import Foundation
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineInput
import TouchlineLive

/// A directory of its own under /tmp (a socket's path must fit sun_path's 108 bytes), removed
/// after the test.
final class SocketDirectory {
    let path: String
    init() throws {
        path = "/tmp/touchline-socket-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    var socket: String { path + "/touchline.sock" }
}

/// A client of the socket: sends lines, reads the lines that have arrived (without waiting).
final class SocketTestClient {
    let fd: Int32
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)

    init(_ path: String) throws {
        fd = try UnixSocket.connect(path: path, nonblocking: true)
    }
    deinit { UnixSocket.close(fd) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = try #require(try UnixSocket.send(fd, bytes, offset..<bytes.count))
            try #require(n > 0, "the server's receive buffer is full")
            offset += n
        }
    }

    /// The complete lines that have arrived; nil once the server closed the connection and
    /// everything was read.
    func lines() throws -> [String] {
        var closed = false
        reading: while true {
            switch try UnixSocket.read(fd, into: &buffer, at: 0) {
            case .bytes(let n): pending.append(contentsOf: buffer[0..<n])
            case .wouldBlock: break reading
            case .closed: closed = true; break reading
            }
        }
        var result: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            result.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        _ = closed
        return result
    }

    /// Sends one message, lets the server answer it, and returns the reply.
    func ask(_ message: String, _ server: EventSocketServer) throws -> String {
        try send(message + "\n")
        try server.step()
        let replies = try lines()
        try #require(replies.count == 1, "one reply to \(message), got \(replies)")
        return replies[0]
    }
}

func gestureEvent(_ seq: Int, _ kind: GestureKind, target: GestureName = "surface", device: Int = 0) -> GestureEvent {
    let detail: GestureDetail = kind == PinchRecognizer.gesture
        ? .pinch(scale: 1.5, velocity: 0.2, span: 40) : .tap(count: 1, duration: .milliseconds(80))
    return GestureEvent(
        seq: seq, time: Timestamp(microseconds: Int64(seq) * 1000), device: device, gesture: kind,
        phase: kind == PinchRecognizer.gesture ? .changed : .recognized, target: target, recognizer: "r",
        fingers: 1, position: Point(x: 10, y: 20), contacts: ContactList(), detail: detail)
}

/// The `key` of a JSON line.
func field(_ line: String, _ key: String) -> Any? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
    return object[key]
}

@Suite struct EventSocketTests {
    @Test func theDefaultPathIsTheRuntimeDirectoryElseRun() {
        #expect(EventSocketServer.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]) == "/run/user/1000/touchline.sock")
        #expect(EventSocketServer.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"]) == "/run/user/1000/touchline.sock")
        #expect(EventSocketServer.defaultPath(environment: [:]) == "/run/touchline.sock")
        // The XDG spec: a relative (or empty) value is ignored.
        #expect(EventSocketServer.defaultPath(environment: ["XDG_RUNTIME_DIR": "run/user"]) == "/run/touchline.sock")
        #expect(EventSocketServer.defaultPath(environment: ["XDG_RUNTIME_DIR": ""]) == "/run/touchline.sock")
    }

    @Test func theSocketFileHasMode0660AndIsRemovedAtClose() throws {
        let dir = try SocketDirectory()
        let server = try EventSocketServer(path: dir.socket)
        #expect(try UnixSocket.kind(of: dir.socket) == .socket)
        #expect(try UnixSocket.mode(of: dir.socket).mode == 0o660)
        server.close()
        #expect(try UnixSocket.kind(of: dir.socket) == .missing)
    }

    @Test func aGroupByIdIsGivenToTheSocketFile() throws {
        let dir = try SocketDirectory()
        // Our own group: one a process may always give its files.
        let own = try UnixSocket.mode(of: dir.path).group
        var options = EventSocketOptions()
        options.group = .id(own)
        options.mode = 0o600
        let server = try EventSocketServer(path: dir.socket, options: options)
        #expect(try UnixSocket.mode(of: dir.socket) == (mode: 0o600, group: own))
        server.close()
        options.group = .name("no-such-group-touchline")
        #expect(throws: EventSocketError.self) { try EventSocketServer(path: dir.socket, options: options) }
    }

    @Test func subscribersReceiveOnlyTheGesturesTheyAskedFor() throws {
        let dir = try SocketDirectory()
        let server = try EventSocketServer(path: dir.socket)
        let taps = try SocketTestClient(dir.socket)
        let pinches = try SocketTestClient(dir.socket)
        let everything = try SocketTestClient(dir.socket)
        let silent = try SocketTestClient(dir.socket)
        try server.step()
        #expect(server.clientCount == 4)
        #expect(try taps.ask(#"{"subscribe": ["tap"]}"#, server) == #"{"ok":{"subscribe":{"gestures":["tap"],"targets":[],"devices":[]}}}"#)
        #expect(try pinches.ask(#"{"subscribe": {"gestures": ["pinch"], "targets": ["zone"], "devices": [1]}}"#, server)
            == #"{"ok":{"subscribe":{"gestures":["pinch"],"targets":["zone"],"devices":[1]}}}"#)
        #expect(try everything.ask(#"{"subscribe": []}"#, server) == #"{"ok":{"subscribe":{"gestures":[],"targets":[],"devices":[]}}}"#)

        let events = [
            gestureEvent(0, TapRecognizer.gesture), gestureEvent(1, PinchRecognizer.gesture, target: "zone", device: 1),
            gestureEvent(2, PinchRecognizer.gesture, target: "surface", device: 1), gestureEvent(3, PinchRecognizer.gesture, target: "zone", device: 0),
            gestureEvent(4, TapRecognizer.gesture, target: "zone", device: 1),
        ]
        for event in events { try server.publish(event) }
        #expect(try taps.lines() == [events[0].json, events[4].json])
        #expect(try pinches.lines() == [events[1].json])
        #expect(try everything.lines() == events.map(\.json))
        // No subscription, no events.
        #expect(try silent.lines() == [])
        // A new subscription replaces the old one.
        #expect(try taps.ask(#"{"subscribe": ["pinch"]}"#, server).hasPrefix(#"{"ok":"#))
        try server.publish(events[0])
        try server.publish(events[2])
        #expect(try taps.lines() == [events[2].json])
    }

    @Test func malformedMessagesGetAnErrorAndTheConnectionGoesOn() throws {
        let dir = try SocketDirectory()
        let server = try EventSocketServer(path: dir.socket)
        let client = try SocketTestClient(dir.socket)
        try server.step()
        let cases: [(String, String)] = [
            ("{\"subscribe\": [\"tap\"", "not JSON"),
            ("[1, 2]", "expected a JSON object such as {\"subscribe\": [\"tap\"]}, found a list"),
            ("{\"subscribe\": [\"tap\"], \"x\": 1}", "expected one key per message (\"subscribe\", \"register\" or \"unregister\"), found 2: \"subscribe\", \"x\""),
            ("{\"listen\": []}", "unknown message \"listen\"; expected \"subscribe\", \"register\" or \"unregister\""),
            ("{\"subscribe\": \"tap\"}", "subscribe: expected a list of gesture names or an object with \"gestures\", \"targets\", \"devices\", \"view\", found the string \"tap\""),
            ("{\"subscribe\": [\"tapp\"]}", "subscribe[0]: unknown gesture \"tapp\"; expected one of "),
            ("{\"subscribe\": [1]}", "subscribe[0]: expected a name (a string), found the number 1"),
            ("{\"subscribe\": {\"gestures\": [\"tap\"], \"fingers\": 2}}", "subscribe: unknown key \"fingers\"; expected \"gestures\", \"targets\", \"devices\" or \"view\""),
            ("{\"subscribe\": {\"devices\": [true]}}", "subscribe.devices[0]: expected a device number (0, 1, …, as events' \"device\"), found true"),
            ("{\"subscribe\": {\"devices\": [1.5]}}", "subscribe.devices[0]: expected a device number (0, 1, …, as events' \"device\"), found the number 1.5"),
            ("{\"register\": {\"name\": \"zone\"}}", "register: no \"recognizers\""),
            ("\u{FF}\u{00}garbage", "not JSON"),
        ]
        for (message, expected) in cases {
            let reply = try client.ask(message, server)
            let error = try #require(field(reply, "error") as? String, "\(message) → \(reply)")
            #expect(error.hasPrefix(expected), "\(message) → \(error)")
        }
        // A line over the limit: one error once its newline comes, and nothing of it is parsed.
        try client.send(String(repeating: "x", count: 10_000))
        try server.step()
        #expect(try client.lines() == [])
        let reply = try client.ask(#"{"subscribe": []}"#, server)
        #expect(reply == #"{"error":"message longer than the limit of 4096 bytes; discarded up to its newline"}"#)
        // The connection went on: it still subscribes and receives.
        #expect(try client.ask(#"{"subscribe": ["tap"]}"#, server).hasPrefix(#"{"ok":"#))
        try server.publish(gestureEvent(7, TapRecognizer.gesture))
        #expect(try client.lines() == [gestureEvent(7, TapRecognizer.gesture).json])
        #expect(server.clientCount == 1)
    }

    @Test func aClientThatNeverReadsHasItsDropsCountedAndReportedWhileAnotherGetsEverything() throws {
        let dir = try SocketDirectory()
        var options = EventSocketOptions()
        options.queueLimit = 8192
        let server = try EventSocketServer(path: dir.socket, options: options)
        let reader = try SocketTestClient(dir.socket)
        let sleeper = try SocketTestClient(dir.socket)
        try server.step()
        _ = try reader.ask(#"{"subscribe": []}"#, server)
        _ = try sleeper.ask(#"{"subscribe": []}"#, server)

        // Enough events to fill the kernel's buffer for the sleeper and then its queue.
        let count = 5000
        var received: [String] = []
        for seq in 0..<count {
            try server.publish(gestureEvent(seq, TapRecognizer.gesture))
            try server.step()
            received += try reader.lines()
        }
        // The reader got every event, in order, however far behind the sleeper is.
        #expect(received == (0..<count).map { gestureEvent($0, TapRecognizer.gesture).json })
        #expect(server.dropped[0] == 0)
        let dropped = server.dropped[1]
        #expect(dropped > 0)

        // The sleeper wakes up and reads: every event it got, then the drops, in one report once
        // it has caught up; nothing lost without being counted.
        var lines: [String] = []
        while true {
            var more = try sleeper.lines()
            try server.step()
            more += try sleeper.lines()
            if more.isEmpty { break }
            lines += more
        }
        let report = try #require(lines.last)
        #expect(report == #"{"dropped":\#(dropped),"total":\#(dropped)}"#)
        let events = lines.dropLast()
        #expect(events.count + dropped == count)
        // What it received is in order: the drops are a gap, not a reordering.
        let seqs = events.compactMap { field($0, "seq") as? Int }
        #expect(seqs.count == events.count && seqs == seqs.sorted())
        // And from now on it receives again.
        try server.publish(gestureEvent(count, TapRecognizer.gesture))
        #expect(try sleeper.lines() == [gestureEvent(count, TapRecognizer.gesture).json])
    }

    @Test func aClientThatSendsWithoutReadingIsPausedAndEveryMessageIsAnsweredOnceItReads() throws {
        let dir = try SocketDirectory()
        var options = EventSocketOptions()
        options.queueLimit = 1024
        let server = try EventSocketServer(path: dir.socket, options: options)
        let client = try SocketTestClient(dir.socket)
        try server.step()
        // Far more replies than the kernel's buffer and the queue hold together.
        let message = Array(#"{"subscribe": []}"#.utf8) + [UInt8(ascii: "\n")]
        let count = 20_000
        var flood: [UInt8] = []
        for _ in 0..<count { flood += message }
        // The client sends and does not read. The server answers until the client's socket
        // and its queue are full, then stops reading it: the client's sends block.
        var offset = 0
        while offset < flood.count, let n = try UnixSocket.send(client.fd, flood, offset..<flood.count), n > 0 {
            offset += n
            try server.step()
        }
        #expect(offset < flood.count)
        // Now it reads (and sends the rest): every message is answered, none lost.
        var replies: [String] = []
        var idle = 0
        while idle < 3 {
            var progress = false
            if offset < flood.count, let n = try UnixSocket.send(client.fd, flood, offset..<flood.count), n > 0 {
                offset += n
                progress = true
            }
            try server.step()
            let more = try client.lines()
            if !more.isEmpty { progress = true }
            replies += more
            idle = progress ? 0 : idle + 1
        }
        #expect(offset == flood.count)
        #expect(replies.count == count)
        #expect(Set(replies) == [#"{"ok":{"subscribe":{"gestures":[],"targets":[],"devices":[]}}}"#])
        #expect(server.dropped == [0])
    }

    @Test func aStaleSocketIsReplacedAndALiveOneOrARegularFileIsRefused() throws {
        let dir = try SocketDirectory()
        // A socket left by a daemon that ended without removing it: nothing listens on it.
        let first = try EventSocketServer(path: dir.socket)
        let client = try SocketTestClient(dir.socket)
        try first.step()
        let live = #expect(throws: EventSocketError.self) { try EventSocketServer(path: dir.socket) }
        #expect(live?.message == "\(dir.socket): another daemon is listening on this socket; refusing to take it over")
        // The live daemon was not disturbed.
        #expect(try client.ask(#"{"subscribe": []}"#, first).hasPrefix(#"{"ok":"#))

        let stale = dir.path + "/stale.sock"
        let fd = try UnixSocket.listen(path: stale, mode: 0o600, group: nil)
        UnixSocket.close(fd)
        #expect(try UnixSocket.kind(of: stale) == .socket)
        let second = try EventSocketServer(path: stale)
        let other = try SocketTestClient(stale)
        try second.step()
        #expect(try other.ask(#"{"subscribe": []}"#, second).hasPrefix(#"{"ok":"#))

        let file = dir.path + "/file"
        try Data("not a socket".utf8).write(to: URL(fileURLWithPath: file))
        let refused = #expect(throws: EventSocketError.self) { try EventSocketServer(path: file) }
        #expect(refused?.message == "\(file) exists and is not a socket; refusing to replace it (remove it, or choose another path)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "not a socket")
    }

    /// A client that hangs up goes at once. Issue 24, item 11: one that only shut down its
    /// writing side keeps its subscription (its events still go to it), and goes once it closes
    /// the rest: the hang-up wakes it although it is watched for nothing else.
    @Test(arguments: [false, true]) func clientsThatHangUpAreRemoved(halfClosingFirst: Bool) throws {
        let dir = try SocketDirectory()
        let server = try EventSocketServer(path: dir.socket)
        var client: SocketTestClient? = try SocketTestClient(dir.socket)
        try server.step()
        _ = try client?.ask(#"{"subscribe": []}"#, server)
        #expect(server.clientCount == 1)
        if halfClosingFirst, let fd = client?.fd {
            UnixSocket.shutdownOutput(fd)
            try server.step()
            #expect(server.clientCount == 1)
            try server.publish(gestureEvent(0, TapRecognizer.gesture))
            #expect(try client?.lines().count == 1)
        }
        client = nil
        try server.step()
        #expect(server.clientCount == 0)
        try server.publish(gestureEvent(0, TapRecognizer.gesture))
    }

    @Test func theServersDescriptorIsReadableWhenAClientIsReady() throws {
        let dir = try SocketDirectory()
        let server = try EventSocketServer(path: dir.socket)
        let loop = try EventLoop(handleSignals: false)
        try loop.watch(server.fileDescriptor, token: 7)
        let client = try SocketTestClient(dir.socket)
        // The daemon's loop wakes for the connection, then for the message.
        #expect(try loop.wait() == .readable(7))
        try server.service()
        try client.send(#"{"subscribe": ["tap"]}"# + "\n")
        #expect(try loop.wait() == .readable(7))
        try server.service()
        #expect(try client.lines().count == 1)
    }
}
