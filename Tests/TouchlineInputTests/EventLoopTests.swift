import Glibc
import Testing
import TouchlineCore
@testable import TouchlineInput

/// The live driver's wait, without devices: a pipe stands in for a device descriptor. No test
/// sleeps: deadlines are armed in the past (they fire at once) or not at all.
@Suite struct EventLoopTests {
    @Test func aReadableDescriptorWakesWithItsToken() throws {
        let loop = try EventLoop(handleSignals: false)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        try loop.watch(fds[0], token: 42)
        #expect(write(fds[1], "x", 1) == 1)
        #expect(try loop.wait() == .readable(42))
    }

    @Test func aPassedDeadlineFiresOnceAndDisarms() throws {
        let loop = try EventLoop(handleSignals: false)
        let deadline = EventLoop.now() - .milliseconds(5)
        try loop.setDeadline(deadline)
        #expect(loop.armedDeadline == deadline)
        #expect(try loop.wait() == .deadline(deadline))
        #expect(loop.armedDeadline == nil)
    }

    @Test func noDeadlineMeansNoTimer() throws {
        let loop = try EventLoop(handleSignals: false)
        try loop.setDeadline(EventLoop.now() + .milliseconds(60_000))
        try loop.setDeadline(nil)
        #expect(loop.armedDeadline == nil)
        // With the timer disarmed, only the pipe can wake the loop.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        try loop.watch(fds[0], token: 7)
        #expect(write(fds[1], "x", 1) == 1)
        #expect(try loop.wait() == .readable(7))
    }

    @Test func eventNodesSortByNumber() throws {
        let dir = "/tmp/touchline-input-test-\(getpid())"
        #expect(mkdir(dir, 0o755) == 0)
        defer {
            for name in ["event10", "event2", "mouse0", "event0"] { unlink("\(dir)/\(name)") }
            rmdir(dir)
        }
        for name in ["event10", "event2", "mouse0", "event0"] {
            let fd = open("\(dir)/\(name)", O_CREAT | O_WRONLY, 0o644)
            close(fd)
        }
        #expect(DeviceDirectory.eventNodes(in: dir) == ["\(dir)/event0", "\(dir)/event2", "\(dir)/event10"])
    }

    @Test func aMissingNodeIsAnErrorWithItsPath() {
        #expect(throws: SystemError("open", path: "/dev/input/event-none", code: ENOENT)) {
            _ = try EvdevDevice(path: "/dev/input/event-none")
        }
    }
}
