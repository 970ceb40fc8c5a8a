// Item 8 of issue 24: settings the daemon applies only at start. `[socket] group` was accepted
// by --check-config whatever it named (start-up then exited 67 without a line); a reload that
// changed or removed it, or added a key the uinput device was not made with, said "reloaded" and
// kept the old one silently; and under `--user` the socket stayed root's, so the user the daemon
// became could not connect to it. Real daemons on a recording, real sockets; every wait is on
// the daemon's READY=1 / RELOADING=1 or a bounded poll.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct StartupSettingTests {
    static let tap = Paths.recordings.appendingPathComponent("tap.yml").path

    /// The name of a group this process has (one that surely exists).
    var ownGroup: String {
        get throws { String(cString: try #require(getgrgid(getegid())).pointee.gr_name) }
    }

    /// `--check-config` and start-up name the line of a group the system does not have, with
    /// 65 (bad data) before any socket exists.
    @Test func anUnknownGroupIsAConfigErrorWithItsLine() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let config = try dir.write("daemon.toml", "# the socket\n[socket]\ngroup = \"no-such-group-tl24\"\n")
        let socketPath = dir.path + "/touchline.sock"
        // daemon.toml:3:9, the same error at --check-config and at start-up.
        try expectErrors([(["daemon", "--check-config", config], 65),
                          (["daemon", "--config", config, "--source", "trace:" + Self.tap, "--socket", socketPath], 65)],
                         "daemon-unknown-group.stderr.txt", scratch: dir.path)
        #expect(!FileManager.default.fileExists(atPath: socketPath))
        // A group that exists, by name or by number, is fine.
        for group in [try ownGroup, "4242"] {
            let good = try dir.write("good.toml", "[socket]\ngroup = \"\(group)\"\n")
            #expect(try touchline("daemon", "--check-config", good).status == 0, "group \(group)")
        }
    }

    /// Starts the daemon on `first`, then for each of `next` rewrites the file, sends SIGHUP and
    /// waits for the reload to finish; returns the daemon's output and the socket's group after.
    func reloads(_ first: String, _ next: [String]) throws -> (output: String, socketGroup: gid_t) {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let config = try dir.write("daemon.toml", first)
        let socketPath = dir.path + "/touchline.sock"
        let daemon = try CleanProcess(
            daemon: ["--config", config, "--source", "trace:" + Self.tap, "--start-delay", "60", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir.path))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        for text in next {
            _ = try dir.write("daemon.toml", text)
            kill(daemon.pid, SIGHUP)
            _ = try daemon.notify?.message(containing: "RELOADING=1")
            _ = try daemon.notify?.message(containing: "READY=1")
        }
        var info = stat()
        #expect(lstat(socketPath, &info) == 0)
        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait()?.status == 0, "daemon: \(daemon.output)")
        ended = true
        return (daemon.output.replacingOccurrences(of: config, with: "FILE"), info.st_gid)
    }

    /// A reload that changes or removes `[socket] group` reloads the rest and says the group
    /// needs a restart, with where the file writes it; the socket keeps its group. One that
    /// gives the running group again says nothing more than "reloaded".
    @Test func aReloadSaysWhichGroupChangeNeedsARestart() throws {
        let own = try ownGroup
        let (output, group) = try reloads("[socket]\ngroup = \"\(own)\"\n", [
            "[[recognizer]]\nkind = \"tap\"\n",
            "[socket]\ngroup = \"\(own)\"\n",
            "# another\n[socket]\ngroup = \"4242\"\n",
        ])
        let lines = output.split(separator: "\n").filter { $0.contains("reload:") }.map(String.init)
        #expect(lines == [
            "touchline: reload: FILE: reloaded; [socket] group removal needs a restart (FILE); the socket keeps group \"\(own)\"",
            "touchline: reload: FILE: reloaded",
            "touchline: reload: FILE: reloaded; [socket] group change needs a restart (FILE:3); the socket keeps group \"\(own)\"",
        ], "daemon: \(output)")
        #expect(group == getegid())
    }

    /// The uinput device is made at start with the keys and buttons of the actions then: a
    /// reload adding a key (or a click) says it needs a restart; one that only drops some
    /// does not. `--socket-group` wins over the file's group, so its changes need nothing.
    @Test func aReloadSaysWhichInputKeysNeedARestart() throws {
        let (output, _) = try reloads("[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\n", [
            "[[action]]\ngesture = \"tap\"\nargv = [\"true\"]\n\n[[action]]\ngesture = \"swipe\"\nkeys = [\"KEY_LEFTMETA\", \"KEY_S\"]\n",
            "[[action]]\ngesture = \"tap\"\nbutton = \"right\"\n",
        ])
        let lines = output.split(separator: "\n").filter { $0.contains("reload:") }.map(String.init)
        let kept = "the uinput device has the keys and buttons of the actions the daemon started with"
        #expect(lines == [
            "touchline: reload: FILE: reloaded; [[action]] KEY_LEFTMETA, KEY_S need a restart (FILE:5); \(kept)",
            "touchline: reload: FILE: reloaded; [[action]] button needs a restart (FILE:1); \(kept)",
        ], "daemon: \(output)")
    }

    /// As root, `--user nobody` makes the socket nobody's (and, with no group configured, of
    /// nobody's group), mode 0660, before the drop: a client running as nobody connects and
    /// hears events. CI runs as root (.ci/run); as anyone else `--user` is refused (77, in
    /// DaemonPrivilegeTests) and there is no other user to give the socket to.
    @Test func theSocketBelongsToTheUserTheDaemonBecomes() throws {
        guard geteuid() == 0 else { return }
        let dir = try socketDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let nobody = try #require(getpwnam("nobody")).pointee
        #expect(chown(dir, nobody.pw_uid, nobody.pw_gid) == 0)
        let socketPath = dir + "/touchline.sock"
        // Copies one after another for as long as the test needs: the client hears one whenever
        // it connects.
        let daemon = try CleanProcess(
            daemon: ["--user", "nobody", "--source", "trace:" + Self.tap, "--speed", "100", "--loop", "100000", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir))
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        var info = stat()
        #expect(lstat(socketPath, &info) == 0)
        #expect(info.st_uid == nobody.pw_uid)
        #expect(info.st_gid == nobody.pw_gid)
        #expect(info.st_mode & 0o777 == 0o660)

        let listen = try CleanProcess(
            "/usr/bin/setpriv",
            ["--reuid=\(nobody.pw_uid)", "--regid=\(nobody.pw_gid)", "--clear-groups", Paths.binary.path, "listen", "--socket", socketPath],
            outputIn: URL(fileURLWithPath: dir))
        defer { kill(listen.pid, SIGKILL); _ = listen.wait() }
        #expect(eventually(in: dir) { listen.output.contains("\"gesture\":\"tap\"") }, "listen as nobody: \(listen.output)")
        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait()?.status == 0, "daemon: \(daemon.output)")
        ended = true
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }
}
