// The process's environment, read and changed without Foundation's ProcessInfo.
import Glibc

public enum Environment {
    /// The variable's value, or nil when it is not set.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Every variable, by name (the first of a repeated name, as getenv(3) finds it).
    public static func all() -> [String: String] {
        var result: [String: String] = [:]
        for entry in ChildProcess.currentEnvironment() {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            let name = String(entry[..<equals])
            if result[name] == nil { result[name] = String(entry[entry.index(after: equals)...]) }
        }
        return result
    }

    public static func set(_ name: String, _ value: String) {
        setenv(name, value, 1)
    }

    public static func unset(_ name: String) {
        unsetenv(name)
    }
}

/// Files by path, for the commands that only ask about them.
public enum FilePath {
    /// Whether something (any kind of file) exists at `path`, following links.
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// Whether a directory exists at `path`, following links.
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The folder part of `path`, as NSString's deletingLastPathComponent gives it:
    /// "a/b.toml" → "a", "b.toml" → "", "/b.toml" → "/", trailing slashes ignored.
    public static func directory(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        var directory = path[..<slash]
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        return directory.isEmpty ? "/" : String(directory)
    }
}
