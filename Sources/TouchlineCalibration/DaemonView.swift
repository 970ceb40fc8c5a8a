import TouchlineCore
import TouchlineGestures

// `touchline calibrate --daemon` (docs/calibrate.md#from-a-running-daemon): when a daemon holds
// the touchscreen (pass-through grabs it), calibrate reads the device through the daemon's
// socket, as `touchline view` does: each device's line (`{"view":"device",…,"native":{…}}`,
// what the device says of itself) and every frame with the positions as the device reported
// them (docs/view.md). Every byte of it comes from another process: a line is a device, a
// frame, something else, or an error that says what is wrong, never a trap. The touches are
// then found as on the device itself: the default graph's taps (CalibrationTouches), on the
// frames rebuilt from the raw positions.

/// One line of the daemon's view subscription, as calibrate reads it.
public enum DaemonViewLine: Sendable, Equatable {
    /// A device's line: its number, and the device as it describes itself (nil when the line
    /// has no `native`: a daemon older than calibrate --daemon).
    case device(Int, CalibratedDevice?)
    /// A frame of device `device`: the contacts at the positions the device reported (mm on
    /// the panel, native axes), its phases and ids as the daemon assembled them.
    case frame(device: Int, TouchFrame)
    /// `{"dropped":N,…}`: the daemon dropped N lines for this client (frames among them).
    case dropped(Int)
    /// Anything else (events, decision lines, pass-through holds): not calibrate's.
    case other
}

public struct DaemonViewError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

public enum DaemonView {
    /// The longest line calibrate reads (a frame of 2 048 contacts is about 400 KiB).
    public static let maximumLineBytes = 1 << 20
    /// As the socket's own: device numbers the daemon gives (docs/live.md).
    public static let maximumDeviceNumber = 999_999
    /// Twice the assembler's largest `maxContacts`: the contacts down and those ending.
    public static let maximumContacts = 2048
    /// Wider than any panel (a wall display is 3 m across): a size beyond is not a panel's.
    public static let maximumMillimetres = 100_000.0

