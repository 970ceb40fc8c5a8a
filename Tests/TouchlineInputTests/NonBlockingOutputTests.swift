// `daemon --stdout`'s output (NonBlockingOutput) on a socket pair whose reader takes nothing
// until told: lines go whole or not at all, a full queue drops and counts, the drops are
// reported at once, then at most once per interval of the (fake) clock, and at the end.
import Glibc
import Testing
import TouchlineCore
@testable import TouchlineInput

@Suite struct NonBlockingOutputTests {
    final class Reports { var lines: [String] = [] }

    @Test func aReaderThatStopsLosesWholeEventsCountedAndReported() throws {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[1]) }
        var clock = Timestamp(microseconds: 1_000_000)
        let reports = Reports()
        let output = NonBlockingOutput(fd: fds[0], limit: 1000, warn: { reports.lines.append($0) }, now: { clock })
        #expect(output.mode == .socket)
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 99) + [UInt8(ascii: "\n")]

        // Until the socket and then the queue are full: never a wait, and one report at once.
        var written = 0
        while output.droppedTotal == 0 {
            try output.write(line)
            written += 1
            try #require(written < 100_000, "the socket never filled")
        }
        #expect(reports.lines == ["stdout: 1 event dropped (reader too slow)"])
        #expect(output.queued <= 1000)
        for _ in 0..<5 { try output.write(line) }
        written += 5
        #expect(reports.lines.count == 1, "reported again within the interval: \(reports.lines)")
        clock = clock + NonBlockingOutput.reportInterval
        try output.write(line)
        written += 1
        #expect(reports.lines.last == "stdout: 6 events dropped (reader too slow); 7 since the start")

        // The reader takes everything: the queue goes out whole when the socket has room.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while output.queued > 0 {
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n <= 0 { break }
                received += buffer[0..<n]
            }
            try output.service()
        }
        output.finish(grace: 0)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        #expect(received.count == (written - 7) * line.count)
        #expect(received.count % line.count == 0 && received.last == UInt8(ascii: "\n"))
        #expect(reports.lines.count == 2, "nothing new to report at the end: \(reports.lines)")
    }
}
