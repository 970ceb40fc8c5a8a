// Where `convert` and `record` write. The output may be a regular file (replaced atomically, or
// created), a FIFO or character device (written in place: replacing it would break whoever reads
// it, and as root would replace /dev/full with a file), or `-` (standard output). It is never one
// of the command's own inputs, compared by device and inode so that a symlink or a hard link to
// an input is caught as well as its own name.
import Glibc
import TouchlineTrace

/// A file written through write(2), for the pure trace writers.
public struct FileByteSink: ByteSink {
    /// How the bytes reach the output.
    private enum Mode {
        /// A temporary beside the output, renamed over it by `commit`.
        case replace(temporary: String, target: String)
        /// The output itself (a FIFO, a character device, standard output).
        case inPlace
    }

    /// Owns the descriptor and, until `commit`, the temporary: whatever way the program leaves
    /// this sink behind (an error thrown, a writer dropped), the temporary goes with it.
    private final class State {
        let fd: Int32
        let ownsDescriptor: Bool
        var mode: Mode
        var finished = false

        init(fd: Int32, ownsDescriptor: Bool, mode: Mode) {
            self.fd = fd
            self.ownsDescriptor = ownsDescriptor
            self.mode = mode
        }

        deinit {
            if ownsDescriptor { close(fd) }
            if !finished, case .replace(let temporary, _) = mode {
                TemporaryCleanup.remove(temporary)
            }
        }
    }

    /// The output as the user named it (for messages).
    public let path: String
    private let state: State

    /// Opens `path` for writing after checking that it is none of `inputs`.
    public init(path: String, inputs: [String]) throws(CLIError) {
        self.path = path
        if path == "-" {
            var st = stat()
            if fstat(1, &st) == 0 { try Self.refuseInputs(output: path, stat: st, inputs: inputs) }
            state = State(fd: 1, ownsDescriptor: false, mode: .inPlace)
            return
        }
        var st = stat()
        // The path as found, not followed: a symlink is resolved to the file it names, so that
        // the link stays a link and its target is what gets replaced.
        var target = path
        if lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                throw CLIError.output("\(path): cannot create: a symbolic link to a missing file (\(String(cString: strerror(errno))))")
            }
            target = String(cString: resolved)
            free(resolved)
        }
        let exists = stat(target, &st) == 0
        if !exists && errno != ENOENT {
            throw CLIError.output("\(path): cannot create: \(String(cString: strerror(errno)))")
        }
        let kind = exists ? st.st_mode & S_IFMT : S_IFREG
        switch kind {
        case S_IFREG:
            if exists { try Self.refuseInputs(output: path, stat: st, inputs: inputs) }
            let (fd, temporary) = try Self.createTemporary(beside: target, for: path, replacing: exists ? st : nil)
            state = State(fd: fd, ownsDescriptor: true, mode: .replace(temporary: temporary, target: target))
        case S_IFIFO, S_IFCHR:
            try Self.refuseInputs(output: path, stat: st, inputs: inputs)
            // No O_CREAT: if the node went away since stat, this fails instead of making a file.
            let fd = open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else {
                throw CLIError.output("\(path): cannot open for writing: \(String(cString: strerror(errno)))")
            }
            state = State(fd: fd, ownsDescriptor: true, mode: .inPlace)
        case S_IFDIR:
            throw CLIError.output("\(path): is a directory; expected a file to write (for example \(path.hasSuffix("/") ? path : path + "/")out.yml)")
        default:
            throw CLIError.output("\(path): cannot write a trace here: expected a regular file, a FIFO, a character device or '-', found \(Self.kindName(kind))")
        }
    }

    public mutating func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                // `offset < raw.count` here, so the pointer and length stay inside the array.
                Glibc.write(state.fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                // `-o - | head`: the reader went away, as for replay's output (OutputStream);
                // nothing written in place needs cleaning up.
                if errno == EPIPE && path == "-" { exit(ExitStatus.ok) }
                throw CLIError.io("\(path): cannot write: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// Makes the output complete: the temporary replaces the output (after an fsync, so that a
    /// crash cannot leave an empty file where a good one was).
    public func commit() throws(CLIError) {
        guard !state.finished else { return }
        guard case .replace(let temporary, let target) = state.mode else {
            state.finished = true
            return
        }
        if fsync(state.fd) != 0 && errno != EINVAL {
            throw CLIError.io("\(path): cannot write: \(String(cString: strerror(errno)))")
        }
        let failure: Int32? = TemporaryCleanup.withSignalsBlocked {
            guard rename(temporary, target) == 0 else { return errno }
            TemporaryCleanup.forget(temporary)
            return nil
        }
        if let failure {
            throw CLIError.output("\(path): cannot move the finished output into place: \(String(cString: strerror(failure)))")
        }
        state.finished = true
    }

    /// After a bad input line: what was written is kept as `keptPath` when that is a regular
    /// file or absent (never over a FIFO, a device or an input), otherwise dropped. Returns nil
    /// when it was kept, otherwise why not.
    public func keep(as keptPath: String, inputs: [String]) -> String? {
        guard !state.finished, case .replace(let temporary, _) = state.mode else { return "the output is written in place" }
        var st = stat()
        if lstat(keptPath, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFREG else { return "it exists and is not a regular file" }
            guard !inputs.contains(where: { sameFile(identity: (st.st_dev, st.st_ino), $0) }) else { return "it is one of the inputs" }
        }
        let failure: Int32? = TemporaryCleanup.withSignalsBlocked {
            guard rename(temporary, keptPath) == 0 else { return errno }
            TemporaryCleanup.forget(temporary)
            return nil
        }
        if let failure { return String(cString: strerror(failure)) }
        state.finished = true
        return nil
    }

    /// Refuses, before any work, an output that must be a regular file (a configuration `tune`
    /// writes, which is read back before it replaces anything): empty, a folder, a FIFO, a
    /// device (/dev/null would take the file and keep nothing), or one of `inputs`. A missing
    /// file is fine: it is created.
    public static func checkRegularOutput(_ path: String, option: String, inputs: [String]) throws(CLIError) {
        guard !path.isEmpty else { throw CLIError.usage("\(option) \"\": expected the path of the file to write") }
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT { return }
            throw CLIError.output("\(path): cannot create: \(String(cString: strerror(errno)))")
        }
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFREG else {
            let what = kind == S_IFDIR ? "a directory" : kind == S_IFIFO ? "a FIFO" : kind == S_IFCHR ? "a character device" : kindName(kind)
            throw CLIError.output("\(path): is \(what), not a regular file; \(option) writes a regular file (written beside it, then renamed over it)")
        }
        try refuseInputs(output: path, stat: st, inputs: inputs)
    }

    /// Whether the bytes go to the output directly (a FIFO, a device, standard output).
    public var writesInPlace: Bool {
        if case .inPlace = state.mode { return true }
        return false
    }

    // MARK: checks

    /// A regular file would be replaced and a FIFO would read back what is written to it; a
    /// character device named as an input is refused too (`record` onto the event node it
    /// reads would inject the YAML as events). Standard input on the output's character device
    /// is not: a terminal is both in every interactive shell (`convert - -o -`), /dev/null too.
    private static func refuseInputs(output: String, stat st: stat, inputs: [String]) throws(CLIError) {
        let identity = (st.st_dev, st.st_ino)
        let device = (st.st_mode & S_IFMT) == S_IFCHR
        if let input = inputs.first(where: { !(device && $0 == "-") && sameFile(identity: identity, $0) }) {
            let how = input == output ? "" : " (under another name)"
            throw CLIError.usage("\(output): is the same file as the input \(input)\(how); writing there would destroy it: choose another output")
        }
    }

    /// Creates the temporary in the output's folder (rename(2) is atomic only within one file
    /// system), with a name nobody can predict or pre-create (mkstemp: O_EXCL, mode 0600), and
    /// gives it the mode the output has or would get.
    private static func createTemporary(beside target: String, for path: String, replacing existing: stat?) throws(CLIError) -> (Int32, String) {
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { String(target[...$0]) } ?? ""
        var base = slash.map { String(target[target.index(after: $0)...]) } ?? target
        // NAME_MAX is 255 bytes: the dot, the suffix and the six random characters must fit.
        while base.utf8.count > 200 { base.removeLast() }
        let template = folder + "." + base + ".touchline-XXXXXX"
        var result: (fd: Int32, errno: Int32, name: String) = (-1, 0, "")
        TemporaryCleanup.install(unblock: false)
        TemporaryCleanup.withSignalsBlocked {
            var buffer = Array(template.utf8CString)
            let fd = buffer.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd < 0 {
                result = (-1, errno, "")
                return
            }
            let name = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            TemporaryCleanup.register(name)
            result = (fd, 0, name)
        }
        guard result.fd >= 0 else {
            throw CLIError.output("\(path): cannot create a file in \(folder.isEmpty ? "." : folder): \(String(cString: strerror(result.errno)))")
        }
        if let existing {
            _ = fchmod(result.fd, existing.st_mode & 0o7777)
            // As root, replacing a user's file keeps it theirs; as a user this fails harmlessly.
            _ = fchown(result.fd, existing.st_uid, existing.st_gid)
        } else {
            let mask = umask(0)
            umask(mask)
            _ = fchmod(result.fd, 0o666 & ~mask)
        }
        return (result.fd, result.name)
    }

    private static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "a file of type \(kind >> 12)"
        }
    }
}

