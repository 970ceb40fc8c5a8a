// `touchline listen`: a client of the daemon's event socket that prints what it receives, for
// users and scripts (`touchline listen --subscribe tap | while read -r line; …`). Each batch of
// complete lines is written as it arrives, so SIGINT (which ends it, as it ends `cat`) loses
// nothing already received.
import ArgumentParser
import Foundation
import TouchlineGestures
import TouchlineLive
#if canImport(Glibc)
import Glibc
#endif

struct Listen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the gesture events the daemon publishes on its socket (JSON Lines, or text rows with --format text).",
        discussion: """
            Connects to the daemon's socket, subscribes (every gesture, or those named with \
            --subscribe) and prints each event line until the daemon closes the connection \
            (exit 0) or SIGINT. No daemon listening on the socket: exit 66. A subscription the \
            daemon refuses (an unknown gesture name): its error on stderr, exit 64.
            """)

    @Option(help: ArgumentHelp("The event socket's path. Default: the first that exists of $XDG_RUNTIME_DIR/touchline.sock (a user's daemon), /run/touchline/touchline.sock (the systemd unit's) and /run/touchline.sock.", valueName: "path"))
    var socket: String?

    /// Where a daemon listens when --socket is not given: a user's own daemon first, then the
    /// packaged service's (packaging/touchline.service), then the daemon's root default.
    static func defaultSocket(environment: [String: String]) -> String {
        let candidates = [EventSocketServer.defaultPath(environment: environment), "/run/touchline/touchline.sock", "/run/touchline.sock"]
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates[0]
    }

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Only these gestures (names as in the events, e.g. tap pinch). Default: every gesture.", valueName: "gesture"))
    var subscribe: [String] = []

    @OptionGroup var format: FormatOptions

    func run() throws {
        try reportingErrors { try listen() }
    }

    func listen() throws {
        let path = socket ?? Listen.defaultSocket(environment: ProcessInfo.processInfo.environment)
        let fd = try connectSocket(path)
        defer { close(fd) }
        let message = try JSONSerialization.data(withJSONObject: ["subscribe": subscribe], options: [.withoutEscapingSlashes])
        try send(fd, Array(message) + [UInt8(ascii: "\n")], path: path)

        var out = OutputStream(fd: 1)
        var text = TextEventWriter(color: format.colorsStandardOutput)
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var replied = false
        // --relative-time: the first event's time, in µs (listen sees events, not input).
        var origin: Int64?
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIError.io("\(path): cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            pending.append(contentsOf: buffer[0..<n])
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[start..<newline]
                start = newline + 1
                if !replied {
                    // The daemon's reply to the subscription: not an event.
                    replied = true
                    if line.starts(with: Array("{\"error\"".utf8)) {
                        throw CLIError.usage("\(path): the daemon refused the subscription: \(String(decoding: line, as: UTF8.self))")
                    }
                    continue
                }
                let shown = format.relativeTime ? ListenText.relativeTime(line, origin: &origin)[...] : line
                text.reset()
                if format.isText && ListenText.row(shown, into: &text) {
                    out.write(text.bytes)
                } else {
                    out.write(Array(shown) + [UInt8(ascii: "\n")])
                }
            }
            pending.removeSubrange(..<start)
            out.flush()
        }
        out.flush()
    }

    /// A connection to the daemon at `path`; no daemon there (no file, nothing listening) is an
    /// input that cannot be opened (66).
    func connectSocket(_ path: String) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path), !bytes.contains(0) else {
            throw CLIError.usage("--socket: a socket path holds at most \(MemoryLayout.size(ofValue: address.sun_path) - 1) bytes, found \(bytes.count)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw CLIError(message: "socket: \(String(cString: strerror(errno)))", exitCode: ExitStatus.internalError) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CLIError.noInput("\(path): cannot connect: \(reason); is `touchline daemon` running with this --socket?")
        }
        return fd
    }

    func send(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIError.io("\(path): cannot send the subscription: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}
