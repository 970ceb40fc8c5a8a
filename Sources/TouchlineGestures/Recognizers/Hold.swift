import TouchlineCore

/// The holding half that long press and drag share (docs/gestures.md#long-press,
/// #drag-and-drop): contacts down and still (within `slop`) until `minimumDuration`, then a
/// claim that waits for the arena while the contacts may move or lift. Each recognizer keeps its
/// own states around it (what a won hold becomes differs); the steps and their reasons are here
/// once.
public struct Hold: BitwiseCopyable, Hashable, Sendable {
    public var start: Timestamp
    public var fingers: Int
    public var position: Point
    public var travel: Double
    /// Every contact lifted while the claim waited for the arena.
    public var lifted: Bool

    /// The first contact down.
    init(_ s: borrowing GroupSample) {
        self.init(start: s.time, fingers: s.present, position: s.centroid, travel: s.maxTravel, lifted: false)
    }

    init(start: Timestamp, fingers: Int, position: Point, travel: Double, lifted: Bool) {
        self.start = start
        self.fingers = fingers
        self.position = position
        self.travel = travel
        self.lifted = lifted
    }

    /// Another contact down, or (claimed) any motion: the most fingers, the latest centroid.
    mutating func joined(_ s: borrowing GroupSample) {
        fingers = max(fingers, s.present)
        position = s.centroid
    }

    /// Motion while pressing: the failure when the travel passes `slop`, nil while it holds.
    mutating func moved(_ s: borrowing GroupSample, slop: Double) -> RecognizerAction? {
        travel = max(travel, s.maxTravel)
        position = s.centroid
        guard travel > slop else { return nil }
        return .fail(.exceeded("movement", value: travel, limit: slop, .millimetres))
    }

    /// A lift while pressing: held too short.
    func tooShort(at time: Timestamp, minimum: Interval) -> RecognizerAction {
        .fail(.shortOf("held", value: (time - start).milliseconds, limit: minimum.milliseconds, .milliseconds))
    }

    /// The duration reached: the claim.
    func reached(at time: Timestamp, minimum: Interval) -> RecognizerAction {
        .claim(.reached("held", value: (time - start).milliseconds, limit: minimum.milliseconds, .milliseconds))
    }

    /// A lift while the claim waits: the hold notes when none is left.
    mutating func liftedWhileClaimed(_ s: borrowing GroupSample) {
        if s.remaining == 0 { lifted = true }
    }
}
