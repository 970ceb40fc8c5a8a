import TouchlineCore
import TouchlineGestures

// The bytes of an SVG document. Numbers go through the JSON writer's fixed-point formatting
// (`appendFixed`: rounded half away from zero, never "-0"), never through `description`, so a
// plot is the same bytes on every run and every platform.

/// Appends SVG elements to one byte buffer.
public struct SVGWriter: Sendable {
    public var bytes: [UInt8] = []

    public init() {}

    public mutating func raw(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }

    /// Text content or an attribute's value, escaped as XML requires; control characters (which
    /// XML 1.0 forbids even escaped) become `?`.
    public mutating func escaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: ">"): raw("&gt;")
            case UInt8(ascii: "\""): raw("&quot;")
            case 0..<0x20 where byte != 0x09 && byte != 0x0a, 0x7f: bytes.append(UInt8(ascii: "?"))
            default: bytes.append(byte)
            }
        }
    }

    /// A number with two decimals (a hundredth of a user unit is far below a pixel).
    public mutating func number(_ value: Double, decimals: Int = 2) {
        appendFixed(value, decimals: decimals, to: &bytes)
    }

    public mutating func integer(_ value: Int) { appendFixed(Int64(value), decimals: 0, to: &bytes) }

    /// ` name="value"` for a number.
    public mutating func attribute(_ name: StaticString, _ value: Double) {
        bytes.append(UInt8(ascii: " "))
        raw(name)
        raw("=\"")
        number(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// ` name="value"` for text (escaped).
    public mutating func attribute(_ name: StaticString, _ value: String) {
        bytes.append(UInt8(ascii: " "))
        raw(name)
        raw("=\"")
        escaped(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// ` name="value"` for a fixed word of ours (no escaping needed).
    public mutating func attribute(_ name: StaticString, word value: StaticString) {
        bytes.append(UInt8(ascii: " "))
        raw(name)
        raw("=\"")
        raw(value)
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func rect(_ r: Rect, class name: StaticString, fill: String? = nil) {
        raw("<rect")
        attribute("class", word: name)
        attribute("x", r.x)
        attribute("y", r.y)
        attribute("width", max(0, r.width))
        attribute("height", max(0, r.height))
        if let fill { attribute("fill", fill) }
        raw("/>\n")
    }

    public mutating func line(from a: Point, to b: Point, class name: StaticString, stroke: String? = nil) {
        raw("<line")
        attribute("class", word: name)
        attribute("x1", a.x)
        attribute("y1", a.y)
        attribute("x2", b.x)
        attribute("y2", b.y)
        if let stroke { attribute("stroke", stroke) }
        raw("/>\n")
    }

    public mutating func circle(_ centre: Point, radius: Double, class name: StaticString, colour: String, fill: String? = nil) {
        raw("<circle")
        attribute("class", word: name)
        attribute("cx", centre.x)
        attribute("cy", centre.y)
        attribute("r", radius)
        attribute("stroke", colour)
        if let fill { attribute("fill", fill) }
        raw("/>\n")
    }

    public enum Anchor: Sendable { case start, middle, end }

    public mutating func text(_ content: String, at p: Point, class name: StaticString, anchor: Anchor = .start) {
        raw("<text")
        attribute("class", word: name)
        attribute("x", p.x)
        attribute("y", p.y)
        switch anchor {
        case .start: break
        case .middle: raw(" text-anchor=\"middle\"")
        case .end: raw(" text-anchor=\"end\"")
        }
        raw(">")
        escaped(content)
        raw("</text>\n")
    }

    /// A closed polygon as one path (`M x y L x y … Z`).
    public mutating func polygon(_ points: [Point], class name: StaticString, fill: String, title: String) {
        raw("<path")
        attribute("class", word: name)
        attribute("fill", fill)
        raw(" d=\"")
        for (i, p) in points.enumerated() {
            raw(i == 0 ? "M" : " L")
            number(p.x)
            bytes.append(UInt8(ascii: " "))
            number(p.y)
        }
        if !points.isEmpty { raw(" Z") }
        raw("\"><title>")
        escaped(title)
        raw("</title></path>\n")
    }
}
