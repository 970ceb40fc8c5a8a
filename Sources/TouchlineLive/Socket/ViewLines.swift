// What `touchline view` draws besides the events (docs/view.md): a device's surface and graph,
// and each frame with the contacts as the device reported them. One writer for both of view's
// sources: a recording replayed in the view process, and the daemon's socket to a client that
// subscribed with "view" (EventSocketServer+View.swift), so that the page reads one format.
import TouchlineCore
import TouchlineGestures

public enum ViewLines {
    /// What a device says of itself, before any `[[device]]` setting turns it: what a client
    /// that reads the raw positions needs (`touchline calibrate --daemon` normalizes them over
    /// the panel as libinput does, and matches its udev rule on the name and ids).
    public struct Native: Hashable, Sendable {
        /// Longer names are cut (at a character): the kernel's own buffer (EVIOCGNAME) is 256
        /// bytes, and a recording's header may say anything.
        public static let maximumNameBytes = 255

        public var name: String
        public var vendor: UInt16
        public var product: UInt16
        /// ABS_MT_POSITION_X/Y's range (ABS_X/Y for a single-touch device), device units.
        public var xMinimum, xMaximum, yMinimum, yMaximum: Int32
        /// The panel in mm, native axes: what the raw positions are measured on (the
        /// resolution's, or `--size`/`[[device]] size`).
        public var size: Size

        public init(_ description: DeviceDescription, size: Size) {
            var name = description.name
            while name.utf8.count > Self.maximumNameBytes { name.removeLast() }
            self.name = name
            vendor = description.vendor
            product = description.product
            let x = description.xAxis ?? AbsInfo(minimum: 0, maximum: 0)
            let y = description.yAxis ?? AbsInfo(minimum: 0, maximum: 0)
            (xMinimum, xMaximum, yMinimum, yMaximum) = (x.minimum, x.maximum, y.minimum, y.maximum)
            self.size = size
        }
    }

    /// `{"view":"device","device":0,"width":120.00,"height":80.00,"native":{"name":"…","vendor":3823,
    /// "product":1,"xMin":0,"xMax":4095,"yMin":0,"yMax":4095,"width":120.0000,"height":80.0000},
    /// "targets":[{"name":"surface","x":0.00,"y":0.00,"w":120.00,"h":80.00,"z":0}],
    /// "recognizers":[{"name":"tap","gesture":"tap","target":"surface"}]}` and a newline: the
    /// surface in mm as the graph sees it (after the device's rotation), the device as it
    /// reports itself (`native`, when known), its targets in mm, its recognizers. Names are
    /// data: the page shows them as text, never as markup.
    public static func device(_ index: Int, surface: Size, native: Native? = nil, configuration: GraphConfiguration, into w: inout JSONWriter) {
        w.beginObject()
        w.field("view", raw: "device")
        w.field("device", index)
        w.field("width", surface.width, decimals: TouchFrame.millimetreDecimals)
        w.field("height", surface.height, decimals: TouchFrame.millimetreDecimals)
        if let native {
            w.beginObject("native")
            w.field("name", native.name)
            w.field("vendor", Int(native.vendor))
            w.field("product", Int(native.product))
            w.field("xMin", Int(native.xMinimum))
            w.field("xMax", Int(native.xMaximum))
            w.field("yMin", Int(native.yMinimum))
            w.field("yMax", Int(native.yMaximum))
            // Finer than the surface's: the raw positions are divided by it.
            w.field("width", native.size.width, decimals: 4)
            w.field("height", native.size.height, decimals: 4)
            w.endObject()
        }
        w.beginArray("targets")
        for target in configuration.targets {
            let rect = target.millimetreRect(on: surface)
            w.beginObject()
            w.field("name", target.name)
            w.field("x", rect.x, decimals: TouchFrame.millimetreDecimals)
            w.field("y", rect.y, decimals: TouchFrame.millimetreDecimals)
            w.field("w", rect.width, decimals: TouchFrame.millimetreDecimals)
            w.field("h", rect.height, decimals: TouchFrame.millimetreDecimals)
            w.field("z", target.z)
            w.endObject()
        }
        w.endArray()
        w.beginArray("recognizers")
        for recognizer in configuration.recognizers {
            w.beginObject()
            w.field("name", recognizer.name)
            w.field("gesture", recognizer.kind.recognizer.gesture.description)
            w.field("target", recognizer.target)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.newline()
    }

    /// `{"passthrough":"dropped","time":0.088000,"device":0,"contact":0,"held":0.048000,"distance":3.67}`
    /// and a newline: how a pass-through contact's hold ended (forwarded at once; held, then
    /// released or released by the bound; dropped: consumed by a recognizer), as
    /// `replay --passthrough --explain` prints it.
    public static func hold(_ report: HoldReport, device: Int, into w: inout JSONWriter) {
        w.beginObject()
        w.field("passthrough", raw: report.outcome.name)
        w.field("time", report.time)
        w.field("device", device)
        w.field("contact", Int64(report.contact.raw))
        w.field("held", Timestamp(microseconds: report.held.microseconds))
        w.field("distance", report.distance, decimals: 2)
        w.endObject()
        w.newline()
    }

    /// The frame as `replay --frames` writes it (after the device transform: what the graph
    /// saw), plus `"raw":[{"id":0,"x":…,"y":…}]`, the positions as the device reported them,
    /// when the transform moved them.
    public static func frame(_ frame: TouchFrame, raw: TouchFrame, device: Int, into w: inout JSONWriter) {
        frame.writeJSON(device: device, into: &w)
        guard raw.contacts.count == frame.contacts.count, raw.contacts.indices.contains(where: { raw.contacts[$0].position != frame.contacts[$0].position }) else { return }
        // "…}\n" becomes "…,"raw":[…]}\n" (the comma by hand: after `newline` the writer owes none).
        w.bytes.removeLast(2)
        w.bytes.append(UInt8(ascii: ","))
        w.beginArray("raw")
        for c in raw.contacts {
            w.beginObject()
            w.field("id", Int64(c.id.raw))
            w.field("x", c.position.x, decimals: TouchFrame.millimetreDecimals)
            w.field("y", c.position.y, decimals: TouchFrame.millimetreDecimals)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.newline()
    }
}
