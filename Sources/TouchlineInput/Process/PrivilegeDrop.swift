// `touchline daemon --user NAME[:GROUP]`: the daemon starts as root (to open every touchscreen,
// /dev/uinput and a socket under /run), then becomes NAME once those are open, so that nothing
// it does afterwards (actions, reading a SIGHUP's config, serving clients) runs as root. The
// user is looked up before anything is opened: a typo fails at once (67) and leaves no socket.
// After the drop, hotplugged touchscreens open only if NAME may read them (docs/live.md). The
// system calls are `IdentityCalls` (UnsafeIdentityCalls.swift): the tests pass their own.

/// Who the daemon becomes: ids and, when the user has a passwd entry, its name (for its
/// supplementary groups) and home.
public struct PrivilegeDrop: Equatable, Sendable {
    public var uid: UInt32
    public var gid: UInt32
    public var userName: String?
    public var home: String?

    public init(uid: UInt32, gid: UInt32, userName: String?, home: String?) {
        self.uid = uid
        self.gid = gid
        self.userName = userName
        self.home = home
    }

    /// `spec` as `--user` takes it: NAME, NAME:GROUP, UID, UID:GID (names and numbers mixed).
    /// A user without a group runs with its passwd entry's primary group; a bare number that has
    /// no passwd entry needs its group written, since there is no entry to take it from.
    public static func resolve(_ spec: String, calls: IdentityCalls = .system) throws(CLIError) -> PrivilegeDrop {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let userPart = parts.first, !userPart.isEmpty, parts.count == 1 || !parts[1].isEmpty else {
            throw CLIError.usage("--user: expected NAME, NAME:GROUP, UID or UID:GID, found \"\(shortened(spec))\"")
        }
        var drop: PrivilegeDrop
        if let entry = calls.userNamed(userPart) {
            drop = PrivilegeDrop(uid: entry.uid, gid: entry.gid, userName: entry.name, home: entry.home)
        } else if let uid = UInt32(userPart), uid != UInt32.max {
            if let entry = calls.userWithID(uid) {
                drop = PrivilegeDrop(uid: uid, gid: entry.gid, userName: entry.name, home: entry.home)
            } else {
                guard parts.count == 2 else {
                    throw CLIError(message: "--user: uid \(uid) has no passwd entry, so no primary group: write it as --user \(uid):GID", exitCode: ExitStatus.noUser)
                }
                drop = PrivilegeDrop(uid: uid, gid: 0, userName: nil, home: nil)
            }
        } else {
            throw CLIError(message: "--user: no user named \"\(shortened(userPart))\" (see /etc/passwd, or `getent passwd`)", exitCode: ExitStatus.noUser)
        }
        if parts.count == 2 {
            let groupPart = parts[1]
            if let gid = calls.groupNamed(groupPart) {
                drop.gid = gid
            } else if let gid = UInt32(groupPart), gid != UInt32.max {
                drop.gid = gid
            } else {
                throw CLIError(message: "--user: no group named \"\(shortened(groupPart))\" (see /etc/group, or `getent group`)", exitCode: ExitStatus.noUser)
            }
        }
        if drop.uid == 0 || drop.gid == 0 {
            // Becoming root (or keeping root's group) is no drop; saying so beats pretending.
            throw CLIError.usage("--user \(shortened(spec)): that is root's \(drop.uid == 0 ? "user" : "group"); name an unprivileged user and group")
        }
        return drop
    }

    /// Says whether this process may drop at all, before anything is opened.
    public func checkPermitted(calls: IdentityCalls = .system) throws(CLIError) {
        let euid = calls.ids().euid
        if euid != 0 {
            throw CLIError(message: "--user needs the daemon to start as root (it runs as uid \(euid)); without --user it runs as who started it", exitCode: ExitStatus.noPermission)
        }
    }

    /// HOME, USER and LOGNAME of the user, set before actions capture the environment, so
    /// that an action does not look for its files in /root.
    public func adjustEnvironment(calls: IdentityCalls = .system) {
        guard let userName else { return }
        calls.setEnvironment("USER", userName)
        calls.setEnvironment("LOGNAME", userName)
        if let home { calls.setEnvironment("HOME", home) }
    }

    /// Supplementary groups (the user's, from /etc/group; only `gid` for a bare uid), then
    /// the group, then the user: in this order, since after setuid the others are refused.
    /// Then proves it: regaining root must fail. Descriptors already open (devices, the
    /// socket, uinput) stay usable.
    public func apply(calls: IdentityCalls = .system) throws(CLIError) {
        func fail(_ what: String, _ code: Int32) -> CLIError {
            CLIError(message: "--user: \(what) failed: \(calls.describe(code)); not running with root's privileges kept", exitCode: ExitStatus.noPermission)
        }
        if let userName {
            let code = calls.initgroups(userName, gid)
            if code != 0 { throw fail("initgroups(\(userName), \(gid))", code) }
        } else {
            let code = calls.setgroups([gid])
            if code != 0 { throw fail("setgroups([\(gid)])", code) }
        }
        var code = calls.setgid(gid)
        if code != 0 { throw fail("setgid(\(gid))", code) }
        code = calls.setuid(uid)
        if code != 0 { throw fail("setuid(\(uid))", code) }
        // setuid as root sets the real, effective and saved ids; if any stayed 0, this works.
        if calls.setuid(0) == 0 || calls.seteuid(0) == 0 || calls.setgid(0) == 0 {
            throw CLIError(message: "--user: root could be regained after the drop; refusing to run", exitCode: ExitStatus.internalError)
        }
        let ids = calls.ids()
        guard ids.uid == uid, ids.euid == uid, ids.gid == gid, ids.egid == gid else {
            throw CLIError(message: "--user: ids after the drop are uid \(ids.uid)/\(ids.euid), gid \(ids.gid)/\(ids.egid); expected \(uid), \(gid)", exitCode: ExitStatus.internalError)
        }
    }

    private static func shortened(_ text: String) -> String {
        text.count > 64 ? String(text.prefix(61)) + "..." : text
    }
}
