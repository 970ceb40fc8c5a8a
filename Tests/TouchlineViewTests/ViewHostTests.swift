// touchline-view's input (ViewHost.swift): the parent's messages read whole however the bytes
// are cut, a resource's bytes taken as bytes (newlines inside), every malformed message an
// error that says which, and one host run over scripted input serving what it was told.
import Foundation
import Testing
@testable import TouchlineView

@Suite struct ViewHostTests {
    static let script = Array("resource /timeline application/x-ndjson 16\n{\"a\":1}\n{\"b\":2}\nstart stream\nkeep 0 {\"view\":\"device\",\"device\":0}\nsend {\"time\":1.5}\n".utf8)
    static let messages: [ViewHostMessage] = [
        .resource(path: "/timeline", contentType: "application/x-ndjson", bytes: Array("{\"a\":1}\n{\"b\":2}\n".utf8)),
        .start(stream: true), .keep(0, Array("{\"view\":\"device\",\"device\":0}".utf8)), .send(Array("{\"time\":1.5}".utf8)),
    ]

    static func read(_ chunks: [ArraySlice<UInt8>]) throws -> [ViewHostMessage] {
        var reader = ViewHostReader()
        var out: [ViewHostMessage] = []
        for chunk in chunks {
            reader.feed(chunk)
            while let message = try reader.next() { out.append(message) }
        }
        #expect(reader.unread == 0)
        return out
    }

    @Test func messagesAreWholeHoweverTheBytesAreCut() throws {
        #expect(try Self.read([Self.script[...]]) == Self.messages)
        for size in [1, 2, 5, 13, 64] {
            let chunks = stride(from: 0, to: Self.script.count, by: size).map { Self.script[$0..<min($0 + size, Self.script.count)] }
            #expect(try Self.read(chunks) == Self.messages, "cut every \(size) bytes")
        }
    }

    @Test func malformedMessagesAreErrorsThatSayWhich() {
        let cases: [(String, String)] = [
            ("hello\n", "the parent's message 1: unknown message \"hello\""),
            ("send x\nkeep x {}\n", "the parent's message 2: keep needs a key (an integer) and a line"),
            ("start now\n", "the parent's message 1: start takes nothing or `stream`, found \"now\""),
            ("resource timeline text/plain 3\n", "the parent's message 1: resource needs PATH (from /) TYPE LENGTH"),
            ("resource /t text/plain -1\n", "the parent's message 1: resource needs PATH (from /) TYPE LENGTH"),
            ("resource /t text/plain 999999999999\n", "the parent's message 1: resource /t of 999999999999 bytes, over 268435456"),
        ]
        for (input, message) in cases {
            var reader = ViewHostReader()
            reader.feed(Array(input.utf8))
            #expect(throws: ViewServerError.self, "\(input)") {
                while try reader.next() != nil {}
            }
            do {
                while try reader.next() != nil {}
            } catch {
                #expect(error.message == message, "\(input)")
            }
        }
    }

    @Test func anEndlessLineIsRefusedAtItsLimit() {
        var reader = ViewHostReader()
        reader.lineLimit = 100
        reader.feed([UInt8](repeating: 0x61, count: 101))
        #expect(throws: ViewServerError.self) { _ = try reader.next() }
    }

    /// The host over a script: it listens at `start`, answers the address, serves the resource
    /// given before, and stops when the input ends.
    @Test func theHostServesWhatItIsToldUntilItsInputEnds() throws {
        var inputs = [Self.script]
        var answered: [UInt8] = []
        var served: (status: Int, output: String)?
        try ViewHost.run(
            page: Array("<p>page</p>".utf8), options: ViewServerOptions(),
            input: {
                if inputs.isEmpty {
                    // Before the end of input: the server is up; ask it what it serves.
                    if served == nil, let url = String(decoding: answered, as: UTF8.self).split(separator: " ").last {
                        served = try? curl([url.trimmingCharacters(in: .whitespacesAndNewlines) + "timeline"])
                    }
                    return []
                }
                return inputs.removeFirst()
            },
            output: { answered += $0 })
        let address = String(decoding: answered, as: UTF8.self)
        #expect(address.hasPrefix("address http://127.0.0.1:") && address.hasSuffix("/\n"))
        #expect(served?.status == 200 && served?.output.hasSuffix("{\"a\":1}\n{\"b\":2}\n") == true, "\(String(describing: served))")
    }
}
