import Glibc
import Synchronization
import Testing
@testable import TouchlineInput

/// `daemon --user` against a fake user database and fake identity calls: the spec's forms,
/// the refusals, the order of the drop (groups, group, user) and the check that root is gone.
@Suite struct PrivilegeDropTests {
    /// The calls made, in order, and the ids as the fake kernel keeps them.
    final class Kernel: Sendable {
        struct State {
            var calls: [String] = []
            var uid: UInt32 = 0, euid: UInt32 = 0, gid: UInt32 = 0, egid: UInt32 = 0
            /// A broken kernel that lets root back in after setuid.
            var regainable = false
            var environment: [String: String] = [:]
        }
        let state = Mutex(State())

        var calls: IdentityCalls {
            IdentityCalls(
                userNamed: { name in
                    name == "alice" ? UserEntry(uid: 1000, gid: 1000, name: "alice", home: "/home/alice")
                        : name == "root" ? UserEntry(uid: 0, gid: 0, name: "root", home: "/root") : nil
                },
                userWithID: { uid in uid == 1000 ? UserEntry(uid: 1000, gid: 1000, name: "alice", home: "/home/alice") : nil },
                groupNamed: { name in name == "input" ? 105 : nil },
                initgroups: { name, gid in self.state.withLock { $0.calls.append("initgroups(\(name), \(gid))") }; return 0 },
                setgroups: { groups in self.state.withLock { $0.calls.append("setgroups(\(groups))") }; return 0 },
                setgid: { gid in
                    self.state.withLock { s in
                        s.calls.append("setgid(\(gid))")
                        guard s.euid == 0 else { return EPERM }
                        s.gid = gid; s.egid = gid
                        return 0
                    }
                },
                setuid: { uid in
                    self.state.withLock { s in
                        s.calls.append("setuid(\(uid))")
                        guard s.euid == 0 || s.regainable else { return EPERM }
                        s.uid = uid; s.euid = uid
                        return 0
                    }
                },
                seteuid: { uid in
                    self.state.withLock { s in
                        s.calls.append("seteuid(\(uid))")
                        return s.euid == 0 ? 0 : EPERM
                    }
                },
                ids: { self.state.withLock { ($0.uid, $0.euid, $0.gid, $0.egid) } },
                setEnvironment: { name, value in self.state.withLock { $0.environment[name] = value } })
        }
    }

    @Test func aNameTakesItsPrimaryGroupAndAGroupCanBeNamed() throws {
        let kernel = Kernel()
        #expect(try PrivilegeDrop.resolve("alice", calls: kernel.calls) == PrivilegeDrop(uid: 1000, gid: 1000, userName: "alice", home: "/home/alice"))
        #expect(try PrivilegeDrop.resolve("alice:input", calls: kernel.calls).gid == 105)
        #expect(try PrivilegeDrop.resolve("1000:7", calls: kernel.calls) == PrivilegeDrop(uid: 1000, gid: 7, userName: "alice", home: "/home/alice"))
        #expect(try PrivilegeDrop.resolve("4242:4242", calls: kernel.calls) == PrivilegeDrop(uid: 4242, gid: 4242, userName: nil, home: nil))
    }

    @Test(arguments: [
        ("bob", 67, "--user: no user named \"bob\" (see /etc/passwd, or `getent passwd`)"),
        ("alice:wheel", 67, "--user: no group named \"wheel\" (see /etc/group, or `getent group`)"),
        ("4242", 67, "--user: uid 4242 has no passwd entry, so no primary group: write it as --user 4242:GID"),
        ("root", 64, "--user root: that is root's user; name an unprivileged user and group"),
        ("alice:0", 64, "--user alice:0: that is root's group; name an unprivileged user and group"),
        ("a:b:c", 64, "--user: expected NAME, NAME:GROUP, UID or UID:GID, found \"a:b:c\""),
        ("alice:", 64, "--user: expected NAME, NAME:GROUP, UID or UID:GID, found \"alice:\""),
    ])
    func aSpecThatNamesNoUnprivilegedUserIsRefused(_ spec: String, _ status: Int32, _ message: String) {
        do {
            _ = try PrivilegeDrop.resolve(spec, calls: Kernel().calls)
            Issue.record("\(spec) resolved")
        } catch {
            #expect(error.exitCode == status)
            #expect(error.message == message)
        }
    }

    /// Groups first, then the group, then the user (after setuid the others are refused), then
    /// the proof: root cannot be regained, and every id is the user's.
    @Test func theDropGoesInOrderAndProvesRootIsGone() throws {
        let kernel = Kernel()
        let drop = try PrivilegeDrop.resolve("alice:input", calls: kernel.calls)
        try drop.checkPermitted(calls: kernel.calls)
        drop.adjustEnvironment(calls: kernel.calls)
        try drop.apply(calls: kernel.calls)
        #expect(kernel.state.withLock { $0.calls } == ["initgroups(alice, 105)", "setgid(105)", "setuid(1000)", "setuid(0)", "seteuid(0)", "setgid(0)"])
        #expect(kernel.state.withLock { $0.environment } == ["USER": "alice", "LOGNAME": "alice", "HOME": "/home/alice"])
        // A second drop now starts as alice: not permitted.
        #expect(throws: CLIError.self) { try drop.checkPermitted(calls: kernel.calls) }
    }

    @Test func aUidWithoutAnEntryGetsOnlyItsGroup() throws {
        let kernel = Kernel()
        try PrivilegeDrop.resolve("4242:4242", calls: kernel.calls).apply(calls: kernel.calls)
        #expect(kernel.state.withLock { $0.calls }.prefix(3) == ["setgroups([4242])", "setgid(4242)", "setuid(4242)"])
    }

    @Test func aKernelThatLetsRootBackInIsRefused() throws {
        let kernel = Kernel()
        kernel.state.withLock { $0.regainable = true }
        do {
            try PrivilegeDrop.resolve("alice", calls: kernel.calls).apply(calls: kernel.calls)
            Issue.record("ran with root regainable")
        } catch {
            #expect(error.message == "--user: root could be regained after the drop; refusing to run")
            #expect(error.exitCode == ExitStatus.internalError)
        }
    }

    @Test func aRefusedCallIsNamedWithItsErrno() throws {
        let kernel = Kernel()
        kernel.state.withLock { $0.euid = 1000 }
        do {
            try PrivilegeDrop.resolve("alice", calls: kernel.calls).apply(calls: kernel.calls)
            Issue.record("dropped without root")
        } catch {
            #expect(error.message == "--user: setgid(1000) failed: \(String(cString: strerror(EPERM))); not running with root's privileges kept")
            #expect(error.exitCode == ExitStatus.noPermission)
        }
    }
}

/// sd_notify to a datagram socket the test binds, as systemd binds NOTIFY_SOCKET.
@Suite struct SystemdNotifierTests {
    @Test func aStateArrivesAsOneDatagram() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/notify"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        let notifier = try #require(SystemdNotifier(path))
        #expect(notifier.send("READY=1\nSTATUS=1 device"))
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        #expect(n > 0 && String(decoding: buffer[0..<max(0, n)], as: UTF8.self) == "READY=1\nSTATUS=1 device")
    }

    @Test(arguments: ["relative/path", "@", "/", "/" + String(repeating: "x", count: 108), "/a\u{0}b"])
    func aValueThatIsNoSocketAddressIsRefused(_ value: String) {
        #expect(SystemdNotifier(value) == nil)
    }
}
