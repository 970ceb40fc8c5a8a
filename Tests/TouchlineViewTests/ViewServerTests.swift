// TouchlineView's server (docs/view.md): what it refuses before it listens, how it reads the
// parts of a request it reads itself (the query's token, the Host header), the page's nonce,
// the stream's framing, and one real server answering curl on loopback.
import Foundation
import Testing
@testable import TouchlineView

/// `curl` on loopback: (status, headers and body as text).
func curl(_ arguments: [String]) throws -> (status: Int, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-s", "-i", "--max-time", "10"] + arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return (status, text)
}

@Suite struct ViewServerTests {
    @Test func loopbackIsOneOfItsNames() {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"] { #expect(ViewServer.isLoopback(host), "\(host)") }
        for host in ["0.0.0.0", "10.0.0.1", "128.0.0.1", "127.0.0", "127.0.0.1.5", "127.0.0.256", "localhost.evil", "", "::"] {
            #expect(!ViewServer.isLoopback(host), "\(host)")
        }
        #expect(RequestRouter.isLoopbackHost("127.0.0.1:8080"))
        #expect(RequestRouter.isLoopbackHost("localhost"))
        #expect(RequestRouter.isLoopbackHost("[::1]:80"))
        for host in [nil, "evil.example", "evil.example:8080", "127.0.0.1.evil.example", "[::1", "[::2]:80", ""] as [String?] {
            #expect(!RequestRouter.isLoopbackHost(host), "\(host ?? "nil")")
        }
    }

    @Test func offLoopbackATokenIsRequiredAndItMustBeLongEnough() {
        var options = ViewServerOptions()
        options.host = "0.0.0.0"
        #expect(throws: ViewServerError.self) { try ViewServer(options: options, content: ViewContent(page: [])) }
        options.host = "127.0.0.1"
        options.token = "short"
        #expect(throws: ViewServerError.self) { try ViewServer(options: options, content: ViewContent(page: [])) }
        options.token = "with a space in it 0123456789"
        #expect(throws: ViewServerError.self) { try ViewServer(options: options, content: ViewContent(page: [])) }
        #expect(ViewServer.makeToken().count == 32)
        #expect(ViewServer.makeToken() != ViewServer.makeToken())
    }

    @Test func theTokenIsFoundInTheQueryAndComparedWhole() {
        #expect(RequestRouter.split("/stream?token=abc&x=1") == ("/stream", "token=abc&x=1"))
        #expect(RequestRouter.split("/") == ("/", ""))
        #expect(RequestRouter.parameter("token", in: "x=1&token=abc") == "abc")
        #expect(RequestRouter.parameter("token", in: "tokenx=abc") == nil)
        #expect(RequestRouter.parameter("token", in: "token") == nil)
        #expect(RequestRouter.parameter("token", in: "token=") == "")
        #expect(RequestRouter.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!RequestRouter.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!RequestRouter.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
    }

    @Test func everyNonceInThePageIsReplaced() {
        let content = ViewContent(page: Array("<script nonce=\"{{nonce}}\"></script><style nonce=\"{{nonce}}\"></style>{{nonc".utf8))
        #expect(String(decoding: content.page(nonce: "n1"), as: UTF8.self) == "<script nonce=\"n1\"></script><style nonce=\"n1\"></style>{{nonc")
        // The shipped page: its script and style are the nonce's.
        let page = String(decoding: ViewContent(page: ViewPage.html).page(nonce: "abc"), as: UTF8.self)
        #expect(page.contains("<script nonce=\"abc\">") && page.contains("<style nonce=\"abc\">") && !page.contains("{{nonce}}"))
        #expect(!page.contains("innerHTML") && !page.contains("http://") && !page.contains("https://"), "the page builds no markup from data and loads nothing from elsewhere")
    }

    @Test func aStreamLineIsOneEventWhateverItHolds() {
        #expect(ViewStream.event(Array("{\"a\":1}\n".utf8)) == Array("data: {\"a\":1}\n\n".utf8))
        // A line cannot start another field of the stream.
        #expect(ViewStream.event(Array("x\ndata: y\r\nevent: z".utf8)) == Array("data: xdata: yevent: z\n\n".utf8))
    }

    @Test func theServerAnswersWithItsHeadersAndRefusesWhatIsNotARead() throws {
        var options = ViewServerOptions()
        options.token = "a-test-token-0123456789"
        let server = try ViewServer(options: options, content: ViewContent(page: Array("<p>{{nonce}}</p>".utf8), resources: ["/timeline": ("application/x-ndjson", Array("{}\n".utf8))]))
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        #expect(server.address == base + "/?token=a-test-token-0123456789")
        let page = try curl([base + "/?token=a-test-token-0123456789"])
        #expect(page.status == 200)
        #expect(page.output.contains("X-Frame-Options: DENY") || page.output.lowercased().contains("x-frame-options: deny"))
        #expect(page.output.lowercased().contains("x-content-type-options: nosniff"))
        #expect(page.output.lowercased().contains("content-security-policy: default-src 'self'; script-src 'nonce-"))
        #expect(try curl([base + "/"]).status == 403)
        #expect(try curl([base + "/?token=a-test-token-0123456780"]).status == 403)
        #expect(try curl([base + "/timeline?token=a-test-token-0123456789"]).output.hasSuffix("\r\n\r\n{}\n"))
        #expect(try curl(["-X", "POST", "-d", "x", base + "/?token=a-test-token-0123456789"]).status == 405)
        #expect(try curl([base + "/nothing?token=a-test-token-0123456789"]).status == 404)
        #expect(try curl(["-H", "X-Long: " + String(repeating: "a", count: 20_000), base + "/?token=a-test-token-0123456789"]).status != 200)
    }
}
