import TouchlineCore

/// Scripted touches in millimetres, turned into the frames a touchscreen would send at `rate`
/// Hz. Fingers are named by small integers; each `down` gets a fresh ContactID, as the frame
/// assembler gives. Time is virtual: `wait` lets it pass without frames (a still finger sends
/// nothing, as evdev does), `move` sends a frame every 1/rate s and one at the exact end.
public struct TouchScript: Sendable {
    public static let defaultSurface = Size(width: 200, height: 120)

    public let rate: Double
    public let surface: Size
    public private(set) var time: Timestamp
    public private(set) var frames: [TouchFrame] = []

    struct Finger: Sendable {
        var name: Int
        var id: ContactID
        var position: Point
        /// Normalized 0…1, as the frame assembler gives; nil: the device reports none.
        var pressure: Double?
        /// Touch major in mm; nil: the device reports none.
        var touchMajor: Double?
    }
    var fingers: [Finger] = []
    var nextID: UInt32 = 0

    public init(rate: Double = 120, surface: Size = TouchScript.defaultSurface, start: Timestamp = .zero) {
        self.rate = rate
        self.surface = surface
        self.time = start
    }

    public var fingersDown: Int { fingers.count }

    /// The position of a finger that is down.
    public func position(of finger: Int) -> Point? { fingers.first { $0.name == finger }?.position }

    /// Puts fingers down in one frame at the current time, with a pressure (normalized) and a
    /// touch major (mm) when given: a device that reports neither leaves them out.
    public mutating func down(_ touches: [(Int, Point)], pressure: Double? = nil, touchMajor: Double? = nil) {
        var changed: [(ContactID, ContactPhase)] = []
        for (name, point) in touches {
            precondition(position(of: name) == nil, "finger \(name) is already down")
            let id = ContactID(nextID)
            nextID += 1
            fingers.append(Finger(name: name, id: id, position: point, pressure: pressure, touchMajor: touchMajor))
            changed.append((id, .began))
        }
        emitFrame(changed)
    }

    public mutating func down(_ finger: Int, at point: Point, pressure: Double? = nil, touchMajor: Double? = nil) {
        down([(finger, point)], pressure: pressure, touchMajor: touchMajor)
    }

    /// Presses a finger in place from its pressure (and touch major) to the given ones over
    /// `milliseconds`, in a straight line: frames every 1/rate s, the last at the end, where
    /// the finger does not move (its phase is `stationary`, as the frame assembler gives when
    /// only the pressure changed).
    public mutating func press(_ finger: Int, pressure: Double? = nil, touchMajor: Double? = nil, over milliseconds: Double) {
        guard let i = fingers.firstIndex(where: { $0.name == finger }) else { preconditionFailure("finger \(finger) is not down") }
        let p0 = fingers[i].pressure, m0 = fingers[i].touchMajor
        let start = time
        let totalMicroseconds = (milliseconds * 1000).rounded()
        let steps = max(1, Int((milliseconds * rate / 1000).rounded(.up)))
        for k in 1...steps {
            let progress = Double(k) / Double(steps)
            time = start + Interval(microseconds: Int64((totalMicroseconds * progress).rounded()))
            if let p = pressure { fingers[i].pressure = (p0 ?? 0) + (p - (p0 ?? 0)) * progress }
            if let m = touchMajor { fingers[i].touchMajor = (m0 ?? 0) + (m - (m0 ?? 0)) * progress }
            emitFrame([])
        }
    }

    /// Lifts fingers in one frame at the current time.
    public mutating func up(_ names: [Int]) {
        var changed: [(ContactID, ContactPhase)] = []
        for name in names {
            guard let f = fingers.first(where: { $0.name == name }) else { preconditionFailure("finger \(name) is not down") }
            changed.append((f.id, .ended))
        }
        emitFrame(changed)
        fingers.removeAll { names.contains($0.name) }
    }

    public mutating func up(_ finger: Int) { up([finger]) }

