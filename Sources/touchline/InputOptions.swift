import ArgumentParser
import TouchlineCore

/// Options every command that reads a trace shares.
struct InputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The evemu description (.desc) for a header-less .events file.",
        discussion: "Without it, a .desc beside the events file with the same base name is used (\"N-Trig MultiTouch.desc\" for \"N-Trig MultiTouch.2-fingers-touch-release.events\").",
        valueName: "file"))
    var desc: String?

    @Option(name: .long, help: ArgumentHelp(
        "The sensor size in mm, as WIDTHxHEIGHT (e.g. 217x135.6), for devices that report no resolution.",
        valueName: "WxH"))
    var size: String?

    func validate() throws {
        if let size, Self.parseSize(size) == nil {
            throw ValidationError("--size takes WIDTHxHEIGHT in millimetres, both positive (for example 217x135.6); got '\(size)'.")
        }
    }

    var userSize: Size? { size.flatMap(Self.parseSize) }

    static func parseSize(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
              w.isFinite, h.isFinite, w > 0, h > 0 else { return nil }
        return Size(width: w, height: h)
    }

    var assemblerOptions: FrameAssembler.Options { FrameAssembler.Options(userSize: userSize) }
}
