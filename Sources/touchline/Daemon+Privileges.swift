// `touchline daemon --user NAME[:GROUP]`: the daemon starts as root (to open every touchscreen,
// /dev/uinput and a socket under /run), then becomes NAME once those are open, so that nothing
// it does afterwards (actions, reading a SIGHUP's config, serving clients) runs as root. The
// user is looked up before anything is opened: a typo fails at once (67) and leaves no socket.
// After the drop, hotplugged touchscreens open only if NAME may read them (docs/live.md).
import Foundation
import TouchlineLive
#if canImport(Glibc)
import Glibc
#endif

extension Daemon {
    /// The socket's options from `--socket-group` (a name or a number). An unknown group is
    /// an unknown user's status (67), not an output that cannot be created.
    /// `--socket-group` wins over the configuration's `[socket] group`.
    func socketOptions(configured: String? = nil) throws -> EventSocketOptions {
        var options = EventSocketOptions()
        guard let socketGroup = socketGroup ?? configured else { return options }
        if let entry = getgrnam(socketGroup) {
            options.group = .id(entry.pointee.gr_gid)
        } else if let gid = UInt32(socketGroup), gid != UInt32.max {
            options.group = .id(gid)
        } else {
            throw CLIError(message: "\(self.socketGroup == nil ? "[socket] group" : "--socket-group"): no group named \"\(socketGroup.prefix(64))\" (see /etc/group, or `getent group`)", exitCode: ExitStatus.noUser)
        }
        return options
    }
}

/// Who the daemon becomes: ids and, when the user has a passwd entry, its name (for its
/// supplementary groups) and home.
struct PrivilegeDrop: Equatable {
    var uid: uid_t
    var gid: gid_t
    var userName: String?
    var home: String?

    /// `spec` as `--user` takes it: NAME, NAME:GROUP, UID, UID:GID (names and numbers mixed).
    /// A user without a group runs with its passwd entry's primary group; a bare number that has
    /// no passwd entry needs its group written, since there is no entry to take it from.
    static func resolve(_ spec: String) throws -> PrivilegeDrop {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let userPart = parts.first, !userPart.isEmpty, parts.count == 1 || !parts[1].isEmpty else {
            throw CLIError.usage("--user: expected NAME, NAME:GROUP, UID or UID:GID, found \"\(shortened(spec))\"")
        }
        var drop: PrivilegeDrop
        if let entry = getpwnam(userPart) {
            drop = PrivilegeDrop(uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid,
                                 userName: String(cString: entry.pointee.pw_name), home: String(cString: entry.pointee.pw_dir))
        } else if let uid = UInt32(userPart), uid != UInt32.max {
            if let entry = getpwuid(uid) {
                drop = PrivilegeDrop(uid: uid, gid: entry.pointee.pw_gid,
                                     userName: String(cString: entry.pointee.pw_name), home: String(cString: entry.pointee.pw_dir))
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
            if let entry = getgrnam(groupPart) {
                drop.gid = entry.pointee.gr_gid
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
    func checkPermitted() throws {
        if geteuid() != 0 {
            throw CLIError(message: "--user needs the daemon to start as root (it runs as uid \(geteuid())); without --user it runs as who started it", exitCode: ExitStatus.noPermission)
        }
    }

    /// HOME, USER and LOGNAME of the user, set before actions capture the environment, so
    /// that an action does not look for its files in /root.
    func adjustEnvironment() {
        guard let userName else { return }
        setenv("USER", userName, 1)
        setenv("LOGNAME", userName, 1)
        if let home { setenv("HOME", home, 1) }
    }

    /// Supplementary groups (the user's, from /etc/group; only `gid` for a bare uid), then
    /// the group, then the user: in this order, since after setuid the others are refused.
    /// Then proves it: regaining root must fail. Descriptors already open (devices, the
    /// socket, uinput) stay usable.
    func apply() throws {
        func fail(_ what: String) -> CLIError {
            CLIError(message: "--user: \(what) failed: \(String(cString: strerror(errno))); not running with root's privileges kept", exitCode: ExitStatus.noPermission)
        }
        if let userName {
            if initgroups(userName, gid) != 0 { throw fail("initgroups(\(userName), \(gid))") }
        } else {
            var groups = [gid]
            if setgroups(1, &groups) != 0 { throw fail("setgroups([\(gid)])") }
        }
        if setgid(gid) != 0 { throw fail("setgid(\(gid))") }
        if setuid(uid) != 0 { throw fail("setuid(\(uid))") }
        // setuid as root sets the real, effective and saved ids; if any stayed 0, this works.
        if setuid(0) == 0 || seteuid(0) == 0 || setgid(0) == 0 {
            throw CLIError(message: "--user: root could be regained after the drop; refusing to run", exitCode: ExitStatus.internalError)
        }
        guard getuid() == uid, geteuid() == uid, getgid() == gid, getegid() == gid else {
            throw CLIError(message: "--user: ids after the drop are uid \(getuid())/\(geteuid()), gid \(getgid())/\(getegid()); expected \(uid), \(gid)", exitCode: ExitStatus.internalError)
        }
    }

    private static func shortened(_ text: String) -> String {
        text.count > 64 ? String(text.prefix(61)) + "..." : text
    }
}
