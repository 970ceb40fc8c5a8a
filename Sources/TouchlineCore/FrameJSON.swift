// One JSON Lines object per frame (`touchline frames`, debugging, golden files). Keys in a fixed
// order and numbers with fixed precision, so the same frames always give the same bytes; the
// format is written down in docs/frame-assembly.md.

extension TouchFrame {
    /// Decimals per kind of number: mm to 0.01 (finer than any touchscreen's accuracy),
    /// normalized positions to 0.0001 (one unit of a 10 000-unit axis), pressure to 0.001.
    public static let millimetreDecimals = 2
    public static let normalizedDecimals = 4
    public static let pressureDecimals = 3

    /// Appends this frame as one JSON object and a newline:
    /// `{"time":1.234567,"device":0,"contacts":[{"id":0,"phase":"began","tool":"pen","slot":0,"x":12.34,
    /// "y":56.78,"nx":0.1234,"ny":0.5678,"pressure":0.500,"major":1.20,"minor":0.80}],
    /// "afterDrop":true}`. `device` is written when given, `tool` when not a finger, `slot` when not negative, the
    /// optional contact fields when the contact has them, `afterDrop` only when true.
    public func writeJSON(device: Int? = nil, into w: inout JSONWriter) {
        w.beginObject()
        w.field("time", time)
        if let device { w.field("device", device) }
        w.beginArray("contacts")
        for i in contacts.indices {
            let c = contacts[i]
            w.beginObject()
            w.field("id", Int64(c.id.raw))
            w.field("phase", raw: c.phase.staticName)
            if c.tool != .finger { w.field("tool", raw: c.tool.staticName) }
            if c.slot >= 0 { w.field("slot", Int64(c.slot)) }
            w.field("x", c.position.x, decimals: TouchFrame.millimetreDecimals)
            w.field("y", c.position.y, decimals: TouchFrame.millimetreDecimals)
            w.field("nx", c.normalized.x, decimals: TouchFrame.normalizedDecimals)
            w.field("ny", c.normalized.y, decimals: TouchFrame.normalizedDecimals)
            if let p = c.pressure { w.field("pressure", p.value, decimals: TouchFrame.pressureDecimals) }
            if let m = c.touchMajor { w.field("major", m.value, decimals: TouchFrame.millimetreDecimals) }
            if let m = c.touchMinor { w.field("minor", m.value, decimals: TouchFrame.millimetreDecimals) }
            w.endObject()
        }
        w.endArray()
        if afterDrop { w.field("afterDrop", true) }
        w.endObject()
        w.newline()
    }

    /// The frame as one JSON line (with its newline), for tests and small outputs.
    public func jsonLine(device: Int? = nil) -> String {
        var w = JSONWriter(capacity: 128 + 160 * contacts.count)
        writeJSON(device: device, into: &w)
        return w.string
    }
}
