// `touchline daemon --socket-group` and `[socket] group`: the event socket's group, by name or
// number, and its owner under `--user`. The privilege drop of `--user` is TouchlineInput's
// PrivilegeDrop.
import TouchlineSettings
import TouchlineInput
import TouchlineLive

extension Daemon {
    /// The socket's options: its group from `--socket-group` (a name or a number), else the
    /// configuration's `[socket] group`, else the group `--user` runs with; its owner the user
    /// `--user` becomes. The file is made and given them as root, before the drop, so that the
    /// user the daemon becomes owns it (it stayed root:root 0660, and that user could not
    /// connect to its own socket). An unknown `--socket-group` is an unknown user's status
    /// (67); the configuration's group was checked with its line when the file was read.
    /// `--socket-group` wins over the configuration's `[socket] group`.
    func socketOptions(configured: String? = nil, drop: PrivilegeDrop? = nil) throws -> EventSocketOptions {
        var options = EventSocketOptions()
        options.owner = drop?.uid
        if let socketGroup = socketGroup ?? configured {
            guard let gid = Daemon.groupID(socketGroup) else {
                throw CLIError(message: "\(self.socketGroup == nil ? "[socket] group" : "--socket-group"): no group named \"\(socketGroup.prefix(64))\" (see /etc/group, or `getent group`)", exitCode: ExitStatus.noUser)
            }
            options.group = .id(gid)
        } else if let drop {
            options.group = .id(drop.gid)
        }
        return options
    }

    /// A group's id from its name, or from a number written for it; nil when neither.
    static func groupID(_ group: String) -> UInt32? {
        if let gid = try? UnixSocket.groupID(named: group) { return gid }
        if let gid = UInt32(group), gid != UInt32.max { return gid }
        return nil
    }

    /// `[socket] group` names a group this system has: checked as the file is read, so that
    /// `--check-config` and SIGHUP name its line (start-up exited 67 without one, after
    /// `--check-config` had said ok).
    static func checkSocketGroup(_ devices: DeviceConfiguration, file: String) throws(CLIError) {
        guard let group = devices.socketGroup, groupID(group) == nil else { return }
        let place = devices.socketGroupPosition.map { "\(file):\($0.line):\($0.column)" } ?? file
        throw CLIError.data("\(place): found \"\(group.prefix(64))\" for socket.group, a group this system does not have; expected a group name or number (see /etc/group, or `getent group`)")
    }
}
