// The system calls of `daemon --user` (PrivilegeDrop.swift), as a struct of closures: the
// daemon uses `.system`; the tests pass a fake user database and record the calls, so that
// the order of the drop and its refusals are checked without root. The passwd and group
// entries are read through their pointers here, and copied out at once (getpwnam's buffer is
// static and the next call overwrites it).
import Glibc

/// A passwd entry, copied.
public struct UserEntry: Equatable, Sendable {
    public var uid: UInt32
    public var gid: UInt32
    public var name: String
    public var home: String

    public init(uid: UInt32, gid: UInt32, name: String, home: String) {
        self.uid = uid
        self.gid = gid
        self.name = name
        self.home = home
    }
}

public struct IdentityCalls: Sendable {
    public var userNamed: @Sendable (String) -> UserEntry?
    public var userWithID: @Sendable (UInt32) -> UserEntry?
    public var groupNamed: @Sendable (String) -> UInt32?
    /// Each returns 0, or the errno of the failure.
    public var initgroups: @Sendable (String, UInt32) -> Int32
    public var setgroups: @Sendable ([UInt32]) -> Int32
    public var setgid: @Sendable (UInt32) -> Int32
    public var setuid: @Sendable (UInt32) -> Int32
    public var seteuid: @Sendable (UInt32) -> Int32
    /// The real and effective user and group ids.
    public var ids: @Sendable () -> (uid: UInt32, euid: UInt32, gid: UInt32, egid: UInt32)
    public var setEnvironment: @Sendable (String, String) -> Void

    public init(
        userNamed: @escaping @Sendable (String) -> UserEntry?, userWithID: @escaping @Sendable (UInt32) -> UserEntry?,
        groupNamed: @escaping @Sendable (String) -> UInt32?, initgroups: @escaping @Sendable (String, UInt32) -> Int32,
        setgroups: @escaping @Sendable ([UInt32]) -> Int32, setgid: @escaping @Sendable (UInt32) -> Int32,
        setuid: @escaping @Sendable (UInt32) -> Int32, seteuid: @escaping @Sendable (UInt32) -> Int32,
        ids: @escaping @Sendable () -> (uid: UInt32, euid: UInt32, gid: UInt32, egid: UInt32),
        setEnvironment: @escaping @Sendable (String, String) -> Void
    ) {
        self.userNamed = userNamed
        self.userWithID = userWithID
        self.groupNamed = groupNamed
        self.initgroups = initgroups
        self.setgroups = setgroups
        self.setgid = setgid
        self.setuid = setuid
        self.seteuid = seteuid
        self.ids = ids
        self.setEnvironment = setEnvironment
    }

    /// An errno as strerror(3) words it.
    public func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    public static let system = IdentityCalls(
        userNamed: { name in getpwnam(name).map(entry) },
        userWithID: { uid in getpwuid(uid).map(entry) },
        groupNamed: { name in getgrnam(name).map { $0.pointee.gr_gid } },
        initgroups: { name, gid in Glibc.initgroups(name, gid) == 0 ? 0 : errno },
        setgroups: { groups in
            var groups = groups
            return Glibc.setgroups(groups.count, &groups) == 0 ? 0 : errno
        },
        setgid: { Glibc.setgid($0) == 0 ? 0 : errno },
        setuid: { Glibc.setuid($0) == 0 ? 0 : errno },
        seteuid: { Glibc.seteuid($0) == 0 ? 0 : errno },
        ids: { (getuid(), geteuid(), getgid(), getegid()) },
        setEnvironment: { name, value in setenv(name, value, 1) })

    private static func entry(_ p: UnsafeMutablePointer<passwd>) -> UserEntry {
        UserEntry(uid: p.pointee.pw_uid, gid: p.pointee.pw_gid, name: String(cString: p.pointee.pw_name), home: String(cString: p.pointee.pw_dir))
    }
}
