import TouchlineCore

// The points a calibration's touches aimed at, as a person types them: `--points "x,y x,y …"`,
// normalized (0…1 of the screen's width and height) or, with `--screen WxH`, in pixels from
// the screen's top-left corner (as a browser's clientX, clientY: 0 at the left edge, W at the
// right). Every error says which point and what was expected.

public enum CalibrationTargets {
    /// The most points a calibration takes (a page shows 4 to 9; 64 leaves room for a
    /// careful person and bounds the outlier search, which fits once per point).
    public static let maximumPoints = 64

    /// "1920x1080" as a size in pixels; nil unless two whole numbers from 1 to 65535.
    public static func parseScreen(_ text: String) -> Size? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...65_535).contains(w), (1...65_535).contains(h) else { return nil }
        return Size(width: Double(w), height: Double(h))
    }

    /// The points of `text` in normalized screen coordinates (divided by `screen` when given),
    /// or a sentence saying which point is wrong and how.
    public static func parse(_ text: String, screen: Size?) -> Result<[Point], TargetError> {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        let unit = screen.map { "pixels of the \(Int($0.width))x\(Int($0.height)) screen, 0 to its width and height" }
            ?? "normalized coordinates, 0 to 1 (or pixels with --screen WxH)"
        guard !words.isEmpty else { return .failure(TargetError("--points is empty: expected X,Y pairs separated by spaces, in \(unit)")) }
        guard words.count <= maximumPoints else {
            return .failure(TargetError("--points gives \(words.count) points: at most \(maximumPoints)"))
        }
        var points: [Point] = []
        for (i, word) in words.enumerated() {
            let shown = word.count > 40 ? String(word.prefix(40)) + "…" : String(word)
            let pair = word.split(separator: ",", omittingEmptySubsequences: false)
            guard pair.count == 2, let x = Double(pair[0]), let y = Double(pair[1]), x.isFinite, y.isFinite else {
                return .failure(TargetError("--points: point \(i + 1), '\(shown)', is not X,Y (two numbers and a comma, no space): expected \(unit)"))
            }
            let (w, h) = (screen?.width ?? 1, screen?.height ?? 1)
            guard (0...w).contains(x), (0...h).contains(y) else {
                return .failure(TargetError("--points: point \(i + 1), '\(shown)', is off the screen: expected \(unit)"))
            }
            points.append(Point(x: x / w, y: y / h))
        }
        return .success(points)
    }

    /// The point a prompt names at its end, as `record --guided` writes a plan step's prompt
    /// into its label (`tap 1 touch the cross at 0.1,0.1` → "guided: touch the cross at
    /// 0.1,0.1"): the last word, "X,Y" as --points takes one, after the word "at". The word
    /// and the point; nil when the prompt names none.
    public static func aimedAt(_ prompt: String, screen: Size?) -> (word: String, point: Point)? {
        let words = prompt.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count >= 2, words[words.count - 2] == "at", let last = words.last, last.count <= 40,
              case let .success(points) = parse(String(last), screen: screen), points.count == 1 else { return nil }
        return (String(last), points[0])
    }

    public struct TargetError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }
}
