// udev properties of a device node, read from udev's database (/run/udev/data/c<major>:<minor>,
// lines `E:KEY=VALUE`) without libudev: what a `[[device]]` section's `match.udev` compares.
import Glibc

public enum UdevDatabase {
    /// The node's properties; nil when the node or its database entry cannot be read (no udev,
    /// a trace's made-up path), which fails a udev match rather than the session.
    public static func properties(ofNode path: String, directory: String = "/run/udev/data") -> [String: String]? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFCHR else { return nil }
        let major = (info.st_rdev >> 8) & 0xfff | ((info.st_rdev >> 32) & ~0xfff)
        let minor = (info.st_rdev & 0xff) | ((info.st_rdev >> 12) & ~0xff)
        guard let bytes = readSmall("\(directory)/c\(major):\(minor)") else { return nil }
        return parse(bytes)
    }

    /// `E:KEY=VALUE` lines; every other line (S:, L:, I:, G:…) is not a property.
    public static func parse(_ bytes: [UInt8]) -> [String: String] {
        var properties: [String: String] = [:]
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard line.count > 2, line[line.startIndex] == UInt8(ascii: "E"), line[line.startIndex + 1] == UInt8(ascii: ":"),
                  let equals = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = String(decoding: line[(line.startIndex + 2)..<equals], as: UTF8.self)
            properties[key] = String(decoding: line[(equals + 1)...], as: UTF8.self)
        }
        return properties
    }

    /// At most 64 KiB (a database entry is a few hundred bytes).
    static func readSmall(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while result.count < 65_536 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            result.append(contentsOf: buffer[0..<n])
        }
        return result
    }
}
