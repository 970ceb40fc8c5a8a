import Testing
import TouchlineCore
import TouchlineGestures
@testable import TouchlinePlot
import TouchlineTesting
import TouchlineTestSupport

/// The picture `touchline plot` draws, made from scripted touches and the events their graph
/// emits: one path per contact, one bar per continuous gesture, one tick per discrete one,
/// names in the labels, XML-safe text, the same bytes twice.
@Suite struct TracePlotTests {
    /// A pinch then a tap, plotted from the harness's frames and events.
    static func pinchThenTap(options: TracePlot.Options = .init()) throws -> (TracePlot, GestureHarness) {
        var h = try GestureHarness()
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.move([(0, p(60, 60)), (1, p(140, 60))], over: 300)
        h.up([0, 1])
        h.wait(500)
        h.down(2, at: p(30, 30))
        h.wait(60)
        h.up(2)
        h.wait(500)
        var plot = TracePlot(options: options)
        plot.add(.init(index: 0, name: "Scripted <panel> & co", size: h.script.surface, sizeSource: "resolution",
                       targets: [.init(name: "surface", rect: Rect(x: 0, y: 0, width: 200, height: 120))]))
        for frame in h.script.frames { plot.record(frame, device: 0) }
        for event in h.gestures { plot.record(event) }
        return (plot, h)
    }

    static func count(_ needle: String, in svg: String) -> Int { svg.split(separator: needle, omittingEmptySubsequences: false).count - 1 }

    @Test func onePathPerContactOneBarPerContinuousGestureOneTickPerDiscrete() throws {
        let (plot, h) = try Self.pinchThenTap()
        let svg = String(decoding: plot.svg(file: "scripted"), as: UTF8.self)
        let began = h.gestures.filter { $0.phase == .began }.count
        let recognized = h.gestures.filter { $0.phase == .recognized }.count
        #expect(began >= 1 && recognized >= 1, "the script should pinch and tap: \(h.log)")
        #expect(Self.count("<path class=\"contact\"", in: svg) == 3)
        #expect(Self.count("<rect class=\"bar\"", in: svg) == began)
        #expect(Self.count("<line class=\"tick\"", in: svg) == recognized)
        #expect(plot.contactCount == 3 && plot.barCount == began && plot.tickCount == recognized)
        for name in Set(h.gestures.map(\.gesture.description)) {
            #expect(svg.contains(">\(name)"), "the gesture \(name) is named")
        }
        #expect(svg.contains("pinch fingers=2 scale="), "a pinch's label carries its fingers and scale")
        #expect(svg.contains("tap count=1"))
    }

    /// Issue 26: target names at the same corner were drawn over each other, and a gesture's
    /// bar took the colour of the contact above it. Now the second name is a line lower, and the
    /// lanes' colours are none of the contacts'.
    @Test func targetNamesDoNotOverlapAndLanesHaveTheirOwnColours() throws {
        var h = try GestureHarness()
        h.down([(0, p(80, 60)), (1, p(120, 60))])
        h.move([(0, p(60, 60)), (1, p(140, 60))], over: 300)
        h.up([0, 1])
        h.wait(500)
        var plot = TracePlot()
        plot.add(.init(index: 0, name: "panel", size: h.script.surface, sizeSource: "resolution",
                       targets: [.init(name: "surface", rect: Rect(x: 0, y: 0, width: 200, height: 120)),
                                 .init(name: "menuStrip", rect: Rect(x: 0, y: 0, width: 10, height: 120))]))
        for frame in h.script.frames { plot.record(frame, device: 0) }
        for event in h.gestures { plot.record(event) }
        let svg = String(decoding: plot.svg(file: "scripted"), as: UTF8.self)
        func y(ofLabel name: String) -> Double? {
            guard let end = svg.range(of: "\">\(name)</text>") else { return nil }
            let before = svg[..<end.lowerBound]
            guard let start = before.range(of: "y=\"", options: .backwards) else { return nil }
            return Double(before[start.upperBound...])
        }
        let surface = try #require(y(ofLabel: "surface")), strip = try #require(y(ofLabel: "menuStrip"))
        #expect(strip - surface >= 11, "the names are \(strip - surface) px apart")
        let bars = svg.split(separator: "<rect class=\"bar\"").dropFirst()
        #expect(!bars.isEmpty)
        for bar in bars {
            let fill = bar.split(separator: "fill=\"")[1].prefix(7)
            #expect(!TracePlot.palette.contains(String(fill)), "a bar in a contact's colour \(fill)")
        }
    }

    @Test func sameBytesEveryTime() throws {
        let first = try Self.pinchThenTap().0.svg(file: "scripted")
        let second = try Self.pinchThenTap().0.svg(file: "scripted")
        #expect(first == second)
    }

    /// A device name with markup and a control character is text in the SVG, not markup.
    @Test func namesAreEscaped() throws {
        let svg = String(decoding: try Self.pinchThenTap().0.svg(file: "a\u{1}b&c.yml"), as: UTF8.self)
        #expect(svg.contains("Scripted &lt;panel&gt; &amp; co"))
        #expect(svg.contains("a?b&amp;c.yml"))
        #expect(!svg.contains("\u{1}"))
    }

    /// --from/--to: a window after the pinch holds the tap only (its contact, its tick).
    @Test func windowKeepsWhatOverlapsIt() throws {
        let (plot, h) = try Self.pinchThenTap(options: .init(from: 0.7))
        let svg = String(decoding: plot.svg(file: "scripted"), as: UTF8.self)
        #expect(h.gestures.contains { $0.gesture.description == "pinch" })
        #expect(Self.count("<path class=\"contact\"", in: svg) == 1)
        #expect(Self.count("<rect class=\"bar\"", in: svg) == 0)
        #expect(Self.count("<line class=\"tick\"", in: svg) == 1)
        #expect(svg.contains("1 contact; gestures: 0 continuous (bars), 1 discrete (ticks), in this window"), "the header counts the window")
    }

    /// Issue 24, item 11: past its limits a picture keeps nothing more and says what it left
    /// out; contacts that lifted before the window make room (the pinch's two, here), so the
    /// window is drawn whole.
    @Test func limitsBoundWhatIsKeptAndTheWindowMakesRoom() throws {
        let (limited, _) = try Self.pinchThenTap(options: .init(maximumContacts: 2, maximumGestures: 1))
        #expect(limited.contactCount == 2)
        #expect(limited.leftOutNote == "not drawn: 1 contact, 1 gesture past a picture's limits (2 contacts, 1000000 frames of contacts, 1 gestures); --from and --to draw a part of the trace")
        let svg = String(decoding: limited.svg(file: "scripted"), as: UTF8.self)
        #expect(Self.count("<path class=\"contact\"", in: svg) == 2)
        #expect(svg.contains(">not drawn: 1 contact, 1 gesture past"))

        let (windowed, _) = try Self.pinchThenTap(options: .init(from: 0.7, maximumContacts: 2))
        #expect(windowed.leftOutNote == nil)
        let late = String(decoding: windowed.svg(file: "scripted"), as: UTF8.self)
        #expect(late.contains("1 contact; gestures: 0 continuous (bars), 1 discrete (ticks), in this window"))
        #expect(Self.count("<path class=\"contact\"", in: late) == 1)
        // The same picture as without the limit: the pinch's contacts, let go, change nothing.
        let (unlimited, _) = try Self.pinchThenTap(options: .init(from: 0.7))
        #expect(late == String(decoding: unlimited.svg(file: "scripted"), as: UTF8.self))
    }

    /// A trace's times are what its lines say: frames at the ends of the Int64 range and a
    /// window far past them draw (saturating) instead of trapping.
    @Test func extremeTimesDoNotTrap() {
        for options in [TracePlot.Options(), TracePlot.Options(from: 1e300, to: .greatestFiniteMagnitude)] {
            var plot = TracePlot(options: options)
            plot.add(.init(index: 0, name: "d", size: Size(width: 100, height: 50), sizeSource: "assumed", targets: []))
            for us in [Int64.min + 1, 0, Int64.max - 1] {
                let contact = Contact(id: ContactID(0), phase: us == 0 ? .moved : us < 0 ? .began : .ended,
                                      position: p(10, 10), normalized: p(0.1, 0.2))
                plot.record(TouchFrame(time: Timestamp(microseconds: us), contacts: [contact]), device: 0)
            }
            let svg = String(decoding: plot.svg(file: "extreme"), as: UTF8.self)
            #expect(svg.hasSuffix("</svg>\n"))
        }
    }

    /// A long path keeps at most `maximum` points and still passes within a millimetre of
    /// every point of its circle.
    @Test func simplifiedPathsKeepTheirShape() {
        let n = 100_000
        var points: [Point] = []
        for i in 0..<n {
            // A circle of radius 40 mm drawn as a polygon through exact points.
            let t = Double(i) / Double(n) * 2 * Double.pi
            points.append(Point(x: 50 + 40 * cosine(t), y: 50 + 40 * sine(t)))
        }
        let kept = PathSimplifier.simplify(points, maximum: 500)
        #expect(kept.count <= 500 && kept.count >= 20)
        #expect(kept.first == 0 && kept.last == n - 1)
        #expect(kept == PathSimplifier.simplify(points, maximum: 500), "deterministic")
        // Every dropped point is near the chord between its kept neighbours.
        var worst = 0.0
        for (a, b) in zip(kept, kept.dropFirst()) {
            for i in a..<b {
                worst = max(worst, distance(points[i], toSegment: points[a], points[b]))
            }
        }
        #expect(worst < 1, "worst deviation \(worst) mm")
        #expect(PathSimplifier.simplify([p(0, 0), p(1, 0), p(2, 0), p(3, 0)]) == [0, 3], "a straight line is its ends")
        #expect(PathSimplifier.simplify([p(1, 1)]) == [0])
    }

    func distance(_ p: Point, toSegment a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let l2 = dx * dx + dy * dy
        let t = l2 == 0 ? 0 : min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2))
        let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
        return (ex * ex + ey * ey).squareRoot()
    }
}

// Taylor series: the pure test target imports neither Foundation nor Glibc.
private func sine(_ x: Double) -> Double {
    var x = x
    while x > Double.pi { x -= 2 * Double.pi }
    var term = x, sum = x
    for k in 1..<20 {
        term *= -x * x / Double((2 * k) * (2 * k + 1))
        sum += term
    }
    return sum
}
private func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }
