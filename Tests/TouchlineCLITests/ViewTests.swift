// `touchline view` as a user starts it (docs/view.md): what it refuses before it listens, and
// that the timeline it serves for a recording holds `replay --explain`'s lines byte for byte.
// The page itself, in a real browser, and the bounds under load are scripts/view-test.py's
// (a CI stage).
import Foundation
import Testing

/// A `touchline view` process and the address it printed first.
final class ViewProcess {
    let process = Process()
    let url: String

    init(_ arguments: [String]) throws {
        process.executableURL = Paths.binary
        process.arguments = ["view"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The first line: "touchline view: http://127.0.0.1:PORT/…" (a read waits for it; no sleep).
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "http://") else {
            process.terminate()
            throw TestFailure("view printed no address: \(text)")
        }
        url = String(text[range.lowerBound...].prefix { $0 != "\n" })
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// `curl` the address with `path` in place of its own; (status, body).
    func get(_ path: String) throws -> (Int, Data) {
        let base = url.prefix { $0 != "?" }.dropLast()
        let result = try run("/usr/bin/curl", ["-s", "-o", "-", "-w", "\n%{http_code}", String(base) + path])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        return (status, Data(lines.dropLast().joined(separator: "\n").utf8))
    }
}

@Suite struct ViewTests {
    static let pinch = Paths.root.appendingPathComponent("Recordings/pinch.yml").path

    @Test func aNonLoopbackAddressWithoutATokenIsRefusedAtStart() throws {
        let result = try touchline("view", Self.pinch, "--host", "0.0.0.0")
        #expect(result.status == 64)
        // Not compared whole: the message offers a token made at random for this run.
        #expect(result.stderr.contains("is not a loopback address") && result.stderr.contains("--token "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aShortTokenOrAMisplacedOptionIsAUsageError() throws {
        #expect(try touchline("view", Self.pinch, "--token", "short").status == 64)
        #expect(try touchline("view", "--config", "x.toml").status == 64)
        #expect(try touchline("view", Self.pinch, "--socket", "/tmp/x.sock").status == 64)
        #expect(try touchline("view", Self.pinch, "--port", "70000").status == 64)
    }

    @Test func theRecordingsTimelineHoldsReplayExplainsLinesByteForByte() throws {
        let view = try ViewProcess([Self.pinch, "--token", "a-test-token-0123456789"])
        let (status, body) = try view.get("/timeline?token=a-test-token-0123456789")
        #expect(status == 200)
        let lines = String(decoding: body, as: UTF8.self).split(separator: "\n")
        let events = lines.filter { $0.hasPrefix(#"{"v":1"#) }.map { $0 + "\n" }.joined()
        let replay = try touchline("replay", "--explain", Self.pinch)
        #expect(replay.status == 0)
        #expect(events == replay.stdout)
        #expect(lines.first?.hasPrefix(#"{"view":"device","device":0,"#) == true, "\(lines.first ?? "")")
        #expect(lines.contains { $0.hasPrefix(#"{"time":"#) && $0.contains(#""contacts":[{"id":"#) })
        // The token is checked on every request.
        #expect(try view.get("/timeline?token=a-wrong-token-012345678").0 == 403)
        #expect(try view.get("/timeline").0 == 403)
    }
}