    /// `{"subscribe":{"view":true}}` (and `"devices":[N]` for one device), with its newline.
    public static func subscription(device: Int?) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.beginObject()
        w.beginObject("subscribe")
        w.field("view", true)
        if let device {
            w.beginArray("devices")
            w.bytes.append(contentsOf: String(device).utf8)
            w.endArray()
        }
        w.endObject()
        w.endObject()
        w.newline()
        return w.bytes
    }

    /// Reads one line (without its newline).
    public static func parse(_ line: ArraySlice<UInt8>) -> Result<DaemonViewLine, DaemonViewError> {
        guard line.count <= maximumLineBytes else { return .failure(DaemonViewError("a line of \(line.count) bytes; at most \(maximumLineBytes)")) }
        let value: JSONValue
        do {
            value = try JSONReader.read(line, maximumDepth: 8)
        } catch {
            return .failure(DaemonViewError("not JSON: \(error)"))
        }
        guard case .object(let members) = value else { return .failure(DaemonViewError("expected an object, found \(kind(of: value))")) }
        do {
            if case .string("device")? = members.value("view") {
                let index = try integer(members.value("device"), "device", 0...Int64(maximumDeviceNumber))
                guard let native = members.value("native") else { return .success(.device(Int(index), nil)) }
                return .success(.device(Int(index), try device(native)))
            }
            // Event lines (`"v":1`, docs/events.md) name their contacts too, by number.
            if members.value("v") != nil { return .success(.other) }
            if let contacts = members.value("contacts") {
                let index = try integer(members.value("device"), "device", 0...Int64(maximumDeviceNumber))
                return .success(.frame(device: Int(index), try frame(time: members.value("time"), contacts: contacts, raw: members.value("raw"),
                                                                    afterDrop: members.value("afterDrop") == .bool(true))))
            }
            if let dropped = members.value("dropped") {
                return .success(.dropped(Int(try integer(dropped, "dropped", 0...Int64(Int32.max)))))
            }
        } catch {
            return .failure(error)
        }
        return .success(.other)
    }

    static func device(_ value: JSONValue) throws(DaemonViewError) -> CalibratedDevice {
        guard case .object(let members) = value else { throw DaemonViewError("native: expected an object, found \(kind(of: value))") }
        guard case .string(let name)? = members.value("name") else { throw DaemonViewError("native.name: expected a string, found \(kind(of: members.value("name")))") }
        // The daemon cuts a name at 255 bytes; a longer one is not the daemon's.
        guard name.utf8.count <= 255 else { throw DaemonViewError("native.name: \(name.utf8.count) bytes; at most 255") }
        let vendor = try integer(members.value("vendor"), "native.vendor", 0...0xffff)
        let product = try integer(members.value("product"), "native.product", 0...0xffff)
        let int32 = Int64(Int32.min)...Int64(Int32.max)
        let xMin = try integer(members.value("xMin"), "native.xMin", int32), xMax = try integer(members.value("xMax"), "native.xMax", int32)
        let yMin = try integer(members.value("yMin"), "native.yMin", int32), yMax = try integer(members.value("yMax"), "native.yMax", int32)
        let width = try number(members.value("width"), "native.width", positive: true)
        let height = try number(members.value("height"), "native.height", positive: true)
        return CalibratedDevice(name: name, vendor: UInt16(vendor), product: UInt16(product), xSpan: Double(max(0, xMax - xMin)),
                                ySpan: Double(max(0, yMax - yMin)), sensor: Size(width: width, height: height))
    }

    static func frame(time: JSONValue?, contacts: JSONValue, raw: JSONValue?, afterDrop: Bool) throws(DaemonViewError) -> TouchFrame {
        let seconds = try number(time, "time", positive: false)
        // Microseconds, as the line writes them (6 decimals); a day of seconds is far in range.
        guard seconds <= 1e12 else { throw DaemonViewError("time: \(seconds) s; at most 1e12") }
        guard case .array(let list) = contacts else { throw DaemonViewError("contacts: expected a list, found \(kind(of: contacts))") }
        guard list.count <= maximumContacts else { throw DaemonViewError("contacts: \(list.count); at most \(maximumContacts)") }
        var positions: [(id: Int64, x: Double, y: Double)]?
        if let raw {
            guard case .array(let rawList) = raw, rawList.count == list.count else {
                throw DaemonViewError("raw: expected a list as long as contacts (\(list.count))")
            }
            var found: [(id: Int64, x: Double, y: Double)] = []
            for (i, element) in rawList.enumerated() {
                guard case .object(let m) = element else { throw DaemonViewError("raw[\(i)]: expected an object, found \(kind(of: element))") }
                found.append((try integer(m.value("id"), "raw[\(i)].id", 0...Int64(UInt32.max)),
                               try number(m.value("x"), "raw[\(i)].x", positive: false), try number(m.value("y"), "raw[\(i)].y", positive: false)))
            }
            positions = found
        }
        var out: [Contact] = []
        out.reserveCapacity(list.count)
        for (i, element) in list.enumerated() {
            guard case .object(let m) = element else { throw DaemonViewError("contacts[\(i)]: expected an object, found \(kind(of: element))") }
            let id = try integer(m.value("id"), "contacts[\(i)].id", 0...Int64(UInt32.max))
            guard case .string(let phaseName)? = m.value("phase"), let phase = ContactPhase.allCases.first(where: { "\($0.staticName)" == phaseName }) else {
                throw DaemonViewError("contacts[\(i)].phase: expected began, moved, stationary, ended or cancelled")
            }
            var tool = ContactTool.finger
            if let given = m.value("tool") {
                guard case .string(let name) = given, let found = [ContactTool.finger, .pen, .palm].first(where: { "\($0.staticName)" == name }) else {
                    throw DaemonViewError("contacts[\(i)].tool: expected finger, pen or palm")
                }
                tool = found
            }
            var position = Point(x: try number(m.value("x"), "contacts[\(i)].x", positive: false, signed: true),
                                 y: try number(m.value("y"), "contacts[\(i)].y", positive: false, signed: true))
            if let positions {
                guard positions[i].id == id else { throw DaemonViewError("raw[\(i)].id: \(positions[i].id), but contacts[\(i)].id is \(id)") }
                position = Point(x: positions[i].x, y: positions[i].y)
            }
            out.append(Contact(id: ContactID(UInt32(id)), phase: phase, position: position, normalized: Point(x: 0, y: 0), tool: tool))
        }
        return TouchFrame(time: Timestamp(microseconds: Int64((seconds * 1_000_000).rounded())), contacts: out, afterDrop: afterDrop)
    }

    static func integer(_ value: JSONValue?, _ key: String, _ range: ClosedRange<Int64>) throws(DaemonViewError) -> Int64 {
        guard case .integer(let n)? = value, range.contains(n) else {
            throw DaemonViewError("\(key): expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(kind(of: value))")
        }
        return n
    }

    /// `signed`: a position after the daemon's device transform, which does not clamp (a
    /// calibration's offset puts a touch at an edge a little below 0 mm): any finite value
    /// within ±`maximumMillimetres`.
    static func number(_ value: JSONValue?, _ key: String, positive: Bool, signed: Bool = false) throws(DaemonViewError) -> Double {
        let n: Double
        switch value {
        case .integer(let i)?: n = Double(i)
        case .number(let d)?: n = d
        default: throw DaemonViewError("\(key): expected a number, found \(kind(of: value))")
        }
        if signed {
            guard n.isFinite, n.magnitude <= maximumMillimetres else {
                throw DaemonViewError("\(key): \(n) is out of range (from -\(Int(maximumMillimetres)) to \(Int(maximumMillimetres)))")
            }
            return n
        }
        guard n.isFinite, positive ? n > 0 : n >= 0, n <= maximumMillimetres || key == "time" else {
            throw DaemonViewError("\(key): \(n) is out of range (\(positive ? "more than" : "at least") 0\(key == "time" ? "" : ", at most \(Int(maximumMillimetres))"))")
        }
        return n
    }

    static func kind(of value: JSONValue?) -> String {
        switch value {
        case nil: return "nothing"
        case .null?: return "null"
        case .bool?: return "a boolean"
        case .integer(let n)?: return String(n)
        case .number(let d)?: return "\(d)"
        case .string?: return "a string"
        case .array?: return "a list"
        case .object?: return "an object"
        }
    }
}

