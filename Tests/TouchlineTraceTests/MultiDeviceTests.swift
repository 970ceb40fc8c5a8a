import Foundation
import Testing
import TouchlineCore
@testable import TouchlineTrace

/// A libinput record file with several devices (`libinput record --all`): each device's
/// events follow its own header. `TraceReader.open` gives every device before the first event
/// and the events in time order, the same from a file (each section read in place) and from a
/// pipe (held in memory up to a cap). On 532b116 the second device was added only when its
/// header was reached, after the first device's events, and every command crashed on it.
@Suite struct MultiDeviceTests {
    /// One device section: a name and event rows ("sec usec type code value" or raw text).
    struct Section {
        var name: String
        var rows: [String]
    }

    static func row(_ sec: Int, _ usec: Int, _ type: Int, _ code: Int, _ value: Int) -> String {
        "- [\(sec), \(usec), \(type), \(code), \(value)]"
    }

    /// A small recording: `ndevices` as given (nil: no such line).
    static func recording(ndevices: Int?, _ sections: [Section]) -> [UInt8] {
        var text = "version: 1\n"
        if let ndevices { text += "ndevices: \(ndevices)\n" }
        text += "devices:\n"
        for (i, s) in sections.enumerated() {
            text += """
                - node: /dev/input/event\(i)
                  evdev:
                    name: "\(s.name)"
                    id: [3, 1, 2, 0]
                    codes:
                      0: [0]
                      3: [0, 1]
                    absinfo:
                      0: [0, 100, 0, 0, 0]
                      1: [0, 100, 0, 0, 0]
                    properties: [1]
                  events:

                """
            if !s.rows.isEmpty {
                text += "  - evdev:\n"
                for r in s.rows { text += "    " + r + "\n" }
            }
        }
        return Array(text.utf8)
    }

    /// Two devices whose events overlap in time, with one tie (0.010000) and a device between
    /// them without events.
    static let overlapping: [Section] = [
        Section(name: "first", rows: [row(0, 0, 3, 0, 1), row(0, 10000, 3, 0, 2), row(0, 20000, 3, 0, 3)]),
        Section(name: "idle", rows: []),
        Section(name: "third", rows: [row(0, 5000, 3, 1, 4), row(0, 10000, 3, 1, 5), row(0, 15000, 3, 1, 6)]),
    ]

    /// Reads `bytes` as the file `name` through `TraceReader.open`, as a regular file or as a
    /// pipe that cannot be read again.
    static func read(_ bytes: [UInt8], rereadable: Bool, options: TraceReaderOptions = TraceReaderOptions()) -> (devices: [DeviceDescription], events: [TraceEvent], error: TraceError?) {
        var reader: TraceReader
        do {
            reader = try TraceReader.open(
                path: "all.yml", options: options,
                openFile: { _ in
                    var source = BytesSource(bytes, chunkLimit: 7)
                    source.rereadable = rereadable
                    return source
                },
                fileExists: { _ in false })
        } catch {
            return ([], [], error as? TraceError ?? TraceError(file: "?", line: 0, message: "\(error)"))
        }
        let devices = reader.devices
        var events: [TraceEvent] = []
        do {
            while let e = try reader.next() {
                #expect(e.device < devices.count, "an event of device \(e.device) beyond the \(devices.count) known at the start")
                events.append(e)
            }
        } catch {
            return (devices, events, error)
        }
        #expect(reader.devices.count == devices.count)
        return (devices, events, nil)
    }

    func values(_ events: [TraceEvent]) -> [String] {
        events.map { "\($0.device):\($0.event.value)" }
    }

    @Test(arguments: [true, false])
    func everyDeviceIsKnownBeforeTheFirstEventAndEventsComeByTime(rereadable: Bool) {
        for ndevices in [3, nil] {
            let r = Self.read(Self.recording(ndevices: ndevices, Self.overlapping), rereadable: rereadable)
            #expect(r.error == nil, "\(String(describing: r.error))")
            #expect(r.devices.map(\.name) == ["first", "idle", "third"])
            // The tie at 0.010000 goes to the earlier device.
            #expect(values(r.events) == ["0:1", "2:4", "0:2", "2:5", "2:6", "0:3"])
        }
    }

    @Test(arguments: [true, false])
    func convertReadsDeviceByDevice(rereadable: Bool) {
        var options = TraceReaderOptions()
        options.deviceOrder = .device
        let r = Self.read(Self.recording(ndevices: 3, Self.overlapping), rereadable: rereadable, options: options)
        #expect(r.error == nil)
        #expect(values(r.events) == ["0:1", "0:2", "0:3", "2:4", "2:5", "2:6"])
    }

    /// Two real recordings as `libinput record --all` would have written them together: each
    /// device gives exactly the events of its own file, and the whole is in time order.
    @Test(arguments: [true, false])
    func twoRealDevices(rereadable: Bool) throws {
        let atmel = "libinput-record/Atmel maXTouch Touchscreen.1-finger-fast-taps.yml"
        let ep = "libinput-record/EP0430M09.2-finger-scroll-down.yml"
        let bytes = try twoDeviceRecording(atmel, ep)
        let r = Self.read(bytes, rereadable: rereadable)
        #expect(r.error == nil, "\(String(describing: r.error))")
        let alone = [try readShared(atmel), try readShared(ep)]
        #expect(r.devices.map(\.name) == alone.map { $0.devices[0].name })
        #expect(r.devices[1].absinfo == alone[1].devices[0].absinfo)
        for device in 0..<2 {
            #expect(r.events.filter { $0.device == device }.map(\.event) == alone[device].events.map(\.event))
        }
        let times = r.events.map(\.event.time)
        #expect(times == times.sorted())
        #expect(Set(r.events.prefix(100).map(\.device)) == [0, 1], "the devices' events are interleaved")
    }