/// Whether two paths name one file (by device and inode, following symlinks): `score L L`
/// reads a labels file given twice once.
public func sameFile(_ a: String, _ b: String) -> Bool {
    var st = stat()
    guard a != "-", b != "-", stat(a, &st) == 0 else { return false }
    return sameFile(identity: (st.st_dev, st.st_ino), b)
}

/// Whether `path` is the file with this device and inode (following symlinks).
func sameFile(identity: (dev_t, ino_t), _ path: String) -> Bool {
    var st = stat()
    if path == "-" {
        guard fstat(0, &st) == 0 else { return false }
    } else {
        guard stat(path, &st) == 0 else { return false }
    }
    return st.st_dev == identity.0 && st.st_ino == identity.1
}


/// The files `replay --output-dir` writes, one per input.
public enum OutputDirectory {
    /// Refuses a folder that is missing or not a folder, before any file is replayed.
    public static func check(_ directory: String) throws(CLIError) {
        var st = stat()
        guard stat(directory, &st) == 0 else {
            throw CLIError.output("\(directory): cannot write outputs here: \(String(cString: strerror(errno))) (--output-dir takes an existing folder)")
        }
        guard st.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError.output("\(directory): not a folder; --output-dir takes an existing folder")
        }
    }

    /// Creates (or truncates) `path`, refusing one that is any of `inputs`.
    public static func create(_ path: String, inputs: [String]) throws(CLIError) -> Int32 {
        var st = stat()
        if stat(path, &st) == 0 {
            for input in inputs where sameFile(identity: (st.st_dev, st.st_ino), input) {
                throw CLIError.usage("\(path): is the input \(input); the output would replace it")
            }
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            throw CLIError.output("\(path): cannot create: \(String(cString: strerror(errno)))")
        }
        return fd
    }

    public static func close(_ fd: Int32) { _ = Glibc.close(fd) }
}
