// packaging/ and scripts/install.sh as an administrator uses them: the unit passes
// `systemd-analyze verify`, the script installs into a --destdir (an edited config survives a
// reinstall and an uninstall), and the example daemon config passes --check-config.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct PackagingTests {
    static let packaging = Paths.root.appendingPathComponent("packaging")
    static let script = Paths.root.appendingPathComponent("scripts/install.sh").path

    /// `systemd-analyze verify` accepts the unit, with no warning at all (an unknown key or a
    /// misspelt value is only a warning to it). verify refuses a unit whose ExecStart binary is
    /// missing, so it checks a copy whose ExecStart names the binary the tests built: every other
    /// line is the shipped unit's.
    @Test func unitPassesSystemdAnalyzeVerify() throws {
        let analyze = "/usr/bin/systemd-analyze"
        try #require(FileManager.default.isExecutableFile(atPath: analyze), "systemd-analyze is needed to check packaging/touchline.service")
        let unit = try String(contentsOf: Self.packaging.appendingPathComponent("touchline.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/touchline daemon --config /etc/touchline/daemon.toml"))
        for line in ["Type=notify", "NoNewPrivileges=yes", "ProtectSystem=strict", "DevicePolicy=closed", "DeviceAllow=char-input rw",
                     "DeviceAllow=/dev/uinput rw", "RuntimeDirectory=touchline", "RestrictAddressFamilies=AF_UNIX AF_NETLINK",
                     "SystemCallFilter=@system-service"] {
            #expect(unit.split(separator: "\n").contains(Substring(line)), "the unit has no \(line)")
        }
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("touchline.service")
        try unit.replacingOccurrences(of: "/usr/local/bin/touchline", with: Paths.binary.path).write(to: copy, atomically: true, encoding: .utf8)
        let result = try run(analyze, ["verify", copy.path])
        #expect(result.status == 0, "systemd-analyze verify: \(result.stderr)")
        #expect(result.stderr.isEmpty, "systemd-analyze verify warned: \(result.stderr)")

        // And it does catch a mistake (so the check above means something).
        let broken = dir.appendingPathComponent("broken.service")
        try unit.replacingOccurrences(of: "/usr/local/bin/touchline", with: Paths.binary.path)
            .replacingOccurrences(of: "Type=notify", with: "Type=notifyy").write(to: broken, atomically: true, encoding: .utf8)
        #expect(try !run(analyze, ["verify", broken.path]).stderr.isEmpty)
    }

    /// install.sh --destdir puts the binary, the unit (ExecStart following --prefix), the rule
    /// and the configs in place; the installed unit with its installed binary passes verify; a
    /// reinstall keeps an edited daemon.toml; --uninstall removes the rest and keeps it.
    @Test func installScriptIntoDestdir() throws {
        let dest = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dest) }
        let install = try run("/bin/sh", [Self.script, "--destdir", dest.path, "--prefix", "/opt/touchline", "--binary", Paths.binary.path])
        #expect(install.status == 0, "install.sh: \(install.stderr)")
        let root = dest.path
        let files = ["/opt/touchline/bin/touchline", "/etc/systemd/system/touchline.service", "/etc/udev/rules.d/70-touchline.rules",
                     "/etc/touchline/daemon.toml", "/etc/touchline/daemon.toml.example", "/etc/touchline/example-config.toml",
                     "/opt/touchline/share/doc/touchline/README.md"]
        for file in files { #expect(FileManager.default.fileExists(atPath: root + file), "\(file) was not installed") }
        #expect(FileManager.default.isExecutableFile(atPath: root + "/opt/touchline/bin/touchline"))
        let unit = try String(contentsOfFile: root + "/etc/systemd/system/touchline.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/opt/touchline/bin/touchline daemon --config /etc/touchline/daemon.toml"))
        #expect(!unit.contains("/usr/local/"))
        let verifiable = dest.appendingPathComponent("touchline.service")
        try unit.replacingOccurrences(of: "ExecStart=/opt/touchline/bin/touchline", with: "ExecStart=" + root + "/opt/touchline/bin/touchline")
            .write(to: verifiable, atomically: true, encoding: .utf8)
        let verify = try run("/usr/bin/systemd-analyze", ["verify", verifiable.path])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "systemd-analyze verify (installed): \(verify.stderr)")

        let config = root + "/etc/touchline/daemon.toml"
        try "# mine\nversion = 1\n".write(toFile: config, atomically: true, encoding: .utf8)
        let again = try run("/bin/sh", [Self.script, "--destdir", dest.path, "--prefix", "/opt/touchline", "--binary", Paths.binary.path])
        #expect(again.status == 0, "install.sh again: \(again.stderr)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "# mine\nversion = 1\n")
        #expect(again.stdout.contains("kept"))

        let uninstall = try run("/bin/sh", [Self.script, "--destdir", dest.path, "--prefix", "/opt/touchline", "--uninstall"])
        #expect(uninstall.status == 0, "install.sh --uninstall: \(uninstall.stderr)")
        for file in files where file != "/etc/touchline/daemon.toml" {
            #expect(!FileManager.default.fileExists(atPath: root + file), "\(file) is still there after --uninstall")
        }
        #expect(FileManager.default.fileExists(atPath: config), "--uninstall removed the edited config")
    }

    /// A wrong argument to the script is a usage error, not a half install.
    @Test func installScriptRefusesUnknownArguments() throws {
        let result = try run("/bin/sh", [Self.script, "--destdr", "/tmp/x"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown argument: --destdr"))
        #expect(try run("/bin/sh", [Self.script, "--prefix", "relative"]).status == 64)
    }

    /// The example config passes `daemon --check-config` whole, as the daemon reads it, and
    /// shows every section and the input actions' keys. Its `[socket] group` is the group
    /// scripts/install.sh creates, which `--check-config` checks last (issue 24 item 8): on a
    /// machine without it, that is the one error, so everything else passed.
    @Test func exampleDaemonConfigPassesCheckConfig() throws {
        let path = Self.packaging.appendingPathComponent("daemon.toml").path
        let result = try touchline("daemon", "--check-config", path)
        if getgrnam("touchline") == nil {
            #expect(result.status == 65, "packaging/daemon.toml: \(result.stderr)")
            #expect(result.stderr == "touchline: \(path):26:9: found \"touchline\" for socket.group, a group this system does not have; expected a group name or number (see /etc/group, or `getent group`)\n")
        } else {
            #expect(result.status == 0, "packaging/daemon.toml: \(result.stderr)")
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for header in ["[socket]", "[[device]]", "[actions]", "[[action]]"] {
            #expect(lines.contains(header), "no \(header) in packaging/daemon.toml")
        }
        for key in ["match.name", "match.path", "match.udev", "rotation", "calibration", "size", "ignore", "keys", "button", "argv", "shell", "repeat", "timeout", "group"] {
            #expect(lines.contains { $0.hasPrefix(key + " ") || $0.hasPrefix(key + "=") }, "\(key) is not shown (uncommented) in packaging/daemon.toml")
        }
    }
}
