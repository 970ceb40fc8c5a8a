// The assembled view of touch input that recognizers see: frames of contacts with stable ids,
// phases, millimetres and normalized pressure. Recognizers never see raw evdev (principle 8).

/// A contact's id, stable for the contact's whole life and never reused within one assembler
/// (unlike kernel tracking ids and slots, which are).
public struct ContactID: BitwiseCopyable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var raw: UInt32
    @inlinable public init(_ raw: UInt32) { self.raw = raw }
    @inlinable public static func < (a: ContactID, b: ContactID) -> Bool { a.raw < b.raw }
    public var description: String { "c\(raw)" }
}

/// Where a contact is in its life, as UIKit's UITouch.Phase names it.
public enum ContactPhase: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// First frame of the contact.
    case began
    /// The contact moved since the previous frame.
    case moved
    /// The contact is down and did not move.
    case stationary
    /// The finger lifted; this is the contact's last frame.
    case ended
    /// The contact vanished without a lift the device reported (SYN_DROPPED resync, device
    /// removed); this is its last frame.
    case cancelled

    public var description: String { "\(staticName)" }

    /// The phase's name as a static string, for the JSON writer (no String per frame).
    @inlinable public var staticName: StaticString {
        switch self {
        case .began: return "began"
        case .moved: return "moved"
        case .stationary: return "stationary"
        case .ended: return "ended"
        case .cancelled: return "cancelled"
        }
    }

    /// True for the last frame of a contact.
    @inlinable public var isFinal: Bool { self == .ended || self == .cancelled }
}

/// What made a contact, as the kernel says (`ABS_MT_TOOL_TYPE`: `MT_TOOL_FINGER` 0,
/// `MT_TOOL_PEN` 1, `MT_TOOL_PALM` 2; `BTN_TOOL_PEN`/`BTN_TOOL_RUBBER` on a single-touch pen).
/// A type the kernel may add later (`MT_TOOL_DIAL` 10) is a finger here: it touches like one.
public enum ContactTool: UInt8, BitwiseCopyable, Sendable, CaseIterable, CustomStringConvertible {
    case finger = 0
    case pen = 1
    case palm = 2

    /// The tool of an `ABS_MT_TOOL_TYPE` value.
    @inlinable public init(mtToolType value: Int32) {
        switch value {
        case 1: self = .pen
        case 2: self = .palm
        default: self = .finger
        }
    }

    @inlinable public var staticName: StaticString {
        switch self {
        case .finger: return "finger"
        case .pen: return "pen"
        case .palm: return "palm"
        }
    }
    public var description: String { "\(staticName)" }
}

/// One finger (or tool) in one frame.
public struct Contact: Hashable, Sendable {
    public var id: ContactID
    public var phase: ContactPhase
    /// Finger, pen or palm (a byte beside `phase`: the contact is no larger).
    public var tool: ContactTool
    /// Position in mm from the sensor's top-left corner.
    public var position: Point
    /// Position normalized to 0...1 over the axis range (x right, y down).
    public var normalized: Point
    /// Pressure normalized to 0...1, when the device reports pressure.
    public var pressure: Pressure?
    /// Contact size along its major and minor axes in mm (kernel: ABS_MT_TOUCH_MAJOR/MINOR), when
    /// reported.
    public var touchMajor: Millimetres?
    public var touchMinor: Millimetres?
    /// The kernel slot this contact came from (protocol B), or its index in a protocol A report;
    /// -1 for single touch. For diagnostics only.
    public var slot: Int32

    public init(
        id: ContactID, phase: ContactPhase, position: Point, normalized: Point,
        pressure: Pressure? = nil, touchMajor: Millimetres? = nil, touchMinor: Millimetres? = nil, slot: Int32 = -1,
        tool: ContactTool = .finger
    ) {
        self.id = id
        self.phase = phase
        self.tool = tool
        self.position = position
        self.normalized = normalized
        self.pressure = pressure
        self.touchMajor = touchMajor
        self.touchMinor = touchMinor
        self.slot = slot
    }
}

/// Everything that was true at one SYN_REPORT: the time and every live contact, plus the
/// contacts that ended or were cancelled in this frame (their last appearance).
///
/// Contacts are sorted by id. The assembler reuses one frame's storage, so that a steady stream
/// of frames allocates nothing; copy a frame to keep it.
public struct TouchFrame: Hashable, Sendable {
    public var time: Timestamp
    public var contacts: [Contact]
    /// `afterDrop` and `hasPalm` in one byte: a frame stays 17 bytes, as before `hasPalm` (at 18
    /// every copy of a frame took more instructions, docs/performance.md).
    @usableFromInline var flags: UInt8 = 0

    /// True when this frame follows a SYN_DROPPED resync: contacts that vanished are in it as
    /// cancelled.
    @inlinable public var afterDrop: Bool {
        get { flags & 1 != 0 }
        set { flags = newValue ? flags | 1 : flags & ~1 }
    }
    /// True when a contact of this frame is a palm (`MT_TOOL_PALM`): the graph looks at the
    /// tools only then, so a frame of fingers costs one test (docs/gestures.md#palms).
    @inlinable public var hasPalm: Bool {
        get { flags & 2 != 0 }
        set { flags = newValue ? flags | 2 : flags & ~2 }
    }

    public init(time: Timestamp, contacts: [Contact] = [], afterDrop: Bool = false) {
        self.time = time
        self.contacts = contacts
        self.afterDrop = afterDrop
        hasPalm = contacts.contains { $0.tool == .palm }
    }

    /// Contacts still down after this frame (neither ended nor cancelled).
    @inlinable public var activeCount: Int {
        var n = 0
        for c in contacts where !c.phase.isFinal { n += 1 }
        return n
    }
}

/// How device units become millimetres. Resolution comes from absinfo; when a device reports
/// resolution 0 (many touchscreens do: Atmel maXTouch, N-Trig, Wacom ISDv4), the size comes
/// from, in order: a size the user gives (`--size WxH`), else an assumed density of
/// `fallbackUnitsPerMillimetre`, and a warning says which.
public struct SurfaceGeometry: Hashable, Sendable {
    public enum Source: String, Sendable {
        /// Both axes' absinfo resolution.
        case resolution
        /// A size the user gave.
        case userSize
        /// The assumed density, because the device reports none.
        case assumed
    }

    public var xMinimum: Double
    public var yMinimum: Double
    public var xSpan: Double
    public var ySpan: Double
    /// Device units per mm on each axis.
    public var xUnitsPerMillimetre: Double
    public var yUnitsPerMillimetre: Double
    public var source: Source

    /// The assumed density when a device has no resolution: 96 dpi ≈ 3.78 units/mm would make a
    /// 32767-unit axis 8.7 m wide, so a density is useless for high-resolution digitizers. The
    /// fallback instead assumes the axis range spans `fallbackDiagonal` (a 10.1" tablet, the
    /// middle of the kiosk/tablet range), with the aspect ratio of the axis ranges; a warning
    /// says so and `--size WxH` overrides it.
    public static let fallbackDiagonal = Millimetres(256.5)

    /// The plausible sensor diagonals (a watch to a wall display): a size from the device's
    /// resolution outside them is not believed (the fallback diagonal is used, with a warning).
    public static let plausibleDiagonal: ClosedRange<Double> = 20...3000

    /// Warnings about the size: assumed, not plausible, or overridden by `--size`.
    public private(set) var warnings: [String] = []

    public init(device: DeviceDescription, userSize: Size? = nil) {
        let x = device.xAxis ?? AbsInfo(minimum: 0, maximum: 0)
        let y = device.yAxis ?? AbsInfo(minimum: 0, maximum: 0)
        xMinimum = Double(x.minimum)
        yMinimum = Double(y.minimum)
        // A zero span would divide by zero; treat a degenerate axis as one unit wide.
        xSpan = max(1, x.span)
        ySpan = max(1, y.span)
        let hasResolution = x.resolution > 0 && y.resolution > 0
        let reported = Size(width: xSpan / Double(max(1, x.resolution)), height: ySpan / Double(max(1, y.resolution)))
        let diagonal = (reported.width * reported.width + reported.height * reported.height).squareRoot()
        let plausible = hasResolution && SurfaceGeometry.plausibleDiagonal.contains(diagonal)
        if let size = userSize, size.width > 0, size.height > 0 {
            xUnitsPerMillimetre = xSpan / size.width
            yUnitsPerMillimetre = ySpan / size.height
            source = .userSize
            if hasResolution {
                warnings.append("--size \(size) overrides the size from the device's resolution (\(reported)\(plausible ? "" : ", not plausible"))")
            }
        } else if plausible {
            xUnitsPerMillimetre = Double(x.resolution)
            yUnitsPerMillimetre = Double(y.resolution)
            source = .resolution
        } else {
            let diagonalUnits = (xSpan * xSpan + ySpan * ySpan).squareRoot()
            let unitsPerMM = diagonalUnits / SurfaceGeometry.fallbackDiagonal.value
            xUnitsPerMillimetre = unitsPerMM
            yUnitsPerMillimetre = unitsPerMM
            source = .assumed
            let assumed = "assuming a \(formatFixed(SurfaceGeometry.fallbackDiagonal.value / 25.4, decimals: 1))\" diagonal (\(size)); pass --size WxH in mm for real distances"
            if hasResolution {
                let range = "\(formatFixed(SurfaceGeometry.plausibleDiagonal.lowerBound, decimals: 0)) mm to \(formatFixed(SurfaceGeometry.plausibleDiagonal.upperBound / 1000, decimals: 0)) m"
                warnings.append("the device's resolution (x \(x.resolution), y \(y.resolution) units/mm) gives \(reported), not a plausible sensor (\(range) across); \(assumed)")
            } else {
                warnings.append("the device reports no resolution; \(assumed)")
            }
        }
    }

    /// The sensor's size in mm.
    public var size: Size { Size(width: xSpan / xUnitsPerMillimetre, height: ySpan / yUnitsPerMillimetre) }

    @inlinable public func millimetres(x: Int32, y: Int32) -> Point {
        Point(x: (Double(x) - xMinimum) / xUnitsPerMillimetre, y: (Double(y) - yMinimum) / yUnitsPerMillimetre)
    }

    @inlinable public func normalized(x: Int32, y: Int32) -> Point {
        Point(x: (Double(x) - xMinimum) / xSpan, y: (Double(y) - yMinimum) / ySpan)
    }

    /// The warnings as one sentence, nil when there are none.
    public var warning: String? { warnings.isEmpty ? nil : warnings.joined(separator: "; ") }
}
