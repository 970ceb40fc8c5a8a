// `listen`'s line splitting: a line that arrives over many reads is searched once (issue 24:
// the whole unterminated remainder was searched again on every read, quadratic in its length).
import Testing
import TouchlineInput

@Suite struct LineSplitterTests {
    @Test func aLongLineOverManyReadsIsSearchedOnce() {
        var lines = LineSplitter()
        let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 {
            lines.append(piece[...])
            #expect(lines.nextLine() == nil)
        }
        lines.append(Array("\n{\"v\":1}\n{\"v\"".utf8)[...])
        #expect(lines.nextLine()?.count == 1_000_000)
        #expect(lines.nextLine().map { Array($0) } == Array("{\"v\":1}".utf8))
        #expect(lines.nextLine() == nil)
        // Every byte once: the million, then the 13 after them. Searching the remainder again
        // on each read looked at about 500 million.
        #expect(lines.bytesSearched == 1_000_000 + 13)
        lines.append(Array(":2}\n".utf8)[...])
        #expect(lines.nextLine().map { Array($0) } == Array("{\"v\":2}".utf8))
    }
}
