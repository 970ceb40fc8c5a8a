// The daemon as systemd runs it: `--user` (the real setuid, checked in /proc), `--socket-group`,
// and sd_notify to a datagram socket the test binds, the daemon a real process on a recording.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A short directory under /tmp (sun_path holds 108 bytes), removed at the end.
func socketDirectory() throws -> String {
    let dir = "/tmp/touchline-priv-" + UUID().uuidString.prefix(8)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
    return dir
}

/// (real, effective, saved, filesystem) ids from /proc/PID/status's `Uid:` or `Gid:` line.
func procIDs(_ pid: pid_t, _ field: String) throws -> [String] {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
    return line.dropFirst(field.count + 1).split(whereSeparator: { $0 == "\t" || $0 == " " }).map(String.init)
}

@Suite struct DaemonPrivilegeTests {
    static let tap = Paths.recordings.appendingPathComponent("tap.yml").path

    /// As root, `--user nobody` runs the daemon as nobody:nogroup (all four ids, no root group,
    /// no capability) by the time it says READY=1, and the socket it opened as root still
    /// serves a client replay's lines; SIGTERM still ends it with 0 and removes the socket.
    /// Not root: `--user` is refused with 77 before anything opens.
    @Test func userDropsPrivilegesAfterOpening() throws {
        let dir = try socketDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/touchline.sock"
        guard geteuid() == 0 else {
            let result = try touchline("daemon", "--user", "nobody", "--source", "trace:" + Self.tap, "--socket", socketPath)
            #expect(result.status == 77, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("needs the daemon to start as root"))
            #expect(!FileManager.default.fileExists(atPath: socketPath))
            return
        }
        let nobody = try #require(getpwnam("nobody")).pointee
        // The socket's directory is nobody's, so that it may remove the socket after the drop.
        #expect(chown(dir, nobody.pw_uid, nobody.pw_gid) == 0)
        let notify = try NotifyListener(name: dir + "/notify")
        let expected = try touchline("replay", Self.tap).lines.map(String.init)
        try #require(!expected.isEmpty)
        let daemon = try CleanProcess(
            "/usr/bin/env",
            ["NOTIFY_SOCKET=" + notify.name, Paths.binary.path, "daemon", "--user", "nobody", "--source", "trace:" + Self.tap,
             "--speed", "100", "--start-delay", "0.5", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }

        _ = try notify.message(containing: "READY=1")
        let uid = String(nobody.pw_uid), gid = String(nobody.pw_gid)
        #expect(try procIDs(daemon.pid, "Uid") == [uid, uid, uid, uid])
        #expect(try procIDs(daemon.pid, "Gid") == [gid, gid, gid, gid])
        #expect(try !procIDs(daemon.pid, "Groups").contains("0"))
        #expect(try procIDs(daemon.pid, "CapEff") == ["0000000000000000"])

        let client = try DaemonClient(path: socketPath)
        try client.send("{\"subscribe\": []}\n")
        #expect(try client.line()?.hasPrefix("{\"ok\":") == true)
        var received: [String] = []
        while received.count < expected.count, let line = try client.line() { received.append(line) }
        #expect(received == expected)

        kill(daemon.pid, SIGTERM)
        let end = daemon.wait()
        ended = true
        #expect(end?.status == 0, "daemon: \(daemon.output)")
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }

    /// An unknown user or group (of --user or --socket-group) is refused with 67 (EX_NOUSER)
    /// before the socket exists; a malformed or root spec with 64; each message names what was wrong.
    @Test func unknownUserIsRefusedBeforeAnythingOpens() throws {
        let dir = try socketDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/touchline.sock"
        let cases: [(spec: String, status: Int32)] = [
            ("no-such-user-tl15", 67), ("nobody:no-such-group-tl15", 67), ("4000000000", 67), ("a:b:c", 64), ("nobody:", 64), ("root", 64),
        ]
        // Each refused with what it names, before any socket exists.
        try expectErrors(cases.map { (["daemon", "--user", $0.spec, "--source", "trace:" + Self.tap, "--socket", socketPath], $0.status) }
                         + [(["daemon", "--socket-group", "no-such-group-tl15", "--source", "trace:" + Self.tap, "--socket", socketPath], 67)],
                         "daemon-user.stderr.txt", scratch: dir)
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }

    /// `--socket-group` gives the socket file that group; its mode stays 0660.
    @Test func socketGroupIsApplied() throws {
        let dir = try socketDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/touchline.sock"
        // Root may give any group; anyone else one of their own.
        let group: gid_t = geteuid() == 0 ? 65534 : getegid()
        let daemon = try CleanProcess(
            daemon: ["--socket-group", String(group), "--source", "trace:" + Self.tap, "--stay", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        _ = try DaemonClient(path: socketPath)
        var info = stat()
        #expect(lstat(socketPath, &info) == 0)
        #expect(info.st_gid == group)
        #expect(info.st_mode & 0o777 == 0o660)
        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait()?.status == 0, "daemon: \(daemon.output)")
        ended = true
    }

    /// sd_notify at a path: READY=1 (with STATUS) once the socket accepts, RELOADING=1 with
    /// MONOTONIC_USEC then READY=1 around SIGHUP, STOPPING=1 on SIGTERM, and exit 0.
    @Test func notifiesSystemdAtAPath() throws {
        let dir = try socketDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try notifySequence(NotifyListener(name: dir + "/notify"), socketPath: dir + "/touchline.sock", outputIn: dir)
    }

    /// The same with an abstract NOTIFY_SOCKET ("@name"), as systemd may pass.
    @Test func notifiesSystemdAtAnAbstractName() throws {
        let dir = try socketDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try notifySequence(NotifyListener(name: "@touchline-notify-" + UUID().uuidString.prefix(8)), socketPath: dir + "/touchline.sock", outputIn: dir)
    }

    func notifySequence(_ notify: NotifyListener, socketPath: String, outputIn dir: String) throws {
        let daemon = try CleanProcess(
            "/usr/bin/env",
            ["NOTIFY_SOCKET=" + notify.name, Paths.binary.path, "daemon", "--source", "trace:" + Self.tap, "--stay", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }

        let ready = try notify.message()
        #expect(ready.hasPrefix("READY=1\n"), "first notification: \(ready)")
        #expect(ready.contains("STATUS=") && ready.contains(socketPath))
        // READY means serving: the socket accepts at once, without a retry.
        _ = try DaemonClient(path: socketPath)

        kill(daemon.pid, SIGHUP)
        let reloading = try notify.message(containing: "RELOADING=1")
        let usec = reloading.split(separator: "\n").first { $0.hasPrefix("MONOTONIC_USEC=") }
        let value = try #require(usec.flatMap { Int64($0.dropFirst("MONOTONIC_USEC=".count)) }, "\(reloading)")
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        #expect(value > 0 && value <= Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)
        _ = try notify.message(containing: "READY=1")

        kill(daemon.pid, SIGTERM)
        _ = try notify.message(containing: "STOPPING=1")
        #expect(daemon.wait()?.status == 0, "daemon: \(daemon.output)")
        ended = true
    }
}
