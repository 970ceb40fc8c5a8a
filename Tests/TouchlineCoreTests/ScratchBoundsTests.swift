// JSONWriter.appendObject's stack scratch: an object of any length gives the bytes of the
// growable writer, and no write passes the scratch's end (on 532b116 the length was checked
// after writing: a 900-byte name trapped, 3,000 bytes overwrote the stack).
import Testing
@testable import TouchlineCore

/// An object with a key, a string of `length` copies of `unit`, an interned name and numbers.
private struct Filler: JSONObjectMembers {
    var text: String
    var name: InternedString
    func writeMembers<W: JSONMembers>(_ w: inout W) {
        w.field("n", 42)
        w.field("s", text)
        w.field("name", name)
        w.field("x", -1.5, decimals: 2)
        w.array("list", 3) { UInt32($0) }
    }
}

private func pieceByPiece(_ object: Filler, times: Int) -> String {
    var w = JSONWriter()
    for _ in 0..<times {
        w.beginObject()
        object.writeMembers(&w)
        w.endObject()
    }
    return w.string
}

@Suite struct ScratchBoundsTests {
    /// Every length around the scratch's capacity (1,024 bytes), for plain and escaped text: the
    /// objects that just fit, the one that fills the scratch to the byte and those one byte over.
    @Test(arguments: ["a", "\"", "\u{01}", "é"])
    func everyLengthAroundTheCapacityGivesTheGrowableBytes(unit: String) {
        let escaped = unit == "a" || unit == "é" ? unit.utf8.count : (unit == "\"" ? 2 : 6)
        let fixed = #"{"n":42,"s":"","name":"","x":-1.50,"list":[0,1,2]}"#.utf8.count
        let around = (JSONScratch.capacity - fixed) / escaped
        for copies in max(0, around - 8)...(around + 8) {
            let object = Filler(text: String(repeating: unit, count: copies), name: InternedString(""))
            var w = JSONWriter()
            w.appendObject(object)
            w.appendObject(object)
            #expect(w.string == pieceByPiece(object, times: 2), "\(copies) × \(unit.debugDescription)")
        }
    }

    @Test(arguments: [900, 3_000, 100_000])
    func longNamesAndStrings(length: Int) {
        for unit in ["n", "\"\\", "\u{1f}", "\n"] {
            let long = String(repeating: unit, count: length)
            let object = Filler(text: long, name: InternedString(long))
            var w = JSONWriter()
            w.appendObject(object)
            #expect(w.string == pieceByPiece(object, times: 1))
            #expect(w.bytes.count > length)
        }
    }

    /// The scratch on its own: a write that does not fit is not made and is reported.
    @Test func aWriteThatDoesNotFitIsRefused() {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONScratch.capacity + 16) { buffer in
            buffer.initialize(repeating: 0xAA)
            var scratch = JSONScratch(base: buffer.baseAddress!)
            scratch.field("s", String(repeating: "x", count: JSONScratch.capacity))
            #expect(scratch.overflowed)
            #expect(scratch.count <= JSONScratch.capacity)
            scratch.fixed(Int64.min, decimals: 0)
            scratch.byte(UInt8(ascii: "}"))
            #expect(scratch.count <= JSONScratch.capacity)
            #expect(buffer[JSONScratch.capacity...].allSatisfy { $0 == 0xAA }, "nothing written past the capacity")
        }
    }
}
