import Testing
import TouchlineCore
import TouchlineInput
@testable import TouchlineLive

/// What the daemon tells systemd as its loop runs, with a fake notify socket, a fake clock and
/// a scripted source: READY=1 once ready, STATUS when the device count changes, RELOADING=1
/// (with the clock's MONOTONIC_USEC) on SIGHUP and READY=1 at the next wait, STOPPING=1 on stop.
@Suite struct NotifyingSourceTests {
    final class Notes: NotifySocket {
        var sent: [String] = []
        func send(_ state: String) -> Bool {
            sent.append(state)
            return true
        }
    }

    /// Each wait delivers its events and wakes as scripted.
    struct Script: DaemonSource {
        var steps: [([SourceEvent], SourceWake)]
        var started: [SourceEvent]
        mutating func watch(_ fd: Int32, onReadable: @escaping () throws -> Void) throws {}
        mutating func start(_ deliver: (SourceEvent) throws -> Void) throws {
            for event in started { try deliver(event) }
        }
        mutating func wait(deadline: Timestamp?, _ deliver: (SourceEvent) throws -> Void) throws -> SourceWake {
            let (events, wake) = steps.removeFirst()
            for event in events { try deliver(event) }
            return wake
        }
    }

    static let device = DeviceDescription(name: "screen")

    @Test func theLoopsStatesReachSystemdInOrder() throws {
        let notes = Notes()
        let added = SourceEvent.added(device: 0, path: "/dev/input/event3", description: Self.device)
        var source = NotifyingSource(
            Script(
                steps: [
                    ([.added(device: 1, path: "/dev/input/event4", description: Self.device)], .input),
                    ([], .input),
                    ([], .hangup),
                    ([.removed(device: 0, at: Timestamp(microseconds: 5))], .input),
                    ([], .stop),
                ],
                started: [added]),
            notifier: notes, socketPath: "/run/touchline.sock", clock: { 42_000_000 })
        try source.start { _ in }
        source.ready()
        for _ in 0..<5 { _ = try source.wait(deadline: nil) { _ in } }
        #expect(notes.sent == [
            "READY=1\nSTATUS=1 device; events on /run/touchline.sock",
            "STATUS=2 devices; events on /run/touchline.sock",
            "RELOADING=1\nMONOTONIC_USEC=42000000\nSTATUS=reloading the configuration",
            // At the start of the next wait, before what it delivers (the reload is done).
            "READY=1\nSTATUS=2 devices; events on /run/touchline.sock",
            "STATUS=1 device; events on /run/touchline.sock",
            "STOPPING=1\nSTATUS=stopping",
        ])
    }

    @Test func withoutSystemdNothingIsSent() throws {
        var source = NotifyingSource(Script(steps: [([], .hangup), ([], .stop)], started: []), notifier: nil, socketPath: "/s")
        try source.start { _ in }
        source.ready()
        #expect(try source.wait(deadline: nil) { _ in } == .hangup)
        #expect(try source.wait(deadline: nil) { _ in } == .stop)
    }
}
