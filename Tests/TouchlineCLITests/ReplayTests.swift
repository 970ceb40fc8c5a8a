import Foundation
import Testing

@Suite struct ReplayTests {
    /// The same trace gives the same bytes on every run.
    @Test(arguments: ["Recordings/pinch.yml", "Recordings/double-tap.yml", "Recordings/long-press.yml"])
    func byteIdenticalAcrossRuns(_ recording: String) throws {
        let path = Paths.root.appendingPathComponent(recording).path
        let first = try touchline("replay", path)
        let second = try touchline("replay", path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stdout.isEmpty)
        #expect(first.stdout == second.stdout)
        let frames1 = try touchline("replay", "--frames", path)
        let frames2 = try touchline("replay", "--frames", path)
        #expect(frames1.stdout == frames2.stdout && !frames1.stdout.isEmpty)
    }

    @Test func framesAreJSONLinesWithTimeFirst() throws {
        let result = try touchline("replay", "--frames", Paths.recordings.appendingPathComponent("two-finger-tap.yml").path)
        #expect(result.status == 0)
        let lines = result.lines
        #expect(lines.count == 2, "a down frame and an up frame")
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["time"] is Double)
            #expect(object?["contacts"] is [Any])
        }
        #expect(lines.first?.contains("\"phase\":\"began\"") == true)
        #expect(lines.last?.contains("\"phase\":\"ended\"") == true)
    }

    @Test func warnsWhenTheDeviceHasNoResolution() throws {
        let result = try touchline("replay", "--frames", Paths.trace("evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"))
        #expect(result.status == 0)
        #expect(result.stderr.contains("no resolution"))
        let sized = try touchline("replay", "--frames", "--size", "154x86", Paths.trace("evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"))
        #expect(sized.status == 0)
        #expect(sized.stderr.isEmpty, "\(sized.stderr)")
    }

    @Test func rejectsAMalformedSize() throws {
        let result = try touchline("replay", "--frames", "--size", "wide", Paths.recordings.appendingPathComponent("tap.yml").path)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--size"))
    }
}
