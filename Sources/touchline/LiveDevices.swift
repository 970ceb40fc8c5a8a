// `touchline devices`: every input node, what it is, and whether Touchline uses it.
import ArgumentParser
import TouchlineCore
import TouchlineInput

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List input devices: kind, size, slots, pressure and size ranges, and whether each is used.")

    @Argument(help: "Event nodes to describe (default: every /dev/input/event*).")
    var paths: [String] = []

    @Flag(help: "One JSON object per device (JSON Lines) instead of text.")
    var json = false

    func run() throws {
        try reportingErrors { try list() }
    }

    func list() throws {
        let nodes = paths.isEmpty ? DeviceDirectory.eventNodes() : paths
        if nodes.isEmpty { throw CLIError.noInput("no /dev/input/event* nodes on this system") }
        // Every node is described, the unreadable ones too; a node the user named that cannot
        // be opened (missing, no permission, not an input device) makes the status 66 after.
        var unreadable: [String] = []
        for path in nodes {
            let probe = DeviceProbe.probe(path: path)
            try FileOutput.standardOutput.write(json ? Devices.json(probe) : Devices.text(probe))
            if probe.description == nil { unreadable.append(path) }
        }
        if !paths.isEmpty && !unreadable.isEmpty {
            throw CLIError.noInput("cannot read \(unreadable.count == 1 ? "" : "\(unreadable.count) nodes: ")\(unreadable.joined(separator: ", ")) (see the verdict above)")
        }
    }

    static func range(_ a: AbsInfo?) -> String { a.map { "\($0.minimum)..\($0.maximum)" } ?? "none" }

    static func text(_ p: DeviceProbe) -> String {
        guard let d = p.description else { return "\(p.path)\n  \(p.verdict)\n" }
        let g = SurfaceGeometry(device: d)
        var s = "\(p.path): \"\(d.name)\"\n"
        s += "  kind \(d.kind.rawValue)"
        if d.xAxis != nil && d.yAxis != nil {
            s += ", size \(g.size)" + (g.source == .assumed ? " (assumed: no resolution)" : "")
        }
        s += ", slots \(d.slotCount), pressure \(range(d.pressureAxis)), touch size \(range(d.touchMajorAxis))\n"
        s += "  \(p.verdict)\n"
        return s
    }

    static func json(_ p: DeviceProbe) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("path", p.path)
        if let d = p.description {
            w.field("name", d.name)
            w.field("kind", d.kind.rawValue)
            if d.xAxis != nil && d.yAxis != nil {
                let g = SurfaceGeometry(device: d)
                w.field("width", g.size.width, decimals: 2)
                w.field("height", g.size.height, decimals: 2)
                w.field("sizeSource", g.source.rawValue)
            } else {
                w.fieldNull("width")
                w.fieldNull("height")
                w.fieldNull("sizeSource")
            }
            w.field("slots", d.slotCount)
            func axis(_ key: StaticString, _ a: AbsInfo?) {
                if let a {
                    w.beginArray(key)
                    w.element(Double(a.minimum), decimals: 0)
                    w.element(Double(a.maximum), decimals: 0)
                    w.endArray()
                } else {
                    w.fieldNull(key)
                }
            }
            axis("pressure", d.pressureAxis)
            axis("touchMajor", d.touchMajorAxis)
        }
        w.field("verdict", p.verdict.token)
        w.field("reason", p.verdict.description)
        w.endObject()
        w.newline()
        return w.string
    }
}