/// A calibration's touches among a device's frames, as on the device itself: the default
/// graph's one-finger taps (or long presses held still) on the panel, native axes. Time is the
/// frames': `advance` moves it on between frames (a tap is told once the double tap's wait is
/// over), so the caller decides how time passes.
public struct FrameTouches: Sendable {
    var driver: GraphDriver
    let sensor: Size

    public init(sensor: Size) throws(DaemonViewError) {
        self.sensor = sensor
        do {
            driver = try GraphDriver(configuration: .default, surface: sensor)
        } catch {
            throw DaemonViewError("the default graph on a panel of \(sensor): \(error)")
        }
    }

    /// The touches (mm on the panel) this frame completes.
    public mutating func feed(_ frame: TouchFrame) -> [Point] {
        var frame = frame
        // As the assembler gives them (the line's nx, ny are after the daemon's transform).
        for i in frame.contacts.indices {
            let p = frame.contacts[i].position
            frame.contacts[i].normalized = Point(x: p.x / sensor.width, y: p.y / sensor.height)
        }
        var found: [Point] = []
        driver.feed(frame) { if let p = CalibrationTouches.position(of: $0) { found.append(p) } }
        return found
    }

    /// The touches whose deadlines fall by `time`.
    public mutating func advance(to time: Timestamp) -> [Point] {
        var found: [Point] = []
        driver.advance(to: time) { if let p = CalibrationTouches.position(of: $0) { found.append(p) } }
        return found
    }

    /// The graph's next deadline (a tap waiting out its double tap), nil when none.
    public var nextDeadline: Timestamp? { driver.graph.nextDeadline }
    /// The latest time seen.
    public var time: Timestamp? { driver.time }
}
