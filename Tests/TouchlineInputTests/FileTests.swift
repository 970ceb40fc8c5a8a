import Glibc
import Testing
import TouchlineCore
@testable import TouchlineInput

/// A scratch folder under /tmp, removed with its files by `remove`.
struct Scratch {
    let path: String
    init() throws {
        var template = Array("/tmp/touchline-input-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        try #require(made != nil)
        path = String(cString: made!)
    }
    func file(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        let out = try FileOutput(creating: file)
        defer { out.close() }
        try out.write(text)
        return file
    }
    func names() -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
    func remove() {
        for name in names() { unlink(path + "/" + name) }
        rmdir(path)
    }
}

func contents(_ path: String) throws -> String {
    String(decoding: try readWholeFile(path), as: UTF8.self)
}

/// Files as the trace readers and writers see them: read in chunks, written to a temporary
/// that replaces the output only once complete, and never over an input.
@Suite struct FileTests {
    @Test func aSourceReadsTheFileInChunksAndRefusesAFolder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text = String(repeating: "0123456789", count: 1000)
        let path = try scratch.file("trace.yml", text)
        var source = try FileByteSource(path: path)
        #expect(source.isRereadable)
        var bytes: [UInt8] = []
        while true {
            let before = bytes.count
            try bytes.append(addingCapacity: 4096) { (free: inout OutputSpan<UInt8>) throws in try source.read(into: &free) }
            if bytes.count == before { break }
        }
        #expect(String(decoding: bytes, as: UTF8.self) == text)
        #expect(try readSmallFile(path, limit: 1 << 20) == Array(text.utf8))
        // At most `limit` bytes: the configuration's reader asks for one past its cap, and the
        // parser says where the cap fell.
        #expect(try readSmallFile(path, limit: 5) == Array(text.utf8.prefix(5)))
        #expect(FileByteSource.exists(path))
        #expect(!FileByteSource.exists(scratch.path))

        for (path, code) in [(scratch.path, EISDIR), (scratch.path + "/missing", ENOENT)] {
            do {
                _ = try FileByteSource(path: path)
                Issue.record("opened \(path)")
            } catch {
                #expect(error.operation == "open" && error.errno == code && error.path == path)
            }
        }
    }

    /// The output appears only at `commit`, replacing the old file whole; a sink dropped
    /// without it leaves the old file and no temporary.
    @Test func aSinkReplacesTheOutputOnlyOnceCommitted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let output = try scratch.file("out.yml", "old")
        do {
            var sink = try FileByteSink(path: output, inputs: [])
            try sink.write(Array("new".utf8))
            #expect(try contents(output) == "old")
            #expect(scratch.names().count == 2)
            try sink.commit()
        }
        #expect(try contents(output) == "new")
        do {
            var sink = try FileByteSink(path: output, inputs: [])
            try sink.write(Array("lost".utf8))
        }
        #expect(try contents(output) == "new")
        #expect(scratch.names() == ["out.yml"])
    }

    @Test func aSinkKeepsWhatWasWrittenAsPartialAndRefusesAnInput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.file("in.yml", "input")
        let output = scratch.path + "/out.yml"
        var sink = try FileByteSink(path: output, inputs: [input])
        try sink.write(Array("half".utf8))
        #expect(sink.keep(as: output + ".partial", inputs: [input]) == nil)
        #expect(try contents(output + ".partial") == "half")
        #expect(scratch.names() == ["in.yml", "out.yml.partial"])

        #expect(throws: CLIError.self) { _ = try FileByteSink(path: input, inputs: [input]) }
        do {
            _ = try FileByteSink(path: input, inputs: [input])
        } catch {
            #expect(error.exitCode == ExitStatus.usage)
            #expect(error.message == "\(input): is the same file as the input \(input); writing there would destroy it: choose another output")
        }
        #expect(try contents(input) == "input")
    }

    @Test func anOutputFolderMustExistAndAnOutputIsNeverAnInput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.file("in.yml", "input")
        #expect(throws: Never.self) { try OutputDirectory.check(scratch.path) }
        #expect(throws: CLIError.self) { try OutputDirectory.check(input) }
        #expect(throws: CLIError.self) { _ = try OutputDirectory.create(input, inputs: [input]) }
        let fd = try OutputDirectory.create(scratch.path + "/in.yml.jsonl", inputs: [input])
        #expect(fd >= 0)
        OutputDirectory.close(fd)
    }

    @Test func theFolderOfAPathIsFoundAsNSStringFoundIt() {
        #expect(FilePath.directory(of: "configs/graph.toml") == "configs")
        #expect(FilePath.directory(of: "graph.toml") == "")
        #expect(FilePath.directory(of: "/graph.toml") == "/")
        #expect(FilePath.directory(of: "/etc/touchline/") == "/etc")
        #expect(FilePath.directory(of: "a//b.toml") == "a")
        #expect(FilePath.directory(of: "/") == "/")
    }

    @Test func theEnvironmentIsReadAndChanged() {
        Environment.set("TOUCHLINE_TEST_VARIABLE", "a=b")
        #expect(Environment.value("TOUCHLINE_TEST_VARIABLE") == "a=b")
        #expect(Environment.all()["TOUCHLINE_TEST_VARIABLE"] == "a=b")
        Environment.unset("TOUCHLINE_TEST_VARIABLE")
        #expect(Environment.value("TOUCHLINE_TEST_VARIABLE") == nil)
    }
}

/// `touchline listen`'s side of the event socket: a blocking connection that sends whole and
/// receives what comes, 0 once the peer closed; no one listening is `connect`'s error.
@Suite struct SocketConnectionTests {
    @Test func aClientSendsAndReceivesUntilThePeerCloses() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/touchline.sock"
        #expect(throws: SystemError.self) { _ = try SocketConnection(path: path) }
        let listener = try UnixSocket.listen(path: path, mode: 0o600, group: nil)
        defer { UnixSocket.close(listener) }
        let client = try SocketConnection(path: path)
        defer { client.close() }
        let server = try #require(try UnixSocket.accept(listener))
        try client.send(Array("{\"subscribe\":[]}\n".utf8))
        var input = [UInt8](repeating: 0, count: 64)
        // A Unix socket's send puts the bytes in the peer's queue before it returns.
        #expect(try UnixSocket.read(server, into: &input, at: 0) == .bytes(17))
        #expect(try UnixSocket.send(server, Array("{\"ok\":1}\n".utf8), 0..<9) == 9)
        UnixSocket.close(server)
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = try client.receive(into: &buffer)
        #expect(String(decoding: buffer[0..<n], as: UTF8.self) == "{\"ok\":1}\n")
        #expect(try client.receive(into: &buffer) == 0)
        #expect(SocketConnection.maximumPathLength == 107)
    }
}
