// A steady stream of N fingers in motion, the input behind "ns per frame at N contacts" and the
// allocation budget. Synthetic on purpose: a recording has N fingers down only for moments,
// while a steady state needs them down and moving for as long as the measurement runs.

import TouchlineCore

/// The panel of Recordings/ and scripts/gen-big-trace.py: 217.0 x 135.6 mm, 10 units/mm,
/// 10 slots, pressure 0..255, touch major 0..255 at 4 units/mm.
public enum SyntheticPanel {
    public static let unitsPerMillimetre: Int32 = 10
    public static let xMaximum: Int32 = 2170
    public static let yMaximum: Int32 = 1356
    public static let slots = 10

    public static let device: DeviceDescription = {
        let abs: [UInt16: AbsInfo] = [
            EventCodes.ABS_X: AbsInfo(minimum: 0, maximum: xMaximum, resolution: unitsPerMillimetre),
            EventCodes.ABS_Y: AbsInfo(minimum: 0, maximum: yMaximum, resolution: unitsPerMillimetre),
            EventCodes.ABS_MT_SLOT: AbsInfo(minimum: 0, maximum: Int32(slots - 1)),
            EventCodes.ABS_MT_TOUCH_MAJOR: AbsInfo(minimum: 0, maximum: 255, resolution: 4),
            EventCodes.ABS_MT_POSITION_X: AbsInfo(minimum: 0, maximum: xMaximum, resolution: unitsPerMillimetre),
            EventCodes.ABS_MT_POSITION_Y: AbsInfo(minimum: 0, maximum: yMaximum, resolution: unitsPerMillimetre),
            EventCodes.ABS_MT_TRACKING_ID: AbsInfo(minimum: 0, maximum: 65535),
            EventCodes.ABS_MT_PRESSURE: AbsInfo(minimum: 0, maximum: 255),
        ]
        return DeviceDescription(
            name: "Touchline Synthetic Touchscreen", bus: 3, vendor: 0x1234, product: 0x5678, version: 1,
            properties: [EventCodes.INPUT_PROP_DIRECT],
            codes: [
                EventCodes.EV_SYN: [0, 1, 2, 3],
                EventCodes.EV_KEY: [EventCodes.BTN_TOUCH],
                EventCodes.EV_ABS: abs.keys.sorted(),
            ],
            absinfo: abs,
            udevProperties: ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"])
    }()
}

/// N fingers, each circling its own point of a grid at 125 Hz. The motion repeats every
/// `period` frames, so a ring of that many frames can be replayed forever with only the time
/// moving on; positions change every frame on every finger (no stationary contacts).
public struct MovingContacts: Sendable {
    public let fingers: Int
    /// Frames in one turn of the circles (1 s at 125 Hz).
    public let period: Int
    public static let frameInterval: Int64 = 8000

    public init(fingers: Int, period: Int = 125) {
        precondition((1...SyntheticPanel.slots).contains(fingers))
        self.fingers = fingers
        self.period = period
    }

    /// Where finger `j` is at frame `k`, in device units: a 12 mm circle around its grid point,
    /// each finger a little ahead of the previous one, so the spread and the angle between
    /// fingers change too (pinch and rotate see motion, not only pan).
    public func position(finger j: Int, frame k: Int) -> (x: Int32, y: Int32) {
        let column = j % 5, row = j / 5
        let cx = 50.0 + 28.0 * Double(column)
        let cy = 45.0 + 40.0 * Double(row)
        let angle = 2.0 * Double.pi * (Double(k % period) / Double(period) + Double(j) * 0.07)
        let x = cx + 12.0 * cosine(angle)
        let y = cy + 12.0 * sine(angle)
        let u = Double(SyntheticPanel.unitsPerMillimetre)
        return (Int32((x * u).rounded()), Int32((y * u).rounded()))
    }

    /// The frame that puts every finger down, at time `time`.
    public func downEvents(at time: Timestamp) -> [InputEvent] {
        var out: [InputEvent] = []
        for j in 0..<fingers {
            let p = position(finger: j, frame: 0)
            out.append(abs(time, EventCodes.ABS_MT_SLOT, Int32(j)))
            out.append(abs(time, EventCodes.ABS_MT_TRACKING_ID, Int32(100 + j)))
            out.append(abs(time, EventCodes.ABS_MT_POSITION_X, p.x))
            out.append(abs(time, EventCodes.ABS_MT_POSITION_Y, p.y))
            out.append(abs(time, EventCodes.ABS_MT_PRESSURE, 80))
            out.append(abs(time, EventCodes.ABS_MT_TOUCH_MAJOR, 28))
        }
        out.append(InputEvent(time: time, type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH, value: 1))
        out.append(syn(time))
        return out
    }

    /// One turn of motion (frames 1...period, the last back at frame 0's positions), every
    /// frame `frameInterval` after the previous, the first one `frameInterval` after `start`.
    /// Kernel-style: ABS_MT_SLOT only on a change, so the slot switch back to 0 opens a frame.
    public func motionEvents(after start: Timestamp) -> [InputEvent] {
        var out: [InputEvent] = []
        out.reserveCapacity(period * (fingers * 3 + 1))
        for k in 1...period {
            let t = Timestamp(microseconds: start.microseconds + Int64(k) * MovingContacts.frameInterval)
            for j in 0..<fingers {
                let p = position(finger: j, frame: k)
                if fingers > 1 { out.append(abs(t, EventCodes.ABS_MT_SLOT, Int32(j))) }
                out.append(abs(t, EventCodes.ABS_MT_POSITION_X, p.x))
                out.append(abs(t, EventCodes.ABS_MT_POSITION_Y, p.y))
            }
            out.append(syn(t))
        }
        return out
    }

    /// A ring of `period` assembled frames of steady motion (every contact `moved`) and the
    /// assembler that made them, ready to go on from the end of the ring.
    public func frameRing() -> (ring: [TouchFrame], assembler: FrameAssembler) {
        var assembler = FrameAssembler(device: SyntheticPanel.device)
        for e in downEvents(at: Timestamp(microseconds: 0)) { _ = assembler.feed(e) }
        var ring: [TouchFrame] = []
        ring.reserveCapacity(period)
        for e in motionEvents(after: Timestamp(microseconds: 0)) where assembler.feed(e) {
            ring.append(assembler.frame)
        }
        return (ring, assembler)
    }

    private func abs(_ t: Timestamp, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: t, type: EventCodes.EV_ABS, code: code, value: value)
    }

    private func syn(_ t: Timestamp) -> InputEvent {
        InputEvent(time: t, type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0)
    }
}

// Foundation-free sine and cosine, good to 1e-9 over one turn: BenchSupport is shared with the
// allocation gate, whose binary should link as little as possible.
@inline(__always) func sine(_ x: Double) -> Double {
    var a = x.truncatingRemainder(dividingBy: 2 * Double.pi)
    if a > Double.pi { a -= 2 * Double.pi } else if a < -Double.pi { a += 2 * Double.pi }
    // Taylor series to x^19 on [-pi, pi].
    var term = a, sum = a
    let a2 = a * a
    var n = 1.0
    for _ in 0..<10 {
        term *= -a2 / ((n + 1) * (n + 2))
        sum += term
        n += 2
    }
    return sum
}

@inline(__always) func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }
