import TouchlineCore
import TouchlineGestures

/// Ramer–Douglas–Peucker in millimetres: the indices of the points to keep so that no dropped
/// point is farther than `tolerance` from the kept polyline. The tolerance doubles until at most
/// `maximum` points remain, so a long trace keeps its shape in a bounded number of points. Pure
/// arithmetic on the input order: the same points give the same indices on every run.
public enum PathSimplifier {
    public static func simplify(_ points: [Point], tolerance: Double = 0.05, maximum: Int = 2000) -> [Int] {
        guard points.count > 2 else { return Array(points.indices) }
        var tolerance = max(tolerance, 1e-9)
        while true {
            let kept = rdp(points, tolerance: tolerance)
            if kept.count <= max(2, maximum) { return kept }
            tolerance *= 2
        }
    }

    /// An explicit stack, not recursion: a path of a million points must not overflow the stack.
    static func rdp(_ points: [Point], tolerance: Double) -> [Int] {
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let a = points[first], b = points[last]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            var farthest = first, distance = -1.0
            for i in (first + 1)..<last {
                let p = points[i]
                let d: Double
                if length < 1e-12 {
                    d = ((p.x - a.x) * (p.x - a.x) + (p.y - a.y) * (p.y - a.y)).squareRoot()
                } else {
                    d = abs(dy * (p.x - a.x) - dx * (p.y - a.y)) / length
                }
                if d > distance { distance = d; farthest = i }
            }
            guard distance > tolerance else { continue }
            keep[farthest] = true
            stack.append((farthest, last))
            stack.append((first, farthest))
        }
        return keep.indices.filter { keep[$0] }
    }
}
