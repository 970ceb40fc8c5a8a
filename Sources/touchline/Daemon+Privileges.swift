// `touchline daemon --socket-group`: the event socket's group, by name or number. The
// privilege drop of `--user` is TouchlineInput's PrivilegeDrop.
import TouchlineInput
import TouchlineLive

extension Daemon {
    /// The socket's options from `--socket-group` (a name or a number). An unknown group is
    /// an unknown user's status (67), not an output that cannot be created.
    /// `--socket-group` wins over the configuration's `[socket] group`.
    func socketOptions(configured: String? = nil) throws -> EventSocketOptions {
        var options = EventSocketOptions()
        guard let socketGroup = socketGroup ?? configured else { return options }
        if let gid = try? UnixSocket.groupID(named: socketGroup) {
            options.group = .id(gid)
        } else if let gid = UInt32(socketGroup), gid != UInt32.max {
            options.group = .id(gid)
        } else {
            throw CLIError(message: "\(self.socketGroup == nil ? "[socket] group" : "--socket-group"): no group named \"\(socketGroup.prefix(64))\" (see /etc/group, or `getent group`)", exitCode: ExitStatus.noUser)
        }
        return options
    }
}
