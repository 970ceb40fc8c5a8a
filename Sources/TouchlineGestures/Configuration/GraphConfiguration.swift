import TouchlineCore

// The graph's configuration: targets, recognizers with their parameters, relations. Built in
// code, read from TOML by TouchlineSettings (docs/config.md), or the embedded default.

/// A rectangle in a target's units (mm, or 0…1 of the sensor).
public struct Rect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public func contains(_ p: Point) -> Bool { p.x >= x && p.x <= maxX && p.y >= y && p.y <= maxY }
    public func contains(_ r: Rect) -> Bool { r.x >= x && r.maxX <= maxX && r.y >= y && r.maxY <= maxY }
    /// Distance from `p` to the rectangle (0 inside).
    public func distance(to p: Point) -> Double {
        let dx = max(x - p.x, 0, p.x - maxX)
        let dy = max(y - p.y, 0, p.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// A named region of the sensor that contacts land on.
public struct TargetSpec: Hashable, Sendable {
    public enum Units: String, Hashable, Sendable {
        case millimetres = "mm"
        case normalized
    }
    public var name: String
    public var rect: Rect
    public var units: Units
    /// Higher is on top; equal z: the one declared later is on top (as later-drawn views are).
    public var z: Int

    public init(name: String, rect: Rect, units: Units = .millimetres, z: Int = 0) {
        self.name = name
        self.rect = rect
        self.units = units
        self.z = z
    }

    /// The whole sensor.
    public static func surface(name: String = "surface") -> TargetSpec {
        TargetSpec(name: name, rect: Rect(x: 0, y: 0, width: 1, height: 1), units: .normalized, z: 0)
    }

    /// The rectangle in mm on a sensor of `size`.
    public func millimetreRect(on size: Size) -> Rect {
        switch units {
        case .millimetres: return rect
        case .normalized:
            return Rect(x: rect.x * size.width, y: rect.y * size.height, width: rect.width * size.width, height: rect.height * size.height)
        }
    }
}

public struct RecognizerSpec: Hashable, Sendable {
    /// Unique within the graph; events carry it as `recognizer`.
    public var name: String
    public var kind: RecognizerKind
    /// The kind as a round that a pen starts uses it (docs/config.md#tools); nil: `kind` with
    /// the values the kind ships for pens (`RecognizerKind.withShippedPenValues`).
    public var penKind: RecognizerKind?
    /// The target's name.
    public var target: String
    /// Recognizers that may win alongside this one (the relation is symmetric).
    public var simultaneousWith: [String]
    /// Recognizers that must fail before this one's claim stands.
    public var requiresFailureOf: [String]
    /// The targets a carrier (a drag) may be dropped on (docs/gestures.md#carrying); only a
    /// kind that `carries` may name any.
    public var dropTargets: [String]
    /// `consume = true`: the contacts this recognizer wins never reach a pass-through clone
    /// (docs/live.md#pass-through); while it could still win them they are held back.
    public var consume = false
    /// With `consume`: how long (and how far) a contact this recognizer could still claim may
    /// be held back (`hold = "500ms"`, `holdDistance = "80mm"`); nil: the standard bound,
    /// 150 ms / 16 mm (PassThroughBound). A contact is held up to the largest bound among the
    /// consuming recognizers still undecided about it: a three-finger swipe, decided at its
    /// lift, needs its whole stroke (docs/live.md#pass-through).
    public var hold: PassThroughBound?

    public init(name: String, kind: RecognizerKind, target: String = "surface", simultaneousWith: [String] = [], requiresFailureOf: [String] = [],
                dropTargets: [String] = []) {
        self.name = name
        self.kind = kind
        self.target = target
        self.simultaneousWith = simultaneousWith
        self.requiresFailureOf = requiresFailureOf
        self.dropTargets = dropTargets
    }

    /// What a pen's round uses: `penKind`, or `kind` with the kind's shipped pen values.
    public var resolvedPenKind: RecognizerKind { penKind ?? kind.withShippedPenValues }
}

/// The whole graph: targets (hit-tested in z order) and recognizers (in declaration order, which
/// breaks ties).
public struct GraphConfiguration: Hashable, Sendable {
    public var targets: [TargetSpec]
    public var recognizers: [RecognizerSpec]

    public init(targets: [TargetSpec], recognizers: [RecognizerSpec]) {
        self.targets = targets
        self.recognizers = recognizers
    }

    /// Most recognizers a graph holds (arena membership is a 64-bit set).
    public static let maximumRecognizers = 64

    /// The embedded default: the whole surface as one target; tap (eager count), long press
    /// (one finger: two resting fingers are nothing until they move, docs/gestures.md#resting-fingers),
    /// edge swipe, swipe, pinch, rotate, pan. Pinch, rotate and pan are mutually simultaneous:
    /// two fingers manipulate (move, scale and turn at once), as Flutter's scale recognizer and
    /// map views do. Swipe is simultaneous with pan and edge swipe, so that a quick stroke is
    /// both a pan (for scrolling) and a swipe.
    ///
    /// What it reports (docs/gestures.md#what-the-default-graph-reports, DefaultOutputTests):
    /// - one finger, quick stroke: `pan`, and `swipe` at the lift (≥ 15 mm at ≥ 100 mm/s within
    ///   500 ms); slow stroke: `pan` only;
    /// - two fingers dragged together: one `pan` with `fingers` 2 (no pinch: the span changes
    ///   less than 5 mm; no rotate: they do not turn);
    /// - two fingers turning about a still midpoint: `rotate` only (from 10°); if the midpoint
    ///   moves 3 mm, `pan` alongside, and `pinch` if their span changes 5 mm; no `swipe`, which
    ///   is not simultaneous with rotate.
    public static let `default`: GraphConfiguration = {
        var tap = TapParameters()
        tap.eager = true
        // One finger, as UIKit's `numberOfTouchesRequired` and Flutter's one-pointer long
        // press: with any count, two fingers resting before a pinch, turn or two-finger pan
        // were a two-finger long press that kept them until the lift (docs/gestures.md
        // #resting-fingers).
        var longPress = LongPressParameters()
        longPress.fingers = 1
        return GraphConfiguration(
            targets: [.surface()],
            recognizers: [
                RecognizerSpec(name: "tap", kind: .tap(tap)),
                RecognizerSpec(name: "longPress", kind: .longPress(longPress)),
                RecognizerSpec(name: "edgeSwipe", kind: .edgeSwipe(EdgeSwipeParameters())),
                RecognizerSpec(name: "swipe", kind: .swipe(SwipeParameters()), simultaneousWith: ["pan", "edgeSwipe"]),
                RecognizerSpec(name: "pinch", kind: .pinch(PinchParameters()), simultaneousWith: ["rotate", "pan"]),
                RecognizerSpec(name: "rotate", kind: .rotate(RotateParameters()), simultaneousWith: ["pan"]),
                RecognizerSpec(name: "pan", kind: .pan(PanParameters())),
            ]
        )
    }()
}

extension GraphConfiguration {
    /// Every parameter of every standard kind, with its unit, in documentation order.
    public static var parameters: [(kind: String, name: String, unit: ParameterUnit)] { RecognizerRegistry.standard.parameters }
}
