// Bytes received in pieces (a socket's reads), cut into lines at each newline, for `listen`.

/// Each byte is searched for a newline once: a line arriving over many reads (a long event, a
/// slow peer) costs its length, not its length times the number of reads, as searching the
/// whole unterminated remainder again on every read did.
public struct LineSplitter {
    private var pending: [UInt8] = []
    /// Where the next line begins, and where the search for its newline goes on.
    private var start = 0
    private var searchFrom = 0
    /// Bytes looked at for a newline so far: the tests' measure of the cost.
    public private(set) var bytesSearched = 0

    public init() {}

    /// Adds received bytes; the lines already returned are dropped first.
    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        if start > 0 {
            pending.removeSubrange(..<start)
            searchFrom -= start
            start = 0
        }
        pending.append(contentsOf: bytes)
    }

    /// The next complete line without its newline, or nil until more bytes come.
    public mutating func nextLine() -> ArraySlice<UInt8>? {
        guard let newline = pending[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) else {
            bytesSearched += pending.count - searchFrom
            searchFrom = pending.count
            return nil
        }
        bytesSearched += newline + 1 - searchFrom
        let line = pending[start..<newline]
        start = newline + 1
        searchFrom = start
        return line
    }
}
