import Foundation

// Files that hold what a test expects (golden event files, a generated table in the docs) are
// never rewritten by a test: a test that finds a difference fails, and leaves what it got under
// `.build/actual/`, at the file's path in the repository. `scripts/update-goldens.sh` (which no
// test runs) copies those over the files after a deliberate change, for review in the diff.

public enum Expected {
    /// Where the tests leave what they got: `.build/actual/PATH` for the repository's `PATH`.
    public static let actualRoot = Paths.root.appendingPathComponent(".build/actual")

    /// Compares `actual` with the file at `path` (in the repository); on a difference, or
    /// without the file, keeps `actual` under `actualRoot` and returns what differs.
    public static func difference(_ actual: String, file path: String) -> String? {
        let message: String
        if let expected = try? String(contentsOfFile: path, encoding: .utf8) {
            guard let line = firstDifference(actual, expected) else { return nil }
            message = line
        } else {
            message = "\(path) is missing"
        }
        let kept = keep(actual, for: path)
        return "\(message)\n  what the test got: \(kept) (scripts/update-goldens.sh copies it over after a deliberate change)"
    }

    /// The first line where `actual` and `expected` differ, nil when they are equal.
    public static func firstDifference(_ actual: String, _ expected: String) -> String? {
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        guard let k = zip(a, e).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset ?? (a.count == e.count ? nil : min(a.count, e.count)) else {
            return nil
        }
        return "line \(k + 1) differs\n  expected: \(k < e.count ? String(e[k]) : "(end)")\n  actual:   \(k < a.count ? String(a[k]) : "(end)")"
    }

    private static func keep(_ text: String, for path: String) -> String {
        let root = Paths.root.standardizedFileURL.path + "/"
        let full = URL(fileURLWithPath: path).standardizedFileURL.path
        let relative = full.hasPrefix(root) ? String(full.dropFirst(root.count)) : URL(fileURLWithPath: full).lastPathComponent
        let target = actualRoot.appendingPathComponent(relative)
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? text.write(to: target, atomically: true, encoding: .utf8)
        return target.path
    }
}
