import Testing
import TouchlineCalibration
import TouchlineCore
import TouchlineGestures

// `calibrate --daemon`'s reading of the daemon's view lines (docs/view.md, docs/calibrate.md):
// the device line's `native` is the device calibrate fits, a frame's contacts stand at their
// `raw` positions, anything else is passed over, and a line that is wrong says which field.
// Then a tap in rebuilt frames is a touch, told once the double tap's wait is over.

@Suite struct DaemonViewTests {
    func parse(_ text: String) -> Result<DaemonViewLine, DaemonViewError> { DaemonView.parse(Array(text.utf8)[...]) }
    func error(_ text: String) -> String? {
        if case .failure(let e) = parse(text) { return e.description }
        return nil
    }

    static let deviceLine = #"{"view":"device","device":2,"width":135.00,"height":216.00,"native":{"name":"Calibration \"Test\" Panel","vendor":3823,"product":1,"xMin":0,"xMax":2160,"yMin":0,"yMax":1350,"width":216.0000,"height":135.0000},"targets":[],"recognizers":[]}"#

    @Test func theDeviceLinesNativeIsTheDeviceCalibrated() throws {
        let expected = CalibratedDevice(name: "Calibration \"Test\" Panel", vendor: 3823, product: 1, xSpan: 2160, ySpan: 1350, sensor: Size(width: 216, height: 135))
        #expect(try parse(Self.deviceLine).get() == .device(2, expected))
        // A daemon older than calibrate --daemon: the device, without what calibrate needs.
        #expect(try parse(#"{"view":"device","device":0,"width":1.00,"height":1.00,"targets":[],"recognizers":[]}"#).get() == .device(0, nil))
    }

    @Test func aFramesContactsStandAtTheirRawPositions() throws {
        let line = #"{"time":1.250000,"device":2,"contacts":[{"id":7,"phase":"began","slot":0,"x":10.00,"y":20.00,"nx":0.1,"ny":0.2}],"raw":[{"id":7,"x":30.50,"y":40.25}]}"#
        guard case .frame(let device, let frame) = try parse(line).get() else { Issue.record("not a frame"); return }
        #expect(device == 2)
        #expect(frame.time == Timestamp(microseconds: 1_250_000))
        #expect(frame.contacts.map(\.position) == [Point(x: 30.5, y: 40.25)])
        #expect(frame.contacts.map(\.phase) == [.began] && frame.contacts.map(\.id) == [ContactID(7)])
        // No `raw`: the daemon's settings moved nothing, the positions are the device's.
        guard case .frame(_, let plain) = try parse(#"{"time":2,"device":0,"contacts":[{"id":1,"phase":"ended","tool":"pen","x":1.5,"y":2}]}"#).get() else { return }
        #expect(plain.contacts.map(\.position) == [Point(x: 1.5, y: 2)] && plain.contacts.map(\.tool) == [.pen])
        #expect(try parse(#"{"v":1,"seq":3,"time":0.1,"device":0,"gesture":"tap","contacts":[0]}"#).get() == .other)
        #expect(try parse(#"{"dropped":4,"total":9}"#).get() == .dropped(4))
    }

    /// The daemon's device transform does not clamp: with a calibration's offset a touch at an
    /// edge stands a little below 0 mm after it (the raw position, which calibrate reads, is the
    /// device's own). Such a frame is read, not refused (a corner of `--corners --daemon`).
    @Test func aFrameWhoseTransformedPositionIsBelowZeroIsRead() throws {
        let line = #"{"time":3,"device":0,"contacts":[{"id":4,"phase":"began","x":-2.75,"y":-0.5}],"raw":[{"id":4,"x":0.00,"y":1.25}]}"#
        guard case .frame(_, let frame) = try parse(line).get() else { Issue.record("not a frame"); return }
        #expect(frame.contacts.map(\.position) == [Point(x: 0, y: 1.25)])
        guard case .frame(_, let plain) = try parse(#"{"time":3,"device":0,"contacts":[{"id":4,"phase":"moved","x":-2.75,"y":300}]}"#).get() else { return }
        #expect(plain.contacts.map(\.position) == [Point(x: -2.75, y: 300)])
        #expect(error(#"{"time":3,"device":0,"contacts":[{"id":4,"phase":"moved","x":-200000,"y":1}]}"#) == "contacts[0].x: -200000.0 is out of range (from -100000 to 100000)")
    }

    @Test func aWrongLineSaysWhichField() {
        #expect(error("{\"view\":\"device\"")?.hasPrefix("not JSON: ") == true)
        #expect(error("[1]") == "expected an object, found a list")
        #expect(error(Self.deviceLine.replacing(#""vendor":3823"#, with: #""vendor":70000"#)) == "native.vendor: expected a whole number from 0 to 65535, found 70000")
        #expect(error(Self.deviceLine.replacing(#""width":216.0000"#, with: #""width":0"#)) == "native.width: 0.0 is out of range (more than 0, at most 100000)")
        #expect(error(Self.deviceLine.replacing(#""name":"Calibration \"Test\" Panel""#, with: #""name":7"#)) == "native.name: expected a string, found 7")
        let long = String(repeating: "é", count: 128)
        #expect(error(Self.deviceLine.replacing(#"Calibration \"Test\" Panel"#, with: long)) == "native.name: 256 bytes; at most 255")
        #expect(error(#"{"time":1,"device":0,"contacts":[{"id":1,"phase":"began","x":1,"y":1}],"raw":[]}"#) == "raw: expected a list as long as contacts (1)")
        #expect(error(#"{"time":1,"device":0,"contacts":[{"id":1,"phase":"began","x":1,"y":1}],"raw":[{"id":2,"x":1,"y":1}]}"#) == "raw[0].id: 2, but contacts[0].id is 1")
        #expect(error(#"{"time":1,"device":0,"contacts":[{"id":1,"phase":"landed","x":1,"y":1}]}"#) == "contacts[0].phase: expected began, moved, stationary, ended or cancelled")
        #expect(error(#"{"time":-1,"device":0,"contacts":[]}"#) == "time: -1.0 is out of range (at least 0)")
        #expect(error(#"{"time":1,"device":1000000,"contacts":[]}"#) == "device: expected a whole number from 0 to 999999, found 1000000")
        #expect(error(String(repeating: " ", count: DaemonView.maximumLineBytes + 1)) == "a line of 1048577 bytes; at most 1048576")
    }

    @Test func theSubscriptionAsksForTheViewOfOneDeviceOrAll() {
        #expect(String(decoding: DaemonView.subscription(device: nil), as: UTF8.self) == "{\"subscribe\":{\"view\":true}}\n")
        #expect(String(decoding: DaemonView.subscription(device: 3), as: UTF8.self) == "{\"subscribe\":{\"view\":true,\"devices\":[3]}}\n")
    }

    /// A one-finger tap in rebuilt frames: the default graph's touch, at the press, once time
    /// has passed the double tap's wait (as the device path tells it).
    @Test func aTapInTheFramesIsATouchOnceItsWaitIsOver() throws {
        var finder = try FrameTouches(sensor: Size(width: 216, height: 135))
        func frame(_ ms: Int64, _ phase: ContactPhase) -> TouchFrame {
            TouchFrame(time: Timestamp(microseconds: ms * 1000),
                       contacts: [Contact(id: ContactID(1), phase: phase, position: Point(x: 21.6, y: 13.5), normalized: Point(x: 0, y: 0))])
        }
        var found = finder.feed(frame(500, .began)) + finder.feed(frame(580, .ended))
        if let deadline = finder.nextDeadline { found += finder.advance(to: deadline) }
        #expect(found == [Point(x: 21.6, y: 13.5)])
        #expect(finder.nextDeadline == nil)
    }
}