    /// A bad row ends its device's events: the merged stream stops when it needs that
    /// device's next event, with the error naming the line, the same from a file or a pipe.
    @Test(arguments: [true, false])
    func aBadRowEndsTheStreamWhereItsDeviceIsNeeded(rereadable: Bool) {
        var sections = Self.overlapping
        sections[2].rows[1] = "- [0, 10000, 3, 1]"
        let r = Self.read(Self.recording(ndevices: 3, sections), rereadable: rereadable)
        #expect(values(r.events) == ["0:1", "2:4"])
        #expect(r.error?.line == 46, "\(String(describing: r.error))")
        #expect(r.error?.message.contains("with 5 numbers, but after number 4 found ']'") == true)
    }

    @Test(arguments: [true, false])
    func ndevicesMustMatch(rereadable: Bool) {
        let tooFew = Self.read(Self.recording(ndevices: 2, Self.overlapping), rereadable: rereadable)
        #expect(tooFew.error?.message.contains("'ndevices: 2'") == true, "\(String(describing: tooFew.error))")
        #expect(tooFew.events.isEmpty)
        let tooMany = Self.read(Self.recording(ndevices: 4, Self.overlapping), rereadable: rereadable)
        #expect(tooMany.error?.message.contains("'ndevices: 4'") == true, "\(String(describing: tooMany.error))")
    }

    /// `ndevices: 1` streams as it always did; a second device is then an error, not a crash.
    @Test func oneDeclaredDeviceStreamsWithoutAWalk() throws {
        let one = Self.recording(ndevices: 1, [Self.overlapping[0]])
        let reader = try TraceReader.open(path: "one.yml", openFile: { _ in BytesSource(one) }, fileExists: { _ in false })
        #expect(reader.merge == nil)
        let r = Self.read(Self.recording(ndevices: 1, Self.overlapping), rereadable: true)
        #expect(values(r.events) == ["0:1", "0:2", "0:3"])
        #expect(r.error?.message.contains("'ndevices: 1'") == true)
    }

    /// When the first event is the last declared device's, every device is known: it streams,
    /// even from a pipe with nothing held.
    @Test func theLastDeviceAloneWithEventsStreams() throws {
        let sections = [Section(name: "idle", rows: []), Self.overlapping[2]]
        var options = TraceReaderOptions()
        options.maxBufferedEvents = 0
        let r = Self.read(Self.recording(ndevices: 2, sections), rereadable: false, options: options)
        #expect(r.error == nil, "\(String(describing: r.error))")
        #expect(r.devices.map(\.name) == ["idle", "third"])
        #expect(values(r.events) == ["1:4", "1:5", "1:6"])
    }

    /// From a pipe, the devices before the last are held in memory up to a cap; the last
    /// streams when `ndevices` says which it is.
    @Test func aPipeHoldsAtMostTheCap() {
        var options = TraceReaderOptions()
        options.maxBufferedEvents = 3
        let fits = Self.read(Self.recording(ndevices: 3, Self.overlapping), rereadable: false, options: options)
        #expect(fits.error == nil)
        #expect(fits.events.count == 6)
        options.maxBufferedEvents = 2
        let over = Self.read(Self.recording(ndevices: 3, Self.overlapping), rereadable: false, options: options)
        #expect(over.error?.message.contains("held in memory up to 2 events") == true, "\(String(describing: over.error))")
        #expect(over.events.isEmpty)
        // Without ndevices, the last device is known only at the end: every device is held.
        options.maxBufferedEvents = 5
        let undeclared = Self.read(Self.recording(ndevices: nil, Self.overlapping), rereadable: false, options: options)
        #expect(undeclared.error?.message.contains("held in memory up to 5 events") == true)
        // A regular file holds nothing.
        options.maxBufferedEvents = 0
        #expect(Self.read(Self.recording(ndevices: nil, Self.overlapping), rereadable: true, options: options).events.count == 6)
    }

    @Test func tooManyDevicesIsAnError() {
        var options = TraceReaderOptions()
        options.maxDevices = 2
        let r = Self.read(Self.recording(ndevices: nil, Self.overlapping), rereadable: true, options: options)
        #expect(r.error?.message.contains("at most 2 devices") == true, "\(String(describing: r.error))")
    }
}

/// `libinput record --all` of two shared recordings: the first file with `ndevices: 2`, then
/// the second's device section. Built at run time: the shared traces stay out of the repo.
func twoDeviceRecording(_ first: String, _ second: String) throws -> [UInt8] {
    let a = String(decoding: try Paths.traceBytes(first), as: UTF8.self)
    let b = String(decoding: try Paths.traceBytes(second), as: UTF8.self)
    guard let node = b.range(of: "\n- node:") else { throw TestFailure("\(second): no '- node:' line") }
    let combined = a.replacingOccurrences(of: "\nndevices: 1\n", with: "\nndevices: 2\n")
        + String(b[b.index(after: node.lowerBound)...]).replacingOccurrences(of: "/dev/input/event1", with: "/dev/input/event2")
    return Array(combined.utf8)
}
