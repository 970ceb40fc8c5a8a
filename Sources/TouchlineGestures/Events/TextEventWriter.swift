import TouchlineCore

// `--format text`: one line per event for a person at a terminal, in aligned columns as
// `libinput debug-events` prints its events (a fixed-width time, then fixed-width names, then
// the event's own values). The kind's values come from its `GestureFields`, as the JSON writer
// reads them, so a new kind needs nothing here. Bytes are appended to one reusable buffer: no
// String is made for an event (explain lines carry their reason as a String already).
//
//         1.234s   0  pinch        began       2  surface      scale=1.000 rotation=0.00 …
//
// The same rows come from a JSON line (`touchline listen --format text`) through `beginLine` and
// `field`: the fields' values as the JSON holds them (strings unquoted), so listen and replay
// print the same text for the same events.

/// Writes gesture events as aligned text lines.
public struct TextEventWriter: Sendable {
    public var bytes: [UInt8]
    /// ANSI colours (phase and gesture), for a terminal only: the caller decides (isatty).
    public var color: Bool

    // Column widths, in characters: the widest gesture and phase names of the schema, and
    // a target name as the default graph and most configurations spell them.
    static let timeWidth = 10
    static let deviceWidth = 3
    static let gestureWidth = 12
    static let phaseWidth = 10
    static let fingersWidth = 2
    static let targetWidth = 12

    public init(color: Bool = false, capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
        self.color = color
    }

