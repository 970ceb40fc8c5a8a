// Issue 24, item 10, on the real daemon: an action is its process group, so what a command
// leaves running in the background (`(sleep 778 &); exit 0`) ends at the action's timeout and
// with the daemon; and a NUL in a shell command is a config error, not a command cut short.
// The background process writes its pid to a FIFO and keeps it open: the FIFO's end of file is
// that process's end, waited for on the descriptor.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct DaemonActionGroupTests {

    /// Runs the daemon on pinch.yml with one action at the pinch's start whose shell exits at
    /// once, leaving `sleep 778` in the background holding the FIFO; `running` gets the FIFO
    /// and the sleep's pid while the daemon runs, `stopped` once SIGTERM ended it (with 0).
    /// `speed`: the trace's, on whose clock the action's timeout runs.
    func leavingASleep(timeout: String, speed: String = "100", running: (inout ActionFIFO, pid_t) throws -> Void,
                       stopped: (inout ActionFIFO, pid_t, _ output: String) throws -> Void) throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        var fifo = try ActionFIFO(in: dir.path)
        defer { fifo.close() }
        let daemon = try CleanProcess(pinchAction: """
            phase = "began"
            timeout = "\(timeout)"
            shell = true
            argv = "(sh -c 'echo $$; exec sleep 778' > '\(fifo.path)' &); exit 0"
            """, in: dir, speed: speed)
        var ended = false
        defer { if !ended { kill(daemon.pid, SIGKILL); _ = daemon.wait() } }
        let line = try fifo.line()
        let sleeper = try #require(line.flatMap { pid_t($0) }, "no pid from the action: \(line ?? "nil"); daemon: \(daemon.output)")
        defer { kill(sleeper, SIGKILL) }

        try running(&fifo, sleeper)
        kill(daemon.pid, SIGTERM)
        let end = daemon.wait()
        ended = true
        #expect(end?.status == 0, "daemon: \(daemon.output)")
        try stopped(&fifo, sleeper, daemon.output)
    }

    @Test func aBackgroundProcessEndsAtTheActionsTimeout() throws {
        // At the trace's own speed: the timeout runs on the trace's clock, and at 100 times it
        // 300 ms were 3 ms of real time, which a loaded host could spend before the shell had
        // written the sleep's pid (CI, once: "no pid from the action").
        try leavingASleep(timeout: "300ms", speed: "1", running: { fifo, sleeper in
            // The shell exited at once; its group lives on in the sleep until the 300 ms timeout.
            let closed = try fifo.closed(within: 5)
            #expect(closed, "sleep 778 (pid \(sleeper)) outlived its action's timeout")
        }, stopped: { _, _, output in
            #expect(output.contains("left processes running after its timeout of 300 ms: terminated"), "daemon: \(output)")
        })
    }

    @Test func aBackgroundProcessEndsWithTheDaemon() throws {
        // The timeout is on the trace's time (100× here): an hour, so that it never comes first.
        try leavingASleep(timeout: "3600s", running: { fifo, _ in
            let closed = try fifo.closed(within: 0.2)
            #expect(!closed, "the sleep ended before the daemon did")
        }, stopped: { fifo, sleeper, _ in
            // SIGTERM reached it before the daemon exited: it is gone, or going, now.
            let closed = try fifo.closed(within: 2)
            #expect(closed, "sleep 778 (pid \(sleeper)) outlived the daemon")
        })
    }

    /// TOML's "\u0000" in a shell command: sh would run the command cut at the NUL.
    @Test func aNULInAShellCommandIsAConfigError() throws {
        // daemon.toml:4:8: expected a command without NUL characters.
        try checkConfig("""
            [[action]]
            gesture = "tap"
            shell = true
            argv = "true\\u0000; rm -rf /tmp/x"
            """).expect(status: 65, stderr: "check-config-nul.stderr.txt")
    }
}
