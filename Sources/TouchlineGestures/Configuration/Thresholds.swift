import TouchlineCore

// Every threshold the default graph uses, with its unit and where its value came from. The
// design's table (docs/gestures.md) gives the defaults in physical units; the references are
// libinput (src/evdev-mt-touchpad-tap.c, src/evdev-mt-touchpad-gestures.c), UIKit's documented
// defaults, and Flutter's packages/flutter/lib/src/gestures/constants.dart. Flutter's logical
// pixel is about 1/38 cm (≈ 0.26 mm), which is how its pixel values are converted below.

public enum Thresholds {
    /// Tap: longest time from the first contact down to the last lift. 300 ms (design). libinput
    /// uses 180 ms (`DEFAULT_TAP_TIMEOUT_PERIOD`) for touchpads, where a tap competes with
    /// pointer motion; a touchscreen tap is deliberate and slower, as Flutter's 300 ms double-tap
    /// window and the Atmel trace's 80–110 ms taps suggest.
    public static let tapMaxDuration = Interval.milliseconds(300)
    /// Tap and long press: how far any contact may move, mm. 3 mm (design). libinput's
    /// `DEFAULT_TAP_MOVE_THRESHOLD` is 1.3 mm on touchpads; Flutter's `kTouchSlop` is 18 logical
    /// px ≈ 4.7 mm; fingertips on glass jitter about 1 mm.
    public static let tapSlop = 3.0
    /// Multi-tap: longest gap from a tap's lift to the next tap's first down. 300 ms, Flutter's
    /// `kDoubleTapTimeout`.
    public static let multiTapInterval = Interval.milliseconds(300)
    /// Multi-tap: farthest the next tap may land from the previous one, mm. 10 mm (design);
    /// Flutter's `kDoubleTapSlop` is 100 logical px ≈ 26 mm, generous for a phone.
    public static let multiTapDistance = 10.0

    /// Long press: how long the contacts must stay down. 500 ms: UIKit's
    /// `UILongPressGestureRecognizer.minimumPressDuration` default and Flutter's
    /// `kLongPressTimeout`.
    public static let longPressDuration = Interval.milliseconds(500)
    /// Long press: movement allowed before it is recognized, mm. 3 mm (design), the tap slop, so
    /// that a still finger is either a tap or a long press. UIKit's `allowableMovement` is 10 pt
    /// ≈ 1.6 mm (at 163 pt/inch), Flutter's `kTouchSlop` ≈ 4.7 mm.
    public static let longPressSlop = 3.0

    /// A press by a pen (tap, long press, peek, drag's hold): movement allowed before it is no
    /// longer a press, mm. A pen's nib slides on glass as the force builds, where a fingertip's
    /// skin holds: on the shared Dell Canvas pen recording (a Wacom ISD-V4 pen, the only pen
    /// recording we have) the nib travels 5.8 mm from its landing before it reaches the peek
    /// threshold and 6.0 mm before the pop threshold. 8 mm keeps 2 mm over that slide and stays below the 17 mm the
    /// same pen travels in its one deliberate stroke; a pen's pan, swipe and edge swipe keep
    /// the finger's thresholds (their slop is motion, not a press's stillness). Per tool in a
    /// configuration: docs/config.md#tools.
    public static let penPressSlop = 8.0

    /// Pan: centroid translation before a pan begins, mm. 3 mm (design); Flutter's `kPanSlop`
    /// is 2 × kTouchSlop = 36 px ≈ 9.5 mm, which feels late on a large screen.
    public static let panSlop = 3.0
    /// Velocity: the span of recent samples a velocity is measured over. 100 ms, Flutter's
    /// VelocityTracker horizon (`_horizonMilliseconds`); a finger resting longer than this
    /// before it lifts lifts at velocity 0.
    public static let velocityWindow = Interval.milliseconds(100)

    /// Swipe: shortest stroke, mm. 15 mm (design).
    public static let swipeMinDistance = 15.0
    /// Swipe: slowest average speed, mm/s. 100 mm/s (design); Flutter's `kMinFlingVelocity` is
    /// 50 px/s ≈ 13 mm/s for a fling after a drag, far too low for a discrete swipe.
    public static let swipeMinVelocity = 100.0
    /// Swipe: largest angle from the nearest axis, degrees. ±30° (design), the cone libinput's
    /// gesture code uses to tell a swipe's direction.
    public static let swipeMaxAngle = 30.0
    /// Swipe: longest stroke from first down to last lift. 500 ms (design).
    public static let swipeMaxDuration = Interval.milliseconds(500)

    /// Edge swipe: how close to an edge the first contact must land, mm. 3 mm (design).
    public static let edgeMargin = 3.0
    /// Edge swipe: inward movement before it begins, mm (the pan slop).
    public static let edgeSlop = 3.0

    /// Pinch: change of span before a pinch begins, mm. 5 mm (design). There is no minimum span:
    /// libinput refuses pinches whose fingers start closer than about 27 mm on some touchpads,
    /// which would drop small pinches on a phone.
    public static let pinchMinSpanChange = 5.0
    /// Pinch and rotate: a span below this is treated as this for ratios, so that fingers
    /// landing on top of each other cannot make the scale infinite, mm.
    public static let minimumSpan = 1.0
    /// Rotate: angle before a rotation begins, degrees. 10° (design); Flutter's
    /// ScaleGestureRecognizer has no rotation slop, UIKit's is undocumented.
    public static let rotateMinAngle = 10.0

    /// Rotate: how far the turn must carry the fingers along their circle, mm (the pan slop).
    /// Without it, two fingers close together "rotate" 10° when one starts moving a few
    /// milliseconds before the other, as in the MonkeyHelper tablet two-finger drag (11° and
    /// 2.3 mm on its first frame).
    public static let rotateMinTravel = 3.0

    /// Targets: smallest effective hit area, mm square. 7 mm is the 44 pt minimum of Apple's
    /// Human Interface Guidelines (44 pt at 163 pt/inch ≈ 6.9 mm).
    public static let minimumHitSize = 7.0

    /// Peek: normalized pressure that begins a peek, 0.4, and that pops it, 0.85 (design;
    /// Flutter's ForcePressGestureRecognizer `startPressure` and `peakPressure`).
    public static let peekPressure = 0.4
    public static let popPressure = 0.85
    /// Peek: how far below `peekPressure` the pressure must fall to release a peek, 0.05
    /// (design): a wobble of a few hundredths around the threshold begins it once.
    public static let peekHysteresis = 0.05
    /// Peek by contact size: touch major that begins a peek, 14 mm, and pops it, 18 mm; 1 mm of
    /// hysteresis. Design: ordinary touches in the Wacom DTH2242 and N-Trig recordings measure
    /// 8–16 mm along their major axis, a fingertip pressed flat 15–20 mm.
    public static let peekSize = 14.0
    public static let popSize = 18.0
    public static let peekSizeHysteresis = 1.0
    /// Peek by time (no pressure, no size): the peek begins at the long-press time and pops at
    /// 1,000 ms (design; phones without force sensors use a long press for the peek).
    public static let popDuration = Interval.milliseconds(1000)
    /// Peek: a swipe up this far while peeking shows the quick actions, 10 mm (design).
    public static let peekActionsDistance = 10.0
}