    /// Cancels fingers (as after SYN_DROPPED) in one frame at the current time.
    public mutating func cancel(_ names: [Int]) {
        var changed: [(ContactID, ContactPhase)] = []
        for name in names {
            guard let f = fingers.first(where: { $0.name == name }) else { preconditionFailure("finger \(name) is not down") }
            changed.append((f.id, .cancelled))
        }
        emitFrame(changed)
        fingers.removeAll { names.contains($0.name) }
    }

    /// Lets `milliseconds` pass with no frame.
    public mutating func wait(_ milliseconds: Double) {
        time = time + Interval(microseconds: Int64((milliseconds * 1000).rounded()))
    }

    /// Moves fingers along a path over `milliseconds`: `path(progress)` gives each moving
    /// finger's position for progress in (0, 1]. Frames every 1/rate s, the last at the end.
    public mutating func move(over milliseconds: Double, _ path: (Double) -> [(Int, Point)]) {
        let start = time
        let totalMicroseconds = (milliseconds * 1000).rounded()
        let steps = max(1, Int((milliseconds * rate / 1000).rounded(.up)))
        for k in 1...steps {
            let progress = Double(k) / Double(steps)
            time = start + Interval(microseconds: Int64((totalMicroseconds * progress).rounded()))
            var changed: [(ContactID, ContactPhase)] = []
            for (name, point) in path(progress) {
                guard let i = fingers.firstIndex(where: { $0.name == name }) else { preconditionFailure("finger \(name) is not down") }
                fingers[i].position = point
                changed.append((fingers[i].id, .moved))
            }
            emitFrame(changed)
        }
    }

    /// Moves fingers in straight lines to their targets over `milliseconds`.
    public mutating func move(_ targets: [(Int, Point)], over milliseconds: Double) {
        let starts = targets.map { (name, _) -> Point in
            guard let p = position(of: name) else { preconditionFailure("finger \(name) is not down") }
            return p
        }
        move(over: milliseconds) { progress in
            targets.enumerated().map { (k, target) in
                let a = starts[k], b = target.1
                return (target.0, Point(x: a.x + (b.x - a.x) * progress, y: a.y + (b.y - a.y) * progress))
            }
        }
    }

    public mutating func move(_ finger: Int, to point: Point, over milliseconds: Double) {
        move([(finger, point)], over: milliseconds)
    }

    /// Turns every finger down about `center` by `radians` (clockwise positive, y down) and
    /// scales their distance from it by `scale`, over `milliseconds`.
    public mutating func turn(about center: Point, by radians: Double, scale: Double = 1, over milliseconds: Double) {
        let starts = fingers.map { ($0.name, $0.position - center) }
        move(over: milliseconds) { progress in
            let angle = radians * progress
            let k = 1 + (scale - 1) * progress
            let c = TouchScript.cosine(angle), s = TouchScript.sine(angle)
            return starts.map { (name, v) in
                (name, Point(x: center.x + (v.dx * c - v.dy * s) * k, y: center.y + (v.dx * s + v.dy * c) * k))
            }
        }
    }

    private mutating func emitFrame(_ changed: [(ContactID, ContactPhase)]) {
        var frame = TouchFrame(time: time)
        var all: [Contact] = []
        for f in fingers {
            let phase = changed.first { $0.0 == f.id }?.1 ?? .stationary
            all.append(Contact(id: f.id, phase: phase, position: f.position,
                               normalized: Point(x: f.position.x / surface.width, y: f.position.y / surface.height),
                               pressure: f.pressure.map(Pressure.init), touchMajor: f.touchMajor.map(Millimetres.init)))
        }
        frame.contacts = all.sorted { $0.id < $1.id }
        frames.append(frame)
    }

    // Taylor series are enough for a test script's angles (|x| ≤ 2π after reduction).
    public static func sine(_ x: Double) -> Double {
        let twoPi = 6.283185307179586
        var x = x - (x / twoPi).rounded() * twoPi
        if x > 3.141592653589793 { x -= twoPi }
        var term = x, sum = x
        var n = 1.0
        for _ in 0..<12 {
            term *= -x * x / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }
    public static func cosine(_ x: Double) -> Double { sine(x + 1.5707963267948966) }
}