    /// Forgets the content, keeps the storage.
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    /// The event as one line, with its newline.
    public mutating func write(_ event: GestureEvent) {
        // An explain line is about a recognizer, not a gesture: its recognizer's name goes in
        // the gesture column (the kind is `explain`, which says nothing), the reason after it.
        let isExplain = event.gesture == .explain
        beginColumns(time: event.time, device: event.device, phase: event.phase, dim: isExplain)
        let start = bytes.count
        if isExplain {
            appendName(event.recognizer.interned)
        } else {
            event.gesture.name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
        endGesture(start, bold: !isExplain)
        let phaseStart = bytes.count
        event.phase.name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        endPhase(phaseStart, event.phase)
        let targetStart = fingersColumn(event.fingers)
        appendName(event.target.interned)
        endTarget(targetStart)
        event.detail.forEachField { key, value in
            beginField(key)
            switch value {
            case let .integer(n): appendFixed(Int64(n), decimals: 0, to: &bytes)
            case let .number(x, decimals): appendFixed(x, decimals: decimals, to: &bytes)
            case let .duration(d): appendFixed(d.microseconds, decimals: 6, to: &bytes)
            case let .word(word): word.withUTF8Buffer { bytes.append(contentsOf: $0) }
            case let .name(name): appendName(name.interned)
            case let .text(text): appendText(text.utf8)
            case let .names(list):
                bytes.append(UInt8(ascii: "["))
                for i in 0..<list.count {
                    if i > 0 { bytes.append(UInt8(ascii: ",")) }
                    appendName(list[i].interned)
                }
                bytes.append(UInt8(ascii: "]"))
            case .null: appendText("null".utf8)
            }
        }
        endLine()
    }

    // MARK: A line from parts (a JSON line read back)

    /// The common columns of a line whose parts are text (`touchline listen`); then `field` for
    /// each of the kind's values and `endLine`.
    public mutating func beginLine(time: Timestamp, device: Int, gesture: String, phase: String, fingers: Int, target: String, recognizer: String) {
        let known = GesturePhase.allCases.first { $0.name.description == phase }
        let isExplain = gesture == GestureKind.explain.description
        beginColumns(time: time, device: device, phase: known, dim: isExplain)
        let start = bytes.count
        appendText(isExplain ? recognizer.utf8 : gesture.utf8)
        endGesture(start, bold: !isExplain)
        let phaseStart = bytes.count
        appendText(phase.utf8)
        endPhase(phaseStart, known)
        let targetStart = fingersColumn(fingers)
        appendText(target.utf8)
        endTarget(targetStart)
    }

    /// ` key=value`, the value as written (a JSON string's content, a number's digits).
    public mutating func field(_ key: String, _ value: String) {
        flushPad()
        appendText(key.utf8)
        bytes.append(UInt8(ascii: "="))
        appendText(value.utf8)
    }

    /// Ends the line (resets the colour of an explain line first).
    public mutating func endLine() {
        if color && dimmed { appendEscape("0") }
        dimmed = false
        pendingPad = 0
        bytes.append(UInt8(ascii: "\n"))
    }

    // MARK: Columns

    var dimmed = false
    /// Spaces owed after the target column, written before the first value.
    var pendingPad = 0

    mutating func flushPad() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pendingPad + 1))
        pendingPad = 0
    }

    mutating func beginColumns(time: Timestamp, device: Int, phase: GesturePhase?, dim: Bool) {
        dimmed = dim
        if color && dim { appendEscape("2") }
        // Milliseconds, rounded half away from zero, as libinput prints its times.
        let us = time.microseconds
        let ms = us >= 0 ? (us + 500) / 1000 : (us - 500) / 1000
        let start = bytes.count
        appendFixed(ms, decimals: 3, to: &bytes)
        bytes.append(UInt8(ascii: "s"))
        padLeft(start, to: Self.timeWidth)
        bytes.append(UInt8(ascii: " "))
        let deviceStart = bytes.count
        appendFixed(Int64(device), decimals: 0, to: &bytes)
        padLeft(deviceStart, to: Self.deviceWidth)
        bytes.append(UInt8(ascii: " "))
        bytes.append(UInt8(ascii: " "))
    }

    mutating func endGesture(_ start: Int, bold: Bool) {
        let width = columns(from: start)
        if color && bold && !dimmed {
            insertEscape("1", at: start)
            appendEscape("0")
        }
        pad(width, to: Self.gestureWidth)
    }

    mutating func endPhase(_ start: Int, _ phase: GesturePhase?) {
        let width = columns(from: start)
        if color && !dimmed, let code = Self.colour(phase) {
            insertEscape(code, at: start)
            appendEscape("0")
        }
        pad(width, to: Self.phaseWidth)
    }

    /// The fingers column; returns where the target's begins.
    mutating func fingersColumn(_ fingers: Int) -> Int {
        let start = bytes.count
        appendFixed(Int64(fingers), decimals: 0, to: &bytes)
        padLeft(start, to: Self.fingersWidth)
        bytes.append(UInt8(ascii: " "))
        bytes.append(UInt8(ascii: " "))
        return bytes.count
    }

    mutating func endTarget(_ targetStart: Int) {
        // The last fixed column: padded when a value follows, so that the values line up and a
        // row without values has no trailing blanks.
        pendingPad = max(0, Self.targetWidth - columns(from: targetStart))
    }

    mutating func beginField(_ key: StaticString) {
        flushPad()
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "="))
    }

    /// A phase's colour: a gesture's life (green on, blue off, red broken), the explain
    /// decisions alike; nil: the terminal's own.
    static func colour(_ phase: GesturePhase?) -> StaticString? {
        switch phase {
        case .began?, .won?: return "32"
        case .recognized?: return "1;32"
        case .ended?: return "34"
        case .cancelled?, .failed?: return "31"
        case .bug?: return "1;31"
        case .waiting?, .held?: return "33"
        case .changed?, nil: return nil
        }
    }

    // MARK: Bytes

    /// A name from the configuration or a client: its bytes, with control characters made `?`
    /// (a name must not move a terminal's cursor or change its colours).
    mutating func appendName(_ name: InternedString) {
        let start = bytes.count
        name.appendUTF8(to: &bytes)
        var i = start
        while i < bytes.count {
            if bytes[i] < 0x20 || bytes[i] == 0x7f { bytes[i] = UInt8(ascii: "?") }
            i += 1
        }
    }

    mutating func appendText<S: Sequence<UInt8>>(_ text: S) {
        for byte in text { bytes.append(byte < 0x20 || byte == 0x7f ? UInt8(ascii: "?") : byte) }
    }

    /// Characters (not UTF-8 continuation bytes) from `start` to the end.
    func columns(from start: Int) -> Int {
        var n = 0
        var i = start
        while i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { n += 1 }
            i += 1
        }
        return n
    }

    /// Spaces after a column `width` characters wide, at least one.
    mutating func pad(_ width: Int, to column: Int) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: max(1, column - width + 1)))
    }

    /// Spaces before the number written from `start`, to right-align it.
    mutating func padLeft(_ start: Int, to column: Int) {
        let width = bytes.count - start
        guard width < column else { return }
        for _ in width..<column { bytes.append(UInt8(ascii: " ")) }
        moveTailToFront(from: start, tail: column - width)
    }

    /// The last `tail` bytes moved to `start`, the bytes between after them, in place (three
    /// reversals): `insert(contentsOf:at:)` made an array per call.
    mutating func moveTailToFront(from start: Int, tail: Int) {
        func reverse(_ a: Int, _ b: Int) {
            var i = a, j = b - 1
            while i < j {
                bytes.swapAt(i, j)
                i += 1
                j -= 1
            }
        }
        let end = bytes.count
        reverse(start, end - tail)
        reverse(end - tail, end)
        reverse(start, end)
    }

    mutating func insertEscape(_ code: StaticString, at start: Int) {
        let before = bytes.count
        appendEscape(code)
        moveTailToFront(from: start, tail: bytes.count - before)
    }

    /// `ESC [ code m`.
    mutating func appendEscape(_ code: StaticString) {
        bytes.append(0x1b)
        bytes.append(UInt8(ascii: "["))
        code.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "m"))
    }
}
